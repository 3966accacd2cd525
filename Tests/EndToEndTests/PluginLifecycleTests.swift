import Foundation
import XCTest

/// A plugin reaches the active theme as soon as it is enabled, edited or removed (no switch),
/// `livery reload` runs every export again, and a failed command's status says why.
final class PluginLifecycleTests: EndToEndTestCase {
    var pluginsDirectory: String { configHome + "/livery/plugins" }

    func read(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }

    func status() throws -> String { try livery("status").stdout }

    /// Writes a plugin directory outside the plugin search path and returns it.
    func writePlugin(_ name: String, manifest: String, files: [String: String]) throws -> String {
        let dir = root + "/sources/" + name
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try manifest.write(toFile: dir + "/plugin.yaml", atomically: true, encoding: .utf8)
        for (file, text) in files {
            try text.write(toFile: dir + "/" + file, atomically: true, encoding: .utf8)
        }
        return dir
    }

    /// An exporter whose command fails, linked into the plugin directory (which does not exist
    /// when the daemon starts) while nord is active: its output is written and its failure shown;
    /// its template edited, the output is rewritten; the link removed, its failure goes.
    func testAPluginEnabledEditedOrRemovedReachesTheActiveThemeWithNoSwitch() throws {
        let output = root + "/out/colors.txt"
        let source = try writePlugin(
            "colors",
            manifest: """
                exports:
                  - template: colors.mustache
                    output: \(output)
                    run: ["false"]
                """, files: ["colors.mustache": "bg={{base00-hex}} name={{scheme-name}}\n"])
        try startDaemon()
        try setTheme("nord")
        // nord.yaml: base00 2E3440, base05 E5E9F0, name "Nord".
        try FileManager.default.createDirectory(atPath: pluginsDirectory, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: pluginsDirectory + "/colors", withDestinationPath: source)
        XCTAssertTrue(
            waitUntil { read(output) == "bg=2e3440 name=Nord\n" }, "output: \(read(output) ?? "none")")
        XCTAssertTrue(
            try waitUntil {
                try status().contains(
                    "plugin 'colors': export 'colors.mustache' (false) exited with status 1")
            },
            (try? status()) ?? "")

        try "fg={{base05-hex}}\n".write(
            toFile: source + "/colors.mustache", atomically: true, encoding: .utf8)
        XCTAssertTrue(waitUntil { read(output) == "fg=e5e9f0\n" }, "output: \(read(output) ?? "none")")

        try FileManager.default.removeItem(atPath: pluginsDirectory + "/colors")
        XCTAssertTrue(try waitUntil { try !status().contains("plugin 'colors'") }, (try? status()) ?? "")
        XCTAssertEqual(try activeTheme(), "nord\n")
    }

    /// `livery reload` with no theme file changed writes again an output deleted by hand.
    func testReloadRunsAnExportWhoseOutputWasDeletedByHand() throws {
        let output = root + "/out/colors.txt"
        let source = try writePlugin(
            "colors",
            manifest: "exports:\n  - template: colors.mustache\n    output: \(output)\n",
            files: ["colors.mustache": "bg={{base00-hex}}\n"])
        try FileManager.default.createDirectory(atPath: pluginsDirectory, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: pluginsDirectory + "/colors", withDestinationPath: source)
        try startDaemon(arguments: ["--no-watch"])
        try setTheme("nord")
        XCTAssertTrue(waitUntil { read(output) == "bg=2e3440\n" }, "output: \(read(output) ?? "none")")
        try FileManager.default.removeItem(atPath: output)
        let reload = try livery("reload")
        XCTAssertEqual(reload.status, 0, "\(reload)")
        XCTAssertTrue(waitUntil { read(output) == "bg=2e3440\n" }, "output: \(read(output) ?? "none")")
    }

    /// A failed hook's problem gives its exit status and the first line of its standard error,
    /// in `livery status` and `livery plugins`.
    func testAFailedHooksStatusGivesTheFirstLineOfItsStandardError() throws {
        let source = try writePlugin(
            "failing",
            manifest: """
                hooks:
                  - run: ["sh", "-c", "echo fine; echo; echo 'cannot reach the display' >&2; echo second >&2; exit 3"]
                """, files: [:])
        try FileManager.default.createDirectory(atPath: pluginsDirectory, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: pluginsDirectory + "/failing", withDestinationPath: source)
        try startDaemon()
        try setTheme("forest")
        let expected = "exited with status 3: cannot reach the display"
        XCTAssertTrue(try waitUntil { try status().contains(expected) }, (try? status()) ?? "")
        let plugins = try livery("plugins")
        XCTAssertTrue(plugins.stdout.contains(expected), "\(plugins)")
        // The problem ends with the first line: the lines after it are in the log only.
        let shown = try status()
        XCTAssertTrue(shown.split(separator: "\n").contains { $0.hasSuffix(expected) }, shown)
    }
}
