import Foundation

/// An sRGB colour with straight (non-premultiplied) alpha; every channel is a float in 0–1.
///
/// The 8-bit form rounds: `round(v × 255)` clamped to 0–255, never `floor(v × 256)`, so 1.0 maps to 0xff and
/// `k/15` maps to `17 × k`. `floor(v × 256)` is never used: it maps 1.0 to 256.
public struct RGBA: Hashable, Sendable, CustomStringConvertible {
    /// Red, green, blue and alpha, sRGB 0–1.
    public var red, green, blue, alpha: Double

    /// Makes a colour from sRGB channels in 0–1; values outside are clamped.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = RGBA.clamp(red)
        self.green = RGBA.clamp(green)
        self.blue = RGBA.clamp(blue)
        self.alpha = RGBA.clamp(alpha)
    }

    /// Makes a colour from 8-bit channels.
    public init(red8: Int, green8: Int, blue8: Int, alpha8: Int = 255) {
        self.init(
            red: Double(red8) / 255, green: Double(green8) / 255, blue: Double(blue8) / 255,
            alpha: Double(alpha8) / 255)
    }

    static func clamp(_ v: Double) -> Double { v.isNaN ? 0 : min(max(v, 0), 1) }

    /// Converts one 0–1 channel to 8 bits: `round(v × 255)`, clamped to 0–255.
    public static func eightBit(_ v: Double) -> Int {
        Int(min(max((clamp(v) * 255).rounded(.toNearestOrAwayFromZero), 0), 255))
    }

    /// The colour as `#rrggbbaa`, lower-case: the form published over D-Bus (the README, "D-Bus API").
    public var hex: String { RGBA.hexString([red, green, blue, alpha]) }

    /// `#` and two lower-case hex digits per channel (no `String(format:)`: this is on the path
    /// of every published colour).
    static func hexString(_ channels: [Double]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var bytes: [UInt8] = [UInt8(ascii: "#")]
        bytes.reserveCapacity(1 + 2 * channels.count)
        for c in channels {
            let v = eightBit(c)
            bytes.append(digits[v >> 4])
            bytes.append(digits[v & 15])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `#rrggbbaa`, as `hex`.
    public var description: String { hex }

    /// Parses hex digits in the forms `rgb`, `rgba`, `rrggbb`, `rrggbbaa` (no `#`), any case.
    /// - Returns: nil when the text is not one of those forms.
    public init?(hexDigits text: Substring) {
        let digits = text.compactMap { $0.hexDigitValue }
        guard digits.count == text.count else { return nil }
        switch digits.count {
        case 3, 4:
            let c = digits.map { $0 * 17 }
            self.init(red8: c[0], green8: c[1], blue8: c[2], alpha8: c.count == 4 ? c[3] : 255)
        case 6, 8:
            let c = stride(from: 0, to: digits.count, by: 2).map { digits[$0] * 16 + digits[$0 + 1] }
            self.init(red8: c[0], green8: c[1], blue8: c[2], alpha8: c.count == 4 ? c[3] : 255)
        default:
            return nil
        }
    }

    /// Mixes two colours channel by channel, alpha included: `a × (1 − f) + b × f`
    /// (GTK's `mix()`).
    /// - Parameters:
    ///   - a: The colour at `f` = 0.
    ///   - b: The colour at `f` = 1.
    ///   - f: The fraction of `b`, 0–1.
    /// - Returns: The mixed colour, clamped to 0–1.
    public static func mix(_ a: RGBA, _ b: RGBA, _ f: Double) -> RGBA {
        func lerp(_ x: Double, _ y: Double) -> Double { x + (y - x) * f }
        return RGBA(
            red: lerp(a.red, b.red), green: lerp(a.green, b.green), blue: lerp(a.blue, b.blue),
            alpha: lerp(a.alpha, b.alpha))
    }

    /// Multiplies lightness and saturation in HLS space by `factor`, clamped to 0–1 (GTK's
    /// `shade()`; `lighter(c)` is `shade(c, 1.3)`, `darker(c)` is `shade(c, 0.7)`).
    /// - Parameter factor: Above 1 lightens, below 1 darkens.
    /// - Returns: The shaded colour, alpha unchanged.
    public func shaded(_ factor: Double) -> RGBA {
        var (h, l, s) = hls
        l = RGBA.clamp(l * factor)
        s = RGBA.clamp(s * factor)
        var c = RGBA(hue: h, saturation: s, lightness: l)
        c.alpha = alpha
        return c
    }

    /// Hue in degrees 0–360, lightness and saturation 0–1.
    var hls: (Double, Double, Double) {
        let maxc = max(red, green, blue)
        let minc = min(red, green, blue)
        let l = (maxc + minc) / 2
        guard maxc != minc else { return (0, l, 0) }
        let d = maxc - minc
        let s = l <= 0.5 ? d / (maxc + minc) : d / (2 - maxc - minc)
        var h: Double
        if red == maxc {
            h = (green - blue) / d
        } else if green == maxc {
            h = 2 + (blue - red) / d
        } else {
            h = 4 + (red - green) / d
        }
        h *= 60
        if h < 0 { h += 360 }
        return (h, l, s)
    }

    /// Makes a colour from CSS `hsl()` components: hue in degrees, saturation and lightness 0–1
    /// (CSS Color 4 §7, "HSL to RGB").
    public init(hue: Double, saturation: Double, lightness: Double, alpha: Double = 1) {
        let s = RGBA.clamp(saturation)
        let l = RGBA.clamp(lightness)
        var h = hue.truncatingRemainder(dividingBy: 360)
        if h < 0 { h += 360 }
        func f(_ n: Double) -> Double {
            let k = (n + h / 30).truncatingRemainder(dividingBy: 12)
            let a = s * min(l, 1 - l)
            return l - a * max(-1, min(k - 3, 9 - k, 1))
        }
        self.init(red: f(0), green: f(8), blue: f(4), alpha: alpha)
    }

    /// Relative luminance (WCAG 2), used to pick a readable swatch label.
    public var luminance: Double {
        0.2126 * OKLCH.linear(red) + 0.7152 * OKLCH.linear(green) + 0.0722 * OKLCH.linear(blue)
    }
}

/// The CSS named colours (CSS Color 4 §6.1), lower-case name to `0xrrggbb`.
let cssNamedColors: [String: UInt32] = [
    "aliceblue": 0xf0f8ff, "antiquewhite": 0xfaebd7, "aqua": 0x00ffff, "aquamarine": 0x7fffd4,
    "azure": 0xf0ffff, "beige": 0xf5f5dc, "bisque": 0xffe4c4, "black": 0x000000,
    "blanchedalmond": 0xffebcd, "blue": 0x0000ff, "blueviolet": 0x8a2be2, "brown": 0xa52a2a,
    "burlywood": 0xdeb887, "cadetblue": 0x5f9ea0, "chartreuse": 0x7fff00, "chocolate": 0xd2691e,
    "coral": 0xff7f50, "cornflowerblue": 0x6495ed, "cornsilk": 0xfff8dc, "crimson": 0xdc143c,
    "cyan": 0x00ffff, "darkblue": 0x00008b, "darkcyan": 0x008b8b, "darkgoldenrod": 0xb8860b,
    "darkgray": 0xa9a9a9, "darkgreen": 0x006400, "darkgrey": 0xa9a9a9, "darkkhaki": 0xbdb76b,
    "darkmagenta": 0x8b008b, "darkolivegreen": 0x556b2f, "darkorange": 0xff8c00,
    "darkorchid": 0x9932cc, "darkred": 0x8b0000, "darksalmon": 0xe9967a, "darkseagreen": 0x8fbc8f,
    "darkslateblue": 0x483d8b, "darkslategray": 0x2f4f4f, "darkslategrey": 0x2f4f4f,
    "darkturquoise": 0x00ced1, "darkviolet": 0x9400d3, "deeppink": 0xff1493,
    "deepskyblue": 0x00bfff, "dimgray": 0x696969, "dimgrey": 0x696969, "dodgerblue": 0x1e90ff,
    "firebrick": 0xb22222, "floralwhite": 0xfffaf0, "forestgreen": 0x228b22, "fuchsia": 0xff00ff,
    "gainsboro": 0xdcdcdc, "ghostwhite": 0xf8f8ff, "gold": 0xffd700, "goldenrod": 0xdaa520,
    "gray": 0x808080, "green": 0x008000, "greenyellow": 0xadff2f, "grey": 0x808080,
    "honeydew": 0xf0fff0, "hotpink": 0xff69b4, "indianred": 0xcd5c5c, "indigo": 0x4b0082,
    "ivory": 0xfffff0, "khaki": 0xf0e68c, "lavender": 0xe6e6fa, "lavenderblush": 0xfff0f5,
    "lawngreen": 0x7cfc00, "lemonchiffon": 0xfffacd, "lightblue": 0xadd8e6, "lightcoral": 0xf08080,
    "lightcyan": 0xe0ffff, "lightgoldenrodyellow": 0xfafad2, "lightgray": 0xd3d3d3,
    "lightgreen": 0x90ee90, "lightgrey": 0xd3d3d3, "lightpink": 0xffb6c1, "lightsalmon": 0xffa07a,
    "lightseagreen": 0x20b2aa, "lightskyblue": 0x87cefa, "lightslategray": 0x778899,
    "lightslategrey": 0x778899, "lightsteelblue": 0xb0c4de, "lightyellow": 0xffffe0,
    "lime": 0x00ff00, "limegreen": 0x32cd32, "linen": 0xfaf0e6, "magenta": 0xff00ff,
    "maroon": 0x800000, "mediumaquamarine": 0x66cdaa, "mediumblue": 0x0000cd,
    "mediumorchid": 0xba55d3, "mediumpurple": 0x9370db, "mediumseagreen": 0x3cb371,
    "mediumslateblue": 0x7b68ee, "mediumspringgreen": 0x00fa9a, "mediumturquoise": 0x48d1cc,
    "mediumvioletred": 0xc71585, "midnightblue": 0x191970, "mintcream": 0xf5fffa,
    "mistyrose": 0xffe4e1, "moccasin": 0xffe4b5, "navajowhite": 0xffdead, "navy": 0x000080,
    "oldlace": 0xfdf5e6, "olive": 0x808000, "olivedrab": 0x6b8e23, "orange": 0xffa500,
    "orangered": 0xff4500, "orchid": 0xda70d6, "palegoldenrod": 0xeee8aa, "palegreen": 0x98fb98,
    "paleturquoise": 0xafeeee, "palevioletred": 0xdb7093, "papayawhip": 0xffefd5,
    "peachpuff": 0xffdab9, "peru": 0xcd853f, "pink": 0xffc0cb, "plum": 0xdda0dd,
    "powderblue": 0xb0e0e6, "purple": 0x800080, "rebeccapurple": 0x663399, "red": 0xff0000,
    "rosybrown": 0xbc8f8f, "royalblue": 0x4169e1, "saddlebrown": 0x8b4513, "salmon": 0xfa8072,
    "sandybrown": 0xf4a460, "seagreen": 0x2e8b57, "seashell": 0xfff5ee, "sienna": 0xa0522d,
    "silver": 0xc0c0c0, "skyblue": 0x87ceeb, "slateblue": 0x6a5acd, "slategray": 0x708090,
    "slategrey": 0x708090, "snow": 0xfffafa, "springgreen": 0x00ff7f, "steelblue": 0x4682b4,
    "tan": 0xd2b48c, "teal": 0x008080, "thistle": 0xd8bfd8, "tomato": 0xff6347,
    "turquoise": 0x40e0d0, "violet": 0xee82ee, "wheat": 0xf5deb3, "white": 0xffffff,
    "whitesmoke": 0xf5f5f5, "yellow": 0xffff00, "yellowgreen": 0x9acd32,
]
