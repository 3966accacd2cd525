/// A colour role of a dynamic scheme: a palette, a starting tone, and the contrast it must keep
/// with its background, solved for each scheme as MCU's `DynamicColor` with the 2021 spec's
/// `ColorCalculationDelegateImpl2021` (`dynamiccolor/dynamic_color.ts`) does, step for step.
struct DynamicColor {
    /// The role's name in MCU (`primary_container`); pairs identify their members by it.
    let name: String
    /// The palette the role's colour is taken from.
    let palette: (DynamicScheme) -> TonalPalette
    /// The tone before any contrast adjustment.
    let tone: (DynamicScheme) -> Double
    /// Whether other roles are drawn on this one (keeps it out of the 50...59 tone zone).
    let isBackground: Bool
    /// The role this one must contrast with.
    let background: ((DynamicScheme) -> DynamicColor?)?
    /// A second background, for roles drawn on either of two (the fixed roles' text).
    let secondBackground: ((DynamicScheme) -> DynamicColor?)?
    /// The ratio asked of the background at each contrast level.
    let contrastCurve: ((DynamicScheme) -> ContrastCurve?)?
    /// The pair this role belongs to, solved together.
    let toneDeltaPair: ((DynamicScheme) -> ToneDeltaPair?)?

    init(
        name: String, palette: @escaping (DynamicScheme) -> TonalPalette,
        tone: @escaping (DynamicScheme) -> Double, isBackground: Bool = false,
        background: ((DynamicScheme) -> DynamicColor?)? = nil,
        secondBackground: ((DynamicScheme) -> DynamicColor?)? = nil,
        contrastCurve: ((DynamicScheme) -> ContrastCurve?)? = nil,
        toneDeltaPair: ((DynamicScheme) -> ToneDeltaPair?)? = nil
    ) {
        precondition(
            background != nil || secondBackground == nil, "\(name): second background without a background")
        precondition(
            (background == nil) == (contrastCurve == nil),
            "\(name): background and contrast curve go together")
        self.name = name
        self.palette = palette
        self.tone = tone
        self.isBackground = isBackground
        self.background = background
        self.secondBackground = secondBackground
        self.contrastCurve = contrastCurve
        self.toneDeltaPair = toneDeltaPair
    }

    /// The role's colour in `scheme`, `0xAARRGGBB` (opaque): its palette at ``getTone(_:)``.
    func argb(_ scheme: DynamicScheme) -> UInt32 {
        palette(scheme).tone(getTone(scheme))
    }

    /// The role's tone in `scheme` after the contrast adjustments.
    func getTone(_ scheme: DynamicScheme) -> Double {
        if let pair = toneDeltaPair?(scheme) {
            return pairTone(scheme, pair)
        }
        return singleTone(scheme)
    }

    /// A member of a tone delta pair: both members meet their contrast, then keep the delta,
    /// then leave the 50...59 zone.
    private func pairTone(_ scheme: DynamicScheme, _ pair: ToneDeltaPair) -> Double {
        let decreasingContrast = scheme.contrastLevel < 0
        let delta = pair.delta
        let aIsNearer =
            pair.polarity == .nearer || (pair.polarity == .lighter && !scheme.isDark)
            || (pair.polarity == .darker && scheme.isDark)
        let nearer = aIsNearer ? pair.roleA : pair.roleB
        let farther = aIsNearer ? pair.roleB : pair.roleA
        let amNearer = name == nearer.name
        let expansionDir: Double = scheme.isDark ? 1 : -1
        var nTone = nearer.tone(scheme)
        var fTone = farther.tone(scheme)

        // 1st round: each member to the minimum that meets its contrast.
        if let background, let nearerCurve = nearer.contrastCurve, let fartherCurve = farther.contrastCurve,
            let bg = background(scheme), let nCurve = nearerCurve(scheme), let fCurve = fartherCurve(scheme)
        {
            let bgTone = bg.getTone(scheme)
            let nContrast = nCurve.get(scheme.contrastLevel)
            let fContrast = fCurve.get(scheme.contrastLevel)
            if Contrast.ratioOfTones(bgTone, nTone) < nContrast {
                nTone = Self.foregroundTone(bgTone, nContrast)
            }
            if Contrast.ratioOfTones(bgTone, fTone) < fContrast {
                fTone = Self.foregroundTone(bgTone, fContrast)
            }
            if decreasingContrast {
                nTone = Self.foregroundTone(bgTone, nContrast)
                fTone = Self.foregroundTone(bgTone, fContrast)
            }
        }

        // 2nd round: move the farther one out to the delta; 3rd: pull the nearer one in.
        if (fTone - nTone) * expansionDir < delta {
            fTone = MaterialMath.clamp(0, 100, nTone + delta * expansionDir)
            if (fTone - nTone) * expansionDir < delta {
                nTone = MaterialMath.clamp(0, 100, fTone - delta * expansionDir)
            }
        }

        // Out of the 50...59 zone.
        if 50 <= nTone && nTone < 60 {
            (nTone, fTone) = Self.leaveAwkwardZone(fTone, delta: delta, expansionDir: expansionDir)
        } else if 50 <= fTone && fTone < 60 {
            if pair.stayTogether {
                (nTone, fTone) = Self.leaveAwkwardZone(fTone, delta: delta, expansionDir: expansionDir)
            } else {
                fTone = expansionDir > 0 ? 60 : 49
            }
        }
        return amNearer ? nTone : fTone
    }

    /// The nearer tone moved to 60 (dark) or 49 (light), the farther one kept `delta` beyond it.
    private static func leaveAwkwardZone(
        _ fTone: Double, delta: Double, expansionDir: Double
    ) -> (nearer: Double, farther: Double) {
        if expansionDir > 0 {
            let nTone: Double = 60
            return (nTone, max(fTone, nTone + delta * expansionDir))
        }
        let nTone: Double = 49
        return (nTone, min(fTone, nTone + delta * expansionDir))
    }

    /// A role on its own: its tone, moved to meet its contrast curve against its background(s).
    private func singleTone(_ scheme: DynamicScheme) -> Double {
        var answer = tone(scheme)
        guard let background, let bg = background(scheme), let contrastCurve,
            let curve = contrastCurve(scheme)
        else { return answer }

        let decreasingContrast = scheme.contrastLevel < 0
        let bgTone = bg.getTone(scheme)
        let desiredRatio = curve.get(scheme.contrastLevel)
        if Contrast.ratioOfTones(bgTone, answer) < desiredRatio {
            answer = Self.foregroundTone(bgTone, desiredRatio)
        }
        if decreasingContrast {
            answer = Self.foregroundTone(bgTone, desiredRatio)
        }
        if isBackground && 50 <= answer && answer < 60 {
            answer = Contrast.ratioOfTones(49, bgTone) >= desiredRatio ? 49 : 60
        }

        guard let secondBackground, let bg2 = secondBackground(scheme) else { return answer }
        return dualBackgroundTone(answer, bgTone1: bgTone, bgTone2: bg2.getTone(scheme), desiredRatio)
    }

    /// A foreground on two backgrounds: `answer` when it contrasts with both, else the tone that
    /// does on the lighter side (when either background prefers light text) or the darker.
    private func dualBackgroundTone(
        _ answer: Double, bgTone1: Double, bgTone2: Double, _ desiredRatio: Double
    ) -> Double {
        let upper = max(bgTone1, bgTone2)
        let lower = min(bgTone1, bgTone2)
        if Contrast.ratioOfTones(upper, answer) >= desiredRatio
            && Contrast.ratioOfTones(lower, answer) >= desiredRatio
        {
            return answer
        }
        let lightOption = Contrast.lighter(upper, desiredRatio)
        let darkOption = Contrast.darker(lower, desiredRatio)
        var availables: [Double] = []
        if lightOption != -1 { availables.append(lightOption) }
        if darkOption != -1 { availables.append(darkOption) }
        if Self.tonePrefersLightForeground(bgTone1) || Self.tonePrefersLightForeground(bgTone2) {
            return lightOption < 0 ? 100 : lightOption
        }
        if availables.count == 1 { return availables[0] }
        return darkOption < 0 ? 0 : darkOption
    }

    /// The tone with `ratio` against `bgTone` on the side the background prefers (light text
    /// below T60), or on the other side when that side reaches more contrast.
    static func foregroundTone(_ bgTone: Double, _ ratio: Double) -> Double {
        let lighterTone = Contrast.lighterUnsafe(bgTone, ratio)
        let darkerTone = Contrast.darkerUnsafe(bgTone, ratio)
        let lighterRatio = Contrast.ratioOfTones(lighterTone, bgTone)
        let darkerRatio = Contrast.ratioOfTones(darkerTone, bgTone)
        if tonePrefersLightForeground(bgTone) {
            // Both sides failing by about as much keeps the preferred (lighter) side.
            let negligibleDifference =
                abs(lighterRatio - darkerRatio) < 0.1 && lighterRatio < ratio && darkerRatio < ratio
            return lighterRatio >= ratio || lighterRatio >= darkerRatio || negligibleDifference
                ? lighterTone : darkerTone
        }
        return darkerRatio >= ratio || darkerRatio >= lighterRatio ? darkerTone : lighterTone
    }

    /// Whether text on `tone` reads better light: tones that round (halves up) below 60.
    static func tonePrefersLightForeground(_ tone: Double) -> Bool {
        MaterialMath.roundHalfUp(tone) < 60.0
    }
}
