/// The sixteen base16 slots `base00`…`base0F` of a theme, for exporters (templates of the
/// tinted-theming builder specification): every theme has them, whatever its format. The rule
/// (the README, "Base16 slots of every theme"), slot by slot:
///
/// 1. the theme's palette colour of the slot's name (a base16 or base24 scheme's own, a native
///    theme's `@define-color base00` …), after inheritance;
/// 2. else, for a terminal palette (`background`, `foreground`, `color0`…`color15` all defined:
///    iTerm2 and `colors.json` schemes), the reverse of tinted-theming's terminal templates:
///    base00 background, base03 color8, base05 foreground, base07 color15, base08 color1,
///    base0A color3, base0B color2, base0C color6, base0D color4, base0E color5, base02
///    `selection-background`; base09 color16 and base0F color17 when defined; the rest mixed
///    (``terminalRule``);
/// 3. else the values the theme resolves for the components the `base16` mapping theme colours
///    from each slot (``componentRule``): base00 `Window` background-color, base05 `Window/Label`
///    text-color, base0D the accent …; from base04 on only a colour that reads on base00
///    (``minimumContrast``), from base08 on only one that is not base05's.
///
/// A colour that is not opaque is laid over base00 (base00 itself over white for a light theme,
/// black for a dark one), since a slot is six hex digits; a fully transparent one falls back as
/// ``fallbacks`` says.
public struct Base16Slots: Sendable, Hashable {
    /// The slot names in order: `base00`…`base0F`.
    public static let names: [String] = Array(Base16Format.slots.prefix(16))

    /// The sixteen colours, `base00` first; all opaque.
    public var colors: [RGBA]

    /// The colour of slot `name` (`base0D`), or nil for another name.
    public subscript(_ name: String) -> RGBA? {
        Base16Slots.names.firstIndex(of: name).map { colors[$0] }
    }

    /// Each slot's name and colour, in order.
    public var named: [(name: String, color: RGBA)] { Array(zip(Base16Slots.names, colors)) }

    /// The least WCAG contrast on base00 of a text or accent slot taken from a component
    /// (rule 3); below it the slot is mixed as ``fallbacks`` says.
    static let minimumContrast = 1.5

    /// The terminal palette names each slot is taken from (rule 2), where one is.
    static let terminalRule: [String: [String]] = [
        "base00": ["background"], "base02": ["selection-background"], "base03": ["color8"],
        "base05": ["foreground"], "base07": ["color15"], "base08": ["color1"], "base09": ["color16"],
        "base0A": ["color3"], "base0B": ["color2"], "base0C": ["color6"], "base0D": ["color4"],
        "base0E": ["color5"], "base0F": ["color17"],
    ]

    /// The component and property each slot is read from (rule 3): the components the `base16`
    /// mapping theme colours with it, so that a base16 scheme gives its own slots back.
    static let componentRule: [String: (path: String, property: String)] = [
        "base00": ("Window", "background-color"),
        "base01": ("Window/NavigationBar", "bar-tint-color"),
        "base02": ("Window/TableView/TableViewCell:selected", "background-color"),
        "base03": ("Window", "placeholder-color"),
        "base04": ("Window/Label.secondary", "text-color"),
        "base05": ("Window/Label", "text-color"),
        "base06": ("Window/Switch", "thumb-tint-color"),
        "base08": ("Window/Button.destructive", "tint-color"),
        "base09": ("Window/Label.warning", "text-color"),
        "base0A": ("Window/Button:focused", "border-color"),
        "base0B": ("Window/Switch", "on-tint-color"),
        "base0C": ("Window/Label.link", "text-color"),
        "base0D": ("Window", "tint-color"),
        "base0E": ("Window/CollectionView/CollectionViewCell:selected", "border-color"),
        "base0F": ("Window/Label.deprecated", "text-color"),
    ]

    /// A slot the rules leave without a colour, made from others: `(a, b, f)` is
    /// `mix(a, b, f)` = a × (1 − f) + b × f per sRGB channel, as the sheet's `mix()`; `white`
    /// is white for a dark theme and black for a light one (base06 is base05 a quarter of the
    /// way there, base07 halfway). A slot whose sources are missing too uses base05.
    static let fallbacks: [String: (String, String, Double)] = [
        "base01": ("base00", "base05", 0.1), "base02": ("base00", "base05", 0.2),
        "base03": ("base00", "base05", 0.4), "base04": ("base03", "base05", 0.5),
        "base06": ("base05", "white", 0.25), "base07": ("base05", "white", 0.5),
        "base08": ("base05", "base05", 0), "base09": ("base08", "base0A", 0.5),
        "base0A": ("base0D", "base0D", 0), "base0B": ("base05", "base05", 0),
        "base0C": ("base0D", "base0D", 0), "base0E": ("base0D", "base0D", 0),
        "base0F": ("base08", "base00", 0.5),
    ]

    /// The slots by the rule above.
    /// - Parameter cascade: The theme, compiled and indexed.
    public init(_ cascade: Cascade) {
        let theme = cascade.theme
        let palette = theme.palette
        let isTerminal =
            palette["background"] != nil && palette["foreground"] != nil
            && (0..<16).allSatisfy { palette["color\($0)"] != nil }
        let light = theme.metadata.variant == "light"
        let paper = light ? RGBA(red: 1, green: 1, blue: 1) : RGBA(red: 0, green: 0, blue: 0)
        var found: [String: RGBA] = [:]
        // The slots taken from what components resolve (rule 3), which may be values the theme
        // never set for that purpose (a schema's initial colour, an inherited one).
        var resolved: Set<String> = []
        for name in Base16Slots.names {
            var color = palette[name]
            if color == nil, isTerminal {
                color = Base16Slots.terminalRule[name]?.lazy.compactMap { palette[$0] }.first
            } else if color == nil, let (path, property) = Base16Slots.componentRule[name] {
                color = Base16Slots.resolvedColor(cascade, path, property)
                if name == "base0D", let accent = theme.metadata.accentColor { color = accent }
                resolved.insert(name)
            }
            if let c = color, c.alpha > 0 { found[name] = c }
        }
        let base00 = Base16Slots.opaque(found["base00"] ?? paper, over: paper)
        found["base00"] = base00
        // base05 first: most fallbacks are made from it; a resolved one that cannot be read on
        // base00 is replaced too.
        if let c = found["base05"], resolved.contains("base05"),
            RGBA.contrast(Base16Slots.opaque(c, over: base00), base00) < Base16Slots.minimumContrast
        {
            found["base05"] = nil
        }
        if found["base05"] == nil {
            found["base05"] = light ? RGBA(red: 0, green: 0, blue: 0) : RGBA(red: 1, green: 1, blue: 1)
        }
        // A resolved text or accent slot (base04 on) must read on base00 (WCAG contrast at
        // least `minimumContrast`), and a resolved accent (base08 on) must not be the text's
        // colour: templates draw them as text and as the accents between them.
        for name in Base16Slots.names.dropFirst(4) where resolved.contains(name) && name != "base05" {
            guard let c = found[name].map({ Base16Slots.opaque($0, over: base00) }) else { continue }
            let isAccent = Base16Slots.names.firstIndex(of: name)! >= 8
            if RGBA.contrast(c, base00) < Base16Slots.minimumContrast || (isAccent && c == found["base05"]) {
                found[name] = nil
            }
        }
        let white = light ? RGBA(red: 0, green: 0, blue: 0) : RGBA(red: 1, green: 1, blue: 1)
        // In slot order, so that a fallback's sources (always earlier, or base0D/base0A, made
        // first below) are there.
        for name in ["base0D", "base0A"] + Base16Slots.names where found[name] == nil {
            guard let (a, b, f) = Base16Slots.fallbacks[name] else { continue }
            let ca = a == "white" ? white : found[a] ?? found["base05"]!
            let cb = b == "white" ? white : found[b] ?? found["base05"]!
            found[name] = RGBA.mix(ca, cb, f)
        }
        colors = Base16Slots.names.map { Base16Slots.opaque(found[$0] ?? found["base05"]!, over: base00) }
    }

    /// `color` laid over `paper` by its alpha: opaque.
    static func opaque(_ color: RGBA, over paper: RGBA) -> RGBA {
        guard color.alpha < 1 else { return color }
        let a = color.alpha
        return RGBA(
            red: paper.red * (1 - a) + color.red * a, green: paper.green * (1 - a) + color.green * a,
            blue: paper.blue * (1 - a) + color.blue * a)
    }

    /// The colour `cascade` resolves for `property` at `path`, or nil.
    static func resolvedColor(_ cascade: Cascade, _ path: String, _ property: String) -> RGBA? {
        guard let p = try? ComponentPath(path, schema: cascade.theme.schema),
            let v = try? cascade.resolve(p, properties: [property]).first?.value,
            case .color(let c) = v
        else { return nil }
        return c
    }
}

extension Cascade {
    /// The theme's base16 slots for exporters (``Base16Slots``).
    public var base16Slots: Base16Slots { Base16Slots(self) }
}
