import XCTest

@testable import LiveryCore

/// Livery's port against the materialyoucolor package, value for value and bit for bit: the
/// table in Tests/Fixtures/material/oracle.json, written by scripts/material-oracle.py.
final class MaterialOracleTests: XCTestCase {
    var oracle: MaterialOracle { .shared }

    private func assertHct(
        _ hct: Hct, _ expected: [String], _ what: String, file: StaticString = #filePath,
        line: UInt = #line
    ) {
        XCTAssertEqual(hct.hue.bitPattern, double(hex: expected[0]).bitPattern, "\(what) hue")
        XCTAssertEqual(hct.chroma.bitPattern, double(hex: expected[1]).bitPattern, "\(what) chroma")
        XCTAssertEqual(hct.tone.bitPattern, double(hex: expected[2]).bitPattern, "\(what) tone")
    }

    /// MCU's rule for a yellow T99, halves rounded up (materialyoucolor rounds them to even).
    private func mcuYellowT99(_ t98: UInt32, _ t100: UInt32) -> UInt32 {
        func mean(_ shift: UInt32) -> UInt32 {
            let sum = (t98 >> shift & 255) + (t100 >> shift & 255)
            return ((sum + 1) / 2) << shift
        }
        return 0xff00_0000 | mean(16) | mean(8) | mean(0)
    }

    private func assertTones(
        _ palette: TonalPalette, _ expected: [String: UInt32], _ what: String
    ) {
        for (key, argb) in expected {
            let tone = Double(key)!
            var want = argb
            if tone == 99 && Hct.isYellow(palette.hue) {
                want = mcuYellowT99(expected["98"]!, expected["100"]!)
            }
            XCTAssertEqual(hex(palette.tone(tone)), hex(want), "\(what) T\(key)")
        }
    }

    func testHctOfSeedsIsBitExact() {
        XCTAssertGreaterThanOrEqual(oracle.seeds.count, 300)
        for seed in oracle.seeds {
            assertHct(Hct(argb: seed.argb), seed.hct, hex(seed.argb))
        }
    }

    func testPalettesOfSeedsAreExact() {
        for seed in oracle.seeds {
            assertTones(TonalPalette.from(argb: seed.argb), seed.tones, hex(seed.argb))
        }
    }

    func testKeyColorsOfSeedsAreExact() {
        for seed in oracle.seeds {
            let hct = Hct(argb: seed.argb)
            let palette = TonalPalette(hue: hct.hue, chroma: hct.chroma)
            XCTAssertEqual(hex(palette.keyColor.argb), hex(seed.keyColor), hex(seed.argb))
            assertTones(palette, seed.keyedTones, "keyed \(hex(seed.argb))")
        }
        XCTAssertGreaterThanOrEqual(oracle.keyColors.count, 100)
        for item in oracle.keyColors {
            let hue = double(hex: item.hue)
            let chroma = double(hex: item.chroma)
            XCTAssertEqual(
                hex(TonalPalette(hue: hue, chroma: chroma).keyColor.argb), hex(item.keyColor),
                "key colour of hue \(hue) chroma \(chroma)")
        }
    }

    func testSolverIsBitExact() {
        XCTAssertGreaterThanOrEqual(oracle.solve.count, 300)
        for item in oracle.solve {
            let hct = Hct.from(
                hue: double(hex: item.hue), chroma: double(hex: item.chroma),
                tone: double(hex: item.tone))
            let what = "HCT(\(double(hex: item.hue)), \(double(hex: item.chroma)), \(double(hex: item.tone)))"
            XCTAssertEqual(hex(hct.argb), hex(item.argb), what)
            assertHct(hct, item.hct, what)
        }
    }

    func testTemperaturesAreExact() {
        XCTAssertGreaterThanOrEqual(oracle.temperature.count, 100)
        for item in oracle.temperature {
            let cache = TemperatureCache(Hct(argb: item.argb))
            let what = hex(item.argb)
            XCTAssertEqual(
                cache.inputRelativeTemperature.bitPattern, double(hex: item.relative).bitPattern,
                "\(what) relative temperature")
            XCTAssertEqual(hex(cache.complement.argb), hex(item.complement), "\(what) complement")
            XCTAssertEqual(cache.analogous().map { hex($0.argb) }, item.analogous.map(hex), what)
            XCTAssertEqual(
                cache.analogous(count: 3, divisions: 6).map { hex($0.argb) },
                item.analogous36.map(hex), what)
        }
    }

    func testScoreRankingsAreExact() {
        XCTAssertGreaterThanOrEqual(oracle.score.count, 200)
        for (index, item) in oracle.score.enumerated() {
            var population: [UInt32: Int] = [:]
            for pair in item.population {
                population[pair[0]] = Int(pair[1])
            }
            let ranked = Score.score(
                population, desired: item.desired, fallbackColorARGB: item.fallback,
                filter: item.filter)
            XCTAssertEqual(ranked.map(hex), item.ranked.map(hex), "ranking \(index)")
        }
    }
}
