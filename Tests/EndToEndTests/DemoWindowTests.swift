import Foundation
import XCTest

/// `livery-demo`, the GTK 4 window of the sample screen, follows every switch: on an
/// Xvfb screen the size of the window, after `livery set crimson` the tab bar's selected tab is
/// crimson's accent and no pixel anywhere in the window is forest's green, nor any green at all
/// (the button images, the blends of the accent with what is under it); after `livery set
/// forest` the reverse.
final class DemoWindowTests: EndToEndTestCase {
    /// The accents of the two themes (`@define-color accent` in their sheets): each one's
    /// `TabBar { tint-color }`, among the seven values the accent colours.
    static let forest = PixelColor("#008000")
    static let crimson = PixelColor("#800000")
    /// The tab bar's `bar-tint-color` in both, default's `@bar_bg`.
    static let barBackground = PixelColor("#f9f9f9")
    /// The screen is the window: `SampleScreen.width` × `height`, the window undecorated at the
    /// top left of a screen of no window manager.
    static let screen = (width: 360, height: 640)
    /// The tab bar's frame in `SampleScreen.elements` (`tab-bar`).
    static let tabBar = PixelRect(x: 0, y: 584, width: 360, height: 56)
    /// Pixels of the selected tab's indicator, a solid bar of `tint-color` 4 px tall along the top
    /// of the first of the four tabs (90 × 4), less its ends.
    static let indicatorPixels = 300

    func testWindowFollowsEverySwitchAndKeepsNoPixelOfTheOldAccent() throws {
        try startDaemon()
        try setTheme("forest")
        let display = try startDisplay(width: Self.screen.width, height: Self.screen.height)
        let demo = try startDemo()

        try expectWindow(
            tint: Self.forest, hue: .green, insteadOf: Self.crimson, hue: .red, on: display, demo)
        try setTheme("crimson")
        try expectWindow(
            tint: Self.crimson, hue: .red, insteadOf: Self.forest, hue: .green, on: display, demo)
        try setTheme("forest")
        try expectWindow(
            tint: Self.forest, hue: .green, insteadOf: Self.crimson, hue: .red, on: display, demo)
        XCTAssertTrue(demo.isRunning, demo.stderr)
        XCTAssertEqual(demo.stderr, "", "GTK's or the CSS providers' complaints")
    }

    func testTheWindowIsTheSameUnderGtksDarkTheme() throws {
        // Every colour, border and size the window shows comes from its sheets, which take
        // precedence over the GTK theme's: Adwaita's dark variant changes no pixel.
        try startDaemon()
        try setTheme("forest")
        let display = try startDisplay(width: Self.screen.width, height: Self.screen.height)
        let light = try startDemo()
        try expectWindow(
            tint: Self.forest, hue: .green, insteadOf: Self.crimson, hue: .red, on: display, light)
        let reference = try display.screenshot()
        light.stop()

        let dark = try startDemo(gtkTheme: "Adwaita:dark")
        var shot: Screenshot?
        let same = try waitUntil {
            shot = try display.screenshot()
            return shot!.rgb == reference.rgb || !dark.isRunning
        }
        let last = try XCTUnwrap(shot)
        let differing = stride(from: 0, to: last.rgb.count, by: 3).filter {
            last.rgb[$0..<$0 + 3] != reference.rgb[$0..<$0 + 3]
        }
        XCTAssertTrue(
            same && dark.isRunning,
            "\(differing.count) pixels differ, the first at \(differing.first.map { ($0 / 3 % last.width, $0 / 3 / last.width) }.map { "\($0)" } ?? "none"); "
                + "commonest colours: \(last.commonestColors(10)); livery-demo: \(dark.stderr)")
    }

    func testAButtonImageEditedInPlaceIsShownAgain() throws {
        // The daemon republishes a path whose image file changed under the same name (README,
        // "Live reload"); the window must load the file again, though its sheet's text is the same.
        let blue = PixelColor("#1e50c8")
        let orange = PixelColor("#e07010")
        let themes = try makeDirectory("themes")
        let bundle = try writeBundle(
            "pictured", in: themes,
            sheet:
                "@theme { name: \"Pictured\"; inherits: \"default\"; }\nButton { background-image: url(\"b.png\"); }\n",
            files: ["b.png": try solidPNG(blue)])
        try startDaemon(extraThemesDirectories: [themes])
        try setTheme("pictured")
        let display = try startDisplay(width: Self.screen.width, height: Self.screen.height)
        let demo = try startDemo()
        // The normal button's frame in `SampleScreen.elements` (`button-normal`), less its rounded ends.
        let button = PixelRect(x: 32, y: 372, width: 124, height: 24)
        func shows(_ color: PixelColor) throws -> Bool {
            try waitUntil {
                guard demo.isRunning else { return true }
                return try display.screenshot().count(of: color, tolerance: 2, in: button) > 124 * 24 / 2
            } && demo.isRunning
        }
        XCTAssertTrue(try shows(blue), "the button's image; livery-demo: \(demo.stderr)")
        // Replaced in place: a new file renamed over the old name, as an editor saves.
        try solidPNG(orange).write(to: URL(fileURLWithPath: bundle + "/b.png.new"))
        XCTAssertEqual(rename(bundle + "/b.png.new", bundle + "/b.png"), 0)
        XCTAssertTrue(try shows(orange), "the edited image; livery-demo: \(demo.stderr)")
        XCTAssertEqual(try display.screenshot().count(of: blue, tolerance: 2, in: button), 0)
    }

    func testWithoutLiverydItSaysSoAndExits() throws {
        let r = try run(Locations.liveryDemo, ["--address", address])
        XCTAssertEqual(r.status, 1, "\(r)")
        XCTAssertTrue(r.stderr.hasPrefix("livery-demo: liveryd is not running on this bus"), "\(r)")
        XCTAssertEqual(r.stdout, "")
    }

    /// Starts livery-demo on the test's bus and display: GTK's X11 backend and Cairo renderer
    /// (Xvfb has no GL), no accessibility bus, GSettings in memory, the GTK theme given (GTK's
    /// default, Adwaita, when nil), and the system's shared-mime-info database linked into the
    /// test's `XDG_DATA_DIRS` (gdk-pixbuf finds the loader of the spinner's SVG icon through it).
    private func startDemo(gtkTheme: String? = nil) throws -> Background {
        guard FileManager.default.isExecutableFile(atPath: Locations.liveryDemo) else {
            throw HarnessFailure("\(Locations.liveryDemo) is missing: run `swift build --build-tests` first")
        }
        environment["GDK_BACKEND"] = "x11"
        environment["GSK_RENDERER"] = "cairo"
        environment["GTK_A11Y"] = "none"
        environment["GSETTINGS_BACKEND"] = "memory"
        environment["GTK_THEME"] = gtkTheme
        let mime = dataDirs + "/mime"
        if !FileManager.default.fileExists(atPath: mime) {
            try FileManager.default.createSymbolicLink(atPath: mime, withDestinationPath: "/usr/share/mime")
        }
        return try background(Locations.liveryDemo, ["--address", address])
    }

    /// Waits until a screenshot shows `tint` on the selected tab's indicator, over the tab
    /// bar's background, and no pixel of `old` or of `oldHue` anywhere; then checks each.
    private func expectWindow(
        tint: PixelColor, hue: Channel, insteadOf old: PixelColor, hue oldHue: Channel,
        on display: VirtualDisplay, _ demo: Background,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        var shot: Screenshot?
        func counts(_ s: Screenshot) -> (tint: Int, bar: Int, old: Int, oldHue: Int) {
            (
                s.count(of: tint, in: Self.tabBar), s.count(of: Self.barBackground, in: Self.tabBar),
                s.count(of: old), s.count(dominatedBy: oldHue)
            )
        }
        let shown = try waitUntil {
            guard demo.isRunning else { return true }
            let s = try display.screenshot()
            shot = s
            let c = counts(s)
            return c.tint >= Self.indicatorPixels && c.bar >= Self.tabBar.width * Self.tabBar.height / 2
                && c.old == 0 && c.oldHue == 0
        }
        let last = try XCTUnwrap(shot, "no screenshot; livery-demo: \(demo.stderr)", file: file, line: line)
        let c = counts(last)
        let context = "commonest colours: \(last.commonestColors(10)); livery-demo: \(demo.stderr)"
        XCTAssertTrue(shown && demo.isRunning, context, file: file, line: line)
        XCTAssertGreaterThanOrEqual(
            c.tint, Self.indicatorPixels, "\(tint) in the tab bar; \(context)", file: file, line: line)
        XCTAssertGreaterThanOrEqual(
            c.bar, Self.tabBar.width * Self.tabBar.height / 2, "the tab bar's background; \(context)",
            file: file,
            line: line)
        XCTAssertEqual(c.old, 0, "pixels of \(old) in the window; \(context)", file: file, line: line)
        XCTAssertEqual(
            c.oldHue, 0, "pixels of the old accent's hue in the window; \(context)", file: file, line: line)
        // Nothing of the new accent's hue is left out either: the tint shows outside the tab bar too.
        XCTAssertGreaterThan(
            last.count(dominatedBy: hue), 2 * Self.indicatorPixels, context, file: file, line: line)
    }
}

/// One channel of a pixel.
enum Channel: Int {
    case red, green, blue
}

extension Screenshot {
    /// Counts the pixels in which `channel` exceeds both other channels by more than 32: that
    /// hue, however light, dark or blended with what is under it.
    func count(dominatedBy channel: Channel) -> Int {
        let (a, b) = ((channel.rawValue + 1) % 3, (channel.rawValue + 2) % 3)
        var n = 0
        for at in stride(from: 0, to: rgb.count, by: 3) {
            let v = Int(rgb[at + channel.rawValue])
            if v > Int(rgb[at + a]) + 32 && v > Int(rgb[at + b]) + 32 { n += 1 }
        }
        return n
    }
}
