import Foundation
import LiveryCore
import Mustache

/// The active theme as plugins see it, made once per published change: the template variables,
/// the JSON a command gets on standard input, and the environment variables.
struct ThemeSnapshot: Sendable {
    var id: String
    var name: String
    var variant: String
    var serial: UInt32
    /// The tinted-theming system of the theme's scheme: `base16` or `base24`.
    var system: String
    /// What templates see (`ThemeTemplateData`).
    var variables: MustacheValue
    /// Palette colour names to `#rrggbbaa`.
    var palette: [String: String]
    /// Base16 slot names to `#rrggbb`.
    var base16: [String: String]
    /// Terminal colour names (`color0`…`color15`, `background` …, ``TerminalPalette/names``)
    /// to `#rrggbb`.
    var terminal: [String: String]
    /// The theme's `gtk-theme`, when it names one.
    var gtkTheme: String?
    /// The absolute path of the theme's wallpaper, when it names one.
    var wallpaper: String?

    /// `{"id", "name", "variant", "serial", "palette", "base16", "terminal", "gtk-theme",
    /// "wallpaper"}` (`""` for none of the last two) and a
    /// newline: what commands read on standard input. Made on demand, as most changes start no
    /// command.
    var json: [UInt8] {
        let object: [String: Any] = [
            "id": id, "name": name, "variant": variant, "serial": Int(serial), "palette": palette,
            "base16": base16, "terminal": terminal, "gtk-theme": gtkTheme ?? "",
            "wallpaper": wallpaper ?? "",
        ]
        return
            ((try? JSONSerialization.data(
                withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
            .map { Array($0) } ?? []) + [UInt8(ascii: "\n")]
    }

    /// The snapshot of `cascade` at `serial`: the template data of `ThemeTemplateData` plus
    /// `livery-serial`; the JSON of the theme's palette, base16 slots and terminal colours.
    init(cascade: Cascade, serial: UInt32) {
        let theme = cascade.theme
        let meta = theme.metadata
        id = meta.id
        name = meta.name
        variant = meta.variant
        gtkTheme = meta.gtkTheme
        wallpaper = meta.wallpaper
        self.serial = serial
        let data = ThemeTemplateData(cascade, extra: ["livery-serial": String(serial)])
        system = data.scheme.system
        variables = data.value
        let slots = data.slots
        palette = theme.palette.mapValues(\.hex)
        base16 = ThemeSnapshot.hexes(slots.named)
        terminal = ThemeSnapshot.hexes(data.terminal.named)
    }

    /// Each name with its colour as `#rrggbb`.
    static func hexes(_ named: [(name: String, color: RGBA)]) -> [String: String] {
        Dictionary(uniqueKeysWithValues: named.map { ($0.name, String($0.color.hex.prefix(7))) })
    }
}
