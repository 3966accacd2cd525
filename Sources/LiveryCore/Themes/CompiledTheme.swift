/// The layer a declaration belongs to; a higher layer beats a lower one (the README, "The cascade").
public enum Layer: Int, Comparable, Sendable, CustomStringConvertible {
    /// The theme and its `inherits` ancestors.
    case theme = 0
    /// `$XDG_CONFIG_HOME/livery/overrides.css`.
    case user = 1
    /// `@app "id" { … }` blocks, for the asking application only.
    case app = 2
    /// Whether `l` is beaten by `r`: theme < user < app.
    public static func < (l: Layer, r: Layer) -> Bool { l.rawValue < r.rawValue }
    /// `theme`, `user` or `app`, as `livery explain` shows it.
    public var description: String { ["theme", "user", "app"][rawValue] }
}

/// One typed declaration of a compiled rule.
public struct CompiledDeclaration: Sendable {
    /// A property of the schema, e.g. `background-color`.
    public var property: String
    /// The value typed by the property's type, palette references resolved.
    public var value: Value
    /// Where the property name was written.
    public var location: SourceLocation
}

/// A rule with one selector, checked against the schema and with typed values: the unit the
/// cascade works with.
public struct CompiledRule: Sendable {
    /// The one selector; a rule written with several becomes one `CompiledRule` per selector.
    public var selector: Selector
    /// The layer the rule's sheet and `@app` block put it in.
    public var layer: Layer
    /// The application id of the enclosing `@app` block; the rule applies only to its requests.
    public var app: String?
    /// Position in source order across all layers' sheets.
    public var order: Int
    /// How derived the subject type is (`View` 0, `Control` 1, `Button` 2; `*` −1): rule 3's
    /// tie-break.
    public var subjectDepth: Int
    /// The selector's specificity: rule 3's first test.
    public var specificity: Specificity
    /// The declarations that typed correctly, in source order; a later one wins.
    public var declarations: [CompiledDeclaration]
    /// The rule block the declarations were written in, numbered from 0 in source order: the
    /// rules of one selector list share it and the one `declarations` array, so that indexes and
    /// digests store a block once, not once per selector (a list of S selectors over D
    /// declarations is S + D, not S × D).
    public var block: Int
}

/// A theme ready for the cascade: merged palette, typed rules of every layer, extended schema.
public struct CompiledTheme: Sendable {
    /// The `@theme` metadata of the theme, completed by its ancestors.
    public var metadata: ThemeMetadata
    /// `@define-color` names (without `@`) to colours, across ancestors and overrides; a later
    /// definition wins.
    public var palette: [String: RGBA]
    /// Every rule of every layer, in source order (`order` ascending).
    public var rules: [CompiledRule]
    /// The schema extended with the sheets' `@component` types.
    public var schema: Schema
}
