/// A bundle as a format plugin read it: its sheet and where it came from.
public struct ThemeSource: Sendable {
    /// The theme id: lower-case letters, digits and `-`.
    public var id: String
    /// The format plugin that read it: `native`, `base16`.
    public var format: String
    /// The bundle directory or file.
    public var path: String
    /// The bundle translated to a sheet; its diagnostics include the plugin's read errors.
    public var sheet: Stylesheet
    /// The files reading it looked at (`FileStamps`), as the catalog recorded them; none for a
    /// source made otherwise.
    public var files = FileStamps()

    /// A source as a format plugin returns it; the fields are stored as given.
    public init(id: String, format: String, path: String, sheet: Stylesheet) {
        self.id = id
        self.format = format
        self.path = path
        self.sheet = sheet
    }

    /// Whether `id` is a valid theme id: 1–64 lower-case ASCII letters, digits and `-`, not
    /// starting with `-` (which a command line takes for an option: `livery set -x`).
    /// - Parameter id: A candidate id, e.g. a bundle's directory name or a `SetTheme` argument.
    /// - Returns: Whether it may name a theme.
    public static func isValidID(_ id: String) -> Bool {
        !id.isEmpty && id.count <= 64 && id.utf8.first != 45
            && id.utf8.allSatisfy { ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 45 }
    }

    /// What ``isValidID(_:)`` allows, for messages: `lower-case letters, digits and '-', not first`.
    public static let idRule = "lower-case letters, digits and '-', not first"
}

/// What a theme says about itself in `@theme { … }`, with what its ancestors supply.
public struct ThemeMetadata: Sendable, Hashable {
    /// The theme id: lower-case letters, digits and `-`.
    public var id: String
    /// The display name from the theme's own `name`; the id when it gives none.
    public var name: String
    /// The theme's own `description`; empty when it gives none.
    public var description: String
    /// `light` or `dark`: published to the desktop portal as `color-scheme`.
    public var variant: String
    /// The parent theme's id.
    public var inherits: String?
    /// `accent-color`, published to the desktop portal as `accent-color` `(ddd)` sRGB 0–1.
    public var accentColor: RGBA?
    /// `dark-variant` / `light-variant`: the id of the sibling theme of the other variant.
    public var darkVariant: String?
    /// `light-variant`: the id of the light sibling of a dark theme.
    public var lightVariant: String?
    /// `contrast: normal | high` (or 0 | 1): published to the desktop portal; 0 by default.
    public var contrast: UInt32 = 0
    /// `reduced-motion: no-preference | reduce` (or 0 | 1): published to the desktop portal.
    public var reducedMotion: UInt32 = 0
    /// `gtk-theme: "Adwaita-dark"`: the GTK theme that goes with it, for plugins (the `gnome`
    /// plugin sets it); inherited from a parent that names one.
    public var gtkTheme: String?
    /// `abstract: true`: the theme exists only to be inherited; it is not listed and cannot be
    /// made active (the README, "Abstract themes"). The theme's own, never inherited.
    public var abstract = false
    /// `wallpaper: url("wall.jpg")`: the absolute path of the theme's wallpaper, which exporters
    /// set as the desktop's; inherited, `none` for none.
    public var wallpaper: String?
    /// The absolute path of the picture the palette was generated from (`palette-from`), a file
    /// the compile read.
    public var palettePicture: String?
    /// The format plugin that read the theme: `native`, `base16`.
    public var format: String
    /// The theme's bundle directory or file.
    public var path: String

    /// Metadata with `contrast` and `reduced-motion` at 0 (no preference); the rest as given.
    public init(
        id: String, name: String, description: String, variant: String, inherits: String?, accentColor: RGBA?,
        darkVariant: String? = nil, lightVariant: String? = nil, format: String, path: String
    ) {
        self.id = id
        self.name = name
        self.description = description
        self.variant = variant
        self.inherits = inherits
        self.accentColor = accentColor
        self.darkVariant = darkVariant
        self.lightVariant = lightVariant
        self.format = format
        self.path = path
    }
}
