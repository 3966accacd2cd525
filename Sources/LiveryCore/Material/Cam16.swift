import Foundation

/// A colour in CAM16, the colour appearance model under HCT's hue and chroma (MCU's `Cam16`),
/// with the CAM16-UCS coordinates (`jstar`, `astar`, `bstar`) for distances.
struct Cam16: Sendable {
    let hue: Double
    let chroma: Double
    let j: Double
    let q: Double
    let m: Double
    let s: Double
    let jstar: Double
    let astar: Double
    let bstar: Double

    /// The CAM16-UCS colour difference ΔE′ (1.41 · ΔE^0.63).
    func distance(_ other: Cam16) -> Double {
        let dJ = jstar - other.jstar
        let dA = astar - other.astar
        let dB = bstar - other.bstar
        let dEPrime = (dJ * dJ + dA * dA + dB * dB).squareRoot()
        return 1.41 * pow(dEPrime, 0.63)
    }

    /// How `fromXYZ` brings atan2's degrees into [0, 360): MCU's `fromInt` sanitizes with a
    /// remainder, its `fromXyzInViewingConditions` adds or subtracts 360 once.
    enum HueWrap { case sanitize, addOnce }

    /// A colour from XYZ (Y = 100 for white) seen in `vc`.
    static func fromXYZ(
        _ x: Double, _ y: Double, _ z: Double, in vc: ViewingConditions,
        hueWrap: HueWrap = .addOnce
    ) -> Cam16 {
        let rC = 0.401288 * x + 0.650173 * y - 0.051461 * z
        let gC = -0.250268 * x + 1.204414 * y + 0.045854 * z
        let bC = -0.002079 * x + 0.048952 * y + 0.953127 * z

        let rD = vc.rgbD[0] * rC
        let gD = vc.rgbD[1] * gC
        let bD = vc.rgbD[2] * bC

        let rAF = pow((vc.fl * abs(rD)) / 100.0, 0.42)
        let gAF = pow((vc.fl * abs(gD)) / 100.0, 0.42)
        let bAF = pow((vc.fl * abs(bD)) / 100.0, 0.42)

        let rA = (MaterialMath.signum(rD) * 400.0 * rAF) / (rAF + 27.13)
        let gA = (MaterialMath.signum(gD) * 400.0 * gAF) / (gAF + 27.13)
        let bA = (MaterialMath.signum(bD) * 400.0 * bAF) / (bAF + 27.13)

        let a = (11.0 * rA + -12.0 * gA + bA) / 11.0
        let b = (rA + gA - 2.0 * bA) / 9.0
        let u = (20.0 * rA + 20.0 * gA + 21.0 * bA) / 20.0
        let p2 = (40.0 * rA + 20.0 * gA + bA) / 20.0
        let atanDegrees = (atan2(b, a) * 180.0) / Double.pi
        let hue: Double
        switch hueWrap {
        case .sanitize:
            hue = MaterialMath.sanitizeDegrees(atanDegrees)
        case .addOnce:
            hue =
                atanDegrees < 0
                ? atanDegrees + 360.0 : (atanDegrees >= 360 ? atanDegrees - 360 : atanDegrees)
        }
        let hueRadians = (hue * Double.pi) / 180.0

        let ac = p2 * vc.nbb
        let j = 100.0 * pow(ac / vc.aw, vc.c * vc.z)
        let q = (4.0 / vc.c) * (j / 100.0).squareRoot() * (vc.aw + 4.0) * vc.fLRoot
        let huePrime = hue < 20.14 ? hue + 360 : hue
        let eHue = 0.25 * (cos((huePrime * Double.pi) / 180.0 + 2.0) + 3.8)
        let p1 = (50000.0 / 13.0) * eHue * vc.nc * vc.ncb
        let t = (p1 * (a * a + b * b).squareRoot()) / (u + 0.305)
        let alpha = pow(t, 0.9) * pow(1.64 - pow(0.29, vc.n), 0.73)
        let c = alpha * (j / 100.0).squareRoot()
        let m = c * vc.fLRoot
        let s = 50.0 * ((alpha * vc.c) / (vc.aw + 4.0)).squareRoot()
        let jstar = ((1.0 + 100.0 * 0.007) * j) / (1.0 + 0.007 * j)
        let mstar: Double
        switch hueWrap {
        case .sanitize: mstar = (1.0 / 0.0228) * log(1.0 + 0.0228 * m)
        case .addOnce: mstar = log(1.0 + 0.0228 * m) / 0.0228
        }
        return Cam16(
            hue: hue, chroma: c, j: j, q: q, m: m, s: s, jstar: jstar,
            astar: mstar * cos(hueRadians), bstar: mstar * sin(hueRadians))
    }

    /// A colour from lightness J, chroma C and hue h (degrees) seen in `vc`.
    static func fromJCh(_ j: Double, _ c: Double, _ h: Double, in vc: ViewingConditions = .standard)
        -> Cam16
    {
        let q = (4.0 / vc.c) * (j / 100.0).squareRoot() * (vc.aw + 4.0) * vc.fLRoot
        let m = c * vc.fLRoot
        let alpha = c / (j / 100.0).squareRoot()
        let s = 50.0 * ((alpha * vc.c) / (vc.aw + 4.0)).squareRoot()
        let hueRadians = (h * Double.pi) / 180.0
        let jstar = ((1.0 + 100.0 * 0.007) * j) / (1.0 + 0.007 * j)
        let mstar = (1.0 / 0.0228) * log(1.0 + 0.0228 * m)
        return Cam16(
            hue: h, chroma: c, j: j, q: q, m: m, s: s, jstar: jstar,
            astar: mstar * cos(hueRadians), bstar: mstar * sin(hueRadians))
    }

    /// A colour from CAM16-UCS coordinates seen in `vc`.
    static func fromUCS(
        _ jstar: Double, _ astar: Double, _ bstar: Double, in vc: ViewingConditions = .standard
    ) -> Cam16 {
        let m = (astar * astar + bstar * bstar).squareRoot()
        let bigM = (exp(m * 0.0228) - 1.0) / 0.0228
        let c = bigM / vc.fLRoot
        var h = atan2(bstar, astar) * (180.0 / Double.pi)
        if h < 0.0 { h += 360.0 }
        let j = jstar / (1 - (jstar - 100) * 0.007)
        return fromJCh(j, c, h, in: vc)
    }

    /// The sRGB colour (opaque ARGB) that looks like this one under the default conditions.
    var argb: UInt32 { viewed(in: .standard) }

    /// The sRGB colour that looks like this one in `vc`.
    func viewed(in vc: ViewingConditions) -> UInt32 {
        let xyz = xyz(in: vc)
        return ColorMath.argb(x: xyz[0], y: xyz[1], z: xyz[2])
    }

    /// The XYZ coordinates of this colour seen in `vc`.
    func xyz(in vc: ViewingConditions) -> SIMD3<Double> {
        let alpha = chroma == 0.0 || j == 0.0 ? 0.0 : chroma / (j / 100.0).squareRoot()
        let t = pow(alpha / pow(1.64 - pow(0.29, vc.n), 0.73), 1.0 / 0.9)
        let hRad = (hue * Double.pi) / 180.0
        let eHue = 0.25 * (cos(hRad + 2.0) + 3.8)
        let ac = vc.aw * pow(j / 100.0, 1.0 / vc.c / vc.z)
        let p1 = eHue * (50000.0 / 13.0) * vc.nc * vc.ncb
        let p2 = ac / vc.nbb
        let hSin = sin(hRad)
        let hCos = cos(hRad)
        let gamma = (23.0 * (p2 + 0.305) * t) / (23.0 * p1 + 11.0 * t * hCos + 108.0 * t * hSin)
        let a = gamma * hCos
        let b = gamma * hSin
        let rA = (460.0 * p2 + 451.0 * a + 288.0 * b) / 1403.0
        let gA = (460.0 * p2 - 891.0 * a - 261.0 * b) / 1403.0
        let bA = (460.0 * p2 - 220.0 * a - 6300.0 * b) / 1403.0

        let rCBase = max(0, (27.13 * abs(rA)) / (400.0 - abs(rA)))
        let rC = MaterialMath.signum(rA) * (100.0 / vc.fl) * pow(rCBase, 1.0 / 0.42)
        let gCBase = max(0, (27.13 * abs(gA)) / (400.0 - abs(gA)))
        let gC = MaterialMath.signum(gA) * (100.0 / vc.fl) * pow(gCBase, 1.0 / 0.42)
        let bCBase = max(0, (27.13 * abs(bA)) / (400.0 - abs(bA)))
        let bC = MaterialMath.signum(bA) * (100.0 / vc.fl) * pow(bCBase, 1.0 / 0.42)
        let rF = rC / vc.rgbD[0]
        let gF = gC / vc.rgbD[1]
        let bF = bC / vc.rgbD[2]

        let x = 1.86206786 * rF - 1.01125463 * gF + 0.14918677 * bF
        let y = 0.38752654 * rF + 0.62144744 * gF - 0.00897398 * bF
        let z = -0.01584150 * rF - 0.03412294 * gF + 1.04996444 * bF
        return SIMD3(x, y, z)
    }
}

extension Cam16 {
    /// The CAM16 coordinates of an sRGB colour seen in `vc`.
    init(argb: UInt32, in vc: ViewingConditions = .standard) {
        let redL = ColorMath.linearized(ColorMath.red(argb))
        let greenL = ColorMath.linearized(ColorMath.green(argb))
        let blueL = ColorMath.linearized(ColorMath.blue(argb))
        let x = 0.41233895 * redL + 0.35762064 * greenL + 0.18051042 * blueL
        let y = 0.2126 * redL + 0.7152 * greenL + 0.0722 * blueL
        let z = 0.01932141 * redL + 0.11916382 * greenL + 0.95034478 * blueL
        self = Cam16.fromXYZ(x, y, z, in: vc, hueWrap: .sanitize)
    }
}
