import Foundation
import XCTest

/// What the tests of the shipped program plugins share: a home of the test's own with plugins
/// linked as the README says, the programs (test packages, a missing one a failure), a base16
/// fixture scheme's slots read from its file, and waiting for a plugin's run of the last switch.
class ProgramPluginTestCase: EndToEndTestCase {
    /// The test's home, made by `enable`.
    var home = ""

    /// Makes the test's home (`HOME`) and links each shipped plugin of `names` into the user's
    /// plugin directory, as the README says.
    @discardableResult
    func enable(_ names: String...) throws -> String {
        if home.isEmpty {
            home = try makeDirectory("home")
            environment["HOME"] = home
        }
        let plugins = configHome + "/livery/plugins"
        try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: true)
        for name in names {
            try FileManager.default.createSymbolicLink(
                atPath: plugins + "/" + name, withDestinationPath: Locations.repo + "/plugins/" + name)
        }
        return home
    }

    /// Writes `text` to `path` (under the test's home when relative), making its directory.
    func write(_ text: String, to path: String) throws {
        let full = path.hasPrefix("/") ? path : home + "/" + path
        try FileManager.default.createDirectory(
            atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: full, atomically: true, encoding: .utf8)
    }

    /// The text of `path` (under the test's home when relative), nil when it cannot be read.
    func contents(_ path: String) -> String? {
        try? String(contentsOfFile: path.hasPrefix("/") ? path : home + "/" + path, encoding: .utf8)
    }

    /// Waits until plugin `name` has run for the active serial and finished; returns its result
    /// as `livery plugins --json` gives it (`ok`, `skipped: …`, a failure), nil when it never did.
    func finishedRun(_ name: String, timeout: TimeInterval = 20) throws -> String? {
        let serial = try serial()
        var result: String?
        _ = try waitUntil(timeout: timeout) {
            let r = try livery("plugins", "--json")
            guard r.status == 0,
                let rows = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]],
                let row = rows.first(where: { $0["name"] as? String == name }),
                row["serial"] as? Int == Int(serial), let shown = row["result"] as? String,
                shown != "running"
            else { return false }
            result = shown
            return true
        }
        return result
    }

    /// `livery set ID`, then waits until plugin `plugin` has finished its run for it and asserts
    /// that run's result is `expecting` (`ok`, or a skip when its program does not run).
    func switchTheme(
        _ id: String, plugin: String, expecting: String = "ok", file: StaticString = #filePath,
        line: UInt = #line
    ) throws {
        try setTheme(id, file: file, line: line)
        let result = try finishedRun(plugin)
        XCTAssertEqual(
            result, expecting, "plugin \(plugin) for \(id)\n\(daemon.stderr.suffix(1500))", file: file,
            line: line)
    }

    /// The base16 terminal colours of a scheme's slots, as tinted-theming maps them (README:
    /// "Terminal colours of every theme"): `#rrggbb` for color0 … color15.
    func terminalPalette(_ s: [String: String]) -> [String] {
        [
            "base00", "base08", "base0B", "base0A", "base0D", "base0E", "base0C", "base05", "base03",
            "base08", "base0B",
            "base0A", "base0D", "base0E", "base0C", "base07",
        ].map { s[$0]! }
    }

    /// Writes the program that runs in a terminal, asks it for its background (OSC 11),
    /// foreground (OSC 10) and colour 1 (OSC 4) every 0.2 s and replaces `file` with the
    /// answers (TerminalFollowTests.query); returns its argv.
    func queryCommand(_ file: String) throws -> [String] {
        let script = root + "/query.py"
        if !FileManager.default.fileExists(atPath: script) {
            try TerminalFollowTests.query.write(toFile: script, atomically: true, encoding: .utf8)
        }
        return [Locations.python, script, file]
    }

    /// The last answers `queryCommand` recorded in `file` as `#rrggbb` (the top 8 bits of each
    /// 16-bit channel): background, foreground, colour 1; nil before the first.
    func terminalAnswer(_ file: String) -> [String]? {
        guard let text = contents(file) else { return nil }
        return ["11;", "10;", "4;1;"].map { prefix in
            guard let range = text.range(of: "\u{1B}]" + prefix + "rgb:") else { return "" }
            let channels = text[range.upperBound...].prefix(14).split(separator: "/").prefix(3)
            return "#" + channels.map { String($0.prefix(2)).lowercased() }.joined()
        }
    }
}
