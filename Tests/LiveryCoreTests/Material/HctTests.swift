import XCTest

@testable import LiveryCore

/// MCU's published HCT and CAM16 tests (typescript/hct/hct_test.ts,
/// typescript/hct/hct_round_trip_test.ts, typescript/utils/utils_test.ts, cpp/cam/hct_test.cc),
/// with their values.
final class HctTests: XCTestCase {
    func testCam16OfPrimariesAndExtremesMatchesMCU() {
        let expected: [(UInt32, [Double])] = [
            (0xffff_0000, [27.408, 113.358, 46.445, 89.494, 91.890, 105.989]),
            (0xff00_ff00, [142.140, 108.410, 79.332, 85.588, 78.605, 138.520]),
            (0xff00_00ff, [282.788, 87.231, 25.466, 68.867, 93.675, 78.481]),
            (0xffff_ffff, [209.492, 2.869, 100.0, 2.265, 12.068, 155.521]),
            (0xff00_0000, [0.0, 0.0, 0.0, 0.0, 0.0, 0.0]),
        ]
        for (argb, values) in expected {
            let cam = Cam16(argb: argb)
            let actual = [cam.hue, cam.chroma, cam.j, cam.m, cam.s, cam.q]
            for (name, (a, e)) in zip(["hue", "chroma", "j", "m", "s", "q"], zip(actual, values)) {
                assertCloseTo(a, e, 3, "\(hex(argb)) \(name)")
            }
        }
    }

    func testCam16OfPrimariesRoundTrips() {
        for argb: UInt32 in [0xffff_0000, 0xff00_ff00, 0xff00_00ff] {
            XCTAssertEqual(Cam16(argb: argb).argb, argb)
        }
    }

    func testHctOfGreenAndBlueMatchesMCU() {
        let green = Hct(argb: 0xff00_ff00)
        assertCloseTo(green.hue, 142.139, 2)
        assertCloseTo(green.chroma, 108.410, 2)
        assertCloseTo(green.tone, 87.737, 2)
        let blue = Hct(argb: 0xff00_00ff)
        assertCloseTo(blue.hue, 282.788, 2)
        assertCloseTo(blue.chroma, 87.230, 2)
        assertCloseTo(blue.tone, 32.302, 2)
        let blueTone90 = Hct.from(hue: 282.788, chroma: 87.230, tone: 90.0)
        assertCloseTo(blueTone90.hue, 282.239, 2)
        assertCloseTo(blueTone90.chroma, 19.144, 2)
        assertCloseTo(blueTone90.tone, 90.035, 2)
    }

    func testDefaultViewingConditionsMatchMCU() {
        let vc = ViewingConditions.standard
        assertCloseTo(vc.n, 0.184, 3)
        assertCloseTo(vc.aw, 29.981, 3)
        assertCloseTo(vc.nbb, 1.017, 3)
        assertCloseTo(vc.ncb, 1.017, 3)
        assertCloseTo(vc.c, 0.69, 3)
        assertCloseTo(vc.nc, 1.0, 3)
        assertCloseTo(vc.rgbD[0], 1.021, 3)
        assertCloseTo(vc.rgbD[1], 0.986, 3)
        assertCloseTo(vc.rgbD[2], 0.934, 3)
        assertCloseTo(vc.fl, 0.388, 3)
        assertCloseTo(vc.fLRoot, 0.789, 3)
        assertCloseTo(vc.z, 1.909, 3)
    }

    private func isOnBoundary(_ argb: UInt32) -> Bool {
        [ColorMath.red(argb), ColorMath.green(argb), ColorMath.blue(argb)].contains {
            $0 == 0 || $0 == 255
        }
    }

    func testSolverReturnsASufficientlyCloseColor() {
        for hue in stride(from: 15.0, to: 360, by: 30) {
            for chroma in stride(from: 0.0, through: 100, by: 10) {
                for tone in stride(from: 20.0, through: 80, by: 10) {
                    let hct = Hct.from(hue: hue, chroma: chroma, tone: tone)
                    let label = "HCT(\(hue), \(chroma), \(tone)) = \(hex(hct.argb))"
                    if chroma > 0 {
                        XCTAssertLessThanOrEqual(abs(hct.hue - hue), 4.0, label)
                    }
                    XCTAssertGreaterThanOrEqual(hct.chroma, 0, label)
                    XCTAssertLessThanOrEqual(hct.chroma, chroma + 2.5, label)
                    if hct.chroma < chroma - 2.5 {
                        XCTAssertTrue(isOnBoundary(hct.argb), label)
                    }
                    XCTAssertLessThanOrEqual(abs(hct.tone - tone), 0.5, label)
                }
            }
        }
    }

    func testRoundTripPreservesColors() {
        for r in stride(from: 0, to: 296, by: 37) {
            for g in stride(from: 0, to: 296, by: 37) {
                for b in stride(from: 0, to: 296, by: 37) {
                    let argb = ColorMath.argb(red: min(255, r), green: min(255, g), blue: min(255, b))
                    let hct = Hct(argb: argb)
                    XCTAssertEqual(
                        Hct.from(hue: hct.hue, chroma: hct.chroma, tone: hct.tone).argb, argb,
                        hex(argb))
                }
            }
        }
    }

    func testHctIsLimitedToSRGB() {
        let hct = Hct.from(hue: 120.0, chroma: 200.0, tone: 50.0)
        let cam = Cam16(argb: hct.argb)
        XCTAssertEqual(cam.hue, hct.hue)
        XCTAssertEqual(cam.chroma, hct.chroma)
        XCTAssertEqual(ColorMath.lstar(hct.argb), hct.tone)
    }

    func testSettingToneOutOfRangeTruncatesChroma() {
        var hct = Hct.from(hue: 120.0, chroma: 60.0, tone: 50.0)
        let chroma = hct.chroma
        XCTAssertLessThan(chroma, 60.0)
        hct.tone = 180.0
        XCTAssertLessThan(hct.chroma, chroma)
    }

    func testArgbFromRgbMatchesMCU() {
        XCTAssertEqual(ColorMath.argb(red: 255, green: 255, blue: 255), 0xffff_ffff)
        XCTAssertEqual(ColorMath.argb(red: 0, green: 0, blue: 0), 0xff00_0000)
        XCTAssertEqual(ColorMath.argb(red: 50, green: 150, blue: 250), 0xff32_96fa)
    }

    func testRotationDirectionMatchesTheOriginalDefinition() {
        func original(_ from: Double, _ to: Double) -> Double {
            let a = to - from
            let b = to - from + 360.0
            let c = to - from - 360.0
            if abs(a) <= abs(b) && abs(a) <= abs(c) { return a >= 0.0 ? 1.0 : -1.0 }
            if abs(b) <= abs(a) && abs(b) <= abs(c) { return b >= 0.0 ? 1.0 : -1.0 }
            return c >= 0.0 ? 1.0 : -1.0
        }
        for from in stride(from: 0.0, to: 360, by: 15) {
            for to in stride(from: 7.5, to: 360, by: 15) {
                XCTAssertEqual(MaterialMath.rotationDirection(from, to), original(from, to))
            }
        }
    }

    func testYAndLstarMatchMCUsValuesAndInvertEachOther() {
        let yFromLstar: [(Double, Double)] = [
            (0.0, 0.0), (0.1, 0.0110705), (0.2, 0.0221411), (0.3, 0.0332116), (0.4, 0.0442822),
            (0.5, 0.0553528), (1.0, 0.1107056), (2.0, 0.2214112), (3.0, 0.3321169),
            (4.0, 0.4428225), (5.0, 0.5535282), (8.0, 0.8856451), (10.0, 1.1260199),
            (15.0, 1.9085832), (20.0, 2.9890524), (25.0, 4.4154767), (30.0, 6.2359055),
            (40.0, 11.2509737), (50.0, 18.4186518), (60.0, 28.1233342), (70.0, 40.7494157),
            (80.0, 56.6812907), (90.0, 76.3033539), (95.0, 87.6183294), (99.0, 97.4360239),
            (100.0, 100.0),
        ]
        for (lstar, y) in yFromLstar {
            assertCloseTo(ColorMath.yFromLstar(lstar), y, 5, "Y(L* \(lstar))")
        }
        let lstarFromY: [(Double, Double)] = [
            (0.0, 0.0), (0.1, 0.9032962), (0.2, 1.8065925), (0.3, 2.7098888), (0.4, 3.6131851),
            (0.5, 4.5164814), (0.8856451, 8.0), (1.0, 8.9914424), (2.0, 15.4872443),
            (3.0, 20.0438970), (4.0, 23.6714419), (5.0, 26.7347653), (10.0, 37.8424304),
            (15.0, 45.6341970), (20.0, 51.8372115), (25.0, 57.0754208), (30.0, 61.6542222),
            (40.0, 69.4695307), (50.0, 76.0692610), (60.0, 81.8381891), (70.0, 86.9968642),
            (80.0, 91.6848609), (90.0, 95.9967686), (95.0, 98.0335184), (99.0, 99.6120372),
            (100.0, 100.0),
        ]
        for (y, lstar) in lstarFromY {
            assertCloseTo(ColorMath.lstarFromY(y), lstar, 5, "L*(Y \(y))")
        }
        var value = 0.0
        while value <= 100.0 {
            assertCloseTo(ColorMath.yFromLstar(ColorMath.lstarFromY(value)), value, 8)
            assertCloseTo(ColorMath.lstarFromY(ColorMath.yFromLstar(value)), value, 8)
            value += 0.1
        }
    }
}
