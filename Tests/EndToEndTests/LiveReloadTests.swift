import Foundation
import XCTest

/// Live reload (the daemon's inotify watcher): edits on disk are picked up without `livery reload`.
final class LiveReloadTests: EndToEndTestCase {
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
}
