import Foundation
import XCTest

/// Live reload through bad and good edits, as a theme author works.
final class LiveReloadRecoveryTests: EndToEndTestCase {
    func testBadEditKeepsLastGoodVersionShowsTheErrorAndAFixClearsIt() throws {
        let themes = try makeDirectory("themes")
        let bundle = try writeBundle("draft", in: themes, sheet: "Button { tint-color: #111111; }\n")
        try startDaemon(extraThemesDirectories: [themes])
        try setTheme("draft")
        let watch = try background(
            Locations.livery, ["--address", address, "watch", "Window/Button", "--property", "tint-color"])
        // Good edit: the subscriber hears it.
        var n = 0
        XCTAssertTrue(
            try waitUntil {
                n += 1
                try "Button { tint-color: #22222\(n % 10); }\n".write(
                    toFile: bundle + "/theme.css", atomically: true, encoding: .utf8)
                return waitUntil(timeout: 1) { watch.stdout.contains("Window/Button tint-color #22222") }
            }, "watch heard no edit: \(watch.stderr)\n\(daemon.stderr)")
        let good = try resolve("Window/Button", "tint-color")
        XCTAssertTrue(good.hasPrefix("#22222"), good)

        // Bad edit: the last good version stays, the error is logged and shown by status.
        try "Button {\n  tint-color: #2222;\n  text-colr: red;\n}\n".write(
            toFile: bundle + "/theme.css", atomically: true, encoding: .utf8)
        let expected =
            bundle + "/theme.css:3:3: error: unknown property 'text-colr' (did you mean 'text-color'?)"
        var status = ""
        XCTAssertTrue(
            try waitUntil {
                status = try livery("status").stdout
                return status.contains(expected)
            }, "status never showed the error: \(status)\n\(daemon.stderr)")
        XCTAssertEqual(try resolve("Window/Button", "tint-color"), good)
        XCTAssertTrue(daemon.stderr.contains("<3>active theme 'draft' no longer validates"), daemon.stderr)
        XCTAssertTrue(daemon.stderr.contains("<3>" + expected), daemon.stderr)

        // Fix: the new value is published and the problem is gone.
        try "Button { tint-color: #333333; }\n".write(
            toFile: bundle + "/theme.css", atomically: true, encoding: .utf8)
        XCTAssertTrue(
            try waitUntil {
                status = try livery("status").stdout
                return status.contains("problems: none")
            }, status)
        XCTAssertEqual(try resolve("Window/Button", "tint-color"), "#333333ff\n")
        XCTAssertTrue(
            waitUntil { watch.stdout.contains("Window/Button tint-color #333333ff\n") }, watch.stdout)
    }

    func testProblemsPropertySignalsWhenOverridesBreakAndHeal() throws {
        try startDaemon()
        let monitor = try startMonitor(
            "type='signal',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged'")
        try FileManager.default.createDirectory(
            atPath: configHome + "/livery", withIntermediateDirectories: true)
        try "Button { tint-colr: red; }\n".write(
            toFile: configHome + "/livery/overrides.css", atomically: true, encoding: .utf8)
        XCTAssertTrue(
            waitUntil {
                monitor.stdout.contains("string \"Problems\"") && monitor.stdout.contains("tint-colr")
            },
            "no PropertiesChanged for Problems: \(monitor.stdout)\n\(daemon.stderr)")
        try FileManager.default.removeItem(atPath: configHome + "/livery/overrides.css")
        XCTAssertTrue(
            waitUntil {
                let parts = monitor.stdout.components(separatedBy: "string \"Problems\"")
                return parts.count == 3
                    && parts[2].hasPrefix("\n         variant             array [\n            ]\n")
            }, monitor.stdout)
    }

    func testListStillShowsAnActiveThemeWhoseFilesWereRemoved() throws {
        let themes = try makeDirectory("themes")
        let bundle = try writeBundle("gone", in: themes, sheet: "Button { tint-color: #123456; }\n")
        try startDaemon(extraThemesDirectories: [themes], arguments: ["--no-watch"])
        try setTheme("gone")
        try FileManager.default.removeItem(atPath: bundle)
        XCTAssertEqual(try livery("reload").status, 0)
        let list = try livery("list")
        XCTAssertTrue(list.stdout.contains("* gone"), list.stdout)
        XCTAssertTrue(list.stdout.contains("(removed from disk; still active)"), list.stdout)
        XCTAssertEqual(try resolve("Window/Button", "tint-color"), "#123456ff\n")
    }
}
