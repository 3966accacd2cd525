import Foundation
import LiveryCore
import LiveryPreview
import XCTest

let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// An 8-bit RGB image decoded by netpbm's `pngtopnm` (or read as a binary PPM), not by Livery.
struct PixelImage {
    var width = 0
    var height = 0
    var rgb: [UInt8] = []

    subscript(x: Int, y: Int) -> [UInt8] {
        let i = (y * width + x) * 3
        return Array(rgb[i..<i + 3])
    }

    /// Pixels within `tolerance` per channel of `color` (`0xRRGGBB`), inside `rect` (x, y, w, h
    /// in pixels) when given.
    func count(_ color: UInt32, tolerance: Int = 0, in rect: (Int, Int, Int, Int)? = nil) -> Int {
        let (x0, y0, w, h) = rect ?? (0, 0, width, height)
        let want = [Int(color >> 16 & 0xff), Int(color >> 8 & 0xff), Int(color & 0xff)]
        var n = 0
        for y in max(y0, 0)..<min(y0 + h, height) {
            for x in max(x0, 0)..<min(x0 + w, width) {
                let i = (y * width + x) * 3
                if abs(Int(rgb[i]) - want[0]) <= tolerance && abs(Int(rgb[i + 1]) - want[1]) <= tolerance
                    && abs(Int(rgb[i + 2]) - want[2]) <= tolerance
                {
                    n += 1
                }
            }
        }
        return n
    }

    /// Decodes a PNG file through `pngtopnm` (with `alpha`, its alpha channel as a grey image's
    /// three equal channels).
    static func png(_ path: String, alpha: Bool = false) throws -> PixelImage {
        try ppm(netpbm("pngtopnm", alpha ? ["-alpha", path] : [path]))
    }

    /// The standard output of netpbm's `tool` (in /usr/bin) run with `arguments`.
    /// - Throws: when it cannot start or exits with a status other than 0.
    static func netpbm(_ tool: String, _ arguments: [String]) throws -> Data {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/" + tool)
        p.arguments = arguments
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw CocoaError(.fileReadCorruptFile) }
        return data
    }

    /// Parses a binary PPM (P6, maxval 255).
    static func ppm(_ data: Data) throws -> PixelImage {
        let bytes = [UInt8](data)
        var fields: [String] = []
        var i = 0
        while fields.count < 4 && i < bytes.count {
            while i < bytes.count
                && (bytes[i] == 0x20 || bytes[i] == 0x0a || bytes[i] == 0x09 || bytes[i] == 0x0d)
            {
                i += 1
            }
            if i < bytes.count && bytes[i] == UInt8(ascii: "#") {
                while i < bytes.count && bytes[i] != 0x0a { i += 1 }
                continue
            }
            var token = ""
            while i < bytes.count
                && !(bytes[i] == 0x20 || bytes[i] == 0x0a || bytes[i] == 0x09 || bytes[i] == 0x0d)
            {
                token.append(Character(UnicodeScalar(bytes[i])))
                i += 1
            }
            fields.append(token)
        }
        i += 1
        if fields.first == "P5", fields.count == 4, let w = Int(fields[1]), let h = Int(fields[2]),
            bytes.count - i >= w * h
        {
            return PixelImage(width: w, height: h, rgb: bytes[i..<(i + w * h)].flatMap { [$0, $0, $0] })
        }
        guard fields.count == 4, fields[0] == "P6", let w = Int(fields[1]), let h = Int(fields[2]),
            fields[3] == "255",
            bytes.count - i >= w * h * 3
        else { throw CocoaError(.fileReadCorruptFile) }
        return PixelImage(width: w, height: h, rgb: Array(bytes[i..<i + w * h * 3]))
    }
}

final class PreviewPictureTests: XCTestCase {
    var scratch: URL!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "preview-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: scratch)
    }

    /// Draws theme `id` from `searchPath` (the shipped themes first) and decodes the PNG written.
    func draw(_ id: String, searchPath: [String] = [], size: PreviewSize = .standard) throws -> (
        Picture, PixelImage
    ) {
        let themes = repositoryRoot.appendingPathComponent("themes").path
        let schema = try Schema.load(from: URL(fileURLWithPath: themes + "/schema.json"))
        let catalog = ThemeCatalog(searchPath: searchPath + [themes])
        let (theme, diagnostics) = catalog.compile(id, schema: schema)
        let compiled = try XCTUnwrap(theme, "\(id): \(diagnostics.map(\.rendered))")
        let picture = try Preview.draw(SampleScreen.resolve(Cascade(theme: compiled)), size: size)
        let file = scratch.appendingPathComponent(id + ".png").path
        try picture.writePNG(to: file)
        return (picture, try PixelImage.png(file))
    }

    /// The pixel rectangle of an element at one pixel per point.
    func rect(_ id: String) throws -> (Int, Int, Int, Int) {
        let e = try XCTUnwrap(SampleScreen.elements.first { $0.id == id })
        return (Int(e.frame.x), Int(e.frame.y), Int(e.frame.width), Int(e.frame.height))
    }

    // Seed case 2: forest's accent is rgb(0 128 0), crimson's rgb(128 0 0); each colours the
    // navigation bar's tint, the segmented control, progress, slider, switch, spinner and tab bar.
    func testForestAndCrimsonShowTheirOwnTintAndNotTheOther() throws {
        let (_, forest) = try draw("forest")
        let (_, crimson) = try draw("crimson")
        XCTAssertEqual(forest.width, 360)
        XCTAssertEqual(forest.height, 640)
        // The progress view's fill alone is 197 × 6 pixels of the tint (60 % of 328 points).
        XCTAssertGreaterThan(forest.count(0x008000), 1000)
        XCTAssertEqual(forest.count(0x800000), 0)
        XCTAssertGreaterThan(crimson.count(0x800000), 1000)
        XCTAssertEqual(crimson.count(0x008000), 0)
        // The selected tab's icon (24 × 24 points, corners rounded) is in the tint.
        XCTAssertGreaterThan(forest.count(0x008000, in: try rect("tab-bar")), 400)
        XCTAssertGreaterThan(crimson.count(0x800000, in: try rect("tab-bar")), 400)
        XCTAssertGreaterThan(forest.count(0x008000, in: try rect("progress-view")), 1000)
    }

    // Forest: `Button:highlighted { background-image: url("images/back2.png") }`, stretched over
    // the highlighted button; the normal button has back1.png.
    func testTheHighlightedButtonShowsItsOwnImage() throws {
        let (_, forest) = try draw("forest")
        let back1 = try PixelImage.png(
            repositoryRoot.appendingPathComponent("themes/forest/images/back1.png").path)
        let back2 = try PixelImage.png(
            repositoryRoot.appendingPathComponent("themes/forest/images/back2.png").path)
        // The button is as tall as the image (32 points), so each of the image's rows is one row of
        // the picture: the colour in the middle of each row appears across the button's middle.
        XCTAssertEqual(back2.height, 32)
        let highlighted = try rect("button-highlighted")
        let normal = try rect("button-normal")
        var seen = 0
        for y in 10..<22 {
            let c = back2[back2.width / 2, y]
            let color = UInt32(c[0]) << 16 | UInt32(c[1]) << 8 | UInt32(c[2])
            // Left of the title, right of the rounded corner.
            let band = (highlighted.0 + 9, highlighted.1 + y, 12, 1)
            if forest.count(color, tolerance: 1, in: band) == 12 { seen += 1 }
            let c1 = back1[back1.width / 2, y]
            let other = UInt32(c1[0]) << 16 | UInt32(c1[1]) << 8 | UInt32(c1[2])
            XCTAssertEqual(forest.count(other, in: band), 0, "back1's row \(y) in the highlighted button")
            XCTAssertGreaterThan(
                forest.count(other, tolerance: 1, in: (normal.0 + 9, normal.1 + y, 12, 1)), 11,
                "back1's row \(y) in the normal button")
        }
        XCTAssertEqual(seen, 12)
    }

    func testSVGAndJPEGBackgroundImagesAreDrawn() throws {
        let bundle = scratch.appendingPathComponent("themes/pictures")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        // A 20 × 10 SVG filled with #1e90ff, stretched over every button.
        try Data(
            "<svg xmlns='http://www.w3.org/2000/svg' width='20' height='10'><rect width='20' height='10' fill='#1e90ff'/></svg>"
                .utf8
        ).write(to: bundle.appendingPathComponent("button.svg"))
        // A JPEG of solid #c04000 made by netpbm (lossy: compared within a tolerance).
        let ppm = bundle.appendingPathComponent("bar.ppm").path
        var pixels = Data("P6\n16 16\n255\n".utf8)
        for _ in 0..<256 { pixels.append(contentsOf: [0xc0, 0x40, 0x00]) }
        try pixels.write(to: URL(fileURLWithPath: ppm))
        try PixelImage.netpbm("pnmtojpeg", [ppm]).write(to: bundle.appendingPathComponent("bar.jpg"))
        try Data(
            """
            @theme { name: "Pictures"; inherits: "default"; }
            Button { background-image: url("button.svg"); }
            NavigationBar { background-image: url("bar.jpg"); }
            """.utf8
        ).write(to: bundle.appendingPathComponent("theme.css"))
        let (picture, image) = try draw(
            "pictures", searchPath: [scratch.appendingPathComponent("themes").path])
        XCTAssertEqual(picture.warnings.map(\.description), [])
        let button = try rect("button-normal")
        // Rounded corners (8 points) and the title aside, most of the button is the SVG's colour.
        XCTAssertGreaterThan(image.count(0x1e90ff, tolerance: 1, in: button), button.2 * button.3 / 2)
        let bar = try rect("navigation-bar")
        XCTAssertGreaterThan(image.count(0xc04000, tolerance: 6, in: bar), bar.2 * bar.3 / 2)
    }

    func testAnSVGOverLibrsvgsLimitsIsWarnedAboutAndTheRestIsStillDrawn() throws {
        let bundle = scratch.appendingPathComponent("themes/svg-bomb")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        // Ten levels of ten `<use>` each of the level below: 10¹⁰ rectangles to draw.
        var svg = "<svg xmlns='http://www.w3.org/2000/svg' xmlns:xlink='http://www.w3.org/1999/xlink' "
        svg += "width='20' height='10'><defs><rect id='g0' width='20' height='10' fill='#1e90ff'/>"
        for level in 1...10 {
            svg += "<g id='g\(level)'>"
            for _ in 0..<10 { svg += "<use xlink:href='#g\(level - 1)'/>" }
            svg += "</g>"
        }
        svg += "</defs><use xlink:href='#g10'/></svg>"
        try Data(svg.utf8).write(to: bundle.appendingPathComponent("bomb.svg"))
        try Data(
            """
            @theme { name: "SVG bomb"; inherits: "default"; }
            Button:highlighted { background-image: url("bomb.svg"); background-color: #102030; }
            TabBar { bar-tint-color: #203040; }
            """.utf8
        ).write(to: bundle.appendingPathComponent("theme.css"))
        let (picture, image) = try draw(
            "svg-bomb", searchPath: [scratch.appendingPathComponent("themes").path])
        XCTAssertEqual(picture.warnings.count, 1, "\(picture.warnings)")
        XCTAssertTrue(
            picture.warnings.first?.description.contains("bomb.svg") ?? false, "\(picture.warnings)")
        // Drawn without it: the button's colour; and what is drawn after it is there.
        let button = try rect("button-highlighted")
        XCTAssertGreaterThan(image.count(0x102030, in: button), button.2 * button.3 / 2)
        XCTAssertGreaterThan(image.count(0x203040, in: try rect("tab-bar")), 360 * 56 / 2)
    }

    func testAnImageThatCannotBeReadIsWarnedAboutAndLeftOut() throws {
        let bundle = scratch.appendingPathComponent("themes/broken-image")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        // A PNG signature, so that the theme compiles, then no PNG.
        try Data([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] + Array("not a picture".utf8)).write(
            to: bundle.appendingPathComponent("noise.png"))
        try Data(
            """
            @theme { name: "Broken image"; inherits: "default"; }
            Button { background-image: url("noise.png"); background-color: #102030; }
            """.utf8
        ).write(to: bundle.appendingPathComponent("theme.css"))
        let (picture, image) = try draw(
            "broken-image", searchPath: [scratch.appendingPathComponent("themes").path])
        // One warning for the one file, however many buttons use it.
        XCTAssertEqual(picture.warnings.count, 1)
        XCTAssertTrue(picture.warnings[0].description.contains("noise.png"), picture.warnings[0].description)
        // Drawn without the image: the button's background colour shows.
        let button = try rect("button-normal")
        XCTAssertGreaterThan(image.count(0x102030, in: button), button.2 * button.3 / 2)
    }

    func testAnImageLargerThanTheLimitIsRefusedBeforeItIsDecoded() throws {
        let bundle = scratch.appendingPathComponent("themes/huge-image")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        // 4,097 × 2 pixels: one column over the 4,096 per side drawn.
        let ppm = scratch.appendingPathComponent("wide.ppm")
        var pixels = Data("P6\n4097 2\n255\n".utf8)
        pixels.append(Data(repeating: 0x40, count: 4097 * 2 * 3))
        try pixels.write(to: ppm)
        try PixelImage.netpbm("pnmtopng", [ppm.path]).write(to: bundle.appendingPathComponent("wide.png"))
        try Data(
            """
            @theme { name: "Huge image"; inherits: "default"; }
            TabBar { background-image: url("wide.png"); bar-tint-color: #203040; }
            """.utf8
        ).write(to: bundle.appendingPathComponent("theme.css"))
        let (picture, image) = try draw(
            "huge-image", searchPath: [scratch.appendingPathComponent("themes").path])
        XCTAssertEqual(picture.warnings.count, 1)
        XCTAssertTrue(
            picture.warnings[0].description.contains("4097×2 pixels"), picture.warnings[0].description)
        XCTAssertGreaterThan(image.count(0x203040, in: try rect("tab-bar")), 360 * 56 / 2)
    }

    /// The CRC-32 of PNG chunks (ISO 3309, reflected polynomial 0xEDB88320), bit by bit.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? crc >> 1 ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// A PNG header claiming 60000 × 60000 pixels is refused from the header, without the 14 GB its
    /// pixels would take (the process's peak resident memory stays under 2 GiB), and a baseline
    /// JPEG cut in its scan data, which gdk-pixbuf's loader completes in grey without an error, is
    /// refused as truncated.
    func testAHugeHeaderAndATruncatedJPEGAreRefusedBeforeTheyAreDecoded() throws {
        let bundle = scratch.appendingPathComponent("themes/bad-images")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        func chunk(_ kind: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(kind.utf8) + data
            func bigEndian(_ v: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(v >> $0 & 255) } }
            return bigEndian(UInt32(data.count)) + body + bigEndian(Self.crc32(body))
        }
        let side: [UInt8] = [0, 0, 0xEA, 0x60]  // 60000
        // A zlib stream of 16 zero bytes, as Python's zlib.compress writes it.
        let zeros: [UInt8] = [0x78, 0x9c, 0x63, 0x60, 0x40, 0x05, 0x00, 0x00, 0x10, 0x00, 0x01]
        let png =
            [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] + chunk("IHDR", side + side + [8, 2, 0, 0, 0])
            + chunk("IDAT", zeros)
            + chunk("IEND", [])
        try Data(png).write(to: bundle.appendingPathComponent("huge.png"))
        let ppm = scratch.appendingPathComponent("bar.ppm")
        var pixels = Data("P6\n320 240\n255\n".utf8)
        for i in 0..<(320 * 240) { pixels.append(contentsOf: [UInt8(i % 251), 0x80, UInt8(i % 241)]) }
        try pixels.write(to: ppm)
        let jpeg = try PixelImage.netpbm("pnmtojpeg", [ppm.path])
        try jpeg.prefix(jpeg.count / 2).write(to: bundle.appendingPathComponent("cut.jpg"))
        try Data(
            """
            @theme { name: "Bad images"; inherits: "default"; }
            TabBar { background-image: url("huge.png"); }
            NavigationBar { background-image: url("cut.jpg"); }
            """.utf8
        ).write(to: bundle.appendingPathComponent("theme.css"))
        let (picture, _) = try draw("bad-images", searchPath: [scratch.appendingPathComponent("themes").path])
        let warnings = picture.warnings.map(\.description).sorted()
        XCTAssertEqual(warnings.count, 2, "\(warnings)")
        XCTAssertTrue(
            warnings.contains {
                $0.contains("cut.jpg") && $0.contains("cannot decode the jpeg image: truncated")
            },
            "\(warnings)")
        XCTAssertTrue(
            warnings.contains { $0.contains("huge.png") && $0.contains("the image is 60000×60000 pixels") },
            "\(warnings)")
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        XCTAssertLessThan(usage.ru_maxrss, 2 << 20, "peak resident memory in KiB")
    }

    // The schema's initial `separator-insets: 0 0 0 16` (top right bottom left, CSS order): the
    // line under a row starts 16 points from the left and runs to the right edge. default's
    // `separator: alpha(#3c3c43, 0.29)` over the white table: 255 − (255 − 60) × 0.29 = 198.45,
    // and 255 − (255 − 67) × 0.29 = 200.48 for blue.
    func testRowSeparatorsAreInsetFromTheLeft() throws {
        let (_, image) = try draw("default")
        let line = 212 + 44 - 1
        XCTAssertEqual(image.count(0xffffff, in: (0, line, 16, 1)), 16)
        XCTAssertEqual(image.count(0xc6c6c8, tolerance: 1, in: (16, line, 344, 1)), 344)
    }

    func testATranslucentWindowGivesAPictureWithAlpha() throws {
        let bundle = scratch.appendingPathComponent("themes/glass")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        try Data(
            """
            @theme { name: "Glass"; inherits: "default"; }
            Window { background-color: rgb(0 0 255 / 0.5); }
            """.utf8
        ).write(to: bundle.appendingPathComponent("theme.css"))
        _ = try draw("glass", searchPath: [scratch.appendingPathComponent("themes").path])
        let file = scratch.appendingPathComponent("glass.png").path
        let color = try PixelImage.png(file)
        let alpha = try PixelImage.png(file, alpha: true)
        // The window's colour where nothing else is drawn (between the switches and the table):
        // straight, not premultiplied, blue, at half opacity (0.5 × 255 = 127.5).
        let gap = (0, 202, 360, 8)
        XCTAssertEqual(color.count(0x0000ff, in: gap), 360 * 8)
        XCTAssertEqual(alpha.count(0x808080, tolerance: 1, in: gap), 360 * 8)
        // The opaque bars stay opaque.
        XCTAssertEqual(alpha.count(0xffffff, in: try rect("tab-bar")), 360 * 56)
    }

    func testTheCanvasIsScaledToTheSizeAskedFor() throws {
        // 720 × 1280 is twice the canvas: the progress view's fill is 394 × 12 pixels.
        let (_, big) = try draw("forest", size: PreviewSize(width: 720, height: 1280))
        XCTAssertEqual(big.width, 720)
        XCTAssertEqual(big.height, 1280)
        let progress = try rect("progress-view")
        let fill = (
            progress.0 * 2, progress.1 * 2, Int(Double(progress.2 * 2) * SampleScreen.progress),
            progress.3 * 2
        )
        XCTAssertGreaterThan(big.count(0x008000, in: fill), fill.2 * fill.3 * 9 / 10)
        // A wider picture than the canvas's shape: the screen is centred, the sides in the window's colour.
        // default-dark: `@define-color window_bg #1c1c1e`, the Window's background-color.
        let (_, wide) = try draw("default-dark", size: PreviewSize(width: 800, height: 640))
        XCTAssertEqual(wide.count(0x1c1c1e, in: (0, 0, 220, 640)), 220 * 640)
        XCTAssertEqual(wide.count(0x1c1c1e, in: (580, 0, 220, 640)), 220 * 640)
    }
}
