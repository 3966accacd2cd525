/// The native bundles `livery generate --out DIR` writes for a generated theme: `DIR/ID/` (the
/// light variant) and `DIR/ID-dark/` (the dark one), paired by the light/dark naming rule
/// (`VariantPairs`: `x` and `x-dark`) and by their `@theme` (`dark-variant`, `light-variant`),
/// each a `theme.css` and, for a theme made from a picture, the picture.
///
/// Each `theme.css` inherits the shipped skin of its variant (`default`, `default-dark`) and
/// defines its palette from the scheme: every Material role by its snake_case name, the
/// terminal colours (`color0`…`color15`, `background`, `foreground`, `cursor`), the base16 slots,
/// and the names the shipped skins colour their components with (`accent` `primary`,
/// `window_bg` `background`, `text` `on_surface` …), so every component follows the picture.
public enum GeneratedBundle {
    /// The id of a theme made from a file: its name without the extension, lower-cased, each run
    /// of other characters than ASCII letters and digits one `-`, no `-` at either end, at most
    /// 56 characters (so that `-dark` fits the id's 64).
    ///
    /// A name the id cannot spell, one with characters beyond ASCII (`壁纸.jpg`, `café.jpg`) or
    /// with no letter or digit at all (`___.png`), gets `-` and the name's hash (`nameHash`)
    /// after what is left, or after `generated` when nothing is: two such names are two ids,
    /// and the same name is the same id, so generating from it again replaces its pair as for
    /// any other name (`wallpaper.jpg` → `wallpaper`). The ids of the skins the pair inherits
    /// get `-picture` (`default.jpg` → `default-picture`).
    public static func id(fromFileName name: String) -> String {
        var stem = Substring(name.split(separator: "/").last ?? "")
        if let dot = stem.lastIndex(of: "."), dot != stem.startIndex { stem = stem[..<dot] }
        var out = ""
        var pendingDash = false
        var unspelt = false
        for scalar in stem.unicodeScalars {
            if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                if pendingDash && !out.isEmpty { out += "-" }
                pendingDash = false
                out += String(scalar).lowercased()
            } else {
                pendingDash = true
                unspelt = unspelt || !scalar.isASCII
            }
        }
        let hashed = unspelt || out.isEmpty
        while out.count > (hashed ? 47 : 56) { out.removeLast() }
        while out.hasSuffix("-") { out.removeLast() }
        // The pair inherits these skins: as its own id, one would inherit itself and hide the
        // shipped skin from every theme that inherits it.
        if ["default", "default-dark"].contains(out) { return out + "-picture" }
        guard hashed else { return out }
        return (out.isEmpty ? "generated" : out) + "-" + nameHash(stem)
    }

    /// 8 hex digits of the FNV-1a hash (32-bit) of `stem`'s UTF-8 bytes: the same on every
    /// machine, unlike Swift's `Hasher`, which is seeded per process.
    static func nameHash(_ stem: Substring) -> String {
        var hash: UInt32 = 0x811c_9dc5
        for byte in stem.utf8 { hash = (hash ^ UInt32(byte)) &* 0x0100_0193 }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }

    /// The names of the shipped skins' palette and the role or colour each is given (`shadow`
    /// is a role's name too, defined with the roles).
    static let skinNames: [(String, String)] = [
        ("accent", "@primary"), ("accent_fg", "@on_primary"), ("accent_pressed", "@on_primary_container"),
        ("focus_ring", "@primary"), ("window_bg", "@background"), ("view_bg", "@surface"),
        ("secondary_bg", "@surface_container"), ("bar_bg", "@surface_container_low"),
        ("popover_bg", "@surface_container_high"), ("text", "@on_surface"),
        ("secondary_text", "@on_surface_variant"), ("insensitive_text", "alpha(@on_surface, 0.38)"),
        ("placeholder", "@outline"), ("separator", "@outline_variant"), ("border", "@outline"),
        ("fill", "alpha(@on_surface, 0.12)"), ("selection", "@secondary_container"),
        ("destructive", "@error"), ("success", "@color2"), ("warning", "@color3"),
        ("dim", "alpha(@scrim, 0.4)"),
    ]

    /// The `theme.css` of one variant.
    /// - Parameters:
    ///   - theme: the generated theme.
    ///   - isDark: the dark variant's sheet rather than the light one's.
    ///   - id: the light variant's id (the dark one's is `id-dark`).
    ///   - from: what it was made from, for its description (`wallpaper.jpg`, `#4285f4`).
    ///   - picture: the picture's file name inside the bundle, if there is one.
    ///   - wallpaper: whether the picture is the theme's wallpaper too (`wallpaper: url(…)`).
    /// - Returns: the sheet's text.
    public static func sheet(
        _ theme: GeneratedTheme, isDark: Bool, id: String, from: String, picture: String?,
        wallpaper: Bool = false
    ) -> String {
        let variant = isDark ? theme.dark : theme.light
        let name = id.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(
            separator: " ")
        func quoted(_ s: String) -> String {
            "\""
                + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                .filter { !$0.isNewline } + "\""
        }
        let contrast =
            theme.contrast == theme.contrast.rounded() ? String(Int(theme.contrast)) : String(theme.contrast)
        var lines = [
            "/* Made by livery generate from \(from.replacingOccurrences(of: "*/", with: "* /")): the Material \(theme.scheme.name) scheme",
            " * of \(GeneratedTheme.hex(theme.source)) at contrast \(contrast) (the README, \"Themes from a picture\").",
        ]
        if let picture {
            lines.append(" * Its picture: \(picture.replacingOccurrences(of: "*/", with: "* /")). */")
        } else {
            lines[lines.count - 1] += " */"
        }
        lines += [
            "@theme {",
            "  name: \(quoted(name + (isDark ? " Dark" : "")));",
            "  description: \(quoted("Material \(theme.scheme.name) colours of \(from)"));",
            "  variant: \(isDark ? "dark" : "light");",
            "  inherits: \(isDark ? "\"default-dark\"" : "\"default\"");",
            "  accent-color: @accent;",
            isDark ? "  light-variant: \(quoted(id));" : "  dark-variant: \(quoted(id + "-dark"));",
        ]
        if let picture, wallpaper { lines.append("  wallpaper: url(\(quoted(picture)));") }
        lines += [
            "}",
            "",
            "/* The scheme's roles */",
        ]
        for role in MaterialScheme.roles {
            lines.append("@define-color \(role.snakeCaseName) \(GeneratedTheme.hex(variant.roles[role]!));")
        }
        lines.append("")
        lines.append("/* Terminal colours (the background is the role above) */")
        let terminal = variant.terminal
        for (n, color) in terminal.colors.enumerated() {
            lines.append("@define-color color\(n) \(GeneratedTheme.hex(color));")
        }
        lines.append("@define-color foreground \(GeneratedTheme.hex(terminal.foreground));")
        lines.append("@define-color cursor \(GeneratedTheme.hex(terminal.cursor));")
        lines.append("")
        lines.append("/* base16 slots */")
        for (slot, color) in zip(GeneratedVariant.base16Names, variant.base16) {
            lines.append("@define-color \(slot) \(GeneratedTheme.hex(color));")
        }
        lines.append("")
        lines.append("/* What the shipped skin colours its components with */")
        for (skin, value) in skinNames { lines.append("@define-color \(skin) \(value);") }
        return lines.joined(separator: "\n") + "\n"
    }
}
