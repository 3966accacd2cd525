import Foundation
import XCTest

/// The pywal plugin's cache against pywal itself: after `livery set`, every file liveryd wrote
/// into `~/.cache/wal` holds the bytes `wal --theme colors.json -n -s -t -e -q` (pywal 3.8.15 in
/// `.build/test-venv`, with the same user templates) writes there from Livery's colors.json, for
/// a dark and a light theme and with an alpha of 90 and of 100; pywal's shipped templates, the
/// terminal sequences wal writes (`sequences`), a user template using every key and modifier, one
/// in a subdirectory and one replacing a shipped template of its name.
final class PywalCacheTests: EndToEndTestCase {
    var pluginsDirectory: String { configHome + "/livery/plugins" }

    /// A user template with every key, property and method of pywal's colours, escapes and
    /// pywal's first-occurrence rule.
    static let userTemplate = """
        {color0} {color1.strip} {color2.rgb} {color3.rgba} {color4.xrgba} {color5.alpha} {color6.red},{color6.green},{color6.blue}
        {background} {foreground} {cursor} {wallpaper} {alpha} {checksum} {background.strip} {cursor.rgbspace}
        {color8.hex_argb} {color9.alpha_dec} {color10.alpha_hex} {color11.decimal} {color12.decimal_strip} {color13.octal} {color14.octal_strip}
        {color15.red_hex}{color15.green_hex}{color15.blue_hex} {color1.red_dec},{color1.green_dec},{color1.blue_dec} {color2.w3_luminance} {foreground.hex_color}
        {color1.lighten(20)} {color1.darken(33%).strip} {color1.saturate(50)} {color8.foxify(1.25)} {color1.adjust_alpha(50).rgba}
        {color4.lighten(0.5)} {color4.darken(12.5)} {color7.saturate(0)} {color0.adjust_alpha(0.3).alpha} {alpha.alpha_num} {checksum.octal_strip}
        {{color0}} {color0} ${{HOME}} {{{{literal}}}} é ü

        """

    /// The files beneath `root`, relative, sorted.
    func files(_ root: String) -> [String] {
        let all = FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []
        return all.filter {
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: root + "/" + $0, isDirectory: &isDirectory)
                && !isDirectory.boolValue
        }.sorted()
    }

    /// Runs wal over a copy of Livery's colors.json with a home of its own and the same user
    /// templates, and compares its cache with Livery's file by file.
    func compareWithPywal(_ cache: String, templates: String, label: String) throws {
        let scratch = try makeDirectory("wal-" + label)
        try FileManager.default.copyItem(atPath: cache + "/colors.json", toPath: scratch + "/theme.json")
        try FileManager.default.createDirectory(
            atPath: scratch + "/config/wal", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: templates, toPath: scratch + "/config/wal/templates")
        let saved = environment
        defer { environment = saved }
        environment["HOME"] = scratch + "/home"
        environment["XDG_CONFIG_HOME"] = scratch + "/config"
        environment["XDG_CACHE_HOME"] = scratch + "/cache"
        environment["LANG"] = "C.UTF-8"
        let wal = Locations.repo + "/.build/test-venv/bin/wal"
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: wal), "pywal is missing: make deps-test")
        let r = try run(wal, ["--theme", scratch + "/theme.json", "-n", "-s", "-t", "-e", "-q"], timeout: 30)
        XCTAssertEqual(r.status, 0, "\(r)")
        let ours = files(cache)
        let theirs = files(scratch + "/cache/wal")
        // What wal writes that Livery does not (the README says why): the PNG of the palette
        // (when Pillow is there) and the name of the theme file `--theme` was given.
        XCTAssertEqual(ours, theirs.filter { !["colors.png", "last_used_theme"].contains($0) }, label)
        // pywal's templates, colors.json, the terminal sequences, the user's two.
        XCTAssertEqual(ours.count, 53 + 1 + 1 + 2, label)
        XCTAssertTrue(ours.contains("sequences"), label)
        for file in ours {
            let a = FileManager.default.contents(atPath: cache + "/" + file)
            let b = FileManager.default.contents(atPath: scratch + "/cache/wal/" + file)
            XCTAssertEqual(a, b, "\(label): \(file) differs")
            if a != b, let a, let b {
                XCTAssertEqual(
                    String(decoding: a, as: UTF8.self), String(decoding: b, as: UTF8.self),
                    "\(label): \(file)")
            }
        }
    }

    func testTheCacheIsByteForByteWhatWalWritesForADarkAndALightTheme() throws {
        let home = try makeDirectory("home")
        environment["HOME"] = home
        let cache = home + "/.cache/wal"
        try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
        // What `wal -i` left: a wallpaper, its checksum and an alpha, which Livery keeps.
        try """
        {"checksum": "0f343b0931126a20f133d67c2b018a3b", "wallpaper": "/pictures/sea 1.jpg", "alpha": "90",
         "special": {"background": "#101010", "foreground": "#e0e0e0", "cursor": "#e0e0e0"},
         "colors": {\((0..<16).map { "\"color\($0)\": \"#10101\($0 % 10)\"" }.joined(separator: ", "))}}
        """.write(toFile: cache + "/colors.json", atomically: true, encoding: .utf8)
        let templates = configHome + "/wal/templates"
        try FileManager.default.createDirectory(atPath: templates + "/sub", withIntermediateDirectories: true)
        try PywalCacheTests.userTemplate.write(
            toFile: templates + "/every", atomically: true, encoding: .utf8)
        try "{color1}:{background.rgb}\r\n".write(
            toFile: templates + "/sub/nested.conf", atomically: true, encoding: .utf8)
        // Replaces pywal's own colors-rgb, in wal and in Livery alike.
        try "mine {color3.rgb}\n".write(toFile: templates + "/colors-rgb", atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: pluginsDirectory, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: pluginsDirectory + "/pywal", withDestinationPath: Locations.repo + "/plugins/pywal")
        try startDaemon()
        // wal writes the alpha into the sequences of the background (`]11;[90]#…`) unless it is
        // "100": the third theme is set over a colors.json whose alpha is that.
        for (theme, alpha) in [("nord", "90"), ("atelier-dune-light", "90"), ("3024", "100")] {
            if alpha == "100" {
                let json = try String(contentsOfFile: cache + "/colors.json", encoding: .utf8)
                try json.replacingOccurrences(of: "\"alpha\": \"90\"", with: "\"alpha\": \"100\"").write(
                    toFile: cache + "/colors.json", atomically: true, encoding: .utf8)
            }
            try setTheme(theme)
            let serial = try serial()
            var row: [String: Any]?
            XCTAssertTrue(
                try waitUntil(timeout: 20) {
                    let r = try livery("plugins", "--json")
                    let rows = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]]
                    row = rows?.first { $0["name"] as? String == "pywal" }
                    return row?["serial"] as? Int == Int(serial) && row?["result"] as? String != "running"
                }, "\(row ?? [:])\n\(daemon.stderr)")
            XCTAssertEqual(row?["result"] as? String, "ok", theme)
            let sh = try String(contentsOfFile: cache + "/colors.sh", encoding: .utf8)
            XCTAssertTrue(sh.contains("wallpaper=\"/pictures/sea 1.jpg\""), sh)
            let sequences = try String(contentsOfFile: cache + "/sequences", encoding: .utf8)
            XCTAssertEqual(sequences.contains("\u{1b}]11;[90]#"), alpha == "90", sequences.debugDescription)
            try compareWithPywal(cache, templates: templates, label: theme)
        }
    }
    /// A user template pywal cannot render is named by its path as written (one slash between
    /// the directory and the file, though the manifest's path ends in one), line and column.
    func testABadUserTemplateIsNamedByItsPathLineAndColumn() throws {
        let home = try makeDirectory("home")
        environment["HOME"] = home
        let templates = configHome + "/wal/templates"
        try FileManager.default.createDirectory(atPath: templates, withIntermediateDirectories: true)
        try "fine\nx {color1.nope}\n".write(toFile: templates + "/bad", atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: pluginsDirectory, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: pluginsDirectory + "/pywal", withDestinationPath: Locations.repo + "/plugins/pywal")
        try startDaemon()
        try setTheme("nord")
        var status = ""
        XCTAssertTrue(
            try waitUntil(timeout: 20) {
                status = try livery("status").stdout
                return status.contains("nope")
            }, status)
        XCTAssertTrue(status.contains(templates + "/bad:2:3: error: "), status)
    }
}
