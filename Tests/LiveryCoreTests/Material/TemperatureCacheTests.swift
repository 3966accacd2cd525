import XCTest

@testable import LiveryCore

/// MCU's published temperature tests (typescript/temperature/temperature_cache_test.ts).
final class TemperatureCacheTests: XCTestCase {
    func testRawTemperaturesMatchMCU() {
        let expected: [(UInt32, Double)] = [
            (0xff00_00ff, -1.393), (0xffff_0000, 2.351), (0xff00_ff00, -0.267),
            (0xffff_ffff, -0.5), (0xff00_0000, -0.5),
        ]
        for (argb, temperature) in expected {
            assertCloseTo(TemperatureCache.rawTemperature(Hct(argb: argb)), temperature, 3, hex(argb))
        }
    }

    func testRelativeTemperaturesMatchMCU() {
        let expected: [(UInt32, Double)] = [
            (0xff00_00ff, 0.0), (0xffff_0000, 1.0), (0xff00_ff00, 0.467), (0xffff_ffff, 0.5),
            (0xff00_0000, 0.5),
        ]
        for (argb, relative) in expected {
            assertCloseTo(
                TemperatureCache(Hct(argb: argb)).inputRelativeTemperature, relative, 3, hex(argb))
        }
    }

    func testComplementsMatchMCU() {
        let expected: [(UInt32, UInt32)] = [
            (0xff00_00ff, 0xff9d_0002), (0xffff_0000, 0xff00_7bfc), (0xff00_ff00, 0xffff_d2c9),
            (0xffff_ffff, 0xffff_ffff), (0xff00_0000, 0xff00_0000),
        ]
        for (argb, complement) in expected {
            XCTAssertEqual(hex(TemperatureCache(Hct(argb: argb)).complement.argb), hex(complement))
        }
    }

    func testAnalogousColorsMatchMCU() {
        let expected: [(UInt32, [UInt32])] = [
            (0xff00_00ff, [0xff00_590c, 0xff00_564e, 0xff00_00ff, 0xff67_00cc, 0xff81_009f]),
            (0xffff_0000, [0xfff6_0082, 0xfffc_004c, 0xffff_0000, 0xffd9_5500, 0xffaf_7200]),
            (0xff00_ff00, [0xffce_e900, 0xff92_f500, 0xff00_ff00, 0xff00_fd6f, 0xff00_fab3]),
            (0xff00_0000, [UInt32](repeating: 0xff00_0000, count: 5)),
            (0xffff_ffff, [UInt32](repeating: 0xffff_ffff, count: 5)),
        ]
        for (argb, analogous) in expected {
            XCTAssertEqual(
                TemperatureCache(Hct(argb: argb)).analogous().map { hex($0.argb) },
                analogous.map(hex), hex(argb))
        }
    }
}
