import XCTest

@testable import LiveryCore

/// MCU's published dislike tests (typescript/dislike/dislike_analyzer_test.ts).
final class DislikeAnalyzerTests: XCTestCase {
    let bile: [UInt32] = [0xff95_884b, 0xff71_6b40, 0xffb0_8e00, 0xff4c_4308, 0xff46_4521]

    func testLikesMonkSkinToneScaleColors() {
        let monk: [UInt32] = [
            0xfff6_ede4, 0xfff3_e7db, 0xfff7_ead0, 0xffea_daba, 0xffd7_bd96, 0xffa0_7e56,
            0xff82_5c43, 0xff60_4134, 0xff3a_312a, 0xff29_2420,
        ]
        for argb in monk {
            XCTAssertFalse(DislikeAnalyzer.isDisliked(Hct(argb: argb)), hex(argb))
        }
    }

    func testDislikesBileColorsAndMakesThemLikable() {
        for argb in bile {
            let hct = Hct(argb: argb)
            XCTAssertTrue(DislikeAnalyzer.isDisliked(hct), hex(argb))
            XCTAssertFalse(DislikeAnalyzer.isDisliked(DislikeAnalyzer.fixIfDisliked(hct)), hex(argb))
        }
    }

    func testLikesTone67Colors() {
        let color = Hct.from(hue: 100.0, chroma: 50.0, tone: 67.0)
        XCTAssertFalse(DislikeAnalyzer.isDisliked(color))
        XCTAssertEqual(DislikeAnalyzer.fixIfDisliked(color).argb, color.argb)
    }
}
