import XCTest

@testable import LiveryCore

/// MCU's published palette tests (typescript/palettes/palettes_test.ts,
/// cpp/palettes/tones_test.cc), with their values.
final class TonalPaletteTests: XCTestCase {
    func testTonesOfBlueMatchMCU() {
        let blue = TonalPalette.from(argb: 0xff00_00ff)
        let expected: [(Double, UInt32)] = [
            (100, 0xffff_ffff), (95, 0xfff1_efff), (90, 0xffe0_e0ff), (80, 0xffbe_c2ff),
            (70, 0xff9d_a3ff), (60, 0xff7c_84ff), (50, 0xff5a_64ff), (40, 0xff34_3dff),
            (30, 0xff00_00ef), (20, 0xff00_01ac), (10, 0xff00_006e), (0, 0xff00_0000),
        ]
        for (tone, argb) in expected {
            XCTAssertEqual(hex(blue.tone(tone)), hex(argb), "T\(tone)")
            // A second call answers from the cache with the same colour.
            XCTAssertEqual(blue.tone(tone), argb)
        }
        XCTAssertEqual(blue.keyColor.argb, 0xff00_00ff)
    }

    func testKeyColorWithExactChroma() {
        let result = TonalPalette(hue: 50.0, chroma: 60.0).keyColor
        XCTAssertLessThan(abs(result.hue - 50.0), 10.0)
        XCTAssertLessThan(abs(result.chroma - 60.0), 0.5)
        XCTAssertGreaterThan(result.tone, 0)
        XCTAssertLessThan(result.tone, 100)
    }

    func testKeyColorWithUnusuallyHighChroma() {
        let result = TonalPalette(hue: 149.0, chroma: 200.0).keyColor
        XCTAssertLessThan(abs(result.hue - 149.0), 10.0)
        XCTAssertGreaterThan(result.chroma, 89.0)
        XCTAssertGreaterThan(result.tone, 0)
        XCTAssertLessThan(result.tone, 100)
    }

    func testKeyColorWithUnusuallyLowChroma() {
        let result = TonalPalette(hue: 50.0, chroma: 3.0).keyColor
        XCTAssertLessThan(abs(result.hue - 50.0), 10.0)
        XCTAssertLessThan(abs(result.chroma - 3.0), 0.5)
        XCTAssertLessThan(abs(result.tone - 50.0), 0.5)
    }
}
