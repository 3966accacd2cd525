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
    /// The tinted-theming variables plus every palette colour by name.
    var variables: MustacheValue
    /// Palette colour names to `#rrggbbaa`.
    var palette: [String: String]
    /// Base16 slot names to `#rrggbb`.
    var base16: [String: String]

    /// `{"id", "name", "variant", "serial", "palette", "base16"}` and a newline: what commands
    /// read on standard input. Made on demand, as most changes start no command.
    var json: [UInt8] {
        let object: [String: Any] = [
            "id": id, "name": name, "variant": variant, "serial": Int(serial), "palette": palette,
            "base16": base16,
        ]
        return
            ((try? JSONSerialization.data(
                withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
            .map { Array($0) } ?? []) + [UInt8(ascii: "\n")]
    }

    /// The snapshot of `cascade` at `serial`: a base16 or base24 scheme's own variables (read
    /// from its file, so base24's `base10`…`base17` and its author are there); for every other
    /// theme, the same names from its base16 slots (`Cascade.base16Slots`), its name, its id as
    /// the slug and its variant. Palette colours are added by name as `#rrggbbaa` where no
    /// tinted variable has that name.
    init(cascade: Cascade, serial: UInt32) {
        let theme = cascade.theme
        let meta = theme.metadata
        id = meta.id
        name = meta.name
        variant = meta.variant
        self.serial = serial
        let slots = cascade.base16Slots
        var scheme: TintedScheme?
        if meta.format == "base16", case .success(let s) = TintedScheme.read(path: meta.path) {
            scheme = s
        }
        if scheme == nil {
            var palette: [String: TintedScheme.RGB8] = [:]
            for (slot, c) in slots.named {
                palette[slot] = TintedScheme.RGB8(c)
            }
            scheme = TintedScheme(
                system: "base16", name: meta.name, slug: meta.id, author: "", description: meta.description,
                variant: meta.variant == "light" ? "light" : "dark", palette: palette)
        }
        var data: [String: MustacheValue] = [:]
        TemplateVariables.each(scheme!) { data[$0] = .string($1) }
        for (key, c) in theme.palette where data[key] == nil { data[key] = .string(c.hex) }
        data["livery-theme"] = .string(meta.id)
        data["livery-serial"] = .string(String(serial))
        variables = .object(data)
        palette = theme.palette.mapValues(\.hex)
        base16 = Dictionary(
            uniqueKeysWithValues: slots.named.map { ($0.name, String($0.color.hex.prefix(7))) })
    }
}
