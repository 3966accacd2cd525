import Synchronization

/// The colours of one hue and chroma at every tone (MCU's `TonalPalette`).
///
/// Tones are computed on first use and kept: copies of a palette share the cache, which holds
/// nothing but values `Hct.from(hue:chroma:tone:)` returns for the palette's hue and chroma.
public struct TonalPalette: Sendable {
    /// The palette's hue, degrees.
    public let hue: Double
    /// The palette's chroma; tones whose sRGB gamut is narrower get less.
    public let chroma: Double
    /// The colour that stands for the palette: the seed it came from, or the tone nearest
    /// T50 that reaches the chroma.
    public let keyColor: Hct
    private let cache: ToneCache

    private init(hue: Double, chroma: Double, keyColor: Hct) {
        self.hue = hue
        self.chroma = chroma
        self.keyColor = keyColor
        cache = ToneCache()
    }

    /// The palette of a hue and chroma; its key colour is found by `KeyColor`.
    /// - Parameters:
    ///   - hue: degrees.
    ///   - chroma: 0 upward.
    public init(hue: Double, chroma: Double) {
        var keyColor = KeyColor(hue: hue, chroma: chroma)
        self.init(hue: hue, chroma: chroma, keyColor: keyColor.create())
    }

    /// The palette of an ARGB colour's hue and chroma, with that colour as key colour.
    /// - Parameter argb: 0xAARRGGBB.
    public static func from(argb: UInt32) -> TonalPalette {
        from(hct: Hct(argb: argb))
    }

    /// The palette of a colour's hue and chroma, with that colour as key colour.
    /// - Parameter hct: the colour.
    public static func from(hct: Hct) -> TonalPalette {
        TonalPalette(hue: hct.hue, chroma: hct.chroma, keyColor: hct)
    }

    /// The palette's colour at a tone, as opaque ARGB.
    ///
    /// Tone 99 of a yellow hue (105 ≤ hue < 125) is the channel-wise average of tones 98 and
    /// 100, halves rounded up, as MCU does to avoid a greenish near-white.
    /// - Parameter t: CIE L*, 0...100.
    public func tone(_ t: Double) -> UInt32 {
        if let argb = cache.lookup(t) {
            return argb
        }
        let argb: UInt32
        if t == 99 && Hct.isYellow(hue) {
            argb = TonalPalette.average(tone(98), tone(100))
        } else {
            argb = HctSolver.solveToInt(hue, chroma, t)
        }
        cache.store(t, argb)
        return argb
    }

    /// The palette's colour at a tone, as HCT.
    /// - Parameter t: CIE L*, 0...100.
    public func hct(tone t: Double) -> Hct {
        Hct(argb: tone(t))
    }

    private static func average(_ argb1: UInt32, _ argb2: UInt32) -> UInt32 {
        func mean(_ a: Int, _ b: Int) -> Int {
            Int(MaterialMath.roundHalfUp(Double(a + b) / 2))
        }
        return ColorMath.argb(
            red: mean(ColorMath.red(argb1), ColorMath.red(argb2)),
            green: mean(ColorMath.green(argb1), ColorMath.green(argb2)),
            blue: mean(ColorMath.blue(argb1), ColorMath.blue(argb2)))
    }
}

/// Tones already computed for one palette, shared by its copies.
private final class ToneCache: Sendable {
    private let tones = Mutex<[Double: UInt32]>([:])

    func lookup(_ tone: Double) -> UInt32? {
        tones.withLock { $0[tone] }
    }

    func store(_ tone: Double, _ argb: UInt32) {
        tones.withLock { $0[tone] = argb }
    }
}

/// The key colour of a hue and chroma: the tone nearest T50 whose sRGB gamut reaches the
/// chroma (MCU's `KeyColor`, a binary search over integer tones with their maximum chroma).
struct KeyColor {
    let hue: Double
    let requestedChroma: Double
    private static let maxChromaValue = 200.0
    private var chromaCache: [Int: Double] = [:]

    init(hue: Double, chroma: Double) {
        self.hue = hue
        requestedChroma = chroma
    }

    /// The key colour: the first tone, searching outward from T50, that has the chroma.
    mutating func create() -> Hct {
        let pivotTone = 50
        let toneStepSize = 1
        // Accepts chroma slightly below the request.
        let epsilon = 0.01
        var lowerTone = 0
        var upperTone = 100
        while lowerTone < upperTone {
            let midTone = (lowerTone + upperTone) / 2
            let isAscending = maxChroma(midTone) < maxChroma(midTone + toneStepSize)
            let sufficientChroma = maxChroma(midTone) >= requestedChroma - epsilon
            if sufficientChroma {
                // Either half holds an answer: search the one nearer the pivot.
                if abs(lowerTone - pivotTone) < abs(upperTone - pivotTone) {
                    upperTone = midTone
                } else {
                    if lowerTone == midTone {
                        return .from(hue: hue, chroma: requestedChroma, tone: Double(lowerTone))
                    }
                    lowerTone = midTone
                }
            } else if isAscending {
                // Not enough chroma here: follow the slope toward the peak.
                lowerTone = midTone + toneStepSize
            } else {
                upperTone = midTone
            }
        }
        return .from(hue: hue, chroma: requestedChroma, tone: Double(lowerTone))
    }

    private mutating func maxChroma(_ tone: Int) -> Double {
        if let chroma = chromaCache[tone] {
            return chroma
        }
        let chroma = Hct.from(hue: hue, chroma: KeyColor.maxChromaValue, tone: Double(tone)).chroma
        chromaCache[tone] = chroma
        return chroma
    }
}
