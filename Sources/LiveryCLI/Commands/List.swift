import LiveryAPI
import LiveryCore

extension Client {
    /// `livery list [--json]`: the installed themes.
    func list() throws -> Int32 {
        let themes = ThemeListing.list(decoding: try call(.listThemes))
        let active = try property(.activeTheme).string ?? ""
        if inv.json {
            printJSON(ListCommand.json(themes, active: active))
        } else {
            output.out(ListCommand.table(themes, active: active))
        }
        return 0
    }
}

/// The output of `livery list`.
enum ListCommand {
    /// One line per theme: a mark (`*` active, `?` not checked yet, `!` with errors, else
    /// blank), the id, the name, the variant and the format, in aligned columns; an active
    /// theme removed from disk is listed last as such.
    static func table(_ themes: [ThemeListing], active: String) -> String {
        var rows = themes.map { t -> [String] in
            // `?`: not checked yet (the daemon checks installed themes after it starts).
            let mark = t.id == active ? "*" : !t.checked ? "?" : (!t.valid ? "!" : " ")
            return [mark, t.id, printable(t.name), t.variant, t.format]
        }
        // The active theme stays loaded when its files are removed: still show it.
        if !rows.contains(where: { $0[1] == active }) {
            rows.append(["*", active, "(removed from disk; still active)", "", ""])
        }
        let w = (1..<5).map { c in rows.map { $0[c].count }.max() ?? 0 }
        return rows.map { r in "\(r[0]) \(pad(r[1], w[0]))  \(pad(r[2], w[1]))  \(pad(r[3], w[2]))  \(r[4])\n"
        }
        .joined()
    }

    /// `--json`: one object per theme with `id`, `name`, `active` and its metadata.
    static func json(_ themes: [ThemeListing], active: String) -> [[String: Any]] {
        themes.map { t in
            var o: [String: Any] = ["id": t.id, "name": t.name, "active": t.id == active]
            for (k, v) in t.metadata { o[k] = LiveryCLI.json(v) }
            return o
        }
    }
}
