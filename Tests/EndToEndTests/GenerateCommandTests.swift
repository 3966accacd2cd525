import Foundation
import XCTest

/// `livery generate`: real wallpapers through the whole pipeline against the materialyoucolor
/// pipeline, neutral pictures, bad input, and a generated bundle pair switched to on a private bus.
final class GenerateCommandTests: EndToEndTestCase {
    /// The largest CIE76 ΔE (L*a*b*, D65) allowed between Livery's source colour and the
    /// materialyoucolor pipeline's for the same picture. The two pipelines differ in their
    /// resize (the image crate's triangle filter against Pillow's bilinear) and in how their
    /// k-means is seeded, so the centroids Score picks from move by a few ΔE.
    static let sourceTolerance = 6.0

    /// Debian's desktop-base pictures (the Makefile's TEST_PACKAGES): PNGs decoded whole and
    /// JPEGs decoded at reduced scale.
    static let wallpapers = [
        "/usr/share/desktop-base/softwaves-theme/grub/grub-16x9.png",
        "/usr/share/desktop-base/emerald-theme/grub/grub-16x9.png",
        "/usr/share/desktop-base/joy-theme/grub/grub-16x9.png",
        "/usr/share/desktop-base/homeworld-theme/grub/grub-16x9.png",
        "/usr/share/desktop-base/moonlight-theme/grub/grub-16x9.png",
        "/usr/share/desktop-base/spacefun-theme/login/sddm-preview.jpg",
        "/usr/share/desktop-base/lines-theme/login/sddm-preview.jpg",
        "/usr/share/desktop-base/joy-theme/login/sddm-preview.jpg",
    ]

    var venvPython: String { Locations.repo + "/.build/test-venv/bin/python" }

    func generate(_ arguments: String...) throws -> RunResult {
        try run(Locations.livery, ["generate"] + arguments, timeout: 30)
    }

    func json(_ r: RunResult) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(r)")
    }

    /// CIE L*a*b* (D65) of `#rrggbb`, written here from the CIE formulas.
    static func lab(_ hex: String) -> [Double] {
        let v = Int(hex.dropFirst(), radix: 16)!
        func linear(_ c: Int) -> Double {
            let s = Double(c) / 255
            return s <= 0.04045 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4)
        }
        let (r, g, b) = (linear(v >> 16 & 255), linear(v >> 8 & 255), linear(v & 255))
        let x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
        let y = 0.2126 * r + 0.7152 * g + 0.0722 * b
        let z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
        func f(_ t: Double) -> Double { t > 216 / 24389 ? cbrt(t) : (24389 / 27 * t + 16) / 116 }
        return [116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))]
    }

    static func deltaE(_ a: String, _ b: String) -> Double {
        zip(lab(a), lab(b)).map { ($0 - $1) * ($0 - $1) }.reduce(0, +).squareRoot()
    }

    func testRealWallpapersLandNearTheMaterialyoucolorPipelinesSource() throws {
        for path in Self.wallpapers {
            XCTAssertTrue(FileManager.default.fileExists(atPath: path), "\(path): install desktop-base")
        }
        let reference = try run(
            venvPython, [Locations.repo + "/scripts/material-image-source.py"] + Self.wallpapers, timeout: 60)
        XCTAssertEqual(reference.status, 0, "\(reference)")
        let want = reference.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(want.count, Self.wallpapers.count)
        var report: [String] = []
        for (path, expected) in zip(Self.wallpapers, want) {
            let r = try generate(path, "--json")
            XCTAssertEqual(r.status, 0, "\(r)")
            let source = try XCTUnwrap(try json(r)["source"] as? String)
            let distance = Self.deltaE(source, expected)
            report.append("\((path as NSString).lastPathComponent) \(source) \(expected) ΔE \(distance)")
            XCTAssertLessThanOrEqual(
                distance, Self.sourceTolerance, "\(path): \(source), reference \(expected)")
            // The same picture, the same colours.
            XCTAssertEqual(try generate(path, "--json").stdout, r.stdout)
        }
        print("GenerateCommandTests sources:\n" + report.joined(separator: "\n"))
    }

    func testAGreyPictureGivesANeutralSchemeAndSaysSo() throws {
        let grey = root + "/grey.png"
        let made = try run(
            venvPython,
            [
                "-c",
                "import sys; from PIL import Image; Image.new('RGB', (640, 360), (128, 128, 128)).save(sys.argv[1])",
                grey,
            ])
        XCTAssertEqual(made.status, 0, "\(made)")
        let r = try generate(grey, "--json")
        XCTAssertEqual(r.status, 0, "\(r)")
        let object = try json(r)
        XCTAssertEqual(object["source"] as? String, "#808080")
        XCTAssertEqual(object["scheme"] as? String, "monochrome")
        XCTAssertTrue((object["note"] as? String ?? "").contains("no colour"), "\(object)")
        let text = try generate(grey)
        XCTAssertEqual(text.status, 0)
        XCTAssertTrue(text.stderr.contains("note:"), "\(text)")
    }

    func testTheJSONHasTheIssuesShape() throws {
        let r = try generate("--color", "#0000ff", "--scheme", "content", "--contrast", "0.5", "--json")
        XCTAssertEqual(r.status, 0, "\(r)")
        let object = try json(r)
        XCTAssertEqual(
            Set(object.keys),
            ["source", "ranked", "scheme", "contrast", "light", "dark", "terminal", "base16"])
        XCTAssertEqual(object["source"] as? String, "#0000ff")
        XCTAssertEqual(object["ranked"] as? [String], ["#0000ff"])
        XCTAssertEqual(object["scheme"] as? String, "content")
        XCTAssertEqual(object["contrast"] as? Double, 0.5)
        let light = try XCTUnwrap(object["light"] as? [String: String])
        XCTAssertEqual(light.count, 49)
        for role in [
            "background", "surface_container_highest", "on_primary_fixed_variant", "on_error_container",
        ] {
            XCTAssertNotNil(light[role], role)
        }
        let terminal = try XCTUnwrap(object["terminal"] as? [String: [String: String]])
        XCTAssertEqual(
            Set(terminal["dark"]!.keys),
            Set((0..<16).map { "color\($0)" } + ["background", "foreground", "cursor"]))
        let base16 = try XCTUnwrap(object["base16"] as? [String: [String: String]])
        XCTAssertEqual(Set(base16["light"]!.keys), Set((0..<16).map { String(format: "base0%X", $0) }))
    }

    func testBadInputIsAClearError() throws {
        var r = try generate(root + "/missing.jpg")
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr, "\(root)/missing.jpg: error: cannot be read: No such file or directory\n")
        let text = root + "/notes.txt"
        try "not a picture".write(toFile: text, atomically: true, encoding: .utf8)
        r = try generate(text)
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr, "\(text): error: not a PNG, JPEG, WebP or SVG image\n")
        let broken = root + "/broken.png"
        try onePixelPNG.prefix(40).write(to: URL(fileURLWithPath: broken))
        r = try generate(broken)
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.hasPrefix("\(broken): error: cannot decode the png image"), "\(r)")
        r = try generate("--color", "#12345g")
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.contains("--color needs a colour as #rrggbb or #rgb, not '#12345g'"), "\(r)")
        r = try generate("--color", "#0000ff", "--scheme", "tonalspot")
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(
            r.stderr.contains(
                "unknown scheme 'tonalspot' (did you mean 'tonal-spot'?); the schemes are tonal-spot, content, "
                    + "fidelity, vibrant, expressive, monochrome, neutral, rainbow, fruit-salad"), "\(r)")
        r = try generate("--color", "#0000ff", "--contrast", "1.5")
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.contains("--contrast needs a number from -1 to 1, not '1.5'"), "\(r)")
        r = try generate("--color", "#0000ff", Self.wallpapers[0])
        XCTAssertEqual(r.status, 2, "an image and --color")
        r = try generate()
        XCTAssertEqual(r.status, 2, "neither")
    }

    /// A PNG whose header claims 60000 × 60000 pixels (its chunks' CRCs by Python's zlib), and a
    /// WebP claiming 16000 × 16000, are refused from their headers: the process's peak memory
    /// (GNU time's maximum resident set) stays far below the 14 GB the PNG would take decoded.
    func testAHugeHeaderIsRefusedBeforeAnythingIsDecoded() throws {
        let huge = root + "/huge.png"
        let made = try run(
            venvPython,
            [
                "-c",
                """
                import struct, sys, zlib
                def chunk(kind, data):
                    return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data))
                ihdr = struct.pack('>IIBBBBB', 60000, 60000, 8, 2, 0, 0, 0)
                open(sys.argv[1], 'wb').write(b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', ihdr)
                    + chunk(b'IDAT', zlib.compress(b'\\0' * 16)) + chunk(b'IEND', b''))
                """,
                huge,
            ])
        XCTAssertEqual(made.status, 0, "\(made)")
        let usage = root + "/huge.time"
        let r = try run(
            "/usr/bin/time", ["-f", "%M", "-o", usage, Locations.livery, "generate", huge], timeout: 30)
        XCTAssertEqual(r.status, 1, "\(r)")
        XCTAssertEqual(
            r.stderr,
            "\(huge): error: the image is 60000×60000 pixels; at most 65535 per side and 64 Mi pixels decoded\n"
        )
        // GNU time writes "Command exited with non-zero status 1" before its format's line.
        let report = try String(contentsOfFile: usage, encoding: .utf8)
        let kilobytes = try XCTUnwrap(Int(report.split(separator: "\n").last ?? ""), report)
        XCTAssertLessThan(kilobytes, 500 << 10, "peak resident memory in KiB")
        // A WebP whose extended header (VP8X) states a 16000 × 16000 canvas: 250 Mi pixels.
        let wide = root + "/huge.webp"
        var webp = Data("RIFF".utf8) + [22, 0, 0, 0] + Data("WEBPVP8X".utf8) + [10, 0, 0, 0, 0, 0, 0, 0]
        webp += [0x7F, 0x3E, 0x00, 0x7F, 0x3E, 0x00]  // 15999 twice, 24 bits little-endian
        try webp.write(to: URL(fileURLWithPath: wide))
        let w = try generate(wide)
        XCTAssertEqual(w.status, 1, "\(w)")
        XCTAssertEqual(
            w.stderr,
            "\(wide): error: the image is 16000×16000 pixels; at most 65535 per side and 64 Mi pixels decoded\n"
        )
    }

    /// A JPEG cut short, baseline (which gdk-pixbuf's loader completes in grey on close, without an
    /// error) or progressive, and a PNG or WebP cut short, are refused as truncated; the whole
    /// baseline JPEG and WebP are read.
    func testATruncatedPictureIsAnError() throws {
        let baseline = root + "/baseline.jpg"
        let lossless = root + "/lossless.webp"
        let made = try run(
            venvPython,
            [
                "-c",
                "import sys; from PIL import Image; im = Image.open(sys.argv[1]).convert('RGB'); "
                    + "im.save(sys.argv[2], quality=90); im.save(sys.argv[3], lossless=True)",
                Self.wallpapers[0], baseline, lossless,
            ])
        XCTAssertEqual(made.status, 0, "\(made)")
        XCTAssertEqual(try generate(baseline).status, 0)
        XCTAssertEqual(try generate(lossless).status, 0)
        let sources = [
            (baseline, "jpeg"), ("/usr/share/desktop-base/joy-theme/login/sddm-preview.jpg", "jpeg"),
            (Self.wallpapers[0], "png"), (lossless, "webp"),
        ]
        for (source, kind) in sources {
            let whole = try Data(contentsOf: URL(fileURLWithPath: source))
            for length in [700, whole.count / 2, whole.count - 2] {
                let cut = root + "/cut-\(length).\(kind)"
                try whole.prefix(length).write(to: URL(fileURLWithPath: cut))
                let r = try generate(cut)
                XCTAssertEqual(r.status, 1, "\(r)")
                XCTAssertEqual(
                    r.stderr, "\(cut): error: cannot decode the \(kind) image: truncated\n", "\(r)")
            }
        }
    }

    /// Pictures whose names keep no letter or digit are two pairs, each with its own picture:
    /// `generated-` and the hash of the name (the ids `GeneratedBundle`'s unit test pins), the
    /// same again for the same name.
    func testNamesWithoutLettersAreDistinctIds() throws {
        let themes = try makeDirectory("themes")
        let first = root + "/___.png"
        let second = root + "/---.png"
        try solidPNG(PixelColor("#1e50c8")).write(to: URL(fileURLWithPath: first))
        try solidPNG(PixelColor("#e07010")).write(to: URL(fileURLWithPath: second))
        for picture in [first, second, first] {
            let r = try generate(picture, "--out", themes)
            XCTAssertEqual(r.status, 0, "\(r)")
        }
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: themes).sorted(),
            [
                "generated-045a3b34", "generated-045a3b34-dark", "generated-c4e4dc86",
                "generated-c4e4dc86-dark",
            ])
        for (id, picture) in [("generated-045a3b34", first), ("generated-c4e4dc86", second)] {
            XCTAssertEqual(
                FileManager.default.contents(atPath: themes + "/" + id + "/picture.png"),
                FileManager.default.contents(atPath: picture), id)
        }
    }

    func testTheBundlePairIsWholeAndSwitchedToByLiveryd() throws {
        let themes = try makeDirectory("generated")
        let picture = Self.wallpapers[0]
        let r = try generate(picture, "--out", themes, "--json")
        XCTAssertEqual(r.status, 0, "\(r)")
        let object = try json(r)
        let light = try XCTUnwrap(object["light"] as? [String: String])
        let dark = try XCTUnwrap(object["dark"] as? [String: String])
        let entries = try FileManager.default.contentsOfDirectory(atPath: themes).sorted()
        XCTAssertEqual(entries, ["grub-16x9", "grub-16x9-dark"], "no staging directory is left")
        for bundle in entries {
            XCTAssertEqual(
                try FileManager.default.contentsOfDirectory(atPath: themes + "/" + bundle).sorted(),
                ["picture.png", "theme.css"])
            XCTAssertEqual(
                FileManager.default.contents(atPath: themes + "/" + bundle + "/picture.png"),
                FileManager.default.contents(atPath: picture))
        }
        let check = try run(
            Locations.livery,
            ["check", "--themes-dir", Locations.themes, themes + "/grub-16x9", themes + "/grub-16x9-dark"])
        XCTAssertEqual(check.status, 0, "\(check)")

        try startDaemon(extraThemesDirectories: [themes])
        try setTheme("grub-16x9")
        XCTAssertEqual(try resolve("Window", "background-color"), light["background"]! + "ff\n")
        XCTAssertEqual(try resolve("Window", "tint-color"), light["primary"]! + "ff\n")
        XCTAssertEqual(try livery("toggle").stdout, "grub-16x9-dark\n")
        XCTAssertEqual(try resolve("Window", "background-color"), dark["background"]! + "ff\n")
        XCTAssertEqual(try resolve("Window/Label", "text-color"), dark["on_surface"]! + "ff\n")

        // Generating again replaces the pair; a directory it did not make is never replaced.
        XCTAssertEqual(try generate("--color", "#386a20", "--out", themes).status, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: themes + "/color-386a20-dark/theme.css"))
        XCTAssertEqual(try generate(picture, "--out", themes, "--scheme", "vibrant").status, 0)
        let mine = try writeBundle(
            "grub-16x9", in: try makeDirectory("other"), sheet: "@theme { name: \"Mine\"; }\n")
        let refused = try generate(picture, "--out", root + "/other")
        XCTAssertEqual(refused.status, 1)
        XCTAssertEqual(
            refused.stderr,
            "\(mine): error: exists and was not made by livery generate; remove it or choose another --out\n")
        XCTAssertEqual(
            try String(contentsOfFile: mine + "/theme.css", encoding: .utf8), "@theme { name: \"Mine\"; }\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: root + "/other/grub-16x9-dark"))
    }
}
