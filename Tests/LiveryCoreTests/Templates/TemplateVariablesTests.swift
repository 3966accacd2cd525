import Foundation
import XCTest

@testable import LiveryCore

/// The tinted-theming builder's variables (specification 0.11), each expected value worked out
/// by hand from the rule.
final class TemplateVariablesTests: XCTestCase {
    func scheme(_ yaml: String) throws -> TintedScheme {
        switch TintedScheme.parse(yaml, file: "test.yaml") {
        case .success(let s): return s
        case .failure(let d): throw d
        }
    }

    static let palette = (0..<16).map { String(format: "  base0%X: \"%06x\"\n", $0, $0 * 0x111111) }.joined()

    func testEverySlotVariableFromItsChannels() throws {
        let s = try scheme(
            "system: base16\nname: Test\nauthor: A\nvariant: light\npalette:\n"
                + TemplateVariablesTests.palette.replacingOccurrences(of: "\"ffffff\"", with: "\"#1A2b3C\""))
        let v = TemplateVariables.of(s)
        // base0F is #1a2b3c: 0x1a = 26, 0x2b = 43, 0x3c = 60.
        XCTAssertEqual(v["base0F-hex"], "1a2b3c")
        XCTAssertEqual(v["base0F-hex-bgr"], "3c2b1a")
        XCTAssertEqual([v["base0F-hex-r"], v["base0F-hex-g"], v["base0F-hex-b"]], ["1a", "2b", "3c"])
        XCTAssertEqual([v["base0F-rgb-r"], v["base0F-rgb-g"], v["base0F-rgb-b"]], ["26", "43", "60"])
        // × 257: 6682, 11051, 15420.
        XCTAssertEqual(
            [v["base0F-rgb16-r"], v["base0F-rgb16-g"], v["base0F-rgb16-b"]], ["6682", "11051", "15420"])
        // / 255: 0.101960784…, 0.168627450…, 0.235294117…
        XCTAssertEqual(
            [v["base0F-dec-r"], v["base0F-dec-g"], v["base0F-dec-b"]],
            ["0.10196078", "0.16862745", "0.23529412"])
        XCTAssertEqual(v["base00-hex"], "000000")
        XCTAssertEqual(v["base00-dec-r"], "0.00000000")
        XCTAssertEqual(v["base0E-hex"], "eeeeee")
        XCTAssertEqual(v["base0E-rgb16-r"], "61166")
        XCTAssertEqual(v["base0E-dec-r"], "0.93333333")
        // 8 scheme variables and 14 per slot.
        XCTAssertEqual(v.count, 8 + 16 * 14)
    }

    func testSchemeVariablesAndTheVariantFlag() throws {
        let light = TemplateVariables.of(
            try scheme(
                "system: \"base16\"\nname: \"Rosé Pine Dawn\"\nauthor: \"Someone's <x> & y\"\ndescription: D\nvariant: light\npalette:\n"
                    + TemplateVariablesTests.palette))
        XCTAssertEqual(light["scheme-name"], "Rosé Pine Dawn")
        XCTAssertEqual(light["scheme-author"], "Someone's <x> & y")
        XCTAssertEqual(light["scheme-description"], "D")
        XCTAssertEqual(light["scheme-slug"], "rose-pine-dawn")
        XCTAssertEqual(light["scheme-slug-underscored"], "rose_pine_dawn")
        XCTAssertEqual(light["scheme-system"], "base16")
        XCTAssertEqual(light["scheme-variant"], "light")
        XCTAssertEqual(light["scheme-is-light-variant"], "true")
        XCTAssertNil(light["scheme-is-dark-variant"])
        // No variant is dark; no description is empty; a slug field is slugified too.
        let dark = TemplateVariables.of(
            try scheme("name: X\nslug: My_Slug\nauthor: A\npalette:\n" + TemplateVariablesTests.palette))
        XCTAssertEqual(dark["scheme-variant"], "dark")
        XCTAssertEqual(dark["scheme-is-dark-variant"], "true")
        XCTAssertNil(dark["scheme-is-light-variant"])
        XCTAssertEqual(dark["scheme-description"], "")
        XCTAssertEqual(dark["scheme-slug"], "my-slug")
    }

    func testSlugRules() {
        XCTAssertEqual(TintedScheme.slugify("Rosé Pine Moon"), "rose-pine-moon")
        XCTAssertEqual(TintedScheme.slugify("Black Metal (Dark Funeral)"), "black-metal-dark-funeral")
        XCTAssertEqual(TintedScheme.slugify("Gruvbox dark, soft"), "gruvbox-dark-soft")
        XCTAssertEqual(TintedScheme.slugify("  Trim  Spaces  "), "trim-spaces")
        XCTAssertEqual(TintedScheme.slugify("Æsir_Øst Ñandú"), "aesir-ost-nandu")
        XCTAssertEqual(TintedScheme.slugify("a - b"), "a-b")
        XCTAssertEqual(TintedScheme.slugify("日本"), "")
    }

    func testBase24AndLegacySchemes() throws {
        let base24 = try scheme(
            "system: base24\nname: B\nauthor: A\npalette:\n" + TemplateVariablesTests.palette
                + (0..<8).map { "  base1\($0): \"#abc\"\n" }.joined())
        XCTAssertEqual(base24.system, "base24")
        XCTAssertEqual(TemplateVariables.of(base24)["base17-hex"], "aabbcc")
        XCTAssertEqual(TemplateVariables.of(base24).count, 8 + 24 * 14)
        let legacy = try scheme(
            "scheme: Old One\nauthor: A\n"
                + TemplateVariablesTests.palette.replacingOccurrences(of: "  ", with: ""))
        XCTAssertEqual(legacy.name, "Old One")
        XCTAssertEqual(legacy.slug, "old-one")
        XCTAssertEqual(legacy.system, "base16")
    }

    func testBadSchemesSayWhere() {
        guard case .failure(let d) = TintedScheme.parse("name: X\npalette:\n  base00: nope\n", file: "s.yaml")
        else {
            return XCTFail("a bad colour was accepted")
        }
        XCTAssertEqual(d.location.line, 3)
        XCTAssertTrue(d.message.contains("'base00' is not a colour"), d.message)
    }
}
