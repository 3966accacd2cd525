import Foundation

/// The surroundings a colour is seen in, for CAM16 (MCU's `ViewingConditions`).
///
/// `ViewingConditions.standard` is MCU's default: D65 white, an adapting luminance of
/// 200/π · Y(L* 50) / 100 cd/m², a background of L* 50, average surround, no discounting.
public struct ViewingConditions: Sendable {
    let n: Double
    let aw: Double
    let nbb: Double
    let ncb: Double
    let c: Double
    let nc: Double
    let rgbD: SIMD3<Double>
    let fl: Double
    let fLRoot: Double
    let z: Double

    /// MCU's default viewing conditions (`ViewingConditions.DEFAULT`).
    public static let standard = ViewingConditions.make()

    /// Viewing conditions from their physical description, computed as MCU computes them.
    /// - Parameters:
    ///   - whitePoint: the white point in XYZ (Y = 100).
    ///   - adaptingLuminance: the luminance of the adapting field, cd/m².
    ///   - backgroundLstar: the L* of the background.
    ///   - surround: 0 (dark) to 2 (average).
    ///   - discountingIlluminant: whether the eye fully adapts to the illuminant.
    /// - Returns: the conditions CAM16 uses.
    static func make(
        whitePoint: SIMD3<Double> = ColorMath.whitePointD65,
        adaptingLuminance: Double = (200.0 / Double.pi) * ColorMath.yFromLstar(50.0) / 100.0,
        backgroundLstar: Double = 50.0,
        surround: Double = 2.0,
        discountingIlluminant: Bool = false
    ) -> ViewingConditions {
        let xyz = whitePoint
        let rW = xyz[0] * 0.401288 + xyz[1] * 0.650173 + xyz[2] * -0.051461
        let gW = xyz[0] * -0.250268 + xyz[1] * 1.204414 + xyz[2] * 0.045854
        let bW = xyz[0] * -0.002079 + xyz[1] * 0.048952 + xyz[2] * 0.953127
        let f = 0.8 + surround / 10.0
        let c =
            f >= 0.9
            ? MaterialMath.lerp(0.59, 0.69, (f - 0.9) * 10.0)
            : MaterialMath.lerp(0.525, 0.59, (f - 0.8) * 10.0)
        var d =
            discountingIlluminant
            ? 1.0 : f * (1.0 - (1.0 / 3.6) * exp((-adaptingLuminance - 42.0) / 92.0))
        d = d > 1.0 ? 1.0 : (d < 0.0 ? 0.0 : d)
        let nc = f
        let rgbD = SIMD3(
            d * (100.0 / rW) + 1.0 - d,
            d * (100.0 / gW) + 1.0 - d,
            d * (100.0 / bW) + 1.0 - d)
        let k = 1.0 / (5.0 * adaptingLuminance + 1.0)
        let k4 = k * k * k * k
        let k4F = 1.0 - k4
        let fl = k4 * adaptingLuminance + 0.1 * k4F * k4F * cbrt(5.0 * adaptingLuminance)
        let n = ColorMath.yFromLstar(backgroundLstar) / whitePoint[1]
        let z = 1.48 + n.squareRoot()
        let nbb = 0.725 / pow(n, 0.2)
        let ncb = nbb
        let factors = SIMD3(
            pow((fl * rgbD[0] * rW) / 100.0, 0.42),
            pow((fl * rgbD[1] * gW) / 100.0, 0.42),
            pow((fl * rgbD[2] * bW) / 100.0, 0.42))
        let rgbA = SIMD3(
            (400.0 * factors[0]) / (factors[0] + 27.13),
            (400.0 * factors[1]) / (factors[1] + 27.13),
            (400.0 * factors[2]) / (factors[2] + 27.13))
        let aw = (2.0 * rgbA[0] + rgbA[1] + 0.05 * rgbA[2]) * nbb
        return ViewingConditions(
            n: n, aw: aw, nbb: nbb, ncb: ncb, c: c, nc: nc, rgbD: rgbD, fl: fl,
            fLRoot: pow(fl, 0.25), z: z)
    }
}
