/// The ways a Material dynamic scheme turns a source colour into palettes (Material spec 2021).
public enum MaterialVariant: String, CaseIterable, Sendable {
    /// Calm: the source hue at low chroma, a tertiary 60° away. Android 12 and 13's default.
    case tonalSpot = "tonal-spot"
    /// The source colour itself as primary, a tertiary analogous to it (by temperature).
    case content
    /// As content, with the tertiary the source's complement (by temperature).
    case fidelity
    /// The source hue at maximum chroma, secondary and tertiary turned from it.
    case vibrant
    /// Playful: the primary turned 240° from the source hue.
    case expressive
    /// Greys only.
    case monochrome
    /// Nearly grey, a little of the source hue.
    case neutral
    /// A colourful primary on grey surfaces.
    case rainbow
    /// Primary and secondary turned 50° from the source hue, the tertiary on it.
    case fruitSalad = "fruit-salad"

    /// The variant's name on the command line and in themes (`tonal-spot`).
    public var name: String { rawValue }
}

/// A colour role of the Material spec-2021 dynamic scheme, in the order the roles are listed
/// (surfaces, then primary, secondary, tertiary and error).
public enum MaterialRole: String, CaseIterable, Sendable {
    case background, onBackground, surface, surfaceDim, surfaceBright
    case surfaceContainerLowest, surfaceContainerLow, surfaceContainer, surfaceContainerHigh
    case surfaceContainerHighest, onSurface, surfaceVariant, onSurfaceVariant, inverseSurface
    case inverseOnSurface, outline, outlineVariant, shadow, scrim, surfaceTint
    case primary, onPrimary, primaryContainer, onPrimaryContainer, inversePrimary
    case primaryFixed, primaryFixedDim, onPrimaryFixed, onPrimaryFixedVariant
    case secondary, onSecondary, secondaryContainer, onSecondaryContainer
    case secondaryFixed, secondaryFixedDim, onSecondaryFixed, onSecondaryFixedVariant
    case tertiary, onTertiary, tertiaryContainer, onTertiaryContainer
    case tertiaryFixed, tertiaryFixedDim, onTertiaryFixed, onTertiaryFixedVariant
    case error, onError, errorContainer, onErrorContainer

    /// The role's name as Material and matugen print it (`on_primary_container`).
    public var snakeCaseName: String { dynamicColor.name }

    /// The role's rules.
    var dynamicColor: DynamicColor {
        typealias M = MaterialDynamicColors
        switch self {
        case .background: return M.background
        case .onBackground: return M.onBackground
        case .surface: return M.surface
        case .surfaceDim: return M.surfaceDim
        case .surfaceBright: return M.surfaceBright
        case .surfaceContainerLowest: return M.surfaceContainerLowest
        case .surfaceContainerLow: return M.surfaceContainerLow
        case .surfaceContainer: return M.surfaceContainer
        case .surfaceContainerHigh: return M.surfaceContainerHigh
        case .surfaceContainerHighest: return M.surfaceContainerHighest
        case .onSurface: return M.onSurface
        case .surfaceVariant: return M.surfaceVariant
        case .onSurfaceVariant: return M.onSurfaceVariant
        case .inverseSurface: return M.inverseSurface
        case .inverseOnSurface: return M.inverseOnSurface
        case .outline: return M.outline
        case .outlineVariant: return M.outlineVariant
        case .shadow: return M.shadow
        case .scrim: return M.scrim
        case .surfaceTint: return M.surfaceTint
        case .primary: return M.primary
        case .onPrimary: return M.onPrimary
        case .primaryContainer: return M.primaryContainer
        case .onPrimaryContainer: return M.onPrimaryContainer
        case .inversePrimary: return M.inversePrimary
        case .primaryFixed: return M.primaryFixed
        case .primaryFixedDim: return M.primaryFixedDim
        case .onPrimaryFixed: return M.onPrimaryFixed
        case .onPrimaryFixedVariant: return M.onPrimaryFixedVariant
        case .secondary: return M.secondary
        case .onSecondary: return M.onSecondary
        case .secondaryContainer: return M.secondaryContainer
        case .onSecondaryContainer: return M.onSecondaryContainer
        case .secondaryFixed: return M.secondaryFixed
        case .secondaryFixedDim: return M.secondaryFixedDim
        case .onSecondaryFixed: return M.onSecondaryFixed
        case .onSecondaryFixedVariant: return M.onSecondaryFixedVariant
        case .tertiary: return M.tertiary
        case .onTertiary: return M.onTertiary
        case .tertiaryContainer: return M.tertiaryContainer
        case .onTertiaryContainer: return M.onTertiaryContainer
        case .tertiaryFixed: return M.tertiaryFixed
        case .tertiaryFixedDim: return M.tertiaryFixedDim
        case .onTertiaryFixed: return M.onTertiaryFixed
        case .onTertiaryFixedVariant: return M.onTertiaryFixedVariant
        case .error: return M.error
        case .onError: return M.onError
        case .errorContainer: return M.errorContainer
        case .onErrorContainer: return M.onErrorContainer
        }
    }
}

/// A Material You colour scheme (Material spec 2021) from one source colour: every role's colour
/// as Google's material-color-utilities computes it, to the last bit, for any variant, light or
/// dark, and any contrast level.
public struct MaterialScheme: Sendable {
    /// Every role, in the order schemes are listed and printed.
    public static let roles: [MaterialRole] = MaterialRole.allCases

    /// The colour the scheme is built from.
    public var source: Hct { scheme.sourceColorHct }
    /// How the palettes are derived from the source.
    public var variant: MaterialVariant { scheme.variant }
    /// Whether this is the dark scheme.
    public var isDark: Bool { scheme.isDark }
    /// The contrast level the scheme was built for.
    public var contrastLevel: Double { scheme.contrastLevel }

    let scheme: DynamicScheme

    /// Builds the palettes of `source` for `variant`.
    /// - Parameters:
    ///   - source: the source (seed) colour.
    ///   - variant: how palettes are derived from it (tonal spot by default).
    ///   - isDark: the dark scheme rather than the light one.
    ///   - contrastLevel: -1 (least contrast) to 1 (most); 0 is the spec's standard contrast.
    public init(source: Hct, variant: MaterialVariant = .tonalSpot, isDark: Bool, contrastLevel: Double = 0) {
        scheme = DynamicScheme(
            sourceColorHct: source, variant: variant, isDark: isDark, contrastLevel: contrastLevel)
    }

    /// The colour of `role` in this scheme.
    /// - Returns: `0xAARRGGBB`, always opaque.
    public func argb(of role: MaterialRole) -> UInt32 {
        role.dynamicColor.argb(scheme)
    }
}
