import XCTest

@testable import LiveryCore

/// MCU's published quantizer tests (cpp/quantize/wu_test.cc, cpp/quantize/wsmeans_test.cc,
/// cpp/quantize/celebi_test.cc, typescript/quantize/quantizer_celebi_test.ts), with their
/// values. Ports differ in k-means seeding, so only these cases are exact across them.
final class QuantizerTests: XCTestCase {
    let red: UInt32 = 0xffff_0000
    let green: UInt32 = 0xff00_ff00
    let blue: UInt32 = 0xff00_00ff

    func testWuKeepsSingleColors() {
        for color: UInt32 in [red, green, blue, 0xff14_1216] {
            XCTAssertEqual(QuantizerWu.quantize([color], maxColors: 256), [color], hex(color))
        }
        XCTAssertEqual(QuantizerWu.quantize([UInt32](repeating: blue, count: 5), maxColors: 256), [blue])
    }

    func testWuSplitsTwoRedThreeGreen() {
        XCTAssertEqual(
            QuantizerWu.quantize([red, red, red, green, green], maxColors: 256).count, 2)
    }

    func testWuCutsRedGreenBlueInMCUsOrder() {
        XCTAssertEqual(QuantizerWu.quantize([red, green, blue], maxColors: 256), [blue, red, green])
    }

    func testWuHandlesAFullImageAndArbitraryColors() {
        let pixels = (0..<12544).map { UInt32($0 % 8000) }
        // Every pixel is transparent (alpha 0): nothing to quantize.
        XCTAssertEqual(QuantizerWu.quantize(pixels, maxColors: 128), [])
        let five: [UInt32] = [0xff01_0203, 0xff66_5544, 0xff70_8090, 0xffc0_ffee, 0xfffe_dcba]
        XCTAssertEqual(Set(QuantizerWu.quantize(five, maxColors: 256)), Set(five))
    }

    func testWsmeansKeepsSingleColorsWithTheirCounts() {
        for color: UInt32 in [0xff14_1216, red, green, blue] {
            XCTAssertEqual(
                QuantizerWsmeans.quantize([color], startingClusters: [], maxColors: 256), [color: 1],
                hex(color))
        }
        XCTAssertEqual(
            QuantizerWsmeans.quantize(
                [UInt32](repeating: blue, count: 5), startingClusters: [], maxColors: 256),
            [blue: 5])
    }

    func testWsmeansClustersAFullImageWithinMaxColors() {
        let pixels = (0..<12544).map { UInt32($0 % 8000) }
        let result = QuantizerWsmeans.quantize(pixels, startingClusters: [], maxColors: 128)
        XCTAssertLessThanOrEqual(result.count, 128)
        XCTAssertFalse(result.isEmpty)
        XCTAssertLessThanOrEqual(result.values.reduce(0, +), 12544)
    }

    func testCelebiMatchesMCU() {
        XCTAssertEqual(QuantizerCelebi.quantize([red], maxColors: 128), [red: 1])
        XCTAssertEqual(QuantizerCelebi.quantize([green], maxColors: 128), [green: 1])
        XCTAssertEqual(QuantizerCelebi.quantize([blue], maxColors: 128), [blue: 1])
        XCTAssertEqual(QuantizerCelebi.quantize([blue, blue, blue, blue, blue], maxColors: 128), [blue: 5])
        XCTAssertEqual(
            QuantizerCelebi.quantize([red, red, green, green, green], maxColors: 128),
            [red: 2, green: 3])
        XCTAssertEqual(
            QuantizerCelebi.quantize([red, green, blue], maxColors: 128), [red: 1, green: 1, blue: 1])
        XCTAssertEqual(QuantizerCelebi.quantize([0xffff_ffff], maxColors: 0), [:])
    }

    func testCelebiHandlesAFullImage() {
        let pixels = (0..<12544).map { UInt32($0 % 8000) }
        XCTAssertLessThanOrEqual(QuantizerCelebi.quantize(pixels, maxColors: 128).count, 128)
    }

    func testMapCountsOpaqueColorsOnly() {
        XCTAssertEqual(
            QuantizerMap.quantize([red, red, 0x80ff_0000, blue]), [red: 2, blue: 1])
    }

    func testJavaRandomDrawsJavasSequence() {
        // The numbers OpenJDK 17's java.util.Random gives for these seeds and calls.
        var random = JavaRandom(seed: 42)
        XCTAssertEqual((0..<5).map { _ in random.nextInt(10) }, [0, 3, 8, 4, 0])
        XCTAssertEqual([random.nextInt(16), random.nextInt(128), random.nextInt(100)], [15, 35, 18])
        var seeded = JavaRandom(seed: 0x42688)
        XCTAssertEqual((0..<8).map { _ in seeded.nextInt(37) }, [30, 27, 4, 26, 25, 27, 7, 23])
        XCTAssertEqual(seeded.nextDouble().bitPattern, 4_590_057_316_997_204_264)
    }
}
