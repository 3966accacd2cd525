import Foundation
import XCTest

@testable import LiveryCore

/// `ThemeGenerator`: roles against the `materialyoucolor` oracle, the terminal and base16
/// guarantees checked by a WCAG computation written here, neutral pictures, and the sampling
/// rule worked by hand.
final class ThemeGeneratorTests: XCTestCase {
    /// The oracle's roles for `seeds` × every variant × `contrasts`, light and dark, by running
    /// materialyoucolor (`MaterialDynamicColors(spec="2021")`) in the test virtual environment.
    func oracleRoles(seeds: [UInt32], contrasts: [Double]) throws -> [String: [String: String]] {
        let python = repositoryRoot.appendingPathComponent(".build/test-venv/bin/python").path
        let script = """
            import json, sys
            from materialyoucolor.dynamiccolor.material_dynamic_colors import MaterialDynamicColors
            from materialyoucolor.hct import Hct
            from materialyoucolor.scheme import (SchemeContent, SchemeExpressive, SchemeFidelity,
                SchemeFruitSalad, SchemeMonochrome, SchemeNeutral, SchemeRainbow, SchemeTonalSpot,
                SchemeVibrant)
            V = {"tonal-spot": SchemeTonalSpot, "content": SchemeContent, "fidelity": SchemeFidelity,
                 "vibrant": SchemeVibrant, "expressive": SchemeExpressive, "monochrome": SchemeMonochrome,
                 "neutral": SchemeNeutral, "rainbow": SchemeRainbow, "fruit-salad": SchemeFruitSalad}
            seeds, contrasts, roles = json.loads(sys.argv[1])
            colors = MaterialDynamicColors(spec="2021")
            def camel(n):
                h, *r = n.split("_")
                return h + "".join(p.capitalize() for p in r)
            out = {}
            for seed in seeds:
                for name, cls in V.items():
                    for c in contrasts:
                        for dark in (False, True):
                            s = cls(Hct.from_int(seed), dark, c, spec_version="2021")
                            out["%08x %s %s %s" % (seed, name, float(c), "dark" if dark else "light")] = {
                                r: "#%06x" % (getattr(colors, camel(r)).get_argb(s) & 0xFFFFFF) for r in roles}
            print(json.dumps(out))
            """
        let argument = try JSONSerialization.data(
            withJSONObject: [seeds.map { Int($0) }, contrasts, MaterialScheme.roles.map(\.snakeCaseName)])
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", script, String(decoding: argument, as: UTF8.self)]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "the oracle failed")
        return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: [String: String]])
    }

    func testRolesOfAColourEqualTheOraclesForEverySchemeAndContrast() throws {
        let seeds: [UInt32] = [0xff00_00ff, 0xff42_85f4, 0xffb3_261e, 0xff6b_6b00, 0xff80_8080, 0xff38_6a20]
        let contrasts = [-1, -0.5, 0, 0.5, 1.0]
        let oracle = try oracleRoles(seeds: seeds, contrasts: contrasts)
        XCTAssertEqual(oracle.count, seeds.count * 9 * contrasts.count * 2)
        var compared = 0
        for seed in seeds {
            for variant in MaterialVariant.allCases {
                for contrast in contrasts {
                    let theme = ThemeGenerator.generate(source: seed, scheme: variant, contrast: contrast)
                    XCTAssertEqual(theme.jsonObject["source"] as? String, GeneratedTheme.hex(seed))
                    for (name, side) in [("light", theme.light), ("dark", theme.dark)] {
                        let key = String(format: "%08x %@ %@ %@", seed, variant.name, "\(contrast)", name)
                        let want = try XCTUnwrap(oracle[key], key)
                        XCTAssertEqual(side.rolesByName, want, key)
                        compared += want.count
                    }
                }
            }
        }
        XCTAssertEqual(compared, seeds.count * 9 * contrasts.count * 2 * MaterialScheme.roles.count)
    }

    func testMCUsPublishedTonalSpotOfBlue() {
        // MCU's scheme tests: tonal spot of #0000ff, light primary #555992, dark #bec2ff.
        let theme = ThemeGenerator.generate(source: 0xff00_00ff)
        XCTAssertEqual(theme.light.rolesByName["primary"], "#555992")
        XCTAssertEqual(theme.dark.rolesByName["primary"], "#bec2ff")
    }

    // MARK: Legibility, checked with WCAG 2 as written here

    /// WCAG 2 relative luminance of `#rrggbb`.
    static func luminance(_ hex: String) -> Double {
        let v = Int(hex.dropFirst(), radix: 16)!
        func channel(_ c: Int) -> Double {
            let s = Double(c) / 255
            return s <= 0.04045 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * channel(v >> 16 & 255) + 0.7152 * channel(v >> 8 & 255) + 0.0722 * channel(v & 255)
    }

    static func ratio(_ a: String, _ b: String) -> Double {
        let (x, y) = (luminance(a), luminance(b))
        return (max(x, y) + 0.05) / (min(x, y) + 0.05)
    }

    /// The HCT hue of `#rrggbb`.
    static func hue(_ hex: String) -> Double {
        Hct(argb: 0xff00_0000 | UInt32(hex.dropFirst(), radix: 16)!).hue
    }

    func testTerminalsAreLegibleDistinctAndOfTheirHuesForManySeedsEverySchemeBothVariants() {
        var random = SplitMix64(seed: 26)
        let seeds: [UInt32] =
            [
                0xff00_0000, 0xffff_ffff, 0xff80_8080, 0xffff_0000, 0xff00_ff00, 0xffff_ff00, 0xff00_ffff,
                0xffff_00ff,
            ]
            + (0..<24).map { _ in 0xff00_0000 | UInt32(truncatingIfNeeded: random.next()) & 0xff_ffff }
        // The hues of pure red, green, yellow, blue, magenta, cyan.
        let conventional = ["#ff0000", "#00ff00", "#ffff00", "#0000ff", "#ff00ff", "#00ffff"].map(Self.hue)
        var checked = 0
        for seed in seeds {
            for variant in MaterialVariant.allCases {
                for contrast in [-1, 0, 0.5, 1.0] {
                    let theme = ThemeGenerator.generate(source: seed, scheme: variant, contrast: contrast)
                    for side in [theme.light, theme.dark] {
                        let t = side.terminal.byName
                        let what =
                            "\(GeneratedTheme.hex(seed)) \(variant.name) \(contrast) dark \(side.isDark)"
                        let bg = t["background"]!
                        XCTAssertEqual(bg, side.rolesByName["background"], what)
                        XCTAssertGreaterThanOrEqual(Self.ratio(t["foreground"]!, bg), 7, what)
                        let least = contrast > 0 ? 4.5 + 2.5 * contrast : 4.5
                        for n in [1, 2, 3, 4, 5, 6, 9, 10, 11, 12, 13, 14] {
                            let c = t["color\(n)"]!
                            XCTAssertGreaterThanOrEqual(Self.ratio(c, bg), least, "\(what) color\(n) \(c)")
                            let k = (n - 1) % 8
                            let distance = 180 - abs(abs(Self.hue(c) - conventional[k]) - 180)
                            XCTAssertLessThanOrEqual(distance, 25, "\(what) color\(n) \(c) hue")
                        }
                        let colours = (0..<16).map { t["color\($0)"]! }
                        XCTAssertEqual(Set(colours).count, 16, "\(what): \(colours)")
                        let slots = GeneratedVariant.base16Names.map { side.base16ByName[$0]! }
                        XCTAssertEqual(Set(slots).count, 16, "\(what) base16: \(slots)")
                        for slot in slots[8...14] {
                            XCTAssertGreaterThanOrEqual(Self.ratio(slot, bg), least, "\(what) base16 \(slot)")
                        }
                        checked += 1
                    }
                }
            }
        }
        XCTAssertEqual(checked, seeds.count * 9 * 4 * 2)
    }

    // MARK: Pictures

    func testAGreyPictureGivesANeutralSchemeAndSaysSo() {
        for grey: UInt32 in [0xff80_8080, 0xff00_0000, 0xffff_ffff] {
            let pixels = [UInt32](repeating: grey, count: 300 * 200)
            let theme = ThemeGenerator.generate(pixels: pixels, width: 300, height: 200, scheme: .vibrant)
            XCTAssertTrue(theme.neutral)
            XCTAssertEqual(theme.scheme, .monochrome)
            XCTAssertEqual(theme.source, grey)
            XCTAssertNotNil(theme.note)
            XCTAssertEqual(theme.jsonObject["note"] as? String, theme.note)
            // Monochrome: every role is a grey.
            for side in [theme.light, theme.dark] {
                let errors: Set<MaterialRole> = [.error, .onError, .errorContainer, .onErrorContainer]
                for (role, argb) in side.roles where !errors.contains(role) {
                    XCTAssertEqual(argb >> 16 & 255, argb & 255, GeneratedTheme.hex(argb))
                    XCTAssertEqual(argb >> 8 & 255, argb & 255, GeneratedTheme.hex(argb))
                }
            }
        }
    }

    func testAColourfulPictureIsNotNeutral() {
        // Half red, half blue.
        let pixels = (0..<(200 * 100)).map { $0 % 200 < 100 ? UInt32(0xffd0_2020) : 0xff20_40d0 }
        let theme = ThemeGenerator.generate(pixels: pixels, width: 200, height: 100)
        XCTAssertFalse(theme.neutral)
        XCTAssertNil(theme.note)
        XCTAssertEqual(theme.scheme, .tonalSpot)
        XCTAssertEqual(theme.ranked.first, theme.source)
    }

    func testTranslucentPixelsAreLeftOut() {
        // A transparent red field around an opaque grey: only the grey counts.
        let pixels = (0..<(112 * 112)).map { $0 % 112 < 56 ? UInt32(0x00ff_0000) : 0xff80_8080 }
        let theme = ThemeGenerator.generate(pixels: pixels, width: 112, height: 112)
        XCTAssertTrue(theme.neutral)
    }

    func testSamplingFollowsTheTriangleRuleWorkedByHand() {
        // 4 × 1 → 2 × 1: ratio 2, support 2. Output 0: centre 1, inputs 0..<3 (floor(-1) clamped
        // to 0, ceil(3)), distances from 0.5 of 0.5, 0.5, 1.5 over 2: weights 0.75, 0.75, 0.25,
        // over 1.75. Output 1: centre 3, inputs 1..<4 (ceil(5) clamped to 4), distances from 2.5
        // of 1.5, 0.5, 0.5: weights 0.25, 0.75, 0.75.
        let values: [UInt32] = [0, 100, 200, 255]
        let pixels = values.map { 0xff00_0000 | $0 << 16 }
        let out = ImageSampling.resizeExact(pixels, width: 4, height: 1, newWidth: 2, newHeight: 1)
        let red0 = (0.75 * 0 + 0.75 * 100 + 0.25 * 200) / 1.75  // 71.43
        let red1 = (0.25 * 100 + 0.75 * 200 + 0.75 * 255) / 1.75  // 209.29
        XCTAssertEqual(out.map { $0 >> 16 & 255 }, [UInt32(red0.rounded()), UInt32(red1.rounded())])
        XCTAssertEqual(out.map { $0 >> 24 }, [255, 255])
        // The same size is a copy.
        XCTAssertEqual(
            ImageSampling.resizeExact(pixels, width: 4, height: 1, newWidth: 4, newHeight: 1), pixels)
        // Any size to exactly 112 × 112.
        XCTAssertEqual(
            ImageSampling.resizeExact(
                Array(repeating: 0xff12_3456, count: 640 * 360), width: 640, height: 360
            ).count, 112 * 112)
        XCTAssertEqual(
            Set(
                ImageSampling.resizeExact(Array(repeating: 0xff12_3456, count: 50 * 7), width: 50, height: 7)),
            [0xff12_3456])
    }

    func testTheSamePixelsGiveTheSameTheme() {
        var random = SplitMix64(seed: 7)
        let pixels = (0..<(160 * 90)).map { _ in
            0xff00_0000 | UInt32(truncatingIfNeeded: random.next()) & 0xff_ffff
        }
        let a = ThemeGenerator.generate(pixels: pixels, width: 160, height: 90)
        let b = ThemeGenerator.generate(pixels: pixels, width: 160, height: 90)
        XCTAssertEqual(NSDictionary(dictionary: a.jsonObject), NSDictionary(dictionary: b.jsonObject))
    }

    /// Ids from names: ASCII letters and digits kept. A name with other characters than those,
    /// spaces and ASCII punctuation, or with nothing left, gets the FNV-1a (32-bit) hash of its
    /// name without the extension, in UTF-8, as 8 hex digits (the expected ones computed by
    /// Python: `h = 0x811c9dc5; for b in name.encode(): h = ((h ^ b) * 0x01000193) & 0xffffffff`),
    /// so that two such names are two ids and the same name the same one.
    func testBundleIdsFromFileNames() {
        XCTAssertEqual(GeneratedBundle.id(fromFileName: "/a/b/My Wallpaper_2.JPG"), "my-wallpaper-2")
        XCTAssertEqual(GeneratedBundle.id(fromFileName: ".hidden"), "hidden")
        XCTAssertEqual(GeneratedBundle.id(fromFileName: String(repeating: "a", count: 80) + ".png").count, 56)
        XCTAssertEqual(GeneratedBundle.id(fromFileName: "/p/---.png"), "generated-c4e4dc86")
        XCTAssertEqual(GeneratedBundle.id(fromFileName: "___.jpg"), "generated-045a3b34")
        XCTAssertEqual(GeneratedBundle.id(fromFileName: "壁纸.jpg"), "generated-69c202e7")
        XCTAssertEqual(GeneratedBundle.id(fromFileName: "фото.webp"), "generated-e561a7d7")
        XCTAssertEqual(GeneratedBundle.id(fromFileName: "😀.png"), "generated-33a29608")
        XCTAssertEqual(GeneratedBundle.id(fromFileName: "夏 2.png"), "2-7dc307cb")
        XCTAssertEqual(GeneratedBundle.id(fromFileName: "冬 2.png"), "2-b0b89e34")
        XCTAssertEqual(GeneratedBundle.id(fromFileName: "café.jpg"), "caf-a82b5049")
        let long = GeneratedBundle.id(fromFileName: String(repeating: "a", count: 80) + "é.png")
        XCTAssertEqual(long.count, 56)
        XCTAssertTrue(long.hasPrefix(String(repeating: "a", count: 47) + "-"), long)
    }

    /// The skins a generated pair inherits, `default` and `default-dark`, are never its ids: a
    /// picture named `default` (Debian's `/usr/share/images/desktop-base/default`) made a
    /// `default` that inherited itself and hid the shipped one from every theme.
    func testThePairNeverTakesTheIdOfTheSkinItInherits() {
        XCTAssertEqual(
            GeneratedBundle.id(fromFileName: "/usr/share/images/desktop-base/default"), "default-picture")
        XCTAssertEqual(GeneratedBundle.id(fromFileName: "Default.jpg"), "default-picture")
        XCTAssertEqual(GeneratedBundle.id(fromFileName: "default dark.png"), "default-dark-picture")
        XCTAssertEqual(GeneratedBundle.id(fromFileName: "default-darker.png"), "default-darker")
    }
}
