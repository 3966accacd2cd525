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
}
