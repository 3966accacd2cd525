import Foundation
import XCTest

@testable import LiveryCore

/// Rule 3 of the terminal colours (the README, "Terminal colours of every theme") on seeded
/// random themes: backgrounds and text of any colour, accents and theme colours of any hue or
/// none. Contrast is the WCAG 2 formula, computed here.
final class TerminalPaletteDerivationTests: XCTestCase {
    /// WCAG 2 relative luminance of an 8-bit colour.
    func luminance(_ c: RGBA) -> Double {
        func linear(_ v: Double) -> Double { v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4) }
        let (r, g, b) = (RGBA.eightBit(c.red), RGBA.eightBit(c.green), RGBA.eightBit(c.blue))
        return 0.2126 * linear(Double(r) / 255) + 0.7152 * linear(Double(g) / 255) + 0.0722
            * linear(Double(b) / 255)
    }

    func contrast(_ a: RGBA, _ b: RGBA) -> Double {
        let (la, lb) = (luminance(a), luminance(b))
        return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
    }

    func testDerivedPalettesAreDistinctReadableAndOfTheirHuesOnAnyBackground() {
        var random = SplitMix64(seed: 0x7e57_a11e)
        func colour() -> RGBA { RGBA(red: random.unit(), green: random.unit(), blue: random.unit()) }
        for trial in 0..<400 {
            let background = colour()
            let foreground = colour()
            let accent = random.below(3) == 0 ? nil : colour()
            let themeColors = (0..<8).map { _ in colour() }
            let p = TerminalPalette.derived(
                background: background, foreground: foreground, selection: colour(), accent: accent,
                themeColors: themeColors)
            let what = "trial \(trial): background \(background.hex), foreground \(foreground.hex)"
            XCTAssertEqual(Set(p.colors.map(\.hex)).count, 16, "\(what): \(p.colors.map(\.hex))")
            XCTAssertEqual(p.background.hex, background.rounded.hex, what)
            XCTAssertGreaterThanOrEqual(contrast(p.foreground, p.background), 4.5, what)
            for (n, c) in p.colors.enumerated() {
                XCTAssertGreaterThanOrEqual(contrast(c, p.background), 3, "\(what): color\(n) \(c.hex)")
                XCTAssertEqual(c, c.rounded, "\(what): color\(n) is not 8-bit")
            }
            for n in [1, 2, 3, 4, 5, 6, 9, 10, 11, 12, 13, 14] {
                let c = OKLCH(p.colors[n])
                let distances = TerminalPalette.conventionalHues.map { OKLCH.hueDistance(c.hue, $0) }
                XCTAssertGreaterThanOrEqual(
                    c.chroma, 0.02,
                    "\(what): color\(n) \(p.colors[n].hex) \(p.colors.map(\.hex)) fg \(p.foreground.hex) accent \(accent?.hex ?? "-") \(themeColors.map(\.hex))"
                )
                XCTAssertLessThanOrEqual(distances[(n - 1) % 8], 25, "\(what): color\(n) \(p.colors[n].hex)")
                XCTAssertEqual(
                    distances[(n - 1) % 8], distances.min(), "\(what): color\(n) \(p.colors[n].hex)")
            }
            let again = TerminalPalette.derived(
                background: background, foreground: foreground, selection: p.selectionBackground,
                accent: accent,
                themeColors: themeColors)
            XCTAssertEqual(again.colors, p.colors, "\(what): not deterministic")
        }
    }

    /// A theme colour of a conventional hue that already has 3:1 is that ANSI colour as it is;
    /// the accent comes before the slot of that colour.
    func testAReadableThemeColourOfAConventionalHueIsUsedAsItIs() {
        let white = RGBA(red: 1, green: 1, blue: 1)
        let black = RGBA(red: 0, green: 0, blue: 0)
        let grey = RGBA(red8: 0x80, green8: 0x80, blue8: 0x80)
        let crimson = RGBA(red8: 128, green8: 0, blue8: 0)
        let tomato = RGBA(red8: 0xff, green8: 0x3b, blue8: 0x30)
        let p = TerminalPalette.derived(
            background: white, foreground: black, selection: grey, accent: crimson,
            themeColors: [tomato] + Array(repeating: grey, count: 7))
        XCTAssertEqual(p.colors[1].hex, "#800000ff")
        let q = TerminalPalette.derived(
            background: white, foreground: black, selection: grey, accent: nil,
            themeColors: [tomato] + Array(repeating: grey, count: 7))
        XCTAssertEqual(q.colors[1].hex, "#ff3b30ff")
    }
}
