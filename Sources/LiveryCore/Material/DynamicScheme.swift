/// A source colour's six tonal palettes for one variant, in light or dark, at one contrast level:
/// what the dynamic colours are solved in. The palettes are those of MCU's
/// `DynamicSchemePalettesDelegateImpl2021` (`dynamiccolor/dynamic_scheme.ts`), variant by variant.
struct DynamicScheme: Sendable {
    let sourceColorHct: Hct
    let variant: MaterialVariant
    let isDark: Bool
    /// -1 (least contrast) ... 0 (the spec's) ... 1 (most).
    let contrastLevel: Double
    let primaryPalette: TonalPalette
    let secondaryPalette: TonalPalette
    let tertiaryPalette: TonalPalette
    let neutralPalette: TonalPalette
    let neutralVariantPalette: TonalPalette
    let errorPalette: TonalPalette

    init(sourceColorHct source: Hct, variant: MaterialVariant, isDark: Bool, contrastLevel: Double) {
        sourceColorHct = source
        self.variant = variant
        self.isDark = isDark
        self.contrastLevel = contrastLevel
        primaryPalette = Self.primaryPalette(variant, source)
        secondaryPalette = Self.secondaryPalette(variant, source)
        tertiaryPalette = Self.tertiaryPalette(variant, source)
        neutralPalette = Self.neutralPalette(variant, source)
        neutralVariantPalette = Self.neutralVariantPalette(variant, source)
        errorPalette = TonalPalette(hue: 25.0, chroma: 84.0)
    }

    private static func primaryPalette(_ variant: MaterialVariant, _ source: Hct) -> TonalPalette {
        switch variant {
        case .content, .fidelity: TonalPalette(hue: source.hue, chroma: source.chroma)
        case .fruitSalad: TonalPalette(hue: MaterialMath.sanitizeDegrees(source.hue - 50.0), chroma: 48.0)
        case .monochrome: TonalPalette(hue: source.hue, chroma: 0.0)
        case .neutral: TonalPalette(hue: source.hue, chroma: 12.0)
        case .rainbow: TonalPalette(hue: source.hue, chroma: 48.0)
        case .tonalSpot: TonalPalette(hue: source.hue, chroma: 36.0)
        case .expressive: TonalPalette(hue: MaterialMath.sanitizeDegrees(source.hue + 240), chroma: 40)
        case .vibrant: TonalPalette(hue: source.hue, chroma: 200.0)
        }
    }

    private static func secondaryPalette(_ variant: MaterialVariant, _ source: Hct) -> TonalPalette {
        switch variant {
        case .content, .fidelity:
            TonalPalette(hue: source.hue, chroma: max(source.chroma - 32.0, source.chroma * 0.5))
        case .fruitSalad: TonalPalette(hue: MaterialMath.sanitizeDegrees(source.hue - 50.0), chroma: 36.0)
        case .monochrome: TonalPalette(hue: source.hue, chroma: 0.0)
        case .neutral: TonalPalette(hue: source.hue, chroma: 8.0)
        case .rainbow, .tonalSpot: TonalPalette(hue: source.hue, chroma: 16.0)
        case .expressive:
            TonalPalette(
                hue: rotatedHue(
                    source, [0, 21, 51, 121, 151, 191, 271, 321, 360], [45, 95, 45, 20, 45, 90, 45, 45, 45]),
                chroma: 24.0)
        case .vibrant:
            TonalPalette(
                hue: rotatedHue(
                    source, [0, 41, 61, 101, 131, 181, 251, 301, 360], [18, 15, 10, 12, 15, 18, 15, 12, 12]),
                chroma: 24.0)
        }
    }

    private static func tertiaryPalette(_ variant: MaterialVariant, _ source: Hct) -> TonalPalette {
        switch variant {
        case .content:
            TonalPalette.from(
                hct: DislikeAnalyzer.fixIfDisliked(
                    TemperatureCache(source).analogous(count: 3, divisions: 6)[2]))
        case .fidelity:
            TonalPalette.from(hct: DislikeAnalyzer.fixIfDisliked(TemperatureCache(source).complement))
        case .fruitSalad: TonalPalette(hue: source.hue, chroma: 36.0)
        case .monochrome: TonalPalette(hue: source.hue, chroma: 0.0)
        case .neutral: TonalPalette(hue: source.hue, chroma: 16.0)
        case .rainbow, .tonalSpot:
            TonalPalette(hue: MaterialMath.sanitizeDegrees(source.hue + 60.0), chroma: 24.0)
        case .expressive:
            TonalPalette(
                hue: rotatedHue(
                    source, [0, 21, 51, 121, 151, 191, 271, 321, 360],
                    [120, 120, 20, 45, 20, 15, 20, 120, 120]),
                chroma: 32.0)
        case .vibrant:
            TonalPalette(
                hue: rotatedHue(
                    source, [0, 41, 61, 101, 131, 181, 251, 301, 360], [35, 30, 20, 25, 30, 35, 30, 25, 25]),
                chroma: 32.0)
        }
    }

    private static func neutralPalette(_ variant: MaterialVariant, _ source: Hct) -> TonalPalette {
        switch variant {
        case .content, .fidelity: TonalPalette(hue: source.hue, chroma: source.chroma / 8.0)
        case .fruitSalad: TonalPalette(hue: source.hue, chroma: 10.0)
        case .monochrome, .rainbow: TonalPalette(hue: source.hue, chroma: 0.0)
        case .neutral: TonalPalette(hue: source.hue, chroma: 2.0)
        case .tonalSpot: TonalPalette(hue: source.hue, chroma: 6.0)
        case .expressive: TonalPalette(hue: MaterialMath.sanitizeDegrees(source.hue + 15), chroma: 8)
        case .vibrant: TonalPalette(hue: source.hue, chroma: 10)
        }
    }

    private static func neutralVariantPalette(_ variant: MaterialVariant, _ source: Hct) -> TonalPalette {
        switch variant {
        case .content, .fidelity: TonalPalette(hue: source.hue, chroma: (source.chroma / 8.0) + 4.0)
        case .fruitSalad: TonalPalette(hue: source.hue, chroma: 16.0)
        case .monochrome, .rainbow: TonalPalette(hue: source.hue, chroma: 0.0)
        case .neutral: TonalPalette(hue: source.hue, chroma: 2.0)
        case .tonalSpot: TonalPalette(hue: source.hue, chroma: 8.0)
        case .expressive: TonalPalette(hue: MaterialMath.sanitizeDegrees(source.hue + 15), chroma: 12)
        case .vibrant: TonalPalette(hue: source.hue, chroma: 12)
        }
    }

    /// The source hue turned by the rotation of the first range `[breakpoints[i], breakpoints[i+1])`
    /// holding it, kept in 0..<360 (MCU's `getRotatedHue` over `getPiecewiseHue`).
    static func rotatedHue(_ source: Hct, _ breakpoints: [Double], _ rotations: [Double]) -> Double {
        var rotation = piecewiseHue(source, breakpoints, rotations)
        if min(breakpoints.count - 1, rotations.count) <= 0 { rotation = 0 }
        return MaterialMath.sanitizeDegrees(source.hue + rotation)
    }

    /// `hues[i]` for the first range `[breakpoints[i], breakpoints[i+1])` holding the source hue,
    /// or the source hue when none does (MCU's `getPiecewiseHue`).
    static func piecewiseHue(_ source: Hct, _ breakpoints: [Double], _ hues: [Double]) -> Double {
        let size = min(breakpoints.count - 1, hues.count)
        let sourceHue = source.hue
        for i in 0..<max(size, 0) where sourceHue >= breakpoints[i] && sourceHue < breakpoints[i + 1] {
            return MaterialMath.sanitizeDegrees(hues[i])
        }
        return sourceHue
    }
}
