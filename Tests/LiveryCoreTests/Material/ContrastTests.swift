import XCTest

@testable import LiveryCore

/// MCU's contrast tests (`typescript/contrast/contrast_test.ts`), and tones the oracle computes.
final class ContrastTests: XCTestCase {
    func testRatioOfTonesClampsOutOfRangeTones() {
        XCTAssertEqual(Contrast.ratioOfTones(-10.0, 110.0), 21.0, accuracy: 0.001)
    }

    func testLighterAndDarkerFailWithMinusOneWhenImpossibleOrOutOfRange() {
        XCTAssertEqual(Contrast.lighter(90.0, 10.0), -1.0)
        XCTAssertEqual(Contrast.lighter(110.0, 2.0), -1.0)
        XCTAssertEqual(Contrast.lighter(-10.0, 2.0), -1.0)
        XCTAssertEqual(Contrast.darker(10.0, 20.0), -1.0)
        XCTAssertEqual(Contrast.darker(110.0, 2.0), -1.0)
        XCTAssertEqual(Contrast.darker(-10.0, 2.0), -1.0)
    }

    func testUnsafeVariantsFallBackToWhiteAndBlack() {
        XCTAssertEqual(Contrast.lighterUnsafe(100.0, 2.0), 100, accuracy: 0.001)
        XCTAssertEqual(Contrast.darkerUnsafe(0.0, 2.0), 0.0, accuracy: 0.001)
    }
}
