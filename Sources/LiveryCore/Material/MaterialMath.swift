import Foundation

/// The arithmetic of Google's material-color-utilities (MCU) `math_utils` and `color_utils`,
/// with the same Double operations in the same order as its TypeScript and Java sources, so
/// that every colour derived from them agrees with MCU to the last bit.
///
/// Floating-point expressions here are written exactly as MCU writes them: reordering a sum or
/// folding a constant would change the rounding and, rarely, the resulting ARGB value.
enum MaterialMath {
    /// -1, 0 or 1 by the sign of `x`.
    @inline(__always)
    static func signum(_ x: Double) -> Double {
        x < 0 ? -1 : (x == 0 ? 0 : 1)
    }

    /// `(1 - amount) * start + amount * stop`, MCU's form (not `start + (stop - start) * amount`).
    @inline(__always)
    static func lerp(_ start: Double, _ stop: Double, _ amount: Double) -> Double {
        (1.0 - amount) * start + amount * stop
    }

    @inline(__always)
    static func clamp(_ low: Int, _ high: Int, _ x: Int) -> Int {
        x < low ? low : (x > high ? high : x)
    }

    @inline(__always)
    static func clamp(_ low: Double, _ high: Double, _ x: Double) -> Double {
        x < low ? low : (x > high ? high : x)
    }

    /// JavaScript's `Math.round` (and Java's): the nearest integer, halves toward +∞.
    /// Not `rounded()`, which takes halves away from zero, nor Python's halves-to-even.
    @inline(__always)
    static func roundHalfUp(_ x: Double) -> Double {
        let f = x.rounded(.down)
        return x - f >= 0.5 ? f + 1 : f
    }

    /// Degrees in [0, 360) for an integer angle.
    @inline(__always)
    static func sanitizeDegrees(_ degrees: Int) -> Int {
        let d = degrees % 360
        return d < 0 ? d + 360 : d
    }

    /// Degrees in [0, 360): the C `fmod` remainder (JavaScript's `%`), then +360 when negative.
    @inline(__always)
    static func sanitizeDegrees(_ degrees: Double) -> Double {
        let d = degrees.truncatingRemainder(dividingBy: 360.0)
        return d < 0 ? d + 360.0 : d
    }

    /// 1 when the shortest turn from `from` to `to` is increasing, else -1.
    static func rotationDirection(_ from: Double, _ to: Double) -> Double {
        sanitizeDegrees(to - from) <= 180.0 ? 1.0 : -1.0
    }

    /// The angle between two hues, in [0, 180].
    @inline(__always)
    static func differenceDegrees(_ a: Double, _ b: Double) -> Double {
        180.0 - abs(abs(a - b) - 180.0)
    }

    /// `row` times the 3×3 `matrix` as MCU sums it: left to right, row-major.
    @inline(__always)
    static func multiply(_ row: SIMD3<Double>, _ m: Matrix3) -> SIMD3<Double> {
        SIMD3(
            row[0] * m.0[0] + row[1] * m.0[1] + row[2] * m.0[2],
            row[0] * m.1[0] + row[1] * m.1[1] + row[2] * m.1[2],
            row[0] * m.2[0] + row[1] * m.2[1] + row[2] * m.2[2])
    }

    typealias Matrix3 = (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>)
}

/// Conversions between ARGB, linear RGB, XYZ, L*a*b* and L*, as MCU's `color_utils`.
enum ColorMath {
    static let srgbToXYZ: MaterialMath.Matrix3 = (
        SIMD3(0.41233895, 0.35762064, 0.18051042),
        SIMD3(0.2126, 0.7152, 0.0722),
        SIMD3(0.01932141, 0.11916382, 0.95034478)
    )

    static let xyzToSRGB: MaterialMath.Matrix3 = (
        SIMD3(3.2413774792388685, -1.5376652402851851, -0.49885366846268053),
        SIMD3(-0.9691452513005321, 1.8758853451067872, 0.04156585616912061),
        SIMD3(0.05562093689691305, -0.20395524564742123, 1.0571799111220335)
    )

    static let whitePointD65 = SIMD3<Double>(95.047, 100.0, 108.883)

    /// Linear sRGB components of 0...255 as 0...100, one entry a component value; the table
    /// holds exactly what `linearized(computing:)` returns.
    static let linearTable: [Double] = (0..<256).map { linearized(computing: $0) }

    @inline(__always)
    static func argb(red: Int, green: Int, blue: Int) -> UInt32 {
        0xff00_0000 | UInt32(red & 255) << 16 | UInt32(green & 255) << 8 | UInt32(blue & 255)
    }

    @inline(__always) static func alpha(_ argb: UInt32) -> Int { Int(argb >> 24 & 255) }
    @inline(__always) static func red(_ argb: UInt32) -> Int { Int(argb >> 16 & 255) }
    @inline(__always) static func green(_ argb: UInt32) -> Int { Int(argb >> 8 & 255) }
    @inline(__always) static func blue(_ argb: UInt32) -> Int { Int(argb & 255) }
    @inline(__always) static func isOpaque(_ argb: UInt32) -> Bool { alpha(argb) >= 255 }

    static func argb(linear rgb: SIMD3<Double>) -> UInt32 {
        argb(red: delinearized(rgb[0]), green: delinearized(rgb[1]), blue: delinearized(rgb[2]))
    }

    static func argb(x: Double, y: Double, z: Double) -> UInt32 {
        let m = xyzToSRGB
        let linearR = m.0[0] * x + m.0[1] * y + m.0[2] * z
        let linearG = m.1[0] * x + m.1[1] * y + m.1[2] * z
        let linearB = m.2[0] * x + m.2[1] * y + m.2[2] * z
        return argb(
            red: delinearized(linearR), green: delinearized(linearG),
            blue: delinearized(linearB))
    }

    static func xyz(_ argb: UInt32) -> SIMD3<Double> {
        let rgb = SIMD3(linearized(red(argb)), linearized(green(argb)), linearized(blue(argb)))
        return MaterialMath.multiply(rgb, srgbToXYZ)
    }

    static func argb(lab l: Double, _ a: Double, _ b: Double) -> UInt32 {
        let white = whitePointD65
        let fy = (l + 16.0) / 116.0
        let fx = a / 500.0 + fy
        let fz = fy - b / 200.0
        let x = labInvf(fx) * white[0]
        let y = labInvf(fy) * white[1]
        let z = labInvf(fz) * white[2]
        return argb(x: x, y: y, z: z)
    }

    static func lab(_ argb: UInt32) -> SIMD3<Double> {
        let linearR = linearized(red(argb))
        let linearG = linearized(green(argb))
        let linearB = linearized(blue(argb))
        let m = srgbToXYZ
        let x = m.0[0] * linearR + m.0[1] * linearG + m.0[2] * linearB
        let y = m.1[0] * linearR + m.1[1] * linearG + m.1[2] * linearB
        let z = m.2[0] * linearR + m.2[1] * linearG + m.2[2] * linearB
        let white = whitePointD65
        let fx = labF(x / white[0])
        let fy = labF(y / white[1])
        let fz = labF(z / white[2])
        return SIMD3(116.0 * fy - 16, 500.0 * (fx - fy), 200.0 * (fy - fz))
    }

    static func argb(lstar: Double) -> UInt32 {
        let component = delinearized(yFromLstar(lstar))
        return argb(red: component, green: component, blue: component)
    }

    static func lstar(_ argb: UInt32) -> Double {
        let y = xyz(argb)[1]
        return 116.0 * labF(y / 100.0) - 16.0
    }

    static func yFromLstar(_ lstar: Double) -> Double {
        100.0 * labInvf((lstar + 16.0) / 116.0)
    }

    static func lstarFromY(_ y: Double) -> Double {
        labF(y / 100.0) * 116.0 - 16.0
    }

    /// A component 0...255 as linear RGB 0...100.
    @inline(__always)
    static func linearized(_ component: Int) -> Double {
        linearTable[component]
    }

    static func linearized(computing component: Int) -> Double {
        let normalized = Double(component) / 255.0
        if normalized <= 0.040449936 {
            return normalized / 12.92 * 100.0
        }
        return pow((normalized + 0.055) / 1.055, 2.4) * 100.0
    }

    /// Linear RGB 0...100 as a component 0...255, rounded half up and clamped.
    static func delinearized(_ component: Double) -> Int {
        let normalized = component / 100.0
        let value: Double
        if normalized <= 0.0031308 {
            value = normalized * 12.92
        } else {
            value = 1.055 * pow(normalized, 1.0 / 2.4) - 0.055
        }
        let rounded = MaterialMath.roundHalfUp(value * 255.0)
        // NaN and out-of-range values clamp as MCU's clampInt does (NaN compares false: 0 here).
        if !(rounded >= 0) { return 0 }
        return rounded > 255 ? 255 : Int(rounded)
    }

    @inline(__always)
    static func labF(_ t: Double) -> Double {
        let e = 216.0 / 24389.0
        let kappa = 24389.0 / 27.0
        if t > e {
            return pow(t, 1.0 / 3.0)
        }
        return (kappa * t + 16) / 116
    }

    @inline(__always)
    static func labInvf(_ ft: Double) -> Double {
        let e = 216.0 / 24389.0
        let kappa = 24389.0 / 27.0
        let ft3 = ft * ft * ft
        if ft3 > e {
            return ft3
        }
        return (116 * ft - 16) / kappa
    }
}
