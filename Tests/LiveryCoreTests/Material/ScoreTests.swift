import XCTest

@testable import LiveryCore

/// MCU's published Score tests (typescript/score/score_test.ts, cpp/score/score_test.cc), with
/// their values.
final class ScoreTests: XCTestCase {
    func testPrioritizesChroma() {
        let ranked = Score.score([0xff00_0000: 1, 0xffff_ffff: 1, 0xff00_00ff: 1], desired: 4)
        XCTAssertEqual(ranked, [0xff00_00ff])
    }

    func testPrioritizesChromaWhenProportionsAreEqual() {
        let ranked = Score.score([0xffff_0000: 1, 0xff00_ff00: 1, 0xff00_00ff: 1], desired: 4)
        XCTAssertEqual(ranked, [0xffff_0000, 0xff00_ff00, 0xff00_00ff])
    }

    func testFallsBackToGoogleBlueWhenNoColorIsSuitable() {
        XCTAssertEqual(Score.score([0xff00_0000: 1], desired: 4), [0xff42_85f4])
        XCTAssertEqual(Score.score([:]), [0xff42_85f4])
    }

    func testDedupesNearbyHues() {
        let ranked = Score.score([0xff00_8772: 1, 0xff31_8477: 1], desired: 4)
        XCTAssertEqual(ranked, [0xff00_8772])
    }

    func testMaximizesHueDistance() {
        let ranked = Score.score([0xff00_8772: 1, 0xff00_8587: 1, 0xff00_7ebc: 1], desired: 2)
        XCTAssertEqual(ranked, [0xff00_7ebc, 0xff00_8772])
    }

    func testGeneratedScenariosMatchMCU() {
        let scenarios: [([UInt32: Int], Int, UInt32, Bool, [UInt32])] = [
            (
                [0xff7e_a16d: 67, 0xffd8_ccae: 67, 0xff83_5c0d: 49], 3, 0xff8d_3819, false,
                [0xff7e_a16d, 0xffd8_ccae, 0xff83_5c0d]
            ),
            (
                [0xffd3_3881: 14, 0xff32_05cc: 77, 0xff0b_48cf: 36, 0xffa0_8f5d: 81], 4, 0xff7d_772b,
                true, [0xff32_05cc, 0xffa0_8f5d, 0xffd3_3881]
            ),
            (
                [0xffbe_94a6: 23, 0xffc3_3fd7: 42, 0xff89_9f36: 90, 0xff94_c574: 82], 3, 0xffaa_79a4,
                true, [0xff94_c574, 0xffc3_3fd7, 0xffbe_94a6]
            ),
            (
                [0xffdf_241c: 85, 0xff68_5859: 44, 0xffd0_6d5f: 34, 0xff56_1c54: 27, 0xff71_3090: 88],
                5, 0xff58_c19c, false, [0xffdf_241c, 0xff56_1c54]
            ),
            (
                [0xffbe_66f8: 41, 0xff4b_bda9: 88, 0xff80_f6f9: 44, 0xffab_8017: 43, 0xffe8_9307: 65],
                3, 0xff91_6691, false, [0xffab_8017, 0xff4b_bda9, 0xffbe_66f8]
            ),
            (
                [0xff18_ea8f: 93, 0xff32_7593: 18, 0xff06_6a18: 53, 0xfffa_8a23: 74, 0xff04_ca1f: 62],
                2, 0xff4c_377a, false, [0xff18_ea8f, 0xfffa_8a23]
            ),
            (
                [0xff2e_05ed: 23, 0xff15_3e55: 90, 0xff9a_b220: 23, 0xff15_3379: 66, 0xff68_bcc3: 81],
                2, 0xfff5_88dc, true, [0xff2e_05ed, 0xff9a_b220]
            ),
            (
                [0xff81_6ec5: 24, 0xff6d_cb94: 19, 0xff3c_ae91: 98, 0xff5b_542f: 25], 1, 0xff84_b0fd,
                false, [0xff3c_ae91]
            ),
            (
                [0xff20_6f86: 52, 0xff4a_620d: 96, 0xfff5_1401: 85, 0xff2b_8ebf: 3, 0xff27_7766: 59],
                3, 0xff02_b415, true, [0xfff5_1401, 0xff4a_620d, 0xff2b_8ebf]
            ),
            (
                [0xff8b_1d99: 54, 0xff27_effe: 43, 0xff6f_558d: 2, 0xff77_fdf2: 78], 4, 0xff5e_7a10,
                true, [0xff27_effe, 0xff8b_1d99, 0xff6f_558d]
            ),
        ]
        for (index, (population, desired, fallback, filter, expected)) in scenarios.enumerated() {
            let ranked = Score.score(
                population, desired: desired, fallbackColorARGB: fallback, filter: filter)
            XCTAssertEqual(ranked.map(hex), expected.map(hex), "scenario \(index + 1)")
        }
    }
}
