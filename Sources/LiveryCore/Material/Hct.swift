/// A colour as hue, chroma and tone (HCT), Material Design's colour space: CAM16's hue and
/// chroma with CIE L* as tone (MCU's `Hct`).
///
/// An `Hct` always holds a real sRGB colour: setting a component solves for the nearest
/// displayable colour, so the other components (and the one set) may move.
public struct Hct: Sendable, Hashable {
    /// The colour as opaque ARGB (0xAARRGGBB).
    public private(set) var argb: UInt32
    private var internalHue: Double
    private var internalChroma: Double
    private var internalTone: Double

    /// The HCT coordinates of an ARGB colour (its alpha is ignored).
    /// - Parameter argb: 0xAARRGGBB.
    public init(argb: UInt32) {
        let cam = Cam16(argb: argb)
        self.argb = argb
        internalHue = cam.hue
        internalChroma = cam.chroma
        internalTone = ColorMath.lstar(argb)
    }

    /// The sRGB colour closest to the given hue, chroma and tone.
    /// - Parameters:
    ///   - hue: degrees; any value, taken modulo 360.
    ///   - chroma: 0 upward; more than sRGB holds at this hue and tone gives the most it holds.
    ///   - tone: CIE L*, 0...100.
    /// - Returns: the colour, whose own coordinates are the nearest sRGB can show.
    public static func from(hue: Double, chroma: Double, tone: Double) -> Hct {
        Hct(argb: HctSolver.solveToInt(hue, chroma, tone))
    }

    /// The CAM16 hue in degrees, 0 ≤ hue < 360. Setting it keeps chroma and tone as far as
    /// sRGB allows.
    public var hue: Double {
        get { internalHue }
        set { self = .from(hue: newValue, chroma: internalChroma, tone: internalTone) }
    }

    /// The CAM16 chroma, 0 upward. Setting it keeps hue and tone as far as sRGB allows.
    public var chroma: Double {
        get { internalChroma }
        set { self = .from(hue: internalHue, chroma: newValue, tone: internalTone) }
    }

    /// The tone, CIE L* (0 black … 100 white). Setting it keeps hue and chroma as far as sRGB
    /// allows.
    public var tone: Double {
        get { internalTone }
        set { self = .from(hue: internalHue, chroma: internalChroma, tone: newValue) }
    }

    /// Whether a hue (degrees) is in MCU's blue range, 250 ≤ hue < 270.
    public static func isBlue(_ hue: Double) -> Bool { hue >= 250 && hue < 270 }

    /// Whether a hue (degrees) is in MCU's yellow range, 105 ≤ hue < 125.
    public static func isYellow(_ hue: Double) -> Bool { hue >= 105 && hue < 125 }

    /// Whether a hue (degrees) is in MCU's cyan range, 170 ≤ hue < 207.
    public static func isCyan(_ hue: Double) -> Bool { hue >= 170 && hue < 207 }

    /// This colour as it looks in other viewing conditions, translated back to the default
    /// ones (MCU's `inViewingConditions`): for example, how a colour looks on a dark
    /// background.
    /// - Parameter viewingConditions: the conditions the colour is seen in.
    /// - Returns: the colour that looks the same in the default conditions.
    public func inViewingConditions(_ viewingConditions: ViewingConditions) -> Hct {
        let cam = Cam16(argb: argb)
        let viewed = cam.xyz(in: viewingConditions)
        let recast = Cam16.fromXYZ(viewed[0], viewed[1], viewed[2], in: .standard)
        return .from(
            hue: recast.hue, chroma: recast.chroma, tone: ColorMath.lstarFromY(viewed[1]))
    }
}
