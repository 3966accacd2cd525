/// Themes from a picture or a colour, as `livery generate` makes them (the README, "Themes from
/// a picture"): the image pipeline of matugen, then material-color-utilities' dynamic schemes,
/// then terminal and base16 colours made from the schemes. Pure: pixels in, colours out; the same
/// input gives the same colours on every machine.
public enum ThemeGenerator {
    /// How many colours the quantizer keeps (matugen's, MCU's).
    public static let quantizedColors = 128
    /// How many source candidates Score ranks (MCU's default).
    public static let rankedColors = 4
    /// The contrast levels accepted: -1 (least) … 1 (most), 0 the spec's.
    public static let contrastRange: ClosedRange<Double> = -1...1

    /// A theme from an image's pixels: resized to 112 × 112 with the triangle filter
    /// (`ImageSampling`), its opaque pixels quantized by `QuantizerCelebi` to 128 colours,
    /// ranked by `Score`; the best is the source. An image with no colour Score accepts (grey,
    /// black, white: every colour under chroma 5, or no hue with more than 1% of the image)
    /// gives a neutral theme: the `monochrome` scheme of its most common colour, whatever
    /// `scheme` asked, and ``GeneratedTheme/note`` says so.
    /// - Parameters:
    ///   - pixels: `width × height` ARGB pixels (0xAARRGGBB, straight alpha), row by row.
    ///   - width: pixels per row, at least 1.
    ///   - height: rows, at least 1.
    ///   - scheme: the dynamic scheme variant (tonal spot by default).
    ///   - contrast: in ``contrastRange``.
    /// - Returns: both variants' roles, terminal colours and base16 slots.
    public static func generate(
        pixels: [UInt32], width: Int, height: Int, scheme: MaterialVariant = .tonalSpot, contrast: Double = 0
    ) -> GeneratedTheme {
        let sampled = ImageSampling.opaque(ImageSampling.resizeExact(pixels, width: width, height: height))
        let quantized = QuantizerCelebi.quantize(sampled, maxColors: quantizedColors)
        // 0 (transparent) is never a quantizer colour, so it marks "nothing suitable".
        let ranked = Score.score(quantized, desired: rankedColors, fallbackColorARGB: 0)
        if ranked != [0] {
            return generate(source: ranked[0], ranked: ranked, scheme: scheme, contrast: contrast)
        }
        guard let commonest = quantized.max(by: { ($0.value, $1.key) < ($1.value, $0.key) })?.key else {
            var theme = generate(source: 0xff80_8080, ranked: [], scheme: .monochrome, contrast: contrast)
            theme.note = "the image has no opaque pixels: a neutral (monochrome) scheme of grey #808080"
            theme.neutral = true
            return theme
        }
        var theme = generate(source: commonest, ranked: [commonest], scheme: .monochrome, contrast: contrast)
        theme.neutral = true
        theme.note =
            "the image has no colour to take (all of it grey, black or white): a neutral (monochrome) scheme "
            + "of its commonest colour \(GeneratedTheme.hex(commonest))"
            + (scheme == .monochrome ? "" : ", in place of \(scheme.name)")
        return theme
    }

    /// A theme from one source colour, as `livery generate --color` makes it.
    /// - Parameters:
    ///   - source: the source colour, ARGB (alpha ignored).
    ///   - ranked: the candidates it was chosen from, best first (`[source]` when nil).
    ///   - scheme: the dynamic scheme variant.
    ///   - contrast: in ``contrastRange``.
    public static func generate(
        source: UInt32, ranked: [UInt32]? = nil, scheme: MaterialVariant = .tonalSpot, contrast: Double = 0
    ) -> GeneratedTheme {
        precondition(contrastRange.contains(contrast), "contrast must be within -1...1")
        let seed = 0xff00_0000 | source
        let hct = Hct(argb: seed)
        func variant(_ isDark: Bool) -> GeneratedVariant {
            let material = MaterialScheme(
                source: hct, variant: scheme, isDark: isDark, contrastLevel: contrast)
            var roles: [MaterialRole: UInt32] = [:]
            for role in MaterialScheme.roles { roles[role] = material.argb(of: role) }
            let terminal = GeneratedTerminal(scheme: material, roles: roles)
            let base16 = GeneratedTerminal.base16(scheme: material, roles: roles, terminal: terminal)
            return GeneratedVariant(isDark: isDark, roles: roles, terminal: terminal, base16: base16)
        }
        return GeneratedTheme(
            source: seed, ranked: ranked ?? [seed], scheme: scheme, contrast: contrast, neutral: false,
            note: nil,
            light: variant(false), dark: variant(true))
    }
}

/// What `ThemeGenerator` makes: everything `livery generate --json` prints.
public struct GeneratedTheme: Sendable {
    /// The source colour, opaque ARGB.
    public var source: UInt32
    /// Score's candidates, best first (the source first); `[source]` for a colour given.
    public var ranked: [UInt32]
    /// The dynamic scheme variant the roles are of.
    public var scheme: MaterialVariant
    /// The contrast level, -1…1.
    public var contrast: Double
    /// Whether the image had no colour, so that the scheme is a neutral one.
    public var neutral: Bool
    /// Something the user should know about the result (why it is neutral), or nil.
    public var note: String?
    /// The light variant.
    public var light: GeneratedVariant
    /// The dark variant.
    public var dark: GeneratedVariant

    /// `#rrggbb`, lower-case, of an ARGB colour.
    public static func hex(_ argb: UInt32) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var bytes: [UInt8] = [UInt8(ascii: "#")]
        for shift in stride(from: 20, through: 0, by: -4) {
            bytes.append(digits[Int(argb >> UInt32(shift) & 15)])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The theme as the JSON object `livery generate --json` prints: `source`, `ranked`,
    /// `scheme`, `contrast`, `light` and `dark` (every role by its snake_case name), `terminal`
    /// and `base16` (each with `light` and `dark`), and `note` when there is one. Colours are
    /// `#rrggbb`.
    public var jsonObject: [String: Any] {
        var object: [String: Any] = [
            "source": Self.hex(source), "ranked": ranked.map(Self.hex), "scheme": scheme.name,
            "contrast": contrast,
            "light": light.rolesByName, "dark": dark.rolesByName,
            "terminal": ["light": light.terminal.byName, "dark": dark.terminal.byName],
            "base16": ["light": light.base16ByName, "dark": dark.base16ByName],
        ]
        if let note { object["note"] = note }
        return object
    }
}

/// One variant (light or dark) of a generated theme.
public struct GeneratedVariant: Sendable {
    /// Whether this is the dark variant.
    public var isDark: Bool
    /// Every role of the Material scheme (`MaterialScheme.roles`), opaque ARGB.
    public var roles: [MaterialRole: UInt32]
    /// The terminal colours.
    public var terminal: GeneratedTerminal
    /// `base00`…`base0F`, opaque ARGB, in order.
    public var base16: [UInt32]

    /// The slot names of ``base16``, in order.
    public static let base16Names = (0..<16).map { "base0" + String($0, radix: 16, uppercase: true) }

    /// Each role's `#rrggbb` by its snake_case name.
    public var rolesByName: [String: String] {
        Dictionary(uniqueKeysWithValues: roles.map { ($0.key.snakeCaseName, GeneratedTheme.hex($0.value)) })
    }

    /// Each base16 slot's `#rrggbb` by its name.
    public var base16ByName: [String: String] {
        Dictionary(uniqueKeysWithValues: zip(Self.base16Names, base16.map(GeneratedTheme.hex)))
    }
}
