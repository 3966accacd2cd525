import Foundation
import Mustache
import Synchronization

/// What a template sees of one theme (the README, "Template variables"), the same for the
/// daemon's exports and `livery export`:
///
/// - the tinted-theming builder specification's variables (``TemplateVariables``) of the theme's
///   scheme: a base16 or base24 scheme's own, read from its file (its author, base24's
///   `base10`…`base17`); for every other theme, its ``Base16Slots``, its name, its id as the
///   slug and its variant (`light`, else `dark`);
/// - the theme's terminal colours (``TerminalPalette``): `terminal-color0-hex` …
///   `terminal-color15-hex`, `terminal-background-hex`, `terminal-foreground-hex`,
///   `terminal-cursor-hex`, `terminal-cursor-text-hex`, `terminal-selection-background-hex`,
///   `terminal-selection-foreground-hex`, each lower-case `rrggbb` as the tinted `-hex`
///   variables;
/// - every palette colour by name, `#rrggbbaa`, where no other variable has that name;
/// - `livery-theme` (the id); `livery-wallpaper`, the absolute path of the theme's wallpaper
///   (`@theme { wallpaper: url(…) }`), when it names one;
/// - any component's resolved values by dotted name: `{{Window/NavigationBar.tint-color}}`.
///   A name that starts with an upper-case letter and parses as a component path (against the
///   theme's schema) is that component; inside it, a property of the schema is its resolved
///   value (``Value/description``, strings unquoted), and any other name is a class of the
///   last node, since Mustache splits names at dots: `{{Window/Button.destructive.tint-color}}`
///   is `tint-color` of `Window/Button.destructive`. Paths are resolved once per data.
public struct ThemeTemplateData: Sendable {
    /// The scheme the tinted-theming variables are made from.
    public var scheme: TintedScheme
    /// The theme's base16 slots (`Cascade.base16Slots`), for the plugins' JSON too.
    public var slots: Base16Slots
    /// The theme's terminal colours, for the plugins' JSON too.
    public var terminal: TerminalPalette
    /// The data a template is rendered with.
    public var value: MustacheValue

    /// The data of `cascade`'s theme.
    /// - Parameters:
    ///   - cascade: The compiled theme; its components are resolved as templates name them.
    ///   - extra: More variables (a daemon's `livery-serial`), which win over the theme's.
    public init(_ cascade: Cascade, extra: [String: String] = [:]) {
        let theme = cascade.theme
        let meta = theme.metadata
        slots = cascade.base16Slots
        terminal = TerminalPalette(cascade, slots: slots)
        var scheme: TintedScheme?
        if meta.format == "base16" || meta.format == "base24",
            case .success(let s) = TintedScheme.read(path: meta.path)
        {
            scheme = s
        }
        if scheme == nil {
            var palette: [String: TintedScheme.RGB8] = [:]
            for (slot, c) in slots.named { palette[slot] = TintedScheme.RGB8(c) }
            scheme = TintedScheme(
                system: "base16", name: meta.name, slug: meta.id, author: "", description: meta.description,
                variant: meta.variant == "light" ? "light" : "dark", palette: palette)
        }
        self.scheme = scheme!
        var data: [String: MustacheValue] = [:]
        let terminalCount = TerminalPalette.names.count
        data.reserveCapacity(
            TemplateVariables.count(self.scheme) + terminalCount + theme.palette.count + extra.count + 2)
        TemplateVariables.each(self.scheme) { data[$0] = .string($1) }
        for (name, c) in terminal.named {
            data["terminal-" + name + "-hex"] = .string(String(c.hex.dropFirst().prefix(6)))
        }
        for (key, c) in theme.palette where data[key] == nil { data[key] = .string(c.hex) }
        data["livery-theme"] = .string(meta.id)
        if let wallpaper = meta.wallpaper { data["livery-wallpaper"] = .string(wallpaper) }
        for (key, v) in extra { data[key] = .string(v) }
        let components = ComponentLookup(cascade)
        let fixed = data
        value = .lookup(MustacheLookup { name in fixed[name] ?? components.component(name) })
    }
}

/// Resolves components for templates, each path once.
final class ComponentLookup: Sendable {
    let cascade: Cascade
    private let resolved = Mutex<[String: MustacheValue?]>([:])

    init(_ cascade: Cascade) { self.cascade = cascade }

    /// The longest path looked up, in UTF-8 bytes: a dotted name of a million classes costs a
    /// parse of at most this much per part, and the lookup ends at the first part past it.
    static let maximumPathLength = 1024

    /// The component `path` as template data, or nil when `path` is not one of the theme's.
    func component(_ path: String) -> MustacheValue? {
        guard path.utf8.count <= ComponentLookup.maximumPathLength, let first = path.unicodeScalars.first,
            CharacterSet.uppercaseLetters.contains(first)
        else {
            return nil
        }
        if let known = resolved.withLock({ $0[path] }) { return known }
        var found: MustacheValue?
        if let parsed = try? ComponentPath(path, schema: cascade.schema),
            let values = try? cascade.resolve(parsed)
        {
            var properties: [String: MustacheValue] = [:]
            for (name, value) in values {
                if case .string(let s) = value {
                    properties[name] = .string(s)  // cleaned where it was typed (ValueTyper)
                } else {
                    properties[name] = .string(TemplateText.clean(value.description))
                }
            }
            let known = properties
            // On the context stack (a section over the component) only its properties are its
            // names, so that the outer ones stay visible; after a dot, another name is a class.
            found = .lookup(
                MustacheLookup(
                    { name in known[name] },
                    member: { [weak self] name in known[name] ?? self?.component(path + "." + name) }))
        }
        resolved.withLock { $0[path] = found }
        return found
    }
}
