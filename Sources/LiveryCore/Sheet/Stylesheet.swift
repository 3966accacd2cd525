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

/// How two compound selectors relate (CSS Selectors 4 §16).
public enum Combinator: Sendable, Hashable {
    /// Whitespace: the left compound matches any container of the right one.
    case descendant
    /// `>`: the left compound matches the right one's direct container.
    case child
}

/// `Type#name.class:state`, the unit a selector is made of; `type == nil` stands for `*`.
public struct CompoundSelector: Sendable, Hashable {
    /// The component type to match, or nil for `*` or no type at all.
    public var type: String?
    /// The `#name` parts; the component must have every one.
    public var names: [String] = []
    /// The `.class` parts; the component must have every one.
    public var classes: [String] = []
    /// The `:state` parts; the component must be in every one.
    public var states: [String] = []
    /// Where the compound starts.
    public var location: SourceLocation
    /// The text of the line the compound starts on, for carets.
    public var sourceLine: String = ""
}

/// A complex selector: compounds joined by combinators, the last compound is the subject.
public struct Selector: Sendable, Hashable {
    /// The compounds from left to right; never empty.
    public var compounds: [CompoundSelector]
    /// `combinators[i]` joins `compounds[i]` and `compounds[i + 1]`.
    public var combinators: [Combinator]

    /// Specificity as CSS Selectors 4 §17 counts it: (ids, classes and states, types).
    public var specificity: Specificity {
        var s = Specificity(ids: 0, classes: 0, types: 0)
        for c in compounds {
            s.ids += c.names.count
            s.classes += c.classes.count + c.states.count
            if c.type != nil { s.types += 1 }
        }
        return s
    }

    /// The selector written back in canonical form, e.g. `Window > Button.destructive:highlighted`.
    public var text: String {
        var out = ""
        for (i, c) in compounds.enumerated() {
            if i > 0 { out += combinators[i - 1] == .child ? " > " : " " }
            out += c.type ?? "*"
            for n in c.names { out += "#" + n }
            for k in c.classes { out += "." + k }
            for s in c.states { out += ":" + s }
        }
        return out
    }
}

/// CSS specificity (a, b, c), compared lexicographically.
public struct Specificity: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// a: the number of `#name` parts.
    public var ids: Int
    /// b: the number of `.class` and `:state` parts.
    public var classes: Int
    /// c: the number of compounds with a type (`*` does not count).
    public var types: Int
    /// Whether `l` is less specific than `r`, comparing a, then b, then c (CSS Selectors 4 §17).
    public static func < (l: Self, r: Self) -> Bool {
        (l.ids, l.classes, l.types) < (r.ids, r.classes, r.types)
    }
    /// `(a,b,c)`, e.g. `(0,2,1)`.
    public var description: String { "(\(ids),\(classes),\(types))" }
}
