import Foundation
import XCTest

/// The shipped `feh` and `swaybg` plugins with the real programs (Debian 12's, the Makefile's
/// TEST_PACKAGES), enabled as the README says: `livery set` of a theme whose wallpaper is a
/// solid-colour picture the size of the screen fills the screen with that colour, as a
/// screenshot shows, and the next theme's wallpaper replaces it.
final class WallpaperProgramTests: EndToEndTestCase {
    let blue = PixelColor("#1e50c8")
    let orange = PixelColor("#e07010")

    /// The absolute path of a test program, or a failure naming its package.
    func program(_ name: String) throws -> String {
        let path = Locations.tool(name)
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw HarnessFailure("\(name) is missing: a test package (make deps-test)")
        }
        return path
    }

    /// Links the shipped plugin `name` as the README says, with a home of the test's own (feh
    /// writes `~/.fehbg`); returns the home.
    func enable(_ name: String) throws -> String {
        let home = try makeDirectory("home")
        environment["HOME"] = home
        let plugins = configHome + "/livery/plugins"
        try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: plugins + "/" + name, withDestinationPath: Locations.repo + "/plugins/" + name)
        return home
    }

    /// A themes directory with `blue` and `orange`, each inheriting `default` with a wallpaper of
    /// its colour, `width` × `height` pixels (so that filling the screen scales nothing).
    func themes(width: Int, height: Int) throws -> String {
        let themes = try makeDirectory("themes")
        for (id, color) in [("blue", blue), ("orange", orange)] {
            try writeBundle(
                id, in: themes, sheet: "@theme { inherits: \"default\"; wallpaper: url(\"wall.png\"); }\n",
                files: ["wall.png": try solidPNG(color, width: width, height: height)])
        }
        return themes
    }

    /// Switches to `blue`, then `orange`, and checks that every pixel of `shot()` becomes the
    /// theme's colour (within 2 of each channel) each time.
    func assertEachThemeFillsTheScreen(
        pixels: Int, _ shot: () throws -> Screenshot, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        for (id, color) in [("blue", blue), ("orange", orange)] {
            try setTheme(id)
            var last: Screenshot?
            let filled = waitUntil {
                last = try? shot()
                return last?.count(of: color, tolerance: 2) == pixels
            }
            XCTAssertTrue(
                filled,
                "\(id): commonest colours \(last?.commonestColors() ?? "(no screenshot)"); "
                    + "liveryd: \(daemon.stderr.suffix(800))", file: file, line: line)
        }
    }

    /// feh under Xvfb: `feh --bg-fill` sets the X root window's background, which a screenshot
    /// of the root (`xwd -root`) shows, the screen being otherwise empty (Xvfb's root is black).
    func testFehFillsTheXRootWindow() throws {
        _ = try program("feh")
        let display = try startDisplay(width: 160, height: 120)
        let home = try enable("feh")
        try startDaemon(
            extraThemesDirectories: [try themes(width: display.width, height: display.height)],
            waitForChecks: false)
        try assertEachThemeFillsTheScreen(pixels: display.width * display.height) { try display.screenshot() }
        let fehbg = (try? String(contentsOfFile: home + "/.fehbg", encoding: .utf8)) ?? ""
        XCTAssertTrue(fehbg.contains("--bg-fill"), "~/.fehbg: \(fehbg)")
    }

    /// swaybg under sway 1.7 (wlroots' headless backend, its pixman renderer; weston has no
    /// wlr-layer-shell, which swaybg draws with), screenshots by grim (wlr-screencopy). sway
    /// refuses to run as root, so as root the test runs it as `nobody` (`startSway`);
    /// liveryd and the plugin's swaybg, as root, reach its socket.
    func testSwaybgFillsTheWaylandOutput() throws {
        _ = try program("swaybg")
        let sway = try startSway(as: .nobody, width: 160, height: 120)
        _ = try enable("swaybg")
        try startDaemon(extraThemesDirectories: [try themes(width: 160, height: 120)], waitForChecks: false)
        try assertEachThemeFillsTheScreen(pixels: 160 * 120, sway.screenshot)
        // The plugin's swaybg runs in a session of its own: stopped here, before the directory goes.
        let pidFile = stateHome + "/livery/swaybg.pid"
        if let pid = Int32(
            (try? String(contentsOfFile: pidFile, encoding: .utf8))?.trimmingCharacters(
                in: .whitespacesAndNewlines) ?? "")
        {
            kill(pid, SIGTERM)
        }
    }
}
