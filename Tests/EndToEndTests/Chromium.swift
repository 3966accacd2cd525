import Foundation
import XCTest

/// A page opened in Debian's headless Chromium: its layout as the browser computed it, and a
/// screenshot decoded by netpbm's `pngtopnm`, so that nothing of Livery's reads what it drew.
struct Chromium {
    let test: EndToEndTestCase
    /// The window size in CSS pixels (one device pixel each: `--force-device-scale-factor=1`).
    let width: Int
    let height: Int

    private var flags: [String] {
        [
            "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
            "--force-device-scale-factor=1", "--user-data-dir=" + test.root + "/chromium",
            "--window-size=\(width),\(height)",
            // Virtual time runs out only once the page is idle: every image loaded and decoded.
            "--virtual-time-budget=10000",
        ]
    }

    static var executable: String { Locations.tool("chromium") }

    /// Fails the test unless Chromium and pngtopnm are installed (`make deps-test` installs both).
    static func requireTools() throws {
        for tool in [executable, Locations.tool("pngtopnm")]
        where !FileManager.default.isExecutableFile(atPath: tool) {
            throw HarnessFailure("\(tool) is missing: run `make deps-test` (packages chromium, netpbm)")
        }
    }

    /// The box of every `<figure>` image of `page` once the page has loaded, from the page's own
    /// DOM: a copy of the page with a script that lists each figure's image (loaded or not, its
    /// natural size, its box) after the load event, read back through `--dump-dom`. The copy sits
    /// beside the page, so relative image paths resolve as they do for the page itself.
    func figureLayout(of page: String) throws -> FigureLayout {
        let html = try String(contentsOfFile: page, encoding: .utf8)
        let script = """
            <script>
            window.addEventListener("load", () => {
              const lines = [...document.querySelectorAll("figure")].map(f => {
                const i = f.querySelector("img");
                if (!i) return "figure " + f.id + " none";
                const r = i.getBoundingClientRect();
                return ["figure", f.id, i.complete && i.naturalWidth > 0 ? "loaded" : "broken",
                  i.naturalWidth, i.naturalHeight, r.left, r.top, r.width, r.height].join(" ");
              });
              const page = document.documentElement;
              lines.push("page " + page.scrollWidth + " " + page.scrollHeight);
              const pre = document.createElement("pre");
              pre.id = "figure-layout";
              pre.textContent = "\\n" + lines.join("\\n") + "\\n";
              document.body.append(pre);
            });
            </script>
            """
        guard let end = html.range(of: "</body>", options: .backwards) else {
            throw HarnessFailure("\(page) has no </body>")
        }
        let copy = (page as NSString).deletingLastPathComponent + "/.layout-\(getpid()).html"
        try (html[..<end.lowerBound] + script + html[end.lowerBound...]).write(
            toFile: copy, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: copy) }
        let r = try test.run(
            Self.executable, flags + ["--dump-dom", URL(fileURLWithPath: copy).absoluteString], timeout: 60)
        guard r.status == 0 else { throw HarnessFailure("chromium --dump-dom failed: \(r)") }
        return try FigureLayout(dump: r.stdout)
    }

    /// A screenshot of the window showing `page`, decoded.
    func screenshot(of page: String) throws -> PixelMap {
        let png = test.root + "/screenshot-\(getpid()).png"
        let r = try test.run(
            Self.executable, flags + ["--screenshot=" + png, URL(fileURLWithPath: page).absoluteString],
            timeout: 60)
        guard r.status == 0, FileManager.default.fileExists(atPath: png) else {
            throw HarnessFailure("chromium --screenshot failed: \(r)")
        }
        return try PixelMap(png: png, test: test)
    }
}

/// What `Chromium.figureLayout` read back: each figure's image and the page's size.
struct FigureLayout {
    struct Figure {
        var id: String
        /// False when the figure has no `<img>`.
        var hasImage: Bool
        /// The image finished loading and decoded to a picture.
        var loaded: Bool
        var naturalWidth = 0
        var naturalHeight = 0
        /// The image's box in the page, CSS pixels from the top left (fractional).
        var left = 0.0
        var top = 0.0
        var width = 0.0
        var height = 0.0
    }

    var figures: [Figure] = []
    var pageWidth = 0
    var pageHeight = 0

    init(dump: String) throws {
        guard let start = dump.range(of: "<pre id=\"figure-layout\">"),
            let end = dump.range(of: "</pre>", range: start.upperBound..<dump.endIndex)
        else { throw HarnessFailure("the page's layout script wrote nothing:\n\(dump.suffix(2000))") }
        for line in dump[start.upperBound..<end.lowerBound].split(separator: "\n") {
            let w = line.split(separator: " ").map(String.init)
            if w.count == 3, w[0] == "page", let pw = Int(w[1]), let ph = Int(w[2]) {
                (pageWidth, pageHeight) = (pw, ph)
            } else if w.count == 3, w[0] == "figure", w[2] == "none" {
                figures.append(Figure(id: w[1], hasImage: false, loaded: false))
            } else if w.count == 9, w[0] == "figure", let nw = Int(w[3]), let nh = Int(w[4]),
                let l = Double(w[5]), let t = Double(w[6]), let bw = Double(w[7]), let bh = Double(w[8])
            {
                figures.append(
                    Figure(
                        id: w[1], hasImage: true, loaded: w[2] == "loaded", naturalWidth: nw,
                        naturalHeight: nh,
                        left: l, top: t, width: bw, height: bh))
            } else {
                throw HarnessFailure("unexpected layout line '\(line)'")
            }
        }
    }
}

/// An RGB image decoded from PNG by `pngtopnm` (binary PPM, `P6`, 8 bits a channel).
struct PixelMap {
    var width: Int
    var height: Int
    /// R, G, B bytes, rows top to bottom.
    var bytes: [UInt8]

    init(png: String, test: EndToEndTestCase) throws {
        let decoder = try test.background(Locations.tool("pngtopnm"), [png])
        guard decoder.waitForExit(timeout: 30), decoder.process.terminationStatus == 0 else {
            decoder.stop()
            throw HarnessFailure("pngtopnm \(png) failed: \(decoder.stderr)")
        }
        try self.init(ppm: [UInt8](try Data(contentsOf: URL(fileURLWithPath: decoder.stdoutPath))))
    }

    /// Parses a binary PPM: `P6`, width, height and maximum value separated by white space
    /// (with `#` comments), one white-space byte, then the samples.
    init(ppm: [UInt8]) throws {
        var fields: [Int] = []
        var k = 2
        guard ppm.count > 2, ppm[0] == UInt8(ascii: "P"), ppm[1] == UInt8(ascii: "6") else {
            throw HarnessFailure("not a binary PPM")
        }
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || (0x09...0x0d).contains(b) }
        while fields.count < 3, k < ppm.count {
            if ppm[k] == UInt8(ascii: "#") {
                while k < ppm.count, ppm[k] != 0x0a { k += 1 }
            } else if isSpace(ppm[k]) {
                k += 1
            } else {
                var n = 0
                while k < ppm.count, (0x30...0x39).contains(ppm[k]) {
                    n = n * 10 + Int(ppm[k] - 0x30)
                    k += 1
                }
                fields.append(n)
            }
        }
        k += 1  // the single white-space byte before the samples
        guard fields.count == 3, fields[2] == 255, ppm.count - k == fields[0] * fields[1] * 3 else {
            throw HarnessFailure("PPM header \(fields) does not match \(ppm.count - k) sample bytes")
        }
        (width, height) = (fields[0], fields[1])
        bytes = Array(ppm[k...])
    }

    /// The pixel at (`x`, `y`) as `0xRRGGBB`.
    func pixel(_ x: Int, _ y: Int) -> UInt32 {
        let i = (y * width + x) * 3
        return UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
    }

    /// How many pixels of each colour the rectangle holds (clipped to the image).
    func histogram(x: Int, y: Int, width w: Int, height h: Int) -> [UInt32: Int] {
        var counts: [UInt32: Int] = [:]
        let (x0, x1, y0, y1) = (max(x, 0), min(x + w, width), max(y, 0), min(y + h, height))
        guard x0 < x1, y0 < y1 else { return counts }
        for row in y0..<y1 {
            for column in x0..<x1 {
                counts[pixel(column, row), default: 0] += 1
            }
        }
        return counts
    }
}
