import Foundation
import XCTest

@testable import LiveryCore

/// Every theme's base16 slots (the README, "Base16 slots of every theme"), each expected value
/// written from the rule.
final class Base16SlotsTests: XCTestCase {
    let shipped = ThemeCatalog(searchPath: [themesDirectory.path])

    func slots(_ relative: String) throws -> [String: String] {
        let url = fixturesDirectory.appendingPathComponent(relative)
        let format = try XCTUnwrap(ThemeFormats.all.first { $0.claim(url, isDirectory: false) != nil })
        var catalog = shipped
        catalog.add(format.read(url, id: "under-test"))
        let (theme, diagnostics) = catalog.compile("under-test", schema: shippedSchema)
        let compiled = try XCTUnwrap(theme, "\(diagnostics.map(\.description))")
        return Dictionary(
            uniqueKeysWithValues: Cascade(theme: compiled).base16Slots.named.map { ($0.name, $0.color.hex) })
    }

    func testABase16SchemeHasItsOwnSlots() throws {
        // schemes/base16/dracula.yaml, as written there.
        XCTAssertEqual(
            try slots("schemes/base16/dracula.yaml"),
            [
                "base00": "#282a36ff", "base01": "#363447ff", "base02": "#44475aff", "base03": "#6272a4ff",
                "base04": "#9ea8c7ff", "base05": "#f8f8f2ff", "base06": "#f0f1f4ff", "base07": "#ffffffff",
                "base08": "#ff5555ff", "base09": "#ffb86cff", "base0A": "#f1fa8cff", "base0B": "#50fa7bff",
                "base0C": "#8be9fdff", "base0D": "#80bfffff", "base0E": "#ff79c6ff", "base0F": "#bd93f9ff",
            ])
    }

    func testATerminalSchemeMapsColoursBackAsTintedTerminalTemplatesDo() throws {
        // pywal monokai: background #272822, foreground #f8f8f2, color0…15 as in the file; the
        // terminal theme's selection-background is mix(background, foreground, 0.25); base01,
        // base04, base06, base09 and base0F are the README's mixes (computed in Python).
        XCTAssertEqual(
            try slots("schemes/pywal/dark/monokai.json"),
            [
                "base00": "#272822ff", "base01": "#3c3d37ff", "base02": "#5b5c56ff", "base03": "#75715eff",
                "base04": "#b6b4a8ff", "base05": "#f8f8f2ff", "base06": "#fafaf5ff", "base07": "#f9f8f5ff",
                "base08": "#f92672ff", "base09": "#f77274ff", "base0A": "#f4bf75ff", "base0B": "#a6e22eff",
                "base0C": "#a1efe4ff", "base0D": "#66d9efff", "base0E": "#ae81ffff", "base0F": "#90274aff",
            ])
    }

    func testColor16AndColor17AreBase09AndBase0F() throws {
        let s = try slots("schemes/pywal/dark/sexy-gotham.json")
        XCTAssertEqual(s["base09"], "#10151bff")
        XCTAssertEqual(s["base0F"], "#d26939ff")
    }

    func testANativeThemeWithoutSlotsGivesTheValuesItResolves() throws {
        let c = try compileSheet(
            """
            @theme { variant: dark; }
            Window { background-color: #101010; text-color: #e0e0e0; tint-color: #3366ff; placeholder-color: #808080; }
            NavigationBar { bar-tint-color: #202020; }
            TableViewCell:selected { background-color: rgba(255 255 255 / 0.5); }
            Button.destructive { tint-color: #ff0000; }
            Switch { on-tint-color: #00ff00; }
            Label.link { text-color: #00ffff; }
            """, files: [:])
        let s = Dictionary(uniqueKeysWithValues: c.base16Slots.named.map { ($0.name, $0.color.hex) })
        XCTAssertEqual(s["base00"], "#101010ff")
        XCTAssertEqual(s["base01"], "#202020ff")
        // Half-transparent white over base00: 0x10 + (0xff − 0x10) / 2 = 0x88 (135.5 rounds up).
        XCTAssertEqual(s["base02"], "#888888ff")
        XCTAssertEqual(s["base03"], "#808080ff")
        XCTAssertEqual(s["base05"], "#e0e0e0ff")
        XCTAssertEqual(s["base08"], "#ff0000ff")
        XCTAssertEqual(s["base0B"], "#00ff00ff")
        XCTAssertEqual(s["base0C"], "#00ffffff")
        XCTAssertEqual(s["base0D"], "#3366ffff")
        // Not styled: Label.secondary inherits the text colour. Button:focused has the schema's
        // initial border colour, #000000, whose WCAG contrast on #101010 is
        // (0.0052 + 0.05) / 0.05 = 1.10 < 1.5: unreadable, so base0A is mixed as rule 4 says,
        // base0D's colour.
        XCTAssertEqual(s["base04"], "#e0e0e0ff")
        XCTAssertEqual(s["base0A"], "#3366ffff")
    }

    /// A component's value that cannot be read on base00 (WCAG contrast below 1.5) is no text or
    /// accent slot, and an accent slot the colour of the text (base05) is none either: both
    /// are mixed as rule 4 says. The shipped `default` resolved base06 white on its white
    /// base00 and base0C, base0E, base0F black like its text; `default-dark` base0E black on
    /// #1c1c1e (rofi's selected row and Qt's visited links were unreadable).
    func testSlotsAreReadableOnBase00AndAccentsAreNotTheText() throws {
        for id in ["default", "default-dark", "forest", "crimson"] {
            let (theme, diagnostics) = shipped.compile(id, schema: shippedSchema)
            let compiled = try XCTUnwrap(theme, "\(id): \(diagnostics.map(\.description))")
            let slots = Cascade(theme: compiled).base16Slots
            let base00 = try XCTUnwrap(slots["base00"])
            let base05 = try XCTUnwrap(slots["base05"])
            for name in Base16Slots.names.dropFirst(4) {
                let c = try XCTUnwrap(slots[name])
                XCTAssertGreaterThanOrEqual(wcag(c, base00), 1.5, "\(id) \(name) \(c.hex) on \(base00.hex)")
            }
            // base08 and base0B fall back to base05 by rule 4; the other accents are made from
            // base0D, base08 and base00.
            for name in ["base09", "base0A", "base0C", "base0D", "base0E", "base0F"] {
                XCTAssertNotEqual(slots[name], base05, "\(id) \(name) is the text colour")
            }
        }
    }

    /// WCAG 2's contrast ratio, written here from its definition (sRGB linearised, luminance
    /// 0.2126 R + 0.7152 G + 0.0722 B, (L1 + 0.05) / (L2 + 0.05)).
    func wcag(_ a: RGBA, _ b: RGBA) -> Double {
        func linear(_ c: Double) -> Double { c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4) }
        func luminance(_ c: RGBA) -> Double {
            0.2126 * linear(c.red) + 0.7152 * linear(c.green) + 0.0722 * linear(c.blue)
        }
        let (la, lb) = (luminance(a), luminance(b))
        return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
    }

    func testANativeThemesOwnSlotColoursWin() throws {
        let c = try compileSheet(
            """
            @define-color base00 #000001; @define-color base0D #0000ff;
            Window { background-color: #ffffff; tint-color: #ff0000; }
            """, files: [:])
        XCTAssertEqual(c.base16Slots["base00"]?.hex, "#000001ff")
        XCTAssertEqual(c.base16Slots["base0D"]?.hex, "#0000ffff")
    }

    func testEveryShippedThemeHasSixteenOpaqueSlots() throws {
        for id in shipped.ids {
            let (theme, _) = shipped.compile(id, schema: shippedSchema)
            guard let theme else { continue }
            let slots = Cascade(theme: theme).base16Slots
            XCTAssertEqual(slots.colors.count, 16, id)
            XCTAssertTrue(slots.colors.allSatisfy { $0.alpha == 1 }, id)
        }
    }
}
