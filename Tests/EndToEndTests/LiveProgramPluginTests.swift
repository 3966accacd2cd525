import Foundation
import XCTest

/// The shipped plugins that reload a running program (by a signal, its own client or its bus),
/// set up as the README says, with the programs Debian 12 ships: each reads the file Livery
/// writes with its own parser, and a running one shows the new colours after `livery set`. They
/// reach every such program of the user, so they run one at a time (scripts/test.sh). The
/// expected colours come from the scheme files.
final class LiveProgramPluginTests: ProgramPluginTestCase {
    /// polybar 3.6 (Debian 12's) under Xvfb with config.ini including the plugin's colours file:
    /// its own parser resolves `${colors.…}` to the theme's colours (`polybar --dump`), a
    /// running bar draws the theme's background, and after `livery set` (SIGUSR1: polybar
    /// restarts in place, the same process) the new one.
    func testPolybarReadsTheColoursAndARunningBarRestartsWithEachSwitch() throws {
        let polybar = try tool("polybar")
        let display = try startDisplay()
        try enable("polybar")
        let config = home + "/.config/polybar/config.ini"
        try write(
            """
            include-file = ~/.config/polybar/livery.ini

            [bar/livery]
            width = 100%
            height = 40
            background = ${colors.background}
            foreground = ${colors.foreground}
            border-bottom-color = ${colors.alert}
            line-color = ${colors.primary}
            modules-left = text
            font-0 = DejaVu Sans:size=10

            [module/text]
            type = custom/text
            content = livery

            """, to: config)
        try startDaemon()
        try setTheme("nord")
        let nord = try slots("nord")
        XCTAssertTrue(
            waitUntil {
                contents(".config/polybar/livery.ini")?.contains("background = " + nord["base00"]!) == true
            },
            "livery.ini never written for nord: \(daemon.stderr.suffix(800))")
        for (key, slot) in [
            ("background", "base00"), ("foreground", "base05"), ("border-bottom-color", "base08"),
            ("line-color", "base0A"),
        ] {
            let dumped = try run(polybar, ["--config=" + config, "--dump=" + key, "livery"])
            XCTAssertEqual(dumped.stdout, nord[slot]! + "\n", "\(key): \(dumped)")
        }
        let bar = try background(polybar, ["--config=" + config, "livery"])
        let strip = PixelRect(x: 0, y: 0, width: display.width, height: 40)
        func shows(_ color: String) throws -> Bool {
            // The bar is the theme's background but for its text, "livery" at the left.
            try display.screenshot().count(of: PixelColor(color), in: strip) > display.width * 30
        }
        let drawn = try waitUntil { try shows(nord["base00"]!) }
        let seen = try display.screenshot().commonestColors()
        XCTAssertTrue(drawn, "no bar in nord's background: \(seen)\n\(bar.stderr)")
        try switchTheme("3024", plugin: "polybar")
        let theme = try slots("3024")
        var shown = ""
        let followed = try waitUntil {
            let shot = try display.screenshot()
            shown = shot.commonestColors()
            return shot.count(of: PixelColor(theme["base00"]!), in: strip) > display.width * 30
        }
        XCTAssertTrue(followed, "the running bar after livery set 3024: \(shown)\n\(bar.stderr.suffix(800))")
        XCTAssertTrue(bar.isRunning, "polybar restarts in place on SIGUSR1")
    }
}
