import Foundation

/// A colour in OKLCH: OKLab (Björn Ottosson's perceptual space, the one CSS Color 4 §8.2 uses
/// for `oklab()` and `oklch()`) in polar form. Lightness and hue are what a colour is judged by,
/// so colours made here keep their hue while their lightness is changed for contrast.
public struct OKLCH: Sendable, Hashable {
    /// Perceived lightness, 0 (black) to 1 (white).
    public var lightness: Double
    /// Distance from the grey of the same lightness, 0 and up (sRGB reaches about 0.32).
    public var chroma: Double
    /// Hue angle in degrees, 0–360 (sRGB red is about 29, green 142, blue 264).
    public var hue: Double

    /// A colour of the given coordinates.
    /// - Parameters:
    ///   - lightness: 0–1.
    ///   - chroma: 0 and up.
    ///   - hue: Degrees; any angle, taken modulo 360.
    public init(lightness: Double, chroma: Double, hue: Double) {
        self.lightness = lightness
        self.chroma = max(chroma, 0)
        let h = hue.truncatingRemainder(dividingBy: 360)
        self.hue = h < 0 ? h + 360 : h
    }

    /// The OKLCH coordinates of an sRGB colour (its alpha is dropped): sRGB decoded to linear
    /// light, then Ottosson's M1 matrix, cube roots and M2 matrix.
    public init(_ c: RGBA) {
        let (r, g, b) = (OKLCH.linear(c.red), OKLCH.linear(c.green), OKLCH.linear(c.blue))
        let l = cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b)
        let m = cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b)
        let s = cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b)
        let lab = (
            0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s,
            1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s,
            0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s
        )
        self.init(lightness: lab.0, chroma: hypot(lab.1, lab.2), hue: atan2(lab.2, lab.1) * 180 / .pi)
    }

    /// The nearest sRGB colour of this lightness and hue: the chroma is lowered (by bisection,
    /// to 1/2²⁰ of it) until every linear channel is within 0–1, so the hue stays; lightness
    /// outside 0–1 is black or white. Opaque.
    public var rgba: RGBA {
        if lightness <= 0 { return RGBA(red: 0, green: 0, blue: 0) }
        if lightness >= 1 { return RGBA(red: 1, green: 1, blue: 1) }
        if let inside = linearChannels(chroma: chroma) { return OKLCH.encode(inside) }
        var (low, high) = (0.0, chroma)
        for _ in 0..<20 {
            let mid = (low + high) / 2
            if linearChannels(chroma: mid) != nil { low = mid } else { high = mid }
        }
        return OKLCH.encode(linearChannels(chroma: low) ?? (lightness, lightness, lightness))
    }

    /// Linear sRGB of this lightness and hue at `chroma`, or nil when a channel is outside 0–1.
    private func linearChannels(chroma: Double) -> (Double, Double, Double)? {
        let a = chroma * cos(hue * .pi / 180)
        let b = chroma * sin(hue * .pi / 180)
        let l = pow(lightness + 0.3963377774 * a + 0.2158037573 * b, 3)
        let m = pow(lightness - 0.1055613458 * a - 0.0638541728 * b, 3)
        let s = pow(lightness - 0.0894841775 * a - 1.2914855480 * b, 3)
        let rgb = (
            4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s,
            -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s,
            -0.0041960863 * l - 0.7034186147 * m + 1.7076147010 * s
        )
        // Rounding in the matrices puts sRGB's own colours a hair outside; 1e-6 is far below
        // an 8-bit step (1/255), and the channels are clamped when encoded.
        let e = 1e-6
        guard [rgb.0, rgb.1, rgb.2].allSatisfy({ $0 >= -e && $0 <= 1 + e }) else { return nil }
        return rgb
    }

    /// The sRGB transfer function's inverse (IEC 61966-2-1): an encoded channel to linear light.
    static func linear(_ c: Double) -> Double { c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4) }

    /// Linear light to sRGB-encoded channels, each clamped to 0–1.
    static func encode(_ c: (Double, Double, Double)) -> RGBA {
        func f(_ v: Double) -> Double {
            let x = min(max(v, 0), 1)
            return x <= 0.0031308 ? 12.92 * x : 1.055 * pow(x, 1 / 2.4) - 0.055
        }
        return RGBA(red: f(c.0), green: f(c.1), blue: f(c.2))
    }

    /// The angle between two hues in degrees, 0–180.
    public static func hueDistance(_ a: Double, _ b: Double) -> Double {
        let d = abs(a - b).truncatingRemainder(dividingBy: 360)
        return min(d, 360 - d)
    }
}

extension RGBA {
    /// The WCAG 2 contrast ratio of two colours, 1–21: (L1 + 0.05) / (L2 + 0.05), L1 the larger
    /// relative luminance (``luminance``); alpha is ignored.
    public static func contrast(_ a: RGBA, _ b: RGBA) -> Double {
        let (la, lb) = (a.luminance, b.luminance)
        return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
    }

    /// The colour at eight bits a channel (``eightBit(_:)``), as a template writes it.
    public var rounded: RGBA {
        RGBA(
            red8: RGBA.eightBit(red), green8: RGBA.eightBit(green), blue8: RGBA.eightBit(blue),
            alpha8: RGBA.eightBit(alpha))
    }
}
