import Foundation
import XCTest

/// The shipped wallpaper plugins, enabled as the README says (one link each), set the desktop's
/// wallpaper to the active theme's (`@theme { wallpaper: url(…) }`), and leave it alone for a
/// theme without one: GNOME through Debian's gsettings (dconf backend), the others through a stub
/// of each program on PATH that records its arguments.
final class WallpaperPluginTests: EndToEndTestCase {
    var pluginsDirectory: String { configHome + "/livery/plugins" }

    /// Links the shipped plugin `name` as the README says.
    func enable(_ name: String) throws {
        try FileManager.default.createDirectory(atPath: pluginsDirectory, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: pluginsDirectory + "/" + name, withDestinationPath: Locations.repo + "/plugins/" + name)
    }

    /// A themes directory (its name has a space) holding `sea` and `sand`, each with a wallpaper,
    /// and `bare`, without one; returns it and the two wallpapers' absolute paths.
    func themesWithWallpapers() throws -> (String, sea: String, sand: String) {
        let themes = try makeDirectory("my themes")
        let sheet = { (variant: String) in
            "@theme { inherits: \"default\"; variant: \(variant); wallpaper: url(\"wall.png\"); }\n"
        }
        let sea = try writeBundle("sea", in: themes, sheet: sheet("light"), files: ["wall.png": onePixelPNG])
        let sand = try writeBundle("sand", in: themes, sheet: sheet("dark"), files: ["wall.png": onePixelPNG])
        try writeBundle("bare", in: themes, sheet: "@theme { inherits: \"default\"; }\n")
        return (themes, sea + "/wall.png", sand + "/wall.png")
    }

    /// A directory put first on PATH holding, for each of `names`, a program that appends its
    /// name and arguments (one line) to `calls` and exits 0.
    func stubs(_ names: [String], calls: String) throws {
        let bin = try makeDirectory("bin")
        for name in names {
            // One write of the whole line (O_APPEND): two plugins' hooks run at once, and
            // separate writes of a line's parts interleaved.
            let script =
                "#!/bin/sh\nline=\"\(name)\"\nfor a in \"$@\"; do line=\"$line $a\"; done\n"
                + "printf '%s\\n' \"$line\" >> '\(calls)'\n"
            try script.write(toFile: bin + "/" + name, atomically: true, encoding: .utf8)
            chmod(bin + "/" + name, 0o755)
        }
        environment["PATH"] = bin + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
    }

    /// The lines of `calls`, once it has `count` of them (at most 10 s).
    func calls(_ path: String, count: Int) -> [String] {
        func lines() -> [String] {
            ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(
                String.init)
        }
        _ = waitUntil { lines().count >= count }
        return lines()
    }

    func testGnomeSetsPictureURIAndItsDarkTwin() throws {
        try startDconf()
        try enable("gnome")
        let (themes, sea, sand) = try themesWithWallpapers()
        // The URI by Python's own rule (RFC 8089 with percent-encoding), not the plugin's.
        func uri(_ path: String) throws -> String {
            try run(
                "/usr/bin/python3",
                ["-c", "import sys, pathlib; print(pathlib.Path(sys.argv[1]).as_uri())", path]
            )
            .stdout.trimmingCharacters(in: .newlines)
        }
        func get(_ key: String) throws -> String {
            try run(Locations.tool("gsettings"), ["get", "org.gnome.desktop.background", key]).stdout
        }
        try startDaemon(extraThemesDirectories: [themes])
        for (id, path) in [("sea", sea), ("sand", sand)] {
            try setTheme(id)
            let wanted = "'\(try uri(path))'\n"
            let set = try waitUntil { try get("picture-uri") == wanted && get("picture-uri-dark") == wanted }
            let shown = (try get("picture-uri"), try get("picture-uri-dark"), try livery("status").stdout)
            XCTAssertTrue(set, "\(id): \(shown), wanted \(wanted)")
        }
        // A theme without a wallpaper leaves it: the color-scheme hook of the same change has run.
        try setTheme("bare")
        let light = try waitUntil {
            try run(Locations.tool("gsettings"), ["get", "org.gnome.desktop.interface", "color-scheme"])
                .stdout
                == "'default'\n"
        }
        XCTAssertTrue(light)
        XCTAssertEqual(try get("picture-uri"), "'\(try uri(sand))'\n")
    }

    func testPlasmaAndFehGetThePath() throws {
        let calls = root + "/calls"
        try stubs(["plasma-apply-wallpaperimage", "feh"], calls: calls)
        try enable("plasma")
        try enable("feh")
        let (themes, sea, sand) = try themesWithWallpapers()
        try startDaemon(extraThemesDirectories: [themes])
        try setTheme("sea")
        XCTAssertEqual(
            Set(self.calls(calls, count: 2)), ["plasma-apply-wallpaperimage \(sea)", "feh --bg-fill \(sea)"])
        // `bare` runs the hooks with no wallpaper: nothing is called for it before `sand`'s.
        try setTheme("bare")
        try setTheme("sand")
        XCTAssertEqual(
            Set(self.calls(calls, count: 4).dropFirst(2)),
            ["plasma-apply-wallpaperimage \(sand)", "feh --bg-fill \(sand)"])
    }

    func testSwaybgIsRestartedAndSwwwPreferredWhenItsDaemonAnswers() throws {
        let log = root + "/calls"
        let bin = try makeDirectory("bin")
        // swaybg stays running until signalled, as the real one does, and says so when it ends.
        let swaybg = """
            #!/bin/sh
            echo "swaybg $* $$" >> '\(log)'
            trap 'echo "ended $$" >> "\(log)"; exit 0' TERM
            while :; do sleep 1 & wait $!; done

            """
        try swaybg.write(toFile: bin + "/swaybg", atomically: true, encoding: .utf8)
        // swww's query answers only while `swww-up` exists, as it does while swww-daemon runs.
        let swww = """
            #!/bin/sh
            if [ "$1" = query ]; then [ -e '\(root)/swww-up' ]; exit; fi
            echo "swww $*" >> '\(log)'

            """
        try swww.write(toFile: bin + "/swww", atomically: true, encoding: .utf8)
        chmod(bin + "/swaybg", 0o755)
        chmod(bin + "/swww", 0o755)
        environment["PATH"] = bin + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        try enable("swaybg")
        let (themes, sea, sand) = try themesWithWallpapers()
        try startDaemon(extraThemesDirectories: [themes])
        try setTheme("sea")
        let first = calls(log, count: 1)
        XCTAssertEqual(first.first?.hasPrefix("swaybg -i \(sea) -m fill "), true, "\(first)")
        let firstPID = first.first?.split(separator: " ").last.map(String.init) ?? ""
        try setTheme("sand")
        let second = calls(log, count: 3)
        XCTAssertTrue(second.contains("ended \(firstPID)"), "\(second)")
        XCTAssertEqual(second.filter { $0.hasPrefix("swaybg -i \(sand) -m fill ") }.count, 1, "\(second)")
        FileManager.default.createFile(atPath: root + "/swww-up", contents: Data())
        try setTheme("sea")
        XCTAssertEqual(calls(log, count: 4).last, "swww img \(sea)")
        // The swaybg still running is stopped before the directory goes.
        let pidFile = stateHome + "/livery/swaybg.pid"
        if let pid = Int32(
            (try? String(contentsOfFile: pidFile, encoding: .utf8))?.trimmingCharacters(
                in: .whitespacesAndNewlines) ?? "")
        {
            kill(pid, SIGTERM)
        }
    }

    /// `livery generate --from-desktop` reads GNOME's wallpaper through gsettings: `picture-uri`
    /// in the light colour scheme, `picture-uri-dark` in prefer-dark; its bundles are
    /// `desktop` and `desktop-dark` and name no wallpaper. `livery generate IMAGE --out` names
    /// the picture as the wallpaper.
    func testGenerateFromDesktopReadsGnomesWallpaper() throws {
        try startDconf()
        let pictures = try makeDirectory("my pictures")
        let light = pictures + "/joy ü.jpg"
        let dark = pictures + "/emerald.png"
        try FileManager.default.copyItem(atPath: PalettePictureTests.first, toPath: light)
        try FileManager.default.copyItem(atPath: PalettePictureTests.second, toPath: dark)
        func uri(_ path: String) throws -> String {
            try run(
                "/usr/bin/python3",
                ["-c", "import sys, pathlib; print(pathlib.Path(sys.argv[1]).as_uri())", path]
            )
            .stdout.trimmingCharacters(in: .newlines)
        }
        func gset(_ schema: String, _ key: String, _ value: String) throws {
            let r = try run(Locations.tool("gsettings"), ["set", schema, key, value])
            XCTAssertEqual(r.status, 0, "\(r)")
        }
        func generate(_ arguments: String...) throws -> String {
            let r = try run(Locations.livery, ["generate"] + arguments)
            XCTAssertEqual(r.status, 0, "\(r)")
            return r.stdout
        }
        try gset("org.gnome.desktop.background", "picture-uri", "'\(try uri(light))'")
        try gset("org.gnome.desktop.background", "picture-uri-dark", "'\(try uri(dark))'")
        try gset("org.gnome.desktop.interface", "color-scheme", "'default'")
        XCTAssertEqual(try generate("--from-desktop", "--json"), try generate(light, "--json"))
        try gset("org.gnome.desktop.interface", "color-scheme", "'prefer-dark'")
        XCTAssertEqual(
            try generate("--from-desktop", "--json", "--scheme", "content"),
            try generate(dark, "--json", "--scheme", "content"))

        let themes = try makeDirectory("themes")
        _ = try generate("--from-desktop", "--out", themes)
        let sheet = try String(contentsOfFile: themes + "/desktop-dark/theme.css", encoding: .utf8)
        XCTAssertFalse(sheet.contains("wallpaper:"), sheet)
        _ = try generate(light, "--out", themes)
        // "joy ü" has a letter beyond ASCII: its id has the name's FNV-1a hash (by Python).
        let named = try String(contentsOfFile: themes + "/joy-a4b10130/theme.css", encoding: .utf8)
        XCTAssertTrue(named.contains("  wallpaper: url(\"picture.jpg\");\n"), named)
        let check = try run(
            Locations.livery,
            ["check", "--themes-dir", Locations.themes, themes + "/joy-a4b10130", themes + "/desktop"])
        XCTAssertEqual(check.status, 0, "\(check)")

        // An empty picture-uri-dark (unset by the user) is picture-uri's picture.
        try gset("org.gnome.desktop.background", "picture-uri-dark", "''")
        XCTAssertEqual(try generate("--from-desktop", "--json"), try generate(light, "--json"))
        try gset("org.gnome.desktop.background", "picture-uri", "'https://example.org/x.jpg'")
        let r = try run(Locations.livery, ["generate", "--from-desktop"])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(
            r.stderr,
            "livery: error: GNOME's picture-uri is 'https://example.org/x.jpg', not a file:// URI of a picture\n"
        )
    }

    /// Debian 12's GNOME wallpaper is desktop-base's slideshow XML (`picture-uri`'s default,
    /// `/usr/share/images/desktop-base/desktop-background.xml`: one `<static>` whose `<file>` has
    /// a `<size>` variant per screen shape): `--from-desktop` reads the variant GNOME shows on a
    /// 1920 × 1080 screen, which is the one of exactly that size. An empty `picture-uri-dark`
    /// falls back to `picture-uri` in prefer-dark.
    func testGenerateFromDesktopReadsDebiansDefaultSlideshow() throws {
        try startDconf()
        let xml = "/usr/share/images/desktop-base/desktop-background.xml"
        let real = try XCTUnwrap(
            URL(fileURLWithPath: xml).resolvingSymlinksInPath().path, "\(xml): install desktop-base")
        let picture = (real as NSString).deletingLastPathComponent + "/contents/images/1920x1080.svg"
        XCTAssertTrue(FileManager.default.fileExists(atPath: picture), picture)
        func generate(_ arguments: String...) throws -> String {
            let r = try run(Locations.livery, ["generate"] + arguments)
            XCTAssertEqual(r.status, 0, "\(r)")
            return r.stdout
        }
        let gsettings = Locations.tool("gsettings")
        for key in ["picture-uri", "picture-uri-dark"] {
            XCTAssertEqual(try run(gsettings, ["reset", "org.gnome.desktop.background", key]).status, 0)
        }
        XCTAssertEqual(
            try run(gsettings, ["get", "org.gnome.desktop.background", "picture-uri"]).stdout,
            "'file://\(xml)'\n")
        let expected = try generate(picture, "--json")
        XCTAssertEqual(try generate("--from-desktop", "--json"), expected)
        XCTAssertEqual(
            try run(gsettings, ["set", "org.gnome.desktop.background", "picture-uri-dark", "''"]).status, 0)
        XCTAssertEqual(
            try run(gsettings, ["set", "org.gnome.desktop.interface", "color-scheme", "'prefer-dark'"])
                .status, 0)
        XCTAssertEqual(try generate("--from-desktop", "--json"), expected)
    }

    /// A slideshow of its own: two pictures shown a day each with a day's transition between
    /// them, started (`<starttime>`, local time, UTC here) two and a half days ago, so the second
    /// picture is the one shown now, half a day from any change. GNOME's `<hour>` is one more
    /// than the hour meant (gnome-desktop subtracts one); months are written without a leading
    /// zero, which gnome-desktop would read as octal.
    func testGenerateFromDesktopReadsTheSlideCurrentNow() throws {
        try startDconf()
        environment["TZ"] = "UTC"
        let pictures = try makeDirectory("slides")
        let first = pictures + "/first.jpg"
        let second = pictures + "/second.png"
        try FileManager.default.copyItem(atPath: PalettePictureTests.first, toPath: first)
        try FileManager.default.copyItem(atPath: PalettePictureTests.second, toPath: second)
        let day = 86_400.0
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        let start = utc.dateComponents(
            [.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSinceNow: -2.5 * day))
        let xml = """
            <background>
              <starttime>
                <year>\(start.year!)</year><month>\(start.month!)</month><day>\(start.day!)</day>
                <hour>\(start.hour! + 1)</hour><minute>\(start.minute!)</minute><second>\(start.second!)</second>
              </starttime>
              <static><duration>\(day)</duration><file>\(first)</file></static>
              <transition type="overlay"><duration>\(day)</duration><from>\(first)</from><to>\(second)</to></transition>
              <static><duration>\(day)</duration><file>slides/second.png</file></static>
              <transition type="overlay"><duration>\(day)</duration><from>\(second)</from><to>\(first)</to></transition>
            </background>

            """
        try xml.write(toFile: root + "/show.xml", atomically: true, encoding: .utf8)
        let r = try run(
            Locations.tool("gsettings"),
            ["set", "org.gnome.desktop.background", "picture-uri", "'file://\(root)/show.xml'"])
        XCTAssertEqual(r.status, 0, "\(r)")
        let shown = try run(Locations.livery, ["generate", "--from-desktop", "--json"])
        let expected = try run(Locations.livery, ["generate", second, "--json"])
        XCTAssertEqual(shown.status, 0, "\(shown)")
        XCTAssertEqual(shown.stdout, expected.stdout)
    }
}
