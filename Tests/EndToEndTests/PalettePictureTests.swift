import Foundation
import XCTest

/// A skin whose palette comes from its own picture (`@theme { palette-from: url(…) }`): switched
/// to on a private bus, its colours are those `livery generate --json` gives for the picture (the
/// generator is tested against the materialyoucolor oracle), exporters follow, and editing the
/// picture republishes with the new colours.
final class PalettePictureTests: EndToEndTestCase {
    /// Two of Debian's desktop-base pictures (the Makefile's TEST_PACKAGES) of different colours.
    static let first = "/usr/share/desktop-base/joy-theme/login/sddm-preview.jpg"
    static let second = "/usr/share/desktop-base/emerald-theme/grub/grub-16x9.png"

    /// `livery generate PICTURE --json` with `options`, parsed.
    func generated(_ picture: String, _ options: [String]) throws -> [String: Any] {
        let r = try run(Locations.livery, ["generate", picture, "--json"] + options)
        XCTAssertEqual(r.status, 0, "\(r)")
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    }

    func testASkinsPaletteFromItsPictureIsGeneratedAndFollowsItsEdits() throws {
        for path in [Self.first, Self.second] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: path), "\(path): install desktop-base")
        }
        let themes = try makeDirectory("themes")
        let sheet = """
            @theme {
              name: "Joy"; variant: dark; inherits: "default-dark";
              palette-from: url("wall.jpg"); palette-scheme: vibrant; palette-contrast: 0.5;
            }
            @define-color accent @primary;
            Window { background-color: @surface_container; }
            Window Label { text-color: @on_surface; }

            """
        let bundle = try writeBundle(
            "joy", in: themes, sheet: sheet,
            files: ["wall.jpg": try XCTUnwrap(FileManager.default.contents(atPath: Self.first))])
        let options = ["--scheme", "vibrant", "--contrast", "0.5"]
        let expected = try generated(Self.first, options)
        let roles = try XCTUnwrap(expected["dark"] as? [String: String])
        let terminal = try XCTUnwrap((expected["terminal"] as? [String: Any])?["dark"] as? [String: String])

        let check = try run(Locations.livery, ["check", "--themes-dir", Locations.themes, bundle])
        XCTAssertEqual(check.status, 0, "\(check)")
        try startDaemon(extraThemesDirectories: [themes])
        try setTheme("joy")
        XCTAssertEqual(try resolve("Window", "background-color"), roles["surface_container"]! + "ff\n")
        XCTAssertEqual(try resolve("Window/Label", "text-color"), roles["on_surface"]! + "ff\n")
        XCTAssertEqual(try resolve("Window", "tint-color"), roles["primary"]! + "ff\n")

        // An exporter follows: kitty's template, as the kitty plugin renders it.
        let kitty = try run(
            Locations.livery,
            [
                "export", "joy", Locations.repo + "/plugins/kitty/kitty.mustache", "--themes-dir", themes,
                "--themes-dir", Locations.themes,
            ])
        XCTAssertEqual(kitty.status, 0, "\(kitty)")
        let lines = Set(
            kitty.stdout.split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") })
        for n in [0, 1, 4, 9, 15] {
            XCTAssertTrue(lines.contains("color\(n) \(terminal["color\(n)"]!)"), "color\(n): \(kitty.stdout)")
        }
        XCTAssertTrue(lines.contains("background \(terminal["background"]!)"), kitty.stdout)
        XCTAssertTrue(lines.contains("foreground \(terminal["foreground"]!)"), kitty.stdout)

        // Editing the picture in place republishes with the new picture's colours.
        let monitor = try startMonitor("type='signal',interface='org.livery.Livery1',member='ThemeChanged'")
        let next = try XCTUnwrap(
            (try generated(Self.second, options)["dark"] as? [String: String])?["surface_container"])
        XCTAssertNotEqual(next, roles["surface_container"])
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: bundle + "/wall.jpg"))
        handle.truncateFile(atOffset: 0)
        handle.write(try XCTUnwrap(FileManager.default.contents(atPath: Self.second)))
        try handle.close()
        XCTAssertTrue(
            waitUntil { monitor.stdout.contains("ThemeChanged") }, "no ThemeChanged: \(daemon.stderr)")
        let followed = try waitUntil { try resolve("Window", "background-color") == next + "ff\n" }
        let shown = try resolve("Window", "background-color")
        XCTAssertTrue(followed, "\(shown) \(daemon.stderr)")
    }

    /// A palette picture is an image of its bundle: at most 16 MiB (16 × 2²⁰ bytes), as the
    /// README's section says; one byte more is an error at its name, saying the limit, before
    /// anything is decoded (a sparse file: only its PNG signature is written).
    func testAPictureOverSixteenMebibytesIsAnErrorAtItsName() throws {
        let themes = try makeDirectory("themes")
        let bundle = try writeBundle(
            "large", in: themes,
            sheet: "@theme { inherits: \"default\"; palette-from: url(\"wall.png\"); }\n",
            files: ["wall.png": onePixelPNG])
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: bundle + "/wall.png"))
        try handle.truncate(atOffset: 16 * 1024 * 1024 + 1)
        try handle.close()
        let check = try run(Locations.livery, ["check", "--themes-dir", Locations.themes, bundle])
        XCTAssertEqual(check.status, 1, "\(check)")
        XCTAssertTrue(
            (check.stdout + check.stderr).contains(
                "theme.css:1:49: error: 'wall.png' is 16777217 bytes; images are limited to 16 MiB (16777216 bytes)"
            ),
            "\(check)")
    }

    func testAPictureThatDoesNotDecodeIsAnErrorAtItsName() throws {
        let themes = try makeDirectory("themes")
        let bundle = try writeBundle(
            "broken", in: themes,
            sheet: "@theme { inherits: \"default\"; palette-from: url(\"wall.png\"); }\n",
            files: ["wall.png": Data([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0])])
        let check = try run(Locations.livery, ["check", "--themes-dir", Locations.themes, bundle])
        XCTAssertEqual(check.status, 1, "\(check)")
        XCTAssertTrue(
            (check.stdout + check.stderr).contains(
                "theme.css:1:49: error: 'wall.png' gives no palette: cannot decode the png image"),
            "\(check)")
    }
}
