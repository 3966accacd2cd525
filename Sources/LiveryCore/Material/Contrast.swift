/// WCAG contrast ratios between tones (L*), and the tones that reach a ratio, as
/// material-color-utilities' `Contrast` computes them (`contrast/contrast.ts`): the same operations
/// in the same order, so that dynamic colours built on it agree with MCU to the last bit.
enum Contrast {
    /// The contrast ratio of two tones, each clamped to 0...100.
    /// - Returns: a ratio from 1 to 21.
    static func ratioOfTones(_ toneA: Double, _ toneB: Double) -> Double {
        let a = MaterialMath.clamp(0.0, 100.0, toneA)
        let b = MaterialMath.clamp(0.0, 100.0, toneB)
        return ratioOfYs(ColorMath.yFromLstar(a), ColorMath.yFromLstar(b))
    }

    /// The contrast ratio of two relative luminances `y` (0...100).
    static func ratioOfYs(_ y1: Double, _ y2: Double) -> Double {
        let lighter = y1 > y2 ? y1 : y2
        let darker = lighter == y2 ? y1 : y2
        return (lighter + 5.0) / (darker + 5.0)
    }

    /// The darkest tone lighter than `tone` with at least `ratio` against it.
    /// - Returns: a tone in 0...100, or -1 when `tone` is out of range or no tone reaches `ratio`
    ///   (0.04 of slack allowed).
    static func lighter(_ tone: Double, _ ratio: Double) -> Double {
        if tone < 0.0 || tone > 100.0 { return -1.0 }
        let darkY = ColorMath.yFromLstar(tone)
        let lightY = ratio * (darkY + 5.0) - 5.0
        let realContrast = ratioOfYs(lightY, darkY)
        let delta = abs(realContrast - ratio)
        if realContrast < ratio && delta > 0.04 { return -1 }
        // 0.4 of margin keeps the ratio once gamut mapping moves the tone slightly.
        let value = ColorMath.lstarFromY(lightY) + 0.4
        if value < 0 || value > 100 { return -1 }
        return value
    }

    /// The lightest tone darker than `tone` with at least `ratio` against it.
    /// - Returns: a tone in 0...100, or -1 as for ``lighter(_:_:)``.
    static func darker(_ tone: Double, _ ratio: Double) -> Double {
        if tone < 0.0 || tone > 100.0 { return -1.0 }
        let lightY = ColorMath.yFromLstar(tone)
        let darkY = ((lightY + 5.0) / ratio) - 5.0
        let realContrast = ratioOfYs(lightY, darkY)
        let delta = abs(realContrast - ratio)
        if realContrast < ratio && delta > 0.04 { return -1 }
        let value = ColorMath.lstarFromY(darkY) - 0.4
        if value < 0 || value > 100 { return -1 }
        return value
    }

    /// ``lighter(_:_:)``, or 100 (white) when no tone reaches the ratio.
    static func lighterUnsafe(_ tone: Double, _ ratio: Double) -> Double {
        let safe = lighter(tone, ratio)
        return safe < 0.0 ? 100.0 : safe
    }

    /// ``darker(_:_:)``, or 0 (black) when no tone reaches the ratio.
    static func darkerUnsafe(_ tone: Double, _ ratio: Double) -> Double {
        let safe = darker(tone, ratio)
        return safe < 0.0 ? 0.0 : safe
    }
}
