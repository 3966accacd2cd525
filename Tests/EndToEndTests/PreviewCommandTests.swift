import Foundation
import XCTest

/// `livery preview`: the sample screen drawn into a PNG with no daemon, decoded here by netpbm.
final class PreviewCommandTests: EndToEndTestCase {
    func preview(_ arguments: String...) throws -> RunResult {
        try run(Locations.livery, ["preview", "--themes-dir", Locations.themes] + arguments)
    }

    func testForestIsDrawnIntoTheFileGiven() throws {
        let out = try makeDirectory("out") + "/forest.png"
        let r = try preview("forest", "-o", out)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, out + "\n")
        XCTAssertEqual(r.stderr, "")
        // pngtopnm's PPM goes through a pipe as bytes; read the file instead of the text output.
        let ppm = root + "/forest.ppm"
        let sh = try run("/bin/sh", ["-c", "/usr/bin/pngtopnm '\(out)' > '\(ppm)'"])
        XCTAssertEqual(sh.status, 0, sh.stderr)
        let image = try Screenshot(ppm: try Data(contentsOf: URL(fileURLWithPath: ppm)))
        XCTAssertEqual(image.width, 360)
        XCTAssertEqual(image.height, 640)
        // forest.css: `@define-color accent rgb(0 128 0)` tints the progress view, among others.
        XCTAssertGreaterThan(image.count(of: PixelColor("#008000")), 1000)
        XCTAssertEqual(image.count(of: PixelColor("#800000")), 0)
        // No temporary file is left beside the picture.
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root + "/out"), ["forest.png"])
    }

    func testTheDefaultFileIsTheThemesIdInTheCurrentDirectory() throws {
        let dir = try makeDirectory("cwd")
        let r = try run(
            "/bin/sh",
            ["-c", "cd '\(dir)' && '\(Locations.livery)' preview crimson --themes-dir '\(Locations.themes)'"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "crimson.png\n")
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/crimson.png"))
        // `-o -`: the PNG on standard output, nothing written in the directory.
        let piped = try run(
            "/bin/sh",
            [
                "-c",
                "cd '\(dir)' && '\(Locations.livery)' preview crimson --themes-dir '\(Locations.themes)' -o - | /usr/bin/pngtopnm > '\(root)/piped.ppm'",
            ])
        XCTAssertEqual(piped.status, 0, piped.stderr)
        let image = try Screenshot(ppm: try Data(contentsOf: URL(fileURLWithPath: root + "/piped.ppm")))
        XCTAssertEqual(image.width, 360)
        XCTAssertGreaterThan(image.count(of: PixelColor("#800000")), 1000)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), ["crimson.png"])
    }

    /// An SVG whose drawing would take librsvg minutes (150 bytes: `feTurbulence` with 100,000
    /// octaves, whose time grows with the number) is given up at the renderer's deadline: the
    /// picture is written, with one warning naming the image, and every button drawn without it.
    func testAnSVGThatTakesTooLongIsGivenUpWithOneWarning() throws {
        let themes = try makeDirectory("themes")
        let svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="20" height="10"><filter id="f"><feTurbulence \
            numOctaves="100000"/></filter><rect width="20" height="10" filter="url(#f)"/></svg>
            """
        let bundle = try writeBundle(
            "turbulent", in: themes,
            sheet: """
                @theme { name: "Turbulent"; inherits: "default"; }
                Button { background-image: url("noise.svg"); background-color: #102030; }
                """, files: ["noise.svg": Data(svg.utf8)])
        let out = root + "/turbulent.png"
        // Minutes before the renderer had a deadline: killed at this generous timeout.
        let r = try run(
            Locations.livery, ["preview", "turbulent", "--themes-dir", themes, "-o", out], timeout: 30)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(
            r.stderr,
            bundle + "/noise.svg: warning: librsvg did not finish drawing the SVG image within 1 s and was "
                + "stopped; drawn without it\n")
        let ppm = root + "/turbulent.ppm"
        let sh = try run("/bin/sh", ["-c", "/usr/bin/pngtopnm '\(out)' > '\(ppm)'"])
        XCTAssertEqual(sh.status, 0, sh.stderr)
        let image = try Screenshot(ppm: try Data(contentsOf: URL(fileURLWithPath: ppm)))
        // The buttons (156 × 36 points each at this size) in their background colour.
        XCTAssertGreaterThan(image.count(of: PixelColor("#102030")), 156 * 36)
    }

    func testABrokenThemeGivesItsDiagnosticsAndNoPicture() throws {
        let themes = try makeDirectory("themes")
        try writeBundle(
            "broken", in: themes,
            sheet: """
                @theme { name: "Broken"; inherits: "default"; }
                NavigationBar { tint-color: #12345; }
                """)
        let out = root + "/broken.png"
        let r = try run(Locations.livery, ["preview", "broken", "--themes-dir", themes, "-o", out])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains(themes + "/broken/theme.css:2:"), r.stderr)
        XCTAssertTrue(r.stderr.contains("error"), r.stderr)
        XCTAssertEqual(r.stdout, "")
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
    }

    func testBadSizesAndUnwritableFilesAreRefused() throws {
        let size = try preview("forest", "--size", "0x10", "-o", root + "/x.png")
        XCTAssertEqual(size.status, 2)
        XCTAssertTrue(size.stderr.contains("bad size '0x10'"), size.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: root + "/x.png"))
        let missing = try preview("forest", "-o", root + "/no/such/dir/x.png")
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(
            missing.stderr.contains(
                root
                    + "/no/such/dir/x.png: error: cannot write the picture: no such directory \(root)/no/such/dir"
            ),
            missing.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: root + "/no"), "no directory is made")
        // Only ever a file: a link to a device, a pipe and a directory are refused, untouched.
        let link = root + "/null.png"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/null")
        let device = try preview("forest", "-o", link)
        XCTAssertEqual(device.status, 1)
        XCTAssertTrue(
            device.stderr.contains("/dev/null is not a regular file; Livery writes only files"), device.stderr
        )
        var st = stat()
        XCTAssertEqual(stat("/dev/null", &st), 0)
        XCTAssertEqual(st.st_mode & S_IFMT, S_IFCHR, "/dev/null is still a device")
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link), "/dev/null")
        XCTAssertEqual(mkfifo(root + "/pipe.png", 0o600), 0)
        let pipe = try preview("forest", "-o", root + "/pipe.png")
        XCTAssertEqual(pipe.status, 1)
        XCTAssertTrue(pipe.stderr.contains("pipe.png is not a regular file"), pipe.stderr)
        XCTAssertEqual(lstat(root + "/pipe.png", &st), 0)
        XCTAssertEqual(st.st_mode & S_IFMT, S_IFIFO, "the pipe is still a pipe")
        let directory = try preview("forest", "-o", root)
        XCTAssertEqual(directory.status, 1)
        XCTAssertTrue(
            directory.stderr.contains("\(root) is a directory; Livery writes only files"), directory.stderr)
        let unknown = try preview("forrest")
        XCTAssertEqual(unknown.status, 1)
        XCTAssertTrue(
            unknown.stderr.contains("no theme 'forrest' is installed (did you mean 'forest'?)"),
            unknown.stderr)
    }
}
