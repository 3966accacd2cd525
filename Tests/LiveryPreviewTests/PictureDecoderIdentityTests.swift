import Foundation
import LiveryCore
import LiveryPreview
import XCTest

/// The daemon's decoder (`PictureDecoder`: `livery-picture` decodes and samples the picture in a
/// process of its own, and sends 112 × 112 pixels) gives the generated theme that decoding the
/// whole picture in this process gives (`PicturePixels`, then `ThemeGenerator` sampling it), to
/// the last bit: for real wallpapers (Debian's desktop-base, PNGs decoded whole and JPEGs at
/// reduced scale), an SVG drawn by `livery-svg`, and a PNG with translucent pixels.
final class PictureDecoderIdentityTests: XCTestCase {
    /// The wallpapers `livery generate`'s end-to-end tests read, and an SVG of the same package.
    static let pictures = [
        "/usr/share/desktop-base/softwaves-theme/grub/grub-16x9.png",
        "/usr/share/desktop-base/emerald-theme/grub/grub-16x9.png",
        "/usr/share/desktop-base/joy-theme/grub/grub-16x9.png",
        "/usr/share/desktop-base/homeworld-theme/grub/grub-16x9.png",
        "/usr/share/desktop-base/moonlight-theme/grub/grub-16x9.png",
        "/usr/share/desktop-base/spacefun-theme/login/sddm-preview.jpg",
        "/usr/share/desktop-base/lines-theme/login/sddm-preview.jpg",
        "/usr/share/desktop-base/joy-theme/login/sddm-preview.jpg",
        "/usr/share/desktop-base/emerald-theme/lockscreen/contents/images/1920x1080.svg",
    ]

    /// A 640 × 360 RGBA PNG written by Debian's python3 (zlib, not Livery): a colour gradient,
    /// opaque in alternate 40-pixel squares, translucent (alpha 0 to 254) in the others.
    func translucentPNG() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "livery-test-\(UUID().uuidString).png"
        ).path
        let source = """
            import struct, sys, zlib
            w, h = 640, 360
            def chunk(kind, data):
                return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
            rows = []
            for y in range(h):
                row = bytearray(b"\\0")
                for x in range(w):
                    a = 255 if (x // 40 + y // 40) % 2 == 0 else (x + y) % 255
                    row += bytes((x * 255 // (w - 1), y * 255 // (h - 1), (x * y) % 256, a))
                rows.append(bytes(row))
            ihdr = struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0)
            with open(sys.argv[1], "wb") as f:
                f.write(b"\\x89PNG\\r\\n\\x1a\\n" + chunk(b"IHDR", ihdr)
                        + chunk(b"IDAT", zlib.compress(b"".join(rows))) + chunk(b"IEND", b""))
            """
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        p.arguments = ["-c", source, path]
        try p.run()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, "python3 did not write \(path)")
        return path
    }

    /// The theme's every colour and its note, in one comparable value.
    func colours(_ theme: GeneratedTheme) throws -> String {
        String(
            decoding: try JSONSerialization.data(withJSONObject: theme.jsonObject, options: [.sortedKeys]),
            as: UTF8.self)
    }

    func testTheDecodersSampledPixelsGiveTheThemeTheWholePictureGives() throws {
        let translucent = try translucentPNG()
        defer { try? FileManager.default.removeItem(atPath: translucent) }
        for path in Self.pictures + [translucent] {
            let whole = try PicturePixels(path: path)
            let sampled: PalettePictures.Pixels
            switch PictureDecoder().decode(path) {
            case .failure(let refusal):
                XCTFail("\(path): \(refusal.message)")
                continue
            case .success(let pixels): sampled = pixels
            }
            XCTAssertEqual([sampled.width, sampled.height], [ImageSampling.side, ImageSampling.side], path)
            XCTAssertEqual(
                sampled.argb, ImageSampling.resizeExact(whole.argb, width: whole.width, height: whole.height),
                path)
            for (scheme, contrast) in [(MaterialVariant.tonalSpot, 0.0), (.vibrant, 0.5), (.content, -1)] {
                let expected = ThemeGenerator.generate(
                    pixels: whole.argb, width: whole.width, height: whole.height, scheme: scheme,
                    contrast: contrast)
                let got = ThemeGenerator.generate(
                    pixels: sampled.argb, width: sampled.width, height: sampled.height, scheme: scheme,
                    contrast: contrast)
                XCTAssertEqual(try colours(got), try colours(expected), "\(path) \(scheme)")
            }
        }
        // The translucent picture has pixels the sampling leaves translucent, which the
        // quantizer skips: the case where keeping only opaque pixels matters.
        let whole = try PicturePixels(path: translucent)
        let resized = ImageSampling.resizeExact(whole.argb, width: whole.width, height: whole.height)
        XCTAssertTrue(resized.contains { $0 >> 24 != 255 } && resized.contains { $0 >> 24 == 255 })
    }
}
