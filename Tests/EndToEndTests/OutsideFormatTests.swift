import Foundation
import XCTest

/// Outside format plugins (`formats:` in a manifest): a real importer program, real theme files
/// on the search path, liveryd on a private bus and the client with no daemon.
final class OutsideFormatTests: EndToEndTestCase {
    /// An importer of GIMP palettes (`.gpl`: `R G B name` lines) that writes a base16 scheme:
    /// the first sixteen colours are base00…base0F. It fails on a palette with fewer.
    static let importer = """
        #!/usr/bin/python3
        import sys
        name, colours = "unnamed", []
        for line in sys.stdin.read().splitlines():
            if line.startswith("Name:"):
                name = line[5:].strip()
            parts = line.split()
            if len(parts) >= 3 and all(p.isdigit() for p in parts[:3]):
                colours.append("%02x%02x%02x" % tuple(int(p) for p in parts[:3]))
        if len(colours) < 16:
            sys.stderr.write("only %d colours; a base16 scheme needs 16\\nsecond line\\n" % len(colours))
            sys.exit(3)
        print("system: base16\\nname: %s\\nvariant: dark\\npalette:" % name)
        for i, c in enumerate(colours[:16]):
            print('  base0%X: "%s"' % (i, c))
        """

    /// A palette whose colour N is (N, 2N, 3N) + base: base0D (13) of base 100 is (113, 126, 139).
    func palette(_ name: String, count: Int = 16, base: Int = 100) -> String {
        "GIMP Palette\nName: \(name)\n#\n"
            + (0..<count).map { "\(base + $0) \(base + 2 * $0) \(base + 3 * $0)\tcolour \($0)\n" }.joined()
    }

    func writeImporter(timeout: String = "5", program: String = OutsideFormatTests.importer) throws {
        let dir = configHome + "/livery/plugins/gpl"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try "formats:\n  - match: [\"*.gpl\"]\n    run: [\"./gpl-import\"]\n    timeout: \(timeout)\n"
            .write(toFile: dir + "/plugin.yaml", atomically: true, encoding: .utf8)
        try program.write(toFile: dir + "/gpl-import", atomically: true, encoding: .utf8)
        chmod(dir + "/gpl-import", 0o755)
    }

    /// The `ListThemes` row of `id` once checked.
    func checkedRow(_ id: String) throws -> [String: Any]? {
        var row: [String: Any]?
        _ = try waitUntil {
            let list = try livery("list", "--json")
            let rows =
                try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]] ?? []
            row = rows.first { $0["id"] as? String == id }
            return row?["checked"] as? Bool == true
        }
        return row
    }

    func testAnImportedPaletteIsATheme() throws {
        try writeImporter()
        let themes = try makeDirectory("gpl-themes")
        try palette("Sea Glass").write(toFile: themes + "/Sea Glass.gpl", atomically: true, encoding: .utf8)
        try startDaemon(extraThemesDirectories: [themes])
        let row = try XCTUnwrap(try checkedRow("sea-glass"))
        XCTAssertEqual(row["valid"] as? Bool, true, "\(row)")
        XCTAssertEqual(row["format"] as? String, "gpl", "\(row)")
        try setTheme("sea-glass")
        // The base16 mapping theme gives Window its tint from base0D: (113, 126, 139).
        let resolved = try livery("resolve", "--json", "Window", "tint-color")
        XCTAssertEqual(resolved.stdout, "{\"tint-color\":\"#717e8bff\"}\n", "\(resolved)")
        // The client reads it as the daemon does, with no daemon.
        let palette = try livery("palette", "sea-glass", "--themes-dir", themes)
        XCTAssertTrue(palette.stdout.contains("base0D #717e8bff\n"), "\(palette)")
        let check = try livery("check", themes + "/Sea Glass.gpl")
        XCTAssertEqual(check.status, 0, "\(check)")
        XCTAssertTrue(check.stdout.contains("(theme 'sea-glass', gpl, "), "\(check)")
    }

    /// An importer's failure is an error on the file naming the plugin, the command, its status
    /// and its first line of standard error; the theme is invalid, the active one stays.
    func testAFailingImporterIsADiagnosticOnTheFile() throws {
        try writeImporter()
        let themes = try makeDirectory("gpl-themes")
        let file = themes + "/short.gpl"
        try palette("Short", count: 3).write(toFile: file, atomically: true, encoding: .utf8)
        try startDaemon(extraThemesDirectories: [themes])
        let row = try XCTUnwrap(try checkedRow("short"))
        XCTAssertEqual(row["valid"] as? Bool, false, "\(row)")
        let errors = row["errors"] as? [String] ?? []
        XCTAssertEqual(
            errors.first,
            "\(file):1:1: error: format plugin 'gpl': \(configHome)/livery/plugins/gpl/gpl-import exited with status 3: only 3 colours; a base16 scheme needs 16",
            "\(errors)")
        let set = try livery("set", "short")
        XCTAssertEqual(set.status, 1, "\(set)")
        XCTAssertEqual(try livery("get").stdout, "default\n")
        let check = try livery("check", file)
        XCTAssertEqual(check.status, 1, "\(check)")
        XCTAssertTrue(check.stderr.contains("exited with status 3: only 3 colours"), "\(check)")
    }

    /// An importer that exits without reading its input does not end the client with SIGPIPE
    /// (the client does not ignore it): `check` reports the file. Found by a newcomer's trial:
    /// exit 141 and no output, every time, for a 1 MB file.
    func testAnImporterThatReadsNothingDoesNotKillTheClient() throws {
        try writeImporter(program: "#!/bin/sh\nexit 0\n")
        let themes = try makeDirectory("gpl-themes")
        let file = themes + "/big.gpl"
        try String(repeating: "0 0 0 x\n", count: 131_072).write(
            toFile: file, atomically: true, encoding: .utf8)
        for _ in 0..<3 {
            let check = try livery("check", file)
            XCTAssertEqual(check.status, 1, "\(check)")
            XCTAssertTrue(check.stderr.contains("big.gpl"), "\(check)")
        }
    }

    /// An importer past its timeout is killed; the file's error says so, and the daemon answers
    /// meanwhile.
    func testAHangingImporterIsKilledAtItsTimeout() throws {
        try writeImporter(timeout: "1", program: "#!/bin/sh\nexec sleep 60\n")
        let themes = try makeDirectory("gpl-themes")
        try palette("Slow").write(toFile: themes + "/slow.gpl", atomically: true, encoding: .utf8)
        try startDaemon(extraThemesDirectories: [themes])
        XCTAssertEqual(try livery("get").stdout, "default\n")
        let row = try XCTUnwrap(try checkedRow("slow"))
        XCTAssertEqual(row["valid"] as? Bool, false, "\(row)")
        XCTAssertTrue(
            (row["errors"] as? [String])?.first?.hasSuffix("gpl-import timed out after 1 s and was killed")
                == true,
            "\(row)")
    }
}
