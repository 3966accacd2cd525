/// A theme's terminal colours, for exporters: the sixteen ANSI colours `color0`…`color15` and
/// the background, foreground, cursor, cursor text and selection a terminal draws them with.
/// Every theme has them, by the first of three rules that applies (the README, "Terminal
/// colours of every theme"):
///
/// 1. ``Rule/own``: a theme whose palette defines `background`, `foreground` and
///    `color0`…`color15`, after inheritance (iTerm2 and `colors.json` schemes, a native theme
///    that defines them): exactly those; `cursor`, `cursor-text`, `selection-background` and
///    `selection-foreground` from the palette where it defines them, else the foreground, the
///    background, base02 and the foreground;
/// 2. ``Rule/tinted``: a base16 or base24 scheme: its slots as the terminal columns of
///    tinted-theming's styling specifications map them (``base16Mapping``, ``base24Mapping``);
///    background base00, foreground and cursor base05, cursor text base00, selection base02
///    under base05;
/// 3. ``Rule/derived``: any other theme: made from its ``Base16Slots`` and accent colour by
///    ``derived(background:foreground:selection:accent:themeColors:)``, sixteen colours that are
///    pairwise distinct, each at least 3:1 (WCAG 2 contrast) against the background and of its
///    conventional hue, with a foreground at least 4.5:1.
///
/// Every colour is opaque: one that is not is laid over the background (the background over
/// white for a light theme, black for a dark one), as ``Base16Slots`` does.
public struct TerminalPalette: Sendable, Hashable {
    /// Which rule made a palette.
    public enum Rule: String, Sendable {
        /// The theme's own terminal colours (rule 1).
        case own
        /// A base16 or base24 scheme's slots, by tinted-theming's mapping (rule 2).
        case tinted
        /// Derived from the theme's slots (rule 3).
        case derived
    }

    /// The rule that made this palette.
    public var rule: Rule
    /// `color0`…`color15`: black, red, green, yellow, blue, magenta, cyan, white, then their
    /// bright forms.
    public var colors: [RGBA]
    /// The terminal's background.
    public var background: RGBA
    /// Text without a colour of its own.
    public var foreground: RGBA
    /// The cursor.
    public var cursor: RGBA
    /// Text under the cursor.
    public var cursorText: RGBA
    /// Selected text's background.
    public var selectionBackground: RGBA
    /// Selected text.
    public var selectionForeground: RGBA

    /// The names in ``named``'s order: `color0`…`color15`, `background`, `foreground`,
    /// `cursor`, `cursor-text`, `selection-background`, `selection-foreground` (the terminal
    /// names of imported schemes, the README, "Other formats").
    public static let names: [String] =
        (0..<16).map { "color\($0)" } + [
            "background", "foreground", "cursor", "cursor-text", "selection-background",
            "selection-foreground",
        ]

    /// Each colour with its name, in ``names``' order.
    public var named: [(name: String, color: RGBA)] {
        let all =
            colors + [background, foreground, cursor, cursorText, selectionBackground, selectionForeground]
        return Array(zip(TerminalPalette.names, all))
    }

    /// The slot each ANSI colour of a base16 scheme is (tinted-theming's base16 styling, its
    /// terminal column): color8 base03, the bright colours 9–14 the normal ones again.
    public static let base16Mapping = [
        "base00", "base08", "base0B", "base0A", "base0D", "base0E", "base0C", "base05",
        "base03", "base08", "base0B", "base0A", "base0D", "base0E", "base0C", "base07",
    ]

    /// The slot each ANSI colour of a base24 scheme is (tinted-theming's base24 styling, its
    /// `Ansi` column): color7 base06, and its own bright colours base12…base17.
    public static let base24Mapping = [
        "base00", "base08", "base0B", "base0A", "base0D", "base0E", "base0C", "base06",
        "base03", "base12", "base14", "base13", "base16", "base17", "base15", "base07",
    ]

    /// The base16 slot a base24 slot falls back to when a scheme lacks it (the base24
    /// styling's fallbacks).
    static let base24Fallbacks = [
        "base12": "base08", "base13": "base0A", "base14": "base0B", "base15": "base0C", "base16": "base0D",
        "base17": "base0E",
    ]

    /// A palette of every colour given.
    public init(
        rule: Rule, colors: [RGBA], background: RGBA, foreground: RGBA, cursor: RGBA, cursorText: RGBA,
        selectionBackground: RGBA, selectionForeground: RGBA
    ) {
        self.rule = rule
        self.colors = colors
        self.background = background
        self.foreground = foreground
        self.cursor = cursor
        self.cursorText = cursorText
        self.selectionBackground = selectionBackground
        self.selectionForeground = selectionForeground
    }

    /// The palette of `cascade`'s theme by the rules above.
    /// - Parameters:
    ///   - cascade: The theme, compiled and indexed.
    ///   - slots: Its base16 slots (`cascade.base16Slots`), made once by the caller.
    public init(_ cascade: Cascade, slots: Base16Slots) {
        let theme = cascade.theme
        let palette = theme.palette
        let light = theme.metadata.variant == "light"
        let paper = light ? RGBA(red: 1, green: 1, blue: 1) : RGBA(red: 0, green: 0, blue: 0)
        let base00 = slots["base00"]!
        let base02 = slots["base02"]!
        let base05 = slots["base05"]!
        let colors = (0..<16).compactMap { palette["color\($0)"] }
        if let background = palette["background"], let foreground = palette["foreground"], colors.count == 16
        {
            let bg = Base16Slots.opaque(background, over: paper)
            func own(_ name: String, _ otherwise: RGBA) -> RGBA {
                palette[name].map { Base16Slots.opaque($0, over: bg) } ?? otherwise
            }
            let fg = Base16Slots.opaque(foreground, over: bg)
            self.init(
                rule: .own, colors: colors.map { Base16Slots.opaque($0, over: bg) }, background: bg,
                foreground: fg, cursor: own("cursor", fg), cursorText: own("cursor-text", bg),
                selectionBackground: own("selection-background", base02),
                selectionForeground: own("selection-foreground", fg))
        } else if theme.metadata.format == "base16" || theme.metadata.format == "base24" {
            let mapping =
                theme.metadata.format == "base24"
                ? TerminalPalette.base24Mapping : TerminalPalette.base16Mapping
            func slot(_ name: String) -> RGBA {
                if let c = slots[name] { return c }
                let own = palette[name] ?? palette[TerminalPalette.base24Fallbacks[name] ?? ""]
                return own.map { Base16Slots.opaque($0, over: base00) } ?? base05
            }
            self.init(
                rule: .tinted, colors: mapping.map(slot), background: base00, foreground: base05,
                cursor: base05,
                cursorText: base00, selectionBackground: base02, selectionForeground: base05)
        } else {
            let others = ["base08", "base0B", "base0A", "base0D", "base0E", "base0C", "base09", "base0F"]
            self = TerminalPalette.derived(
                background: base00, foreground: base05, selection: base02, accent: theme.metadata.accentColor,
                themeColors: others.map { slots[$0]! })
        }
    }
}

// MARK: Rule 3

extension TerminalPalette {
    /// OKLCH hues (degrees) of sRGB's pure red, green, yellow, blue, magenta and cyan
    /// (`#ff0000` …): the conventional hues of ANSI colours 1–6, and 9–14.
    public static let conventionalHues: [Double] = [29.23, 142.50, 109.77, 264.05, 328.36, 194.77]

    /// How far (degrees) a theme colour's hue may be from a conventional hue to be taken for it.
    static let hueWindow = 20.0
    /// How much nearer (degrees) that hue must be than any other conventional hue, so that
    /// rounding to 8 bits cannot make it nearer another.
    static let hueMargin = 6.0
    /// The least chroma of a theme colour taken for an ANSI colour: below it, it reads as grey.
    static let themeChroma = 0.05
    /// The least chroma of a derived ANSI colour 1–6 or 9–14.
    static let leastChroma = 0.08
    /// The chroma of an ANSI colour no theme colour gives.
    static let plainChroma = 0.14
    /// The lightness of ANSI colours 1–6 that no theme colour gives, on a dark and on a light
    /// background: yellow and cyan, whose strong forms are light, lighter than the others.
    static let plainLightness = (
        onDark: [0.70, 0.75, 0.85, 0.68, 0.72, 0.80], onLight: [0.55, 0.55, 0.58, 0.50, 0.55, 0.55]
    )
    /// How much further from the background a bright colour is than its normal one, in lightness.
    static let brightStep = 0.08
    /// The lightest a bright colour is made on a dark background, and the darkest on a light
    /// one: beyond, sRGB has too little chroma left for a hue.
    static let brightLimit = (onDark: 0.92, onLight: 0.25)
    /// The greatest chroma of the greys: the background's tint, no more.
    static let greyChroma = 0.03
    /// The lightness step of the search for a readable or a distinct colour.
    static let step = 0.005

    /// Sixteen ANSI colours for a theme without its own: pairwise distinct, each at least 3:1
    /// against the background, with the foreground at least 4.5:1. Deterministic.
    ///
    /// "Far" is the direction (lighter or darker) in which the background has more contrast
    /// (lighter on a dark background); a colour is made *readable* at a ratio by moving its
    /// OKLCH lightness, hue and chroma kept (chroma lowered only to stay in sRGB), toward far in
    /// steps of 0.005 until its 8-bit form reaches the ratio (black and white reach 4.5:1 on
    /// any background, so the search always ends).
    ///
    /// - Foreground: the theme's, readable at 4.5:1; the cursor is the foreground, the cursor
    ///   text the background, the selection `selection` under the foreground.
    /// - ANSI 1–6 (red, green, yellow, blue, magenta, cyan): the first theme colour whose OKLCH
    ///   hue is within 20° of the conventional hue (``conventionalHues``) and at least 6° nearer
    ///   it than any other, with chroma at least 0.05 — the accent first, then the slot of that colour
    ///   (`themeColors[n - 1]`), then the others in order — else the conventional hue at
    ///   chroma 0.14 and the lightness of ``plainLightness``; chroma raised to at least 0.08;
    ///   readable at 3:1. So a theme colour of chroma 0.08 or more that already has 3:1 is that
    ///   ANSI colour as it is.
    /// - ANSI 9–14: the normal colour 0.08 further from the background in lightness (on a
    ///   light background the bright colours are the darker ones), as ``ReadableSearch/bright(_:)``
    ///   says.
    /// - Greys, in the background's hue with its chroma up to 0.03: on a dark background
    ///   color0 readable at 3:1 and color8 at 4.5:1 from the background's lightness, color7 and
    ///   color15 the foreground 0.08 nearer and further; on a light background color0 the
    ///   foreground, color8, color7 and color15 readable at 4.5, 3.5 and 3:1 from the
    ///   background's lightness.
    /// - Then, in order, a colour equal (at 8 bits) to an earlier one moves its lightness by
    ///   0.005, 0.01 … further from the background and then nearer, until it differs from all
    ///   earlier ones and is still readable at 3:1.
    ///
    /// - Parameters:
    ///   - background: The terminal background (opaque).
    ///   - foreground: The theme's text colour (opaque).
    ///   - selection: The selection background (opaque).
    ///   - accent: The theme's accent colour, if it has one.
    ///   - themeColors: The theme's colours of ANSI 1–6 in order (base08, base0B, base0A,
    ///     base0D, base0E, base0C), then any others (base09, base0F).
    /// - Returns: The palette, its colours at eight bits a channel.
    public static func derived(
        background: RGBA, foreground: RGBA, selection: RGBA, accent: RGBA?, themeColors: [RGBA]
    ) -> TerminalPalette {
        let search = ReadableSearch(background: background.rounded)
        let bg = search.background
        let (fg, fgLCH) = search.readable(OKLCH(foreground), 4.5)
        var colors = [RGBA](repeating: bg, count: 16)
        var sources = [OKLCH](repeating: OKLCH(bg), count: 16)
        func set(_ n: Int, _ made: (RGBA, OKLCH)) { (colors[n], sources[n]) = made }

        for k in 0..<6 {
            var base =
                themeColour(k, accent: accent, themeColors: themeColors)
                ?? OKLCH(
                    lightness: search.darkBackground ? plainLightness.onDark[k] : plainLightness.onLight[k],
                    chroma: plainChroma, hue: conventionalHues[k])
            base.chroma = max(base.chroma, leastChroma)
            let normal = search.readable(base, 3)
            set(1 + k, normal)
            set(9 + k, search.bright(normal.1))
        }

        let bgLCH = OKLCH(bg)
        let grey = OKLCH(lightness: bgLCH.lightness, chroma: min(bgLCH.chroma, greyChroma), hue: bgLCH.hue)
        if search.darkBackground {
            set(0, search.readable(grey, 3))
            set(8, search.readable(grey, 4.5))
            set(7, search.readable(search.further(fgLCH, by: -brightStep), 3))
            set(15, search.readable(search.further(fgLCH, by: brightStep), 3))
        } else {
            set(0, (fg, fgLCH))
            set(8, search.readable(grey, 4.5))
            set(7, search.readable(grey, 3.5))
            set(15, search.readable(grey, 3))
        }

        for n in 1..<16 where colors[..<n].contains(colors[n]) {
            colors[n] = search.distinct(from: Array(colors[..<n]), near: sources[n]) ?? colors[n]
        }
        return TerminalPalette(
            rule: .derived, colors: colors, background: bg, foreground: fg, cursor: fg, cursorText: bg,
            selectionBackground: selection.rounded, selectionForeground: fg)
    }

    /// The theme colour taken for ANSI colour `k + 1` (red, green, yellow, blue, magenta, cyan),
    /// or nil: the accent, then `themeColors[k]`, then the others; the first of chroma at least
    /// ``themeChroma`` whose hue is within ``hueWindow`` of the conventional hue and
    /// ``hueMargin`` nearer it than any other.
    static func themeColour(_ k: Int, accent: RGBA?, themeColors: [RGBA]) -> OKLCH? {
        let order =
            (accent.map { [$0] } ?? []) + (k < themeColors.count ? [themeColors[k]] : [])
            + themeColors.enumerated().filter { $0.offset != k }.map(\.element)
        for color in order {
            let c = OKLCH(color)
            guard c.chroma >= themeChroma else { continue }
            let distances = conventionalHues.map { OKLCH.hueDistance(c.hue, $0) }
            let others = distances.enumerated().filter { $0.offset != k }.map(\.element)
            if distances[k] <= hueWindow, others.allSatisfy({ $0 >= distances[k] + hueMargin }) { return c }
        }
        return nil
    }
}

/// Moves colours in OKLCH lightness until they are readable on one background.
struct ReadableSearch {
    /// The background, at eight bits a channel.
    let background: RGBA
    /// Whether lighter colours have more contrast on it than darker ones ("far" is lighter).
    let darkBackground: Bool

    init(background: RGBA) {
        self.background = background
        darkBackground =
            RGBA.contrast(RGBA(red: 1, green: 1, blue: 1), background)
            >= RGBA.contrast(RGBA(red: 0, green: 0, blue: 0), background)
    }

    /// `color` with its lightness moved `amount` toward far (a negative amount toward the
    /// background's side), within 0–1.
    func further(_ color: OKLCH, by amount: Double) -> OKLCH {
        var c = color
        c.lightness = min(max(c.lightness + (darkBackground ? amount : -amount), 0), 1)
        return c
    }

    /// `color` at eight bits, its lightness moved toward far in steps of
    /// ``TerminalPalette/step`` until its contrast with the background is at least `ratio`; and
    /// the OKLCH it was made from. A ratio up to 4.5 is always reached (black and white have at
    /// least 4.58:1 on any background).
    func readable(_ color: OKLCH, _ ratio: Double) -> (RGBA, OKLCH) {
        var c = color
        var made = c.rgba.rounded
        // 1 / step steps cross the whole lightness range; the end is black or white.
        var steps = 0
        while RGBA.contrast(made, background) < ratio, steps <= Int(1 / TerminalPalette.step) {
            c = further(c, by: TerminalPalette.step)
            made = c.rgba.rounded
            steps += 1
        }
        return (made, c)
    }

    /// The bright form of an ANSI colour made from `normal`: `normal` 0.08 further from the
    /// background in lightness, but no further than ``TerminalPalette/brightLimit``; when that
    /// leaves it less than half the step from `normal`, 0.08 nearer the background if that still
    /// has 3:1. Readable at 3:1.
    func bright(_ normal: OKLCH) -> (RGBA, OKLCH) {
        let step = TerminalPalette.brightStep
        var far = further(normal, by: step)
        far.lightness =
            darkBackground
            ? min(far.lightness, max(normal.lightness, TerminalPalette.brightLimit.onDark))
            : max(far.lightness, min(normal.lightness, TerminalPalette.brightLimit.onLight))
        if abs(far.lightness - normal.lightness) < step / 2 {
            let near = further(normal, by: -step)
            let made = near.rgba.rounded
            if RGBA.contrast(made, background) >= 3 { return (made, near) }
        }
        return readable(far, 3)
    }

    /// The colour nearest `source` in lightness, first further from the background and then
    /// nearer at each distance, that differs (at eight bits) from every colour of `taken` and
    /// has at least 3:1 on the background; nil when none does.
    func distinct(from taken: [RGBA], near source: OKLCH) -> RGBA? {
        for k in 1...Int(1 / TerminalPalette.step) {
            for sign in [1.0, -1.0] {
                let amount = sign * Double(k) * TerminalPalette.step
                let moved = source.lightness + (darkBackground ? amount : -amount)
                guard moved >= 0, moved <= 1 else { continue }
                let made = further(source, by: amount).rgba.rounded
                if RGBA.contrast(made, background) >= 3, !taken.contains(made) { return made }
            }
        }
        return nil
    }
}
