/// The syntax tree of one sheet (a theme's `theme.css` with its imports, or the user overrides).
///
/// Parsing checks syntax only; names, types and palette references are checked when a theme is
/// compiled against the schema (`ThemeCompiler`), so that `livery check` reports both in one pass.
public struct Stylesheet: Sendable {
    /// The file the sheet was read from, as shown in diagnostics.
    public var file: String
    /// Declarations of the `@theme { … }` block, in order.
    public var metadata: [Declaration] = []
    /// `@define-color` entries, in order.
    public var palette: [PaletteDefinition] = []
    /// Style rules, in source order, imports spliced in where they stand.
    public var rules: [Rule] = []
    /// `@component` declarations that extend the schema.
    public var components: [ComponentDeclaration] = []
    /// Syntax errors; a sheet with any error never activates.
    public var diagnostics: [Diagnostic] = []
    /// Per file, syntax errors found past `Diagnostic.maximumPerFile` and not kept.
    var omittedDiagnostics: [String: Int] = [:]

    /// An empty sheet, to be filled by the parser.
    /// - Parameter file: The file name shown in diagnostics.
    public init(file: String) { self.file = file }

    /// The value of a metadata key, when it is a single string or identifier.
    /// - Parameter key: A key of the `@theme` block, e.g. `name`; the last declaration wins.
    /// - Returns: The string or identifier, or nil when the key is absent or has another value.
    public func metadataString(_ key: String) -> String? {
        guard let d = metadata.last(where: { $0.property == key }), d.value.count == 1 else { return nil }
        switch d.value[0].kind {
        case .string(let s), .ident(let s): return s
        default: return nil
        }
    }
}

/// `property: value` with where it was written.
public struct Declaration: Sendable {
    /// The property name as written, not yet checked against the schema.
    public var property: String
    /// The component values after the colon, up to `;` or `}`; never empty.
    public var value: [ValueNode]
    /// Where the property name starts.
    public var location: SourceLocation
    /// The text of that line for carets: tabs as spaces, empty when too long to show.
    public var sourceLine: String
    /// The directory that `url()` values resolve against and must stay inside: the bundle root.
    public var bundleRoot: String?
}

/// `@define-color name value;`
public struct PaletteDefinition: Sendable {
    /// The colour name, without the `@` that references it.
    public var name: String
    /// The colour expression after the name; never empty.
    public var value: [ValueNode]
    /// Where the colour name starts.
    public var location: SourceLocation
    /// The text of that line for carets: tabs as spaces, empty when too long to show.
    public var sourceLine: String
}

/// `Selector, Selector { declarations }`, optionally inside an `@app "id" { … }` block.
public struct Rule: Sendable {
    /// The comma-separated selectors; the declarations apply to each of them.
    public var selectors: [Selector]
    /// The declarations of the block, in source order.
    public var declarations: [Declaration]
    /// The application id of the enclosing `@app` block, if any.
    public var app: String?
    /// Where the first selector starts.
    public var location: SourceLocation
}

/// `@component Name : Super { part name: Type; }`.
public struct ComponentDeclaration: Sendable {
    /// The new component type's name.
    public var name: String
    /// The type it inherits properties and parts from.
    public var superType: String
    /// The `part name: Type;` entries, in order; empty for `@component Name : Super;`.
    public var parts: [(name: String, type: String)]
    /// Where the component name starts.
    public var location: SourceLocation
    /// The text of that line for carets: tabs as spaces, empty when too long to show.
    public var sourceLine: String
    /// Where the supertype and each part's type are written, in the order of
    /// `[superType] + parts' types`, with their lines (for errors about them).
    public var typePlaces: [(location: SourceLocation, sourceLine: String)] = []
    /// Where each part's name is written, with its line.
    public var partPlaces: [(location: SourceLocation, sourceLine: String)] = []
}

/// One component value of a declaration, before it is typed by the schema.
public struct ValueNode: Sendable {
    /// What the value is, as the lexer saw it.
    public indirect enum Kind: Sendable {
        /// A number and its unit as written (`px`, `s`, `%`), or `""` when unitless.
        case number(Double, unit: String)
        /// A quoted string, escapes resolved.
        case string(String)
        /// A bare identifier, e.g. a keyword such as `none`.
        case ident(String)
        /// `#…` in a value: a hex colour.
        case hash(String)
        /// `@name`: a palette reference.
        case reference(String)
        /// `name(args)`: arguments split at commas, each a space-separated list.
        case function(String, [[ValueNode]])
        /// `/` as in `rgb(0 0 0 / 0.5)`.
        case slash
    }
    /// The value's token kind and content.
    public var kind: Kind
    /// Where the value starts.
    public var location: SourceLocation
}

extension ValueNode {
    /// Calls `body` with each palette name (`@name`) `nodes` refer to, in order, inside function
    /// arguments too.
    static func forEachReference(in nodes: [ValueNode], _ body: (String) -> Void) {
        for n in nodes {
            switch n.kind {
            case .reference(let name): body(name)
            case .function(_, let arguments): for a in arguments { forEachReference(in: a, body) }
            default: break
            }
        }
    }
}
