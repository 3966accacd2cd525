import Foundation
import XCTest

/// Live reload (the daemon's inotify watcher): edits on disk are picked up without `livery reload`.
final class LiveReloadTests: EndToEndTestCase {
    /// A bundle written a moment before `livery set` names it (`livery generate --out DIR &&
    /// livery set ID`, a script's own bundle) is found by the switch itself, without waiting
    /// for live reload to have seen the new directory, and is listed afterwards.
    func testAJustWrittenBundleIsFoundBySetTheme() throws {
        let themes = try makeDirectory("themes")
        try startDaemon(extraThemesDirectories: [themes])
        _ = try writeBundle("fresh", in: themes, sheet: "NavigationBar { tint-color: #123456; }\n")
        let set = try livery("set", "fresh")
        XCTAssertEqual(set.status, 0, "\(set)")
        XCTAssertEqual(try resolve("Window/NavigationBar", "tint-color"), "#123456ff\n")
        XCTAssertTrue(waitUntil { (try? livery("list").stdout.contains("fresh")) == true })
    }

    func testEditingTheActiveThemeOnDiskPublishesTheChange() throws {
        let themes = try makeDirectory("themes")
        let bundle = try writeBundle("live", in: themes, sheet: "NavigationBar { tint-color: #123456; }\n")
        try FileManager.default.createDirectory(
            atPath: configHome + "/livery", withIntermediateDirectories: true)
        try startDaemon(extraThemesDirectories: [themes])
        try setTheme("live")
        let monitor = try startMonitor("type='signal',interface='org.livery.Livery1',member='ThemeChanged'")

        try "NavigationBar { tint-color: #654321; }\n".write(
            toFile: bundle + "/theme.css", atomically: true, encoding: .utf8)
        XCTAssertTrue(
            waitUntil { monitor.stdout.contains("uint32 2\n") },
            "no ThemeChanged after the edit: \(daemon.stderr)")
        XCTAssertEqual(try resolve("Window/NavigationBar", "tint-color"), "#654321ff\n")

        try "NavigationBar { tint-color: #abcdef; }\n".write(
            toFile: configHome + "/livery/overrides.css", atomically: true, encoding: .utf8)
        XCTAssertTrue(
            waitUntil { monitor.stdout.contains("uint32 3\n") },
            "no ThemeChanged after the overrides: \(daemon.stderr)")
        XCTAssertEqual(try resolve("Window/NavigationBar", "tint-color"), "#abcdefff\n")
        XCTAssertEqual(
            monitor.stdout.components(separatedBy: "member=ThemeChanged").count - 1, 2, monitor.stdout)
    }

    func testAnImageEditedInPlaceIsPublishedAgainUnderTheSamePath() throws {
        let themes = try makeDirectory("themes")
        // Another 1×1 PNG of the same size as `onePixelPNG` (another colour): only the content differs.
        let otherPNG = try XCTUnwrap(
            Data(
                base64Encoded:
                    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
            ))
        XCTAssertEqual(otherPNG.count, onePixelPNG.count)
        let bundle = try writeBundle(
            "pics", in: themes,
            sheet:
                "@theme { inherits: \"default\"; }\nButton { background-image: url(\"images/back1.png\"); }\n",
            files: ["images/back1.png": onePixelPNG, "images/back2.png": otherPNG])
        try startDaemon(extraThemesDirectories: [themes])
        try setTheme("pics")
        let before = try serial()
        let image = bundle + "/images/back1.png"
        XCTAssertEqual(try resolve("Window/Button", "background-image"), image + "\n")
        let monitor = try startMonitor("type='signal',interface='org.livery.Livery1',member='ThemeChanged'")
        let watch = try background(
            Locations.livery,
            ["--address", address, "watch", "Window/Button", "--property", "background-image", "--json"])
        XCTAssertTrue(waitUntil { watch.stdout.contains("\"values\"") }, watch.stderr)

        // `cp images/back2.png images/back1.png`: the same file, new content.
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: image))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: otherPNG)
        try handle.close()
        XCTAssertTrue(
            waitUntil { monitor.stdout.contains("uint32 \(before + 1)\n") },
            "no ThemeChanged after the image changed: \(daemon.stderr)")
        XCTAssertEqual(try serial(), before + 1)
        XCTAssertTrue(waitUntil { watch.stdout.contains("\"Changed\"") }, watch.stdout)
        let last = try XCTUnwrap(watch.stdout.split(separator: "\n").last)
        let changed = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        XCTAssertEqual(changed["serial"] as? Int, Int(before + 1))
        XCTAssertEqual(changed["path"] as? String, "Window/Button")
        XCTAssertEqual((changed["values"] as? [String: String])?["background-image"], image)
    }

    func testOverridesFileCreatedLaterIsPickedUp() throws {
        try startDaemon()
        try setTheme("forest")
        XCTAssertFalse(FileManager.default.fileExists(atPath: configHome + "/livery"))
        try FileManager.default.createDirectory(
            atPath: configHome + "/livery", withIntermediateDirectories: true)
        try "NavigationBar { tint-color: #abcdef; }\n".write(
            toFile: configHome + "/livery/overrides.css", atomically: true, encoding: .utf8)
        var value = ""
        XCTAssertTrue(
            try waitUntil {
                value = try resolve("Window/NavigationBar", "tint-color")
                return value == "#abcdefff\n"
            }, "overrides created after start never applied; still \(value)\n\(daemon.stderr)")
    }

    func testNewBundleBecomesAvailableWithoutReload() throws {
        let themes = try makeDirectory("themes")
        try startDaemon(extraThemesDirectories: [themes])
        XCTAssertEqual(try livery("set", "newcomer").status, 1)
        try writeBundle("newcomer", in: themes, sheet: "NavigationBar { tint-color: #0a0b0c; }\n")
        var last: RunResult?
        XCTAssertTrue(
            try waitUntil {
                last = try livery("set", "newcomer")
                return last?.status == 0
            }, "the new bundle never appeared: \(last.map { "\($0)" } ?? "")\n\(daemon.stderr)")
        XCTAssertEqual(try resolve("Window/NavigationBar", "tint-color"), "#0a0b0cff\n")
    }

    func testOnlyChangesThatReachTheActiveThemeArePublished() throws {
        let themes = try makeDirectory("themes")
        let parent = try writeBundle(
            "parent", in: themes,
            sheet:
                "@define-color accent #101010;\nWindow { tint-color: @accent; }\nLabel { text-color: #202020; }\n"
        )
        try writeBundle(
            "child", in: themes, sheet: "@theme { inherits: \"parent\"; }\n@define-color accent #303030;\n")
        let other = try writeBundle("other", in: themes, sheet: "Button { tint-color: #404040; }\n")
        try startDaemon(extraThemesDirectories: [themes])
        try setTheme("child")
        XCTAssertEqual(
            try resolve("Window/Button", "tint-color"), "#303030ff\n", "late binding of the child's palette")
        XCTAssertEqual(try resolve("Window/Label", "text-color"), "#202020ff\n")
        let monitor = try startMonitor("type='signal',interface='org.livery.Livery1',member='ThemeChanged'")

        // Another theme changes: nothing the clients see changes.
        try "Button { tint-color: #505050; }\n".write(
            toFile: other + "/theme.css", atomically: true, encoding: .utf8)
        XCTAssertEqual(try livery("reload").status, 0)
        XCTAssertEqual(try serial(), 1)

        // The active theme's parent changes: published.
        try "@define-color accent #101010;\nWindow { tint-color: @accent; }\nLabel { text-color: #212121; }\n"
            .write(
                toFile: parent + "/theme.css", atomically: true, encoding: .utf8)
        XCTAssertEqual(try livery("reload").status, 0)
        XCTAssertEqual(try resolve("Window/Label", "text-color"), "#212121ff\n")
        XCTAssertEqual(try serial(), 2)
        XCTAssertTrue(waitUntil { monitor.stdout.contains("uint32 2\n") }, monitor.stdout)
        XCTAssertEqual(
            monitor.stdout.components(separatedBy: "member=ThemeChanged").count - 1, 1, monitor.stdout)
    }

    // MARK: Links to schemes elsewhere, and busy writers

    /// The README's pywal set-up: `wal.json` in a theme directory is a link to pywal's
    /// `colors.json` in another directory. pywal rewriting its file (as `wal --theme` does) is
    /// published without `livery reload`.
    func testAThemeLinkedToPywalsColorsFollowsEachNewScheme() throws {
        let cache = try makeDirectory("cache")
        environment["XDG_CACHE_HOME"] = cache
        try pywalExport("monokai")
        let themes = try makeDirectory("themes")
        try FileManager.default.createSymbolicLink(
            atPath: themes + "/wal.json", withDestinationPath: cache + "/wal/colors.json")
        try startDaemon(extraThemesDirectories: [themes])
        try setTheme("wal")
        XCTAssertEqual(try resolve("Window", "background-color"), try pywalBackground("monokai"))
        let before = try serial()
        let monitor = try startMonitor("type='signal',interface='org.livery.Livery1',member='ThemeChanged'")

        try pywalExport("sexy-gotham")
        XCTAssertTrue(
            waitUntil { monitor.stdout.contains("uint32 \(before + 1)\n") },
            "no ThemeChanged after pywal wrote its colors.json: \(daemon.stderr)")
        XCTAssertEqual(try resolve("Window", "background-color"), try pywalBackground("sexy-gotham"))
    }

    /// A link to a link, the middle one pointed (by rename, as `ln -s` then `mv -T` does) at a
    /// scheme that does not exist yet, not even its directory: the theme is kept as it was
    /// (reported in `Problems`) until the scheme is written, then the scheme is published.
    func testALinkChainRelinkedToASchemeWrittenLaterFollowsIt() throws {
        let cache = root + "/cache"
        environment["XDG_CACHE_HOME"] = cache
        let themes = try makeDirectory("themes")
        let middle = root + "/current.json"
        try FileManager.default.createSymbolicLink(atPath: themes + "/wal.json", withDestinationPath: middle)
        try FileManager.default.createSymbolicLink(
            atPath: middle, withDestinationPath: pywalScheme("monokai"))
        try startDaemon(extraThemesDirectories: [themes])
        try setTheme("wal")
        XCTAssertEqual(try resolve("Window", "background-color"), try pywalBackground("monokai"))
        let before = try serial()
        let monitor = try startMonitor(
            "type='signal',interface='org.livery.Livery1',member='ThemeChanged'",
            "type='signal',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged'")

        try FileManager.default.createSymbolicLink(
            atPath: middle + ".new", withDestinationPath: cache + "/wal/colors.json")
        XCTAssertEqual(rename(middle + ".new", middle), 0, String(cString: strerror(errno)))
        XCTAssertTrue(
            waitUntil { monitor.stdout.contains("active theme 'wal' was removed from disk") },
            "the middle link's move was not seen: \(monitor.stdout)\n\(daemon.stderr)")
        try pywalExport("sexy-gotham")
        XCTAssertTrue(
            waitUntil { monitor.stdout.contains("uint32 \(before + 1)\n") },
            "no ThemeChanged after pywal wrote the scheme the link points to: \(daemon.stderr)")
        XCTAssertEqual(try resolve("Window", "background-color"), try pywalBackground("sexy-gotham"))
    }

    /// A program that writes another file of the themes tree every 100 ms, and keeps writing,
    /// does not hold back an edit of the active theme: the edit is published while it writes.
    func testAnEditIsPublishedWhileAnotherFileIsWrittenEvery100ms() throws {
        let themes = try makeDirectory("themes")
        let bundle = try writeBundle("live", in: themes, sheet: "NavigationBar { tint-color: #123456; }\n")
        try startDaemon(extraThemesDirectories: [themes])
        try setTheme("live")
        let before = try serial()
        let monitor = try startMonitor("type='signal',interface='org.livery.Livery1',member='ThemeChanged'")
        // Writes its count to render.log every 100 ms until tearDown stops it.
        let log = themes + "/render.log"
        let writer = try background(
            Locations.tool("sh"),
            ["-c", "i=0; while :; do i=$((i+1)); echo $i > \"$1\"; sleep 0.1; done", "sh", log])
        func count() -> Int { Int(read(log)?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0 }
        XCTAssertTrue(waitUntil { count() >= 3 }, "the writer never wrote: \(writer.stderr)")

        try "NavigationBar { tint-color: #654321; }\n".write(
            toFile: bundle + "/theme.css", atomically: true, encoding: .utf8)
        XCTAssertTrue(
            waitUntil { monitor.stdout.contains("uint32 \(before + 1)\n") },
            "the edit was not published while another file was written: \(daemon.stderr)")
        XCTAssertEqual(try resolve("Window/NavigationBar", "tint-color"), "#654321ff\n")
        // Still writing after the publication.
        let published = count()
        XCTAssertTrue(waitUntil { count() > published }, "the writer had stopped: \(writer.stderr)")
        XCTAssertTrue(writer.isRunning)
    }

    /// Writes a pywal scheme of the fixtures as `wal --theme` does: pywal's own `export.every`
    /// (pywal from PyPI, `make test` installs it), which rewrites `$XDG_CACHE_HOME/wal/colors.json`
    /// in place (`open(path, "w")`), beside its other exports.
    private func pywalExport(_ scheme: String) throws {
        let r = try run(
            Locations.repo + "/.build/test-venv/bin/python",
            [
                "-c", "import sys, pywal; pywal.export.every(pywal.theme.file(sys.argv[1]))",
                pywalScheme(scheme),
            ])
        XCTAssertEqual(r.status, 0, "\(r)")
    }

    private func pywalScheme(_ name: String) -> String {
        Locations.schemes + "/pywal/dark/" + name + ".json"
    }

    /// The scheme's `special.background` as `livery resolve` prints a colour (`Window`'s
    /// `background-color` is the terminal background, themes/terminal).
    private func pywalBackground(_ scheme: String) throws -> String {
        let json = try JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: pywalScheme(scheme))))
        let special = try XCTUnwrap((json as? [String: Any])?["special"] as? [String: String])
        return try XCTUnwrap(special["background"]).lowercased() + "ff\n"
    }

    private func read(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }
}
