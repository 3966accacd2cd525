import Foundation

/// The value type of a property (`themes/schema.json`), which says how a declaration's value is read and
/// how it is published over D-Bus.
public enum ValueType: String, Sendable, Codable, CaseIterable {
    /// Published as `s` `#rrggbbaa`.
    case color
    /// Published as `s`, the absolute path of the file, or the empty string for `none`.
    case image
    /// Published as `d`, in pixels.
    case length
    /// Published as `d`.
    case number
    /// Published as `d`, in seconds.
    case duration
    /// Published as `s`, one of the property's keywords.
    case keyword
    /// Published as `s`.
    case string
    /// Published as `(dd)`: width, height in pixels.
    case size
    /// Published as `(dddd)`: top, right, bottom, left in pixels (CSS order).
    case insets
}

/// One property of the schema.
public struct PropertyDefinition: Sendable {
    /// The property name as written in sheets, e.g. `background-color`.
    public var name: String
    /// How values are read from sheets and published over D-Bus.
    public var type: ValueType
    /// Whether a component without a matching declaration takes its container's value (CSS
    /// Cascade 4 §7.1, "inherited properties").
    public var inherits: Bool
    /// The value used when nothing sets the property and it does not inherit.
    public var initial: Value
    /// The allowed keywords, for `keyword` properties.
    public var keywords: [String]
    /// The schema's `description` text, for documentation and tools; may be empty.
    public var summary: String
}

/// One component type: its superclass, its parts and the properties it adds.
public struct TypeDefinition: Sendable {
    /// The component type name, e.g. `Button`.
    public var name: String
    /// The type this one derives from, or nil for a root such as `View`.
    public var superType: String?
    /// Part name to part type: `Button` has `title: Label`, addressed as `Button/Label#title`.
    public var parts: [(name: String, type: String)]
    /// The properties this type adds to those of its supertypes.
    public var ownProperties: [String]
    /// The schema's `description` text; empty for types added by `@component`.
    public var summary: String
}

/// The component schema: types, their parts, states and typed properties, read from
/// `themes/schema.json`.
public struct Schema: Sendable {
    /// Every component type by name, including those added by `extend(with:)`.
    public private(set) var types: [String: TypeDefinition]
    /// Every property by name.
    public private(set) var properties: [String: PropertyDefinition]
    /// The states a `:state` selector may name, e.g. `highlighted`, in schema order.
    public private(set) var states: [String]
    /// Supertype chain for each type, the type itself first.
    private var chains: [String: [String]] = [:]
    /// Full property list of each type, supertypes' first, no duplicates.
    private var typeProperties: [String: [String]] = [:]

    /// An error in the schema file, with what and where.
    public struct LoadError: Error, CustomStringConvertible, Sendable {
        /// `file: problem`, one line.
        public var description: String
    }

    /// Reads and checks a schema file.
    /// - Parameter url: The file, normally `themes/schema.json`.
    /// - Returns: The checked schema.
    /// - Throws: `LoadError` naming the file and the entry at fault.
    public static func load(from url: URL) throws -> Schema {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw LoadError(description: "\(url.path): cannot read schema: \(error.localizedDescription)")
        }
        return try Schema(json: data, file: url.path)
    }

    /// Parses the JSON form of the schema.
    /// - Parameters:
    ///   - json: The file's bytes: an object with `states`, `properties` and `types`.
    ///   - file: The name that prefixes error messages.
    /// - Throws: `LoadError` on malformed JSON, a state listed twice, more than 64 states besides
    ///   `normal`, unknown types, bad initial values or cycles.
    public init(json: Data, file: String = "schema.json") throws {
        func fail(_ m: String) -> LoadError { LoadError(description: "\(file): \(m)") }
        guard let root = try? JSONSerialization.jsonObject(with: json) as? [String: Any] else {
            throw fail("not a JSON object")
        }
        guard let states = root["states"] as? [String], let props = root["properties"] as? [String: Any],
            let types = root["types"] as? [String: Any]
        else { throw fail("needs 'states', 'properties' and 'types'") }
        var listed = Set<String>()
        for s in states where !listed.insert(s).inserted { throw fail("state '\(s)' is listed twice") }
        // The cascade keeps a node's states as bits of one 64-bit word.
        let named = states.filter { $0 != "normal" }.count
        guard named <= 64 else { throw fail("at most 64 states besides 'normal', not \(named)") }
        self.states = states
        self.types = [:]
        self.properties = [:]
        for (name, raw) in props {
            guard let p = raw as? [String: Any], let t = p["type"] as? String,
                let type = ValueType(rawValue: t)
            else {
                throw fail("property '\(name)' needs a 'type' of \(ValueType.allCases.map(\.rawValue))")
            }
            let keywords = p["keywords"] as? [String] ?? []
            guard let initialText = p["initial"] as? String else {
                throw fail("property '\(name)' needs an 'initial' string")
            }
            let def = PropertyDefinition(
                name: name, type: type, inherits: p["inherits"] as? Bool ?? false, initial: .keyword(""),
                keywords: keywords, summary: p["description"] as? String ?? "")
            let sheet = SheetParser().parse("x { v: \(initialText); }", file: "\(file): initial of '\(name)'")
            guard sheet.diagnostics.isEmpty, let decl = sheet.rules.first?.declarations.first else {
                throw fail("property '\(name)': cannot parse initial value '\(initialText)'")
            }
            var typer = ValueTyper(palette: [:])
            guard let v = typer.value(decl.value, for: def, declaration: decl), typer.diagnostics.isEmpty
            else {
                throw fail(
                    "property '\(name)': initial value '\(initialText)' is not a \(type.rawValue): "
                        + typer.diagnostics.map(\.message).joined(separator: "; "))
            }
            var d = def
            d.initial = v
            properties[name] = d
        }
        for (name, raw) in types {
            guard let t = raw as? [String: Any] else { throw fail("type '\(name)' is not an object") }
            let parts = (t["parts"] as? [String: String] ?? [:]).sorted { $0.key < $1.key }.map {
                (name: $0.key, type: $0.value)
            }
            self.types[name] = TypeDefinition(
                name: name, superType: t["super"] as? String, parts: parts,
                ownProperties: t["properties"] as? [String] ?? [], summary: t["description"] as? String ?? "")
        }
        try finish(file: file)
    }

    private mutating func finish(file: String) throws {
        func fail(_ m: String) -> LoadError { LoadError(description: "\(file): \(m)") }
        chains = [:]
        typeProperties = [:]
        for (name, t) in types {
            var chain = [name]
            var cur = t.superType
            while let s = cur {
                guard let st = types[s] else { throw fail("type '\(chain.last!)' has unknown super '\(s)'") }
                guard !chain.contains(s) else { throw fail("type '\(name)' is its own supertype (a cycle)") }
                chain.append(s)
                cur = st.superType
            }
            chains[name] = chain
            for p in t.ownProperties where properties[p] == nil {
                throw fail("type '\(name)' lists unknown property '\(p)'")
            }
            for part in t.parts where types[part.type] == nil {
                throw fail("type '\(name)' has part '\(part.name)' of unknown type '\(part.type)'")
            }
        }
        for (name, chain) in chains {
            var seen = Set<String>()
            var list: [String] = []
            for t in chain.reversed() {
                for p in types[t]!.ownProperties where seen.insert(p).inserted { list.append(p) }
            }
            typeProperties[name] = list
        }
    }

    /// Most types in a chain from a component type to its root (`chain(of:)`): each type keeps
    /// its chain, so a sheet of components each deriving from the last would otherwise take
    /// memory quadratic in its size.
    public static let maximumDepth = 64

    /// Adds the types of `@component` declarations.
    /// - Parameter components: The declarations of a sheet; a faulty one is skipped, not added.
    /// - Returns: diagnostics for unknown supertypes or part types and for redefinitions.
    public mutating func extend(with components: [ComponentDeclaration]) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for c in components {
            // At the token an error is about, when the parser recorded where it is.
            func err(_ m: String, _ place: (location: SourceLocation, sourceLine: String)? = nil) {
                let (at, line) = place ?? (c.location, c.sourceLine)
                diagnostics.append(Diagnostic(.error, m, at: at, sourceLine: line))
            }
            if types[c.name] != nil {
                err("component '\(c.name)' is already defined")
                continue
            }
            var ok = true
            for (i, name) in ([c.superType] + c.parts.map(\.type)).enumerated() where types[name] == nil {
                // "Did you mean" compares with every type: for the first errors only, so that a
                // sheet of misspelt supertypes costs time linear in its size.
                let hint =
                    diagnostics.count < Diagnostic.maximumSuggestionsPerFile
                    ? didYouMean(name, types.keys) : ""
                err("unknown type '\(name)'\(hint)", i < c.typePlaces.count ? c.typePlaces[i] : nil)
                ok = false
            }
            if ok, let chain = chains[c.superType], chain.count >= Schema.maximumDepth {
                err(
                    "'\(c.superType)' is already \(chain.count) types deep; a component's chain of supertypes has at most \(Schema.maximumDepth)",
                    c.typePlaces.first)
                ok = false
            }
            var named: Set<String> = []
            for (i, part) in c.parts.enumerated() where !named.insert(part.name).inserted {
                err(
                    "part '\(part.name)' is named twice in '@component \(c.name)'",
                    i < c.partPlaces.count ? c.partPlaces[i] : nil)
                ok = false
            }
            guard ok else { continue }
            types[c.name] = TypeDefinition(
                name: c.name, superType: c.superType, parts: c.parts, ownProperties: [], summary: "")
            chains[c.name] = [c.name] + chains[c.superType]!
            typeProperties[c.name] = typeProperties[c.superType]!
        }
        return diagnostics
    }

    /// The type and its supertypes, most derived first: `Button` → `[Button, Control, View]`.
    public func chain(of type: String) -> [String] { chains[type] ?? [] }

    /// Whether `type` is `ancestor` or derives from it.
    public func isType(_ type: String, kindOf ancestor: String) -> Bool {
        chains[type]?.contains(ancestor) ?? false
    }

    /// How derived a type is: 0 for a root such as `View`.
    public func depth(of type: String) -> Int { max(0, (chains[type]?.count ?? 1) - 1) }

    /// Every property the type uses, supertypes' first: what `Resolve` returns for an empty list.
    public func properties(of type: String) -> [String] { typeProperties[type] ?? [] }
}
