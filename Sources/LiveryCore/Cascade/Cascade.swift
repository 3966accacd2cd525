import Foundation

/// Resolves which value wins for each property of a component (the README, "The cascade"):
///
/// 1. Only declarations whose selector matches the node itself compete, and any of them beats a
///    value inherited from a container.
/// 2. A higher layer wins: theme (with its ancestors) < user overrides < `@app` blocks.
/// 3. Then higher specificity (CSS Selectors 4 §17), then the more derived subject type.
/// 4. Then source order: the later declaration wins.
/// 5. With no declaration, an inheritable property takes the container's value, any other the
///    schema's initial value.
public struct Cascade: Sendable {
    /// The compiled theme whose rules compete, overrides and `@app` blocks included.
    public let theme: CompiledTheme
    var schema: Schema { theme.schema }
    /// The rules indexed for matching; built once per compiled theme.
    let map: SelectorMap
    /// Styles of resolved paths: one cache per compiled theme (a theme generation), so a switch
    /// or reload that makes a new `Cascade` starts afresh (the daemon keeps a few for switching
    /// back to a theme compiled to the same rules).
    let cache: StyleCache

    /// Identifies this compiled theme (a theme generation): caches keyed by it (compared with
    /// `===`, holding it so that its identity cannot be reused) are invalidated by a switch or
    /// reload that makes a new `Cascade`, and are valid again when a kept one is made active.
    public var generation: AnyObject & Sendable { cache }

    /// Indexes the theme's rules for matching, with an empty cache.
    /// - Parameter theme: The compiled theme; each call makes a new generation.
    public init(theme: CompiledTheme) {
        self.theme = theme
        self.map = SelectorMap(theme: theme)
        self.cache = StyleCache()
    }

    /// Forgets the styles resolved so far (they are resolved again when asked for), giving their
    /// memory back: for when the clients that asked for many paths have gone.
    public func forgetResolvedStyles() { cache.empty() }

    /// Why a resolve failed.
    public enum Failure: Error, Sendable, CustomStringConvertible {
        /// The schema has no property of that name; `suggestion` is the nearest one, if any.
        case unknownProperty(String, suggestion: String?)
        /// The path has a component type the theme's cascade does not know (a path checked
        /// against another schema).
        case unknownType(String)
        /// `unknown property 'x' (did you mean 'y'?)`, one line.
        public var description: String {
            switch self {
            case .unknownProperty(let p, let s):
                "unknown property '\(p)'" + (s.map { " (did you mean '\($0)'?)" } ?? "")
            case .unknownType(let t): "unknown component type '\(t)'"
            }
        }
    }

    /// Where a resolved value came from.
    public enum Origin: Sendable, Equatable {
        /// A declaration that matched the node itself.
        case declaration(SourceLocation, selector: String, layer: Layer)
        /// Inherited from the container at that path.
        case inherited(from: String)
        /// The schema's initial value.
        case initial
    }

    /// Resolves properties of the last node of `path`.
    /// - Parameters:
    ///   - properties: property names; empty means every property the type uses (schema order).
    ///   - app: the asking application's id, selecting its `@app` blocks.
    /// - Returns: (property, value) pairs in the order asked.
    /// - Throws: `Failure.unknownProperty` for a name the schema does not know,
    ///   `Failure.unknownType` for a type the cascade does not know.
    public func resolve(_ path: ComponentPath, properties: [String] = [], app: String? = nil) throws(Failure)
        -> [(property: String, value: Value)]
    {
        let defs = try definitions(path, properties)
        let style = try computedStyle(path, app: app)
        return defs.map { ($0.name, style.value(at: map.propertyIndex[$0.name]!)) }
    }

    /// The definitions of the properties asked for; empty means every property of the type.
    func definitions(_ path: ComponentPath, _ properties: [String]) throws(Failure) -> [PropertyDefinition] {
        let names = properties.isEmpty ? schema.properties(of: path.nodes.last!.type) : properties
        var defs: [PropertyDefinition] = []
        for n in names {
            guard let d = schema.properties[n] else {
                throw .unknownProperty(n, suggestion: suggestion(for: n, among: schema.properties.keys))
            }
            defs.append(d)
        }
        return defs
    }

    /// Every property of the path's last node, from the cache when this theme generation has
    /// resolved the path (or a prefix of it) before.
    /// - Parameters:
    ///   - path: The component; its last node is resolved.
    ///   - app: The asking application's id, selecting its `@app` blocks.
    /// - Returns: One value per property of the theme's schema, indexed as the selector map numbers them.
    /// - Throws: `Failure.unknownType` when a node's type is not the theme's (a path parsed
    ///   against another schema); never for a path parsed against the theme's.
    public func computedStyle(_ path: ComponentPath, app: String?) throws(Failure) -> ComputedStyle {
        let suffix = "\u{0}" + (app ?? "")
        let full = path.description + suffix
        if let hit = cache.entry(full) { return hit.style }
        // The longest cached prefix, found from the root: each prefix is keyed by its container's
        // entry and its own node, so that keys stay one segment long and a path of n segments
        // costs n lookups, not the n² bytes of every prefix written out.
        var walker = StyleWalker(self, app: app)
        var parent = 0
        var start = 0
        var seed: StyleCache.CachedStyle?
        while start < path.nodes.count - 1,
            let hit = cache.entry(
                StyleCache.prefixKey(parent: parent, node: path.nodes[start], suffix: suffix))
        {
            parent = hit.id
            start += 1
            seed = hit
        }
        if let seed { walker.seed(path.nodes[..<start], style: seed.style, state: seed.state) }
        for k in start..<path.nodes.count {
            guard let style = walker.push(path.nodes[k]) else { throw .unknownType(path.nodes[k].type) }
            let entry = StyleCache.CachedStyle(style: style, state: walker.childState())
            parent = cache.store(
                StyleCache.prefixKey(parent: parent, node: path.nodes[k], suffix: suffix), entry)
            if k == path.nodes.count - 1 { cache.store(full, entry) }
        }
        return walker.top!
    }

    /// Resolves one property and says where its value came from.
    /// - Parameters:
    ///   - path: The component; its last node is resolved.
    ///   - property: A property name of the schema.
    ///   - app: The asking application's id, selecting its `@app` blocks.
    /// - Returns: The value and its origin: a declaration, a container's value or the initial value.
    /// - Throws: `Failure.unknownProperty` for a name the schema does not know.
    public func resolveWithOrigin(_ path: ComponentPath, property: String, app: String? = nil) throws(Failure)
        -> (value: Value, origin: Origin)
    {
        guard let d = schema.properties[property] else {
            throw .unknownProperty(
                property, suggestion: suggestion(for: property, among: schema.properties.keys))
        }
        var context = Context(cascade: self, path: path, app: app)
        return context.value(of: d, at: path.nodes.count - 1)
    }

    /// The rules whose selector matches node `index` of `path`, in cascade order: the winner of
    /// any property is the last of them that declares it.
    /// - Parameters:
    ///   - path: The component path.
    ///   - index: The node to match, 0 for the outermost.
    ///   - app: The asking application's id; other applications' `@app` rules never match.
    /// - Returns: The matching rules, sorted by `precedes`.
    public func matchingRules(_ path: ComponentPath, at index: Int, app: String?) -> [CompiledRule] {
        theme.rules
            .filter {
                ($0.app == nil || $0.app == app) && Cascade.matches($0.selector, path.nodes, index, schema)
            }
            .sorted(by: Cascade.precedes)
    }

    /// Cascade order (`CascadeOrder`): layer, specificity, subject depth, source order.
    /// - Returns: Whether `a` comes before, so loses to, `b`.
    public static func precedes(_ a: CompiledRule, _ b: CompiledRule) -> Bool { CascadeOrder.precedes(a, b) }
}
