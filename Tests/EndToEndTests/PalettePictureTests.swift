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
    /// A picture its decoder refuses (a JPEG cut short) leaves liveryd serving: the theme is
    /// listed invalid with the decoder's reason at its `palette-from`, a switch to it fails
    /// saying so, and other themes switch.
    func testLiverydListsAPictureCutShortAsAnErrorAndKeepsServing() throws {
        let whole = try XCTUnwrap(FileManager.default.contents(atPath: Self.first))
        let themes = try makeDirectory("themes")
        try writeBundle(
            "cut", in: themes, sheet: "@theme { inherits: \"default\"; palette-from: url(\"wall.jpg\"); }\n",
            files: ["wall.jpg": whole.prefix(whole.count / 2)])
        try startDaemon(extraThemesDirectories: [themes])
        try assertRefusedWhileServing(
            "cut",
            "theme.css:1:49: error: 'wall.jpg' gives no palette: cannot decode the jpeg image: truncated")
    }

    /// A picture its decoder crashes on costs the decoder's process, not liveryd: with a stand-in
    /// decoder that raises SIGSEGV (what a crafted picture does to a loader with a bug) beside a
    /// copy of the built liveryd, which runs the decoder found beside itself, the theme is listed
    /// invalid, naming the signal at its `palette-from`, a switch to it fails, and liveryd serves on.
    func testLiverydKeepsServingWhenItsDecoderCrashes() throws {
        let programs = try makeDirectory("programs")
        try FileManager.default.copyItem(atPath: Locations.liveryd, toPath: programs + "/liveryd")
        let decoder = programs + "/livery-picture"
        try "#!/bin/sh\nkill -SEGV $$\n".write(toFile: decoder, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: decoder)
        let themes = try makeDirectory("themes")
        try writeBundle(
            "crash", in: themes,
            sheet: "@theme { inherits: \"default\"; palette-from: url(\"wall.png\"); }\n",
            files: ["wall.png": onePixelPNG])
        try startDaemon(extraThemesDirectories: [themes], executable: programs + "/liveryd")
        try assertRefusedWhileServing(
            "crash",
            "theme.css:1:49: error: 'wall.png' gives no palette: \(decoder) crashed decoding it (SIGSEGV)")
    }

    /// Theme `id` is listed checked and invalid with an error ending in `error`, `livery set`
    /// fails saying it, and the running liveryd switches to `forest` and resolves its values.
    func assertRefusedWhileServing(
        _ id: String, _ error: String, file: StaticString = #filePath, line: UInt = #line
    )
        throws
    {
        let list = try livery("list", "--json")
        XCTAssertEqual(list.status, 0, "\(list)", file: file, line: line)
        let themes = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]] ?? []
        let theme = themes.first { $0["id"] as? String == id }
        XCTAssertEqual(theme?["checked"] as? Bool, true, "\(list)", file: file, line: line)
        XCTAssertEqual(theme?["valid"] as? Bool, false, "\(list)", file: file, line: line)
        let errors = theme?["errors"] as? [String] ?? []
        XCTAssertTrue(errors.contains { $0.hasSuffix(error) }, "\(errors)", file: file, line: line)
        let set = try livery("set", id)
        XCTAssertEqual(set.status, 1, "\(set)", file: file, line: line)
        XCTAssertTrue(set.stderr.contains(error), "\(set)", file: file, line: line)
        try setTheme("forest", file: file, line: line)
        XCTAssertEqual(
            try resolve("Window/NavigationBar", "tint-color", file: file, line: line), "#008000ff\n")
        XCTAssertTrue(daemon.isRunning, file: file, line: line)
    }
    /// liveryd decodes no picture itself, so it loads none of the image libraries (`ldd`, whose
    /// list is what the dynamic loader maps at start): they are `livery-picture`'s.
    func testLiverydLoadsNoImageLibrary() throws {
        let ldd = try run("/usr/bin/ldd", [Locations.liveryd])
        XCTAssertEqual(ldd.status, 0, "\(ldd)")
        XCTAssertTrue(ldd.stdout.contains("libdbus-1.so"), ldd.stdout)
        for library in ["libcairo", "librsvg", "libgdk_pixbuf", "libpango", "libpng", "libxml2"] {
            XCTAssertFalse(ldd.stdout.contains(library), "\(library): \(ldd.stdout)")
        }
        let decoder = try run("/usr/bin/ldd", [Locations.products + "/livery-picture"])
        XCTAssertTrue(decoder.stdout.contains("libgdk_pixbuf-2.0.so"), decoder.stdout)
    }
}
