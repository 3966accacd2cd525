/// A generated theme's terminal colours, legible by construction: on the scheme's `background`,
/// the foreground has at least 7:1 and ANSI colours 1–6 and 9–14 at least 4.5:1 (WCAG 2 ratios
/// of the 8-bit colours written, ``RGBA/contrast(_:_:)``), raised toward 7:1 as the contrast level
/// goes from 0 to 1; the sixteen colours are pairwise distinct.
///
/// Colours are made in HCT from the scheme, so that they belong to it:
/// - ANSI 1–6 (red, green, yellow, blue, magenta, cyan) take the HCT hue of sRGB's pure colour
///   (``conventionalHues``), turned toward the source colour's hue as MCU's `Blend.harmonize`
///   turns a colour (half the difference), but by at most 15° and at most a quarter of the way to
///   the nearest other conventional hue (orange's, `#ff8000`, counted), so each keeps its meaning
///   and stays apart from the others; a source under chroma 5 has no hue to turn toward. Their chroma is 48 (Score's
///   target chroma), 32 for the monochrome and neutral schemes. Their tone starts at 70 (bright
///   80) on a dark background, 45 (bright 35) on a light one: bright colours are further from
///   the background.
/// - Greys come from the scheme's neutral-variant palette: on a dark background color0 tone 20,
///   color8 from 55, color7 from 80 (4.5:1), color15 the neutral palette's tone 95; on a light
///   one color0 tone 10, color8 from 50 (4.5:1), color7 from 70 (3.5:1), color15 from 75 (3:1).
/// - The foreground is `on_surface`, the cursor `primary`.
/// - A colour short of its ratio moves its tone away from the background in steps of 0.5 (hue and
///   chroma kept as far as sRGB allows) until it has it; tone 0 or 100 always ends the search,
///   since black or white has at least 4.58:1 on any colour and at least 7:1 on a scheme
///   background (tone 6…12 dark, 87…98 light). Last, in order 1…15, a colour equal to an earlier
///   one moves 0.5, 1 … tones further, then nearer, to the first that differs and keeps its ratio.
public struct GeneratedTerminal: Sendable, Hashable {
    /// `color0`…`color15`, opaque ARGB.
    public var colors: [UInt32]
    /// The terminal's background: the scheme's `background`.
    public var background: UInt32
    /// Text without a colour of its own.
    public var foreground: UInt32
    /// The cursor.
    public var cursor: UInt32

    /// The names in JSON and in a bundle's palette: `color0`…`color15`, `background`,
    /// `foreground`, `cursor`.
    public static let names = (0..<16).map { "color\($0)" } + ["background", "foreground", "cursor"]

    /// The HCT hues of sRGB's pure red, green, yellow, blue, magenta and cyan: ANSI 1–6's.
    public static let conventionalHues: [Double] = [
        0xffff_0000, 0xff00_ff00, 0xffff_ff00, 0xff00_00ff, 0xffff_00ff, 0xff00_ffff,
    ].map { Hct(argb: $0).hue }

    /// The HCT hue of orange (`#ff8000`), base09's.
    static let orangeHue = Hct(argb: 0xffff_8000).hue

    /// The least ratio of ANSI 1–6 and 9–14 on the background at a contrast level: 4.5 up to 0,
    /// then linearly up to 7 at 1.
    public static func colorRatio(contrast: Double) -> Double { 4.5 + 2.5 * max(0, contrast) }
    /// The least ratio of the foreground on the background.
    public static let foregroundRatio = 7.0

    /// Each colour's `#rrggbb` by its name (``names``).
    public var byName: [String: String] {
        Dictionary(
            uniqueKeysWithValues: zip(
                Self.names, (colors + [background, foreground, cursor]).map(GeneratedTheme.hex)))
    }

    /// The terminal colours of `scheme`, whose roles are `roles`.
    init(scheme: MaterialScheme, roles: [MaterialRole: UInt32]) {
        let search = ToneSearch(background: roles[.background]!)
        let ratio = Self.colorRatio(contrast: scheme.contrastLevel)
        let dark = search.darkBackground
        let chroma: Double = [.monochrome, .neutral].contains(scheme.variant) ? 32 : 48
        var made: [ToneSearch.Made?] = Array(repeating: nil, count: 16)
        for k in 0..<6 {
            let hue = Self.harmonized(Self.conventionalHues[k], toward: scheme.source)
            made[1 + k] = search.readable(hue: hue, chroma: chroma, tone: dark ? 70 : 45, ratio: ratio)
            made[9 + k] = search.readable(hue: hue, chroma: chroma, tone: dark ? 80 : 35, ratio: ratio)
        }
        let greys = scheme.scheme.neutralVariantPalette
        let neutral = scheme.scheme.neutralPalette
        func grey(_ palette: TonalPalette, _ tone: Double, _ ratio: Double) -> ToneSearch.Made {
            search.readable(hue: palette.hue, chroma: palette.chroma, tone: tone, ratio: ratio)
        }
        if dark {
            made[0] = grey(greys, 20, 1)
            made[8] = grey(greys, 55, 4.5)
            made[7] = grey(greys, 80, 4.5)
            made[15] = grey(neutral, 95, Self.foregroundRatio)
        } else {
            made[0] = grey(neutral, 10, Self.foregroundRatio)
            made[8] = grey(greys, 50, 4.5)
            made[7] = grey(greys, 70, 3.5)
            made[15] = grey(greys, 75, 3)
        }
        var colors = made.map { $0!.argb }
        for n in 1..<16 where colors[..<n].contains(colors[n]) {
            colors[n] = search.distinct(from: Array(colors[..<n]), near: made[n]!) ?? colors[n]
        }
        let onSurface = Hct(argb: roles[.onSurface]!)
        let primary = Hct(argb: roles[.primary]!)
        self.colors = colors
        background = search.background
        foreground =
            search.readable(
                hue: onSurface.hue, chroma: onSurface.chroma, tone: onSurface.tone,
                ratio: Self.foregroundRatio,
                keeping: roles[.onSurface]!
            ).argb
        cursor =
            search.readable(
                hue: primary.hue, chroma: primary.chroma, tone: primary.tone, ratio: 4.5,
                keeping: roles[.primary]!
            ).argb
    }

    /// A conventional hue (of ``conventionalHues`` or orange) turned toward `source`'s hue: half
    /// the difference, at most 15° and a quarter of the distance to the nearest other of those
    /// hues; unturned for a source under chroma 5.
    static func harmonized(_ hue: Double, toward source: Hct) -> Double {
        guard source.chroma >= 5 else { return hue }
        let nearest = (conventionalHues + [orangeHue]).filter { $0 != hue }.map {
            MaterialMath.differenceDegrees(hue, $0)
        }.min()!
        let turn = min(MaterialMath.differenceDegrees(hue, source.hue) * 0.5, 15, nearest / 4)
        return MaterialMath.sanitizeDegrees(hue + turn * MaterialMath.rotationDirection(hue, source.hue))
    }

    /// base00…base0F of a generated variant: base00 `background`, base01 `surface_container`,
    /// base02 `surface_container_highest`, base03 `outline`, base04 `on_surface_variant`, base05
    /// `on_surface`, base06 and base07 the neutral palette further from the background (tones 95
    /// and 99 dark, 5 and 0 light); the accents base08 red, base09 orange, base0A yellow, base0B
    /// green, base0C cyan, base0D blue, base0E magenta are the terminal's normal colours (orange
    /// made as they are, from `#ff8000`'s hue), base0F red's hue at chroma 24; then, in order, a
    /// slot equal to an earlier one moves its tone, as the terminal's colours do.
    static func base16(scheme: MaterialScheme, roles: [MaterialRole: UInt32], terminal: GeneratedTerminal)
        -> [UInt32]
    {
        let search = ToneSearch(background: roles[.background]!)
        let dark = search.darkBackground
        let ratio = colorRatio(contrast: scheme.contrastLevel)
        let neutral = scheme.scheme.neutralPalette
        let chroma: Double = [.monochrome, .neutral].contains(scheme.variant) ? 32 : 48
        let orangeHue = harmonized(orangeHue, toward: scheme.source)
        let redHue = harmonized(conventionalHues[0], toward: scheme.source)
        var slots: [ToneSearch.Made] = [
            .init(roles[.background]!), .init(roles[.surfaceContainer]!),
            .init(roles[.surfaceContainerHighest]!), .init(roles[.outline]!),
            .init(roles[.onSurfaceVariant]!), .init(roles[.onSurface]!),
            search.readable(hue: neutral.hue, chroma: neutral.chroma, tone: dark ? 95 : 5, ratio: 1),
            search.readable(hue: neutral.hue, chroma: neutral.chroma, tone: dark ? 99 : 0, ratio: 1),
        ]
        let c = terminal.colors
        slots += [
            .init(c[1]), search.readable(hue: orangeHue, chroma: chroma, tone: dark ? 70 : 45, ratio: ratio),
            .init(c[3]), .init(c[2]), .init(c[6]), .init(c[4]), .init(c[5]),
            search.readable(hue: redHue, chroma: 24, tone: dark ? 70 : 45, ratio: ratio),
        ]
        var out = slots.map(\.argb)
        for n in 1..<16 where out[..<n].contains(out[n]) {
            out[n] = search.distinct(from: Array(out[..<n]), near: slots[n]) ?? out[n]
        }
        return out
    }
}

/// Moves HCT tones until colours are readable on one background.
struct ToneSearch {
    /// The background, opaque ARGB.
    let background: UInt32
    private let backgroundRGBA: RGBA
    /// Whether lighter colours have more contrast on it (tones go up to get away from it).
    let darkBackground: Bool

    /// The step of every tone search.
    static let step = 0.5

    /// A colour made by the search, with what it was made from.
    struct Made {
        var argb: UInt32
        var hue: Double
        var chroma: Double
        var tone: Double
        var ratio: Double

        /// A colour taken as it is (a role), moved by its own HCT when it must be.
        init(_ argb: UInt32) {
            let hct = Hct(argb: argb)
            self.init(argb: argb, hue: hct.hue, chroma: hct.chroma, tone: hct.tone, ratio: 1)
        }

        init(argb: UInt32, hue: Double, chroma: Double, tone: Double, ratio: Double) {
            self.argb = argb
            self.hue = hue
            self.chroma = chroma
            self.tone = tone
            self.ratio = ratio
        }
    }

    init(background: UInt32) {
        self.background = 0xff00_0000 | background
        backgroundRGBA = Self.rgba(self.background)
        darkBackground =
            RGBA.contrast(RGBA(red: 1, green: 1, blue: 1), backgroundRGBA)
            >= RGBA.contrast(RGBA(red: 0, green: 0, blue: 0), backgroundRGBA)
    }

    static func rgba(_ argb: UInt32) -> RGBA {
        RGBA(red8: Int(argb >> 16 & 255), green8: Int(argb >> 8 & 255), blue8: Int(argb & 255))
    }

    /// The WCAG 2 ratio of `argb` on the background.
    func ratio(_ argb: UInt32) -> Double { RGBA.contrast(Self.rgba(argb), backgroundRGBA) }

    /// The colour of `hue` and `chroma` at `tone`, or the first tone further from the background
    /// in steps of ``step`` with at least `ratio`; tone 0 or 100 ends it. `keeping`, when given,
    /// is the colour at the starting tone (a role as the scheme made it), kept when it has the ratio.
    func readable(hue: Double, chroma: Double, tone: Double, ratio: Double, keeping: UInt32? = nil) -> Made {
        var t = min(max(tone, 0), 100)
        var argb = keeping ?? Hct.from(hue: hue, chroma: chroma, tone: t).argb
        while self.ratio(argb) < ratio, t > 0, t < 100 {
            t = min(max(t + (darkBackground ? Self.step : -Self.step), 0), 100)
            argb = Hct.from(hue: hue, chroma: chroma, tone: t).argb
        }
        return Made(argb: argb, hue: hue, chroma: chroma, tone: t, ratio: ratio)
    }

    /// The colour nearest `made` in tone, first further from the background and then nearer at
    /// each distance, that differs from every colour of `taken` and keeps `made`'s ratio; nil
    /// when none does.
    func distinct(from taken: [UInt32], near made: Made) -> UInt32? {
        for k in 1...Int(100 / Self.step) {
            for sign in [1.0, -1.0] {
                let amount = sign * Double(k) * Self.step
                let tone = made.tone + (darkBackground ? amount : -amount)
                guard tone >= 0, tone <= 100 else { continue }
                let argb = Hct.from(hue: made.hue, chroma: made.chroma, tone: tone).argb
                if !taken.contains(argb), ratio(argb) >= made.ratio { return argb }
            }
        }
        return nil
    }
}
