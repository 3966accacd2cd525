/// The colour roles of the Material spec-2021 dynamic scheme: MCU's `ColorSpecDelegateImpl2021`
/// (`dynamiccolor/color_spec_2021.ts`), role for role, with the same palettes, tones, contrast
/// curves and pairs. Each property builds its colour afresh, as MCU's methods do.
enum MaterialDynamicColors {
    private static func isFidelity(_ s: DynamicScheme) -> Bool {
        s.variant == .fidelity || s.variant == .content
    }

    private static func isMonochrome(_ s: DynamicScheme) -> Bool { s.variant == .monochrome }

    /// The surface text and accents must contrast with: the brightest surface in dark schemes,
    /// the dimmest in light ones.
    static func highestSurface(_ s: DynamicScheme) -> DynamicColor {
        s.isDark ? surfaceBright : surfaceDim
    }

    /// The tone nearest `tone` (stepping down when `byDecreasingTone`) at which the palette's hue
    /// reaches `chroma`, stopping at the chroma peak or within 0.4 of it (MCU's
    /// `findDesiredChromaByTone`).
    static func findDesiredChromaByTone(
        hue: Double, chroma: Double, tone: Double, byDecreasingTone: Bool
    ) -> Double {
        var answer = tone
        var closestToChroma = Hct.from(hue: hue, chroma: chroma, tone: tone)
        if closestToChroma.chroma < chroma {
            var chromaPeak = closestToChroma.chroma
            while closestToChroma.chroma < chroma {
                answer += byDecreasingTone ? -1.0 : 1.0
                let potentialSolution = Hct.from(hue: hue, chroma: chroma, tone: answer)
                if chromaPeak > potentialSolution.chroma { break }
                if abs(potentialSolution.chroma - chroma) < 0.4 { break }
                if abs(potentialSolution.chroma - chroma) < abs(closestToChroma.chroma - chroma) {
                    closestToChroma = potentialSolution
                }
                chromaPeak = max(chromaPeak, potentialSolution.chroma)
            }
        }
        return answer
    }

    // MARK: Surfaces

    static var background: DynamicColor {
        DynamicColor(
            name: "background", palette: { $0.neutralPalette }, tone: { $0.isDark ? 6 : 98 },
            isBackground: true)
    }

    static var onBackground: DynamicColor {
        DynamicColor(
            name: "on_background", palette: { $0.neutralPalette }, tone: { $0.isDark ? 90 : 10 },
            background: { _ in background }, contrastCurve: { _ in ContrastCurve(3, 3, 4.5, 7) })
    }

    static var surface: DynamicColor {
        DynamicColor(
            name: "surface", palette: { $0.neutralPalette }, tone: { $0.isDark ? 6 : 98 }, isBackground: true)
    }

    static var surfaceDim: DynamicColor {
        DynamicColor(
            name: "surface_dim", palette: { $0.neutralPalette },
            tone: { $0.isDark ? 6 : ContrastCurve(87, 87, 80, 75).get($0.contrastLevel) }, isBackground: true)
    }

    static var surfaceBright: DynamicColor {
        DynamicColor(
            name: "surface_bright", palette: { $0.neutralPalette },
            tone: { $0.isDark ? ContrastCurve(24, 24, 29, 34).get($0.contrastLevel) : 98 }, isBackground: true
        )
    }

    static var surfaceContainerLowest: DynamicColor {
        DynamicColor(
            name: "surface_container_lowest", palette: { $0.neutralPalette },
            tone: { $0.isDark ? ContrastCurve(4, 4, 2, 0).get($0.contrastLevel) : 100 }, isBackground: true)
    }

    static var surfaceContainerLow: DynamicColor {
        surfaceContainer(
            "surface_container_low", dark: ContrastCurve(10, 10, 11, 12), light: ContrastCurve(96, 96, 96, 95)
        )
    }

    static var surfaceContainer: DynamicColor {
        surfaceContainer(
            "surface_container", dark: ContrastCurve(12, 12, 16, 20), light: ContrastCurve(94, 94, 92, 90))
    }

    static var surfaceContainerHigh: DynamicColor {
        surfaceContainer(
            "surface_container_high", dark: ContrastCurve(17, 17, 21, 25),
            light: ContrastCurve(92, 92, 88, 85))
    }

    static var surfaceContainerHighest: DynamicColor {
        surfaceContainer(
            "surface_container_highest", dark: ContrastCurve(22, 22, 26, 30),
            light: ContrastCurve(90, 90, 84, 80))
    }

    /// A neutral container whose tone follows the contrast level along `dark` or `light`.
    private static func surfaceContainer(
        _ name: String, dark: ContrastCurve, light: ContrastCurve
    ) -> DynamicColor {
        DynamicColor(
            name: name, palette: { $0.neutralPalette },
            tone: { $0.isDark ? dark.get($0.contrastLevel) : light.get($0.contrastLevel) }, isBackground: true
        )
    }

    static var onSurface: DynamicColor {
        DynamicColor(
            name: "on_surface", palette: { $0.neutralPalette }, tone: { $0.isDark ? 90 : 10 },
            background: { highestSurface($0) }, contrastCurve: { _ in ContrastCurve(4.5, 7, 11, 21) })
    }

    static var surfaceVariant: DynamicColor {
        DynamicColor(
            name: "surface_variant", palette: { $0.neutralVariantPalette }, tone: { $0.isDark ? 30 : 90 },
            isBackground: true)
    }

    static var onSurfaceVariant: DynamicColor {
        DynamicColor(
            name: "on_surface_variant", palette: { $0.neutralVariantPalette }, tone: { $0.isDark ? 80 : 30 },
            background: { highestSurface($0) }, contrastCurve: { _ in ContrastCurve(3, 4.5, 7, 11) })
    }

    static var inverseSurface: DynamicColor {
        DynamicColor(
            name: "inverse_surface", palette: { $0.neutralPalette }, tone: { $0.isDark ? 90 : 20 },
            isBackground: true)
    }

    static var inverseOnSurface: DynamicColor {
        DynamicColor(
            name: "inverse_on_surface", palette: { $0.neutralPalette }, tone: { $0.isDark ? 20 : 95 },
            background: { _ in inverseSurface }, contrastCurve: { _ in ContrastCurve(4.5, 7, 11, 21) })
    }

    static var outline: DynamicColor {
        DynamicColor(
            name: "outline", palette: { $0.neutralVariantPalette }, tone: { $0.isDark ? 60 : 50 },
            background: { highestSurface($0) }, contrastCurve: { _ in ContrastCurve(1.5, 3, 4.5, 7) })
    }

    static var outlineVariant: DynamicColor {
        DynamicColor(
            name: "outline_variant", palette: { $0.neutralVariantPalette }, tone: { $0.isDark ? 30 : 80 },
            background: { highestSurface($0) }, contrastCurve: { _ in ContrastCurve(1, 1, 3, 4.5) })
    }

    static var shadow: DynamicColor {
        DynamicColor(name: "shadow", palette: { $0.neutralPalette }, tone: { _ in 0 })
    }

    static var scrim: DynamicColor {
        DynamicColor(name: "scrim", palette: { $0.neutralPalette }, tone: { _ in 0 })
    }

    static var surfaceTint: DynamicColor {
        DynamicColor(
            name: "surface_tint", palette: { $0.primaryPalette }, tone: { $0.isDark ? 80 : 40 },
            isBackground: true)
    }

    // MARK: Primary

    static var primary: DynamicColor {
        DynamicColor(
            name: "primary", palette: { $0.primaryPalette },
            tone: { s in
                if isMonochrome(s) { return s.isDark ? 100 : 0 }
                return s.isDark ? 80 : 40
            },
            isBackground: true, background: { highestSurface($0) },
            contrastCurve: { _ in ContrastCurve(3, 4.5, 7, 7) },
            toneDeltaPair: { _ in ToneDeltaPair(primaryContainer, primary, 10, .nearer, false) })
    }

    static var onPrimary: DynamicColor {
        DynamicColor(
            name: "on_primary", palette: { $0.primaryPalette },
            tone: { s in
                if isMonochrome(s) { return s.isDark ? 10 : 90 }
                return s.isDark ? 20 : 100
            },
            background: { _ in primary }, contrastCurve: { _ in ContrastCurve(4.5, 7, 11, 21) })
    }

    static var primaryContainer: DynamicColor {
        DynamicColor(
            name: "primary_container", palette: { $0.primaryPalette },
            tone: { s in
                if isFidelity(s) { return s.sourceColorHct.tone }
                if isMonochrome(s) { return s.isDark ? 85 : 25 }
                return s.isDark ? 30 : 90
            },
            isBackground: true, background: { highestSurface($0) },
            contrastCurve: { _ in ContrastCurve(1, 1, 3, 4.5) },
            toneDeltaPair: { _ in ToneDeltaPair(primaryContainer, primary, 10, .nearer, false) })
    }

    static var onPrimaryContainer: DynamicColor {
        DynamicColor(
            name: "on_primary_container", palette: { $0.primaryPalette },
            tone: { s in
                if isFidelity(s) { return DynamicColor.foregroundTone(primaryContainer.tone(s), 4.5) }
                if isMonochrome(s) { return s.isDark ? 0 : 100 }
                return s.isDark ? 90 : 30
            },
            background: { _ in primaryContainer }, contrastCurve: { _ in ContrastCurve(3, 4.5, 7, 11) })
    }

    static var inversePrimary: DynamicColor {
        DynamicColor(
            name: "inverse_primary", palette: { $0.primaryPalette }, tone: { $0.isDark ? 40 : 80 },
            background: { _ in inverseSurface }, contrastCurve: { _ in ContrastCurve(3, 4.5, 7, 7) })
    }

    // MARK: Secondary

    static var secondary: DynamicColor {
        DynamicColor(
            name: "secondary", palette: { $0.secondaryPalette }, tone: { $0.isDark ? 80 : 40 },
            isBackground: true, background: { highestSurface($0) },
            contrastCurve: { _ in ContrastCurve(3, 4.5, 7, 7) },
            toneDeltaPair: { _ in ToneDeltaPair(secondaryContainer, secondary, 10, .nearer, false) })
    }

    static var onSecondary: DynamicColor {
        DynamicColor(
            name: "on_secondary", palette: { $0.secondaryPalette },
            tone: { s in
                if isMonochrome(s) { return s.isDark ? 10 : 100 }
                return s.isDark ? 20 : 100
            },
            background: { _ in secondary }, contrastCurve: { _ in ContrastCurve(4.5, 7, 11, 21) })
    }

    static var secondaryContainer: DynamicColor {
        DynamicColor(
            name: "secondary_container", palette: { $0.secondaryPalette },
            tone: { s in
                let initialTone: Double = s.isDark ? 30 : 90
                if isMonochrome(s) { return s.isDark ? 30 : 85 }
                if !isFidelity(s) { return initialTone }
                return findDesiredChromaByTone(
                    hue: s.secondaryPalette.hue, chroma: s.secondaryPalette.chroma, tone: initialTone,
                    byDecreasingTone: !s.isDark)
            },
            isBackground: true, background: { highestSurface($0) },
            contrastCurve: { _ in ContrastCurve(1, 1, 3, 4.5) },
            toneDeltaPair: { _ in ToneDeltaPair(secondaryContainer, secondary, 10, .nearer, false) })
    }

    static var onSecondaryContainer: DynamicColor {
        DynamicColor(
            name: "on_secondary_container", palette: { $0.secondaryPalette },
            tone: { s in
                if isMonochrome(s) { return s.isDark ? 90 : 10 }
                if !isFidelity(s) { return s.isDark ? 90 : 30 }
                return DynamicColor.foregroundTone(secondaryContainer.tone(s), 4.5)
            },
            background: { _ in secondaryContainer }, contrastCurve: { _ in ContrastCurve(3, 4.5, 7, 11) })
    }

    // MARK: Tertiary

    static var tertiary: DynamicColor {
        DynamicColor(
            name: "tertiary", palette: { $0.tertiaryPalette },
            tone: { s in
                if isMonochrome(s) { return s.isDark ? 90 : 25 }
                return s.isDark ? 80 : 40
            },
            isBackground: true, background: { highestSurface($0) },
            contrastCurve: { _ in ContrastCurve(3, 4.5, 7, 7) },
            toneDeltaPair: { _ in ToneDeltaPair(tertiaryContainer, tertiary, 10, .nearer, false) })
    }

    static var onTertiary: DynamicColor {
        DynamicColor(
            name: "on_tertiary", palette: { $0.tertiaryPalette },
            tone: { s in
                if isMonochrome(s) { return s.isDark ? 10 : 90 }
                return s.isDark ? 20 : 100
            },
            background: { _ in tertiary }, contrastCurve: { _ in ContrastCurve(4.5, 7, 11, 21) })
    }

    static var tertiaryContainer: DynamicColor {
        DynamicColor(
            name: "tertiary_container", palette: { $0.tertiaryPalette },
            tone: { s in
                if isMonochrome(s) { return s.isDark ? 60 : 49 }
                if !isFidelity(s) { return s.isDark ? 30 : 90 }
                let proposed = Hct(argb: s.tertiaryPalette.tone(s.sourceColorHct.tone))
                return DislikeAnalyzer.fixIfDisliked(proposed).tone
            },
            isBackground: true, background: { highestSurface($0) },
            contrastCurve: { _ in ContrastCurve(1, 1, 3, 4.5) },
            toneDeltaPair: { _ in ToneDeltaPair(tertiaryContainer, tertiary, 10, .nearer, false) })
    }

    static var onTertiaryContainer: DynamicColor {
        DynamicColor(
            name: "on_tertiary_container", palette: { $0.tertiaryPalette },
            tone: { s in
                if isMonochrome(s) { return s.isDark ? 0 : 100 }
                if !isFidelity(s) { return s.isDark ? 90 : 30 }
                return DynamicColor.foregroundTone(tertiaryContainer.tone(s), 4.5)
            },
            background: { _ in tertiaryContainer }, contrastCurve: { _ in ContrastCurve(3, 4.5, 7, 11) })
    }

    // MARK: Error

    static var error: DynamicColor {
        DynamicColor(
            name: "error", palette: { $0.errorPalette }, tone: { $0.isDark ? 80 : 40 },
            isBackground: true, background: { highestSurface($0) },
            contrastCurve: { _ in ContrastCurve(3, 4.5, 7, 7) },
            toneDeltaPair: { _ in ToneDeltaPair(Self.errorContainer, Self.error, 10, .nearer, false) })
    }

    static var onError: DynamicColor {
        DynamicColor(
            name: "on_error", palette: { $0.errorPalette }, tone: { $0.isDark ? 20 : 100 },
            background: { _ in error }, contrastCurve: { _ in ContrastCurve(4.5, 7, 11, 21) })
    }

    static var errorContainer: DynamicColor {
        DynamicColor(
            name: "error_container", palette: { $0.errorPalette }, tone: { $0.isDark ? 30 : 90 },
            isBackground: true, background: { highestSurface($0) },
            contrastCurve: { _ in ContrastCurve(1, 1, 3, 4.5) },
            toneDeltaPair: { _ in ToneDeltaPair(Self.errorContainer, Self.error, 10, .nearer, false) })
    }

    static var onErrorContainer: DynamicColor {
        DynamicColor(
            name: "on_error_container", palette: { $0.errorPalette },
            tone: { s in
                if isMonochrome(s) { return s.isDark ? 90 : 10 }
                return s.isDark ? 90 : 30
            },
            background: { _ in errorContainer }, contrastCurve: { _ in ContrastCurve(3, 4.5, 7, 11) })
    }

    // MARK: Fixed

    static var primaryFixed: DynamicColor {
        fixed(
            "primary_fixed", { $0.primaryPalette }, tone: { isMonochrome($0) ? 40.0 : 90.0 },
            pair: { ToneDeltaPair(primaryFixed, primaryFixedDim, 10, .lighter, true) })
    }

    static var primaryFixedDim: DynamicColor {
        fixed(
            "primary_fixed_dim", { $0.primaryPalette }, tone: { isMonochrome($0) ? 30.0 : 80.0 },
            pair: { ToneDeltaPair(primaryFixed, primaryFixedDim, 10, .lighter, true) })
    }

    static var onPrimaryFixed: DynamicColor {
        onFixed(
            "on_primary_fixed", { $0.primaryPalette }, tone: { isMonochrome($0) ? 100.0 : 10.0 },
            on: (primaryFixedDim, primaryFixed), ContrastCurve(4.5, 7, 11, 21))
    }

    static var onPrimaryFixedVariant: DynamicColor {
        onFixed(
            "on_primary_fixed_variant", { $0.primaryPalette }, tone: { isMonochrome($0) ? 90.0 : 30.0 },
            on: (primaryFixedDim, primaryFixed), ContrastCurve(3, 4.5, 7, 11))
    }

    static var secondaryFixed: DynamicColor {
        fixed(
            "secondary_fixed", { $0.secondaryPalette }, tone: { isMonochrome($0) ? 80.0 : 90.0 },
            pair: { ToneDeltaPair(secondaryFixed, secondaryFixedDim, 10, .lighter, true) })
    }

    static var secondaryFixedDim: DynamicColor {
        fixed(
            "secondary_fixed_dim", { $0.secondaryPalette }, tone: { isMonochrome($0) ? 70.0 : 80.0 },
            pair: { ToneDeltaPair(secondaryFixed, secondaryFixedDim, 10, .lighter, true) })
    }

    static var onSecondaryFixed: DynamicColor {
        onFixed(
            "on_secondary_fixed", { $0.secondaryPalette }, tone: { _ in 10.0 },
            on: (secondaryFixedDim, secondaryFixed), ContrastCurve(4.5, 7, 11, 21))
    }

    static var onSecondaryFixedVariant: DynamicColor {
        onFixed(
            "on_secondary_fixed_variant", { $0.secondaryPalette }, tone: { isMonochrome($0) ? 25.0 : 30.0 },
            on: (secondaryFixedDim, secondaryFixed), ContrastCurve(3, 4.5, 7, 11))
    }

    static var tertiaryFixed: DynamicColor {
        fixed(
            "tertiary_fixed", { $0.tertiaryPalette }, tone: { isMonochrome($0) ? 40.0 : 90.0 },
            pair: { ToneDeltaPair(tertiaryFixed, tertiaryFixedDim, 10, .lighter, true) })
    }

    static var tertiaryFixedDim: DynamicColor {
        fixed(
            "tertiary_fixed_dim", { $0.tertiaryPalette }, tone: { isMonochrome($0) ? 30.0 : 80.0 },
            pair: { ToneDeltaPair(tertiaryFixed, tertiaryFixedDim, 10, .lighter, true) })
    }

    static var onTertiaryFixed: DynamicColor {
        onFixed(
            "on_tertiary_fixed", { $0.tertiaryPalette }, tone: { isMonochrome($0) ? 100.0 : 10.0 },
            on: (tertiaryFixedDim, tertiaryFixed), ContrastCurve(4.5, 7, 11, 21))
    }

    static var onTertiaryFixedVariant: DynamicColor {
        onFixed(
            "on_tertiary_fixed_variant", { $0.tertiaryPalette }, tone: { isMonochrome($0) ? 90.0 : 30.0 },
            on: (tertiaryFixedDim, tertiaryFixed), ContrastCurve(3, 4.5, 7, 11))
    }

    /// A fixed role: the same tone in light and dark, paired with its dim partner.
    private static func fixed(
        _ name: String, _ palette: @escaping (DynamicScheme) -> TonalPalette,
        tone: @escaping (DynamicScheme) -> Double, pair: @escaping () -> ToneDeltaPair
    ) -> DynamicColor {
        DynamicColor(
            name: name, palette: palette, tone: tone, isBackground: true, background: { highestSurface($0) },
            contrastCurve: { _ in ContrastCurve(1, 1, 3, 4.5) }, toneDeltaPair: { _ in pair() })
    }

    /// Text on a fixed role and its dim partner: it must contrast with both.
    private static func onFixed(
        _ name: String, _ palette: @escaping (DynamicScheme) -> TonalPalette,
        tone: @escaping (DynamicScheme) -> Double, on backgrounds: (dim: DynamicColor, fixed: DynamicColor),
        _ curve: ContrastCurve
    ) -> DynamicColor {
        DynamicColor(
            name: name, palette: palette, tone: tone, background: { _ in backgrounds.dim },
            secondBackground: { _ in backgrounds.fixed }, contrastCurve: { _ in curve })
    }
}

extension ToneDeltaPair {
    /// Positional, as MCU writes its pairs.
    init(
        _ roleA: DynamicColor, _ roleB: DynamicColor, _ delta: Double, _ polarity: TonePolarity,
        _ stayTogether: Bool
    ) {
        self.init(roleA: roleA, roleB: roleB, delta: delta, polarity: polarity, stayTogether: stayTogether)
    }
}
