import LiveryAPI
import LiveryCore

extension Client {
    /// `livery status [--json]`: the daemon's owner, state, themes and problems.
    func status() throws -> Int32 {
        let owner = try connection.nameOwner(LiveryBus.name)
        let properties = try properties()
        let themes = ThemeListing.list(decoding: try call(.listThemes))
        if inv.json {
            printJSON(StatusCommand.json(owner: owner, properties, themes))
        } else {
            output.out(StatusCommand.text(owner: owner, properties, themes))
        }
        return 0
    }
}

/// The output of `livery status`.
enum StatusCommand {
    /// Themes that were checked and have errors.
    static func invalid(_ themes: [ThemeListing]) -> [String] {
        themes.filter { !$0.valid && $0.checked }.map(\.id)
    }

    /// The version and owner, active theme, serial, themes and problems, a line each.
    static func text(owner: String, _ p: DaemonProperties, _ themes: [ThemeListing]) -> String {
        let invalid = invalid(themes)
        let unchecked = themes.filter { !$0.checked }.count
        var out = "liveryd \(p.version) at \(LiveryBus.name) (\(owner))\n"
        out += "active theme: \(p.activeTheme)\n"
        out += "serial: \(p.serial)\n"
        out +=
            "themes: \(themes.count) installed"
            + (unchecked > 0 ? ", \(unchecked) not checked yet" : "")
            + (invalid.isEmpty ? "" : ", with errors: \(invalid.joined(separator: ", "))") + "\n"
        if p.problems.isEmpty {
            out += "problems: none\n"
        } else {
            out += "problems:\n" + p.problems.map { "  \(printable($0))\n" }.joined()
        }
        return out
    }

    /// `--json`: one object.
    static func json(owner: String, _ p: DaemonProperties, _ themes: [ThemeListing]) -> [String: Any] {
        [
            "owner": owner, "active": p.activeTheme, "serial": Int(p.serial), "version": p.version,
            "themes": themes.count, "invalid": invalid(themes),
            "unchecked": themes.filter { !$0.checked }.count,
            "problems": p.problems,
        ]
    }
}
