import Foundation

/// Resolves which value wins for each property of a component (DESIGN §4):
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
    /// or reload, which makes a new `Cascade`, invalidates it.
    let cache: StyleCache

    /// Identifies this compiled theme (a theme generation): caches keyed by it (compared with
    /// `===`, holding it so that its identity cannot be reused) are invalidated by a switch or
    /// reload, which make a new `Cascade`.
    public var generation: AnyObject & Sendable { cache }

    /// Indexes the theme's rules for matching, with an empty cache.
    /// - Parameter theme: The compiled theme; each call makes a new generation.
    public init(theme: CompiledTheme) {
        self.theme = theme
        self.map = SelectorMap(theme: theme)
        self.cache = StyleCache()
    }

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

    /// The same as `resolve`, computed by testing every rule against every node of the path with
    /// no index, container states or cache: the reference the fast path is checked against.
    /// - Parameters:
    ///   - path: The component; its last node is resolved.
    ///   - properties: Property names; empty means every property the type uses (schema order).
    ///   - app: The asking application's id, selecting its `@app` blocks.
    /// - Returns: (property, value) pairs in the order asked.
    /// - Throws: `Failure.unknownProperty` for a name the schema does not know.
    public func resolveNaive(_ path: ComponentPath, properties: [String] = [], app: String? = nil)
        throws(Failure)
        -> [(property: String, value: Value)]
    {
        let defs = try definitions(path, properties)
        var context = Context(cascade: self, path: path, app: app)
        return defs.map { ($0.name, context.value(of: $0, at: path.nodes.count - 1).0) }
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
        var seed: StyleCache.Entry?
        while start < path.nodes.count - 1,
            let hit = cache.entry(StyleCache.prefixKey(parent: parent, node: path.nodes[start], suffix: suffix))
        {
            parent = hit.id
            start += 1
            seed = hit
        }
        if let seed { walker.seed(path.nodes[..<start], style: seed.style, state: seed.state) }
        for k in start..<path.nodes.count {
            guard let style = walker.push(path.nodes[k]) else { throw .unknownType(path.nodes[k].type) }
            let entry = StyleCache.Entry(style: style, state: walker.childState())
            parent = cache.store(StyleCache.prefixKey(parent: parent, node: path.nodes[k], suffix: suffix), entry)
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

    /// Whether `selector` matches node `index` of `nodes` (CSS Selectors 4 §16: matched right to
    /// left, a descendant combinator trying every container outwards).
    /// - Parameters:
    ///   - selector: The complex selector; its last compound must match node `index`.
    ///   - nodes: The path's nodes, outermost first.
    ///   - index: The subject node.
    ///   - schema: The schema, so that a type selector also matches subtypes.
    /// - Returns: Whether the selector matches.
    public static func matches(_ selector: Selector, _ nodes: [PathNode], _ index: Int, _ schema: Schema)
        -> Bool
    {
        matchRightToLeft(
            last: selector.compounds.count - 1, subject: index,
            isChild: { selector.combinators[$0 - 1] == .child }
        ) { ci, k in
            compoundMatches(selector.compounds[ci], nodes[k], schema)
        }
    }

    /// Walks a complex selector right to left from compound `last` at node `subject`: a child
    /// combinator needs the directly enclosing node, a descendant combinator tries each container
    /// outwards (CSS Selectors 4 §16). `isChild(ci)` says whether compounds `ci − 1` and `ci` are
    /// joined by `>`; `compound(ci, k)` whether compound `ci` matches node `k`.
    ///
    /// The reference matcher's search (`explain`, `check`, `resolveNaive`). Each (compound, node)
    /// pair is tried at most once: a pair that failed is remembered, so that descendant
    /// combinators cannot make the search exponential (`* * * … Button` against a deep path),
    /// and `compound` is called at most (`last` + 1) × (`subject` + 1) times.
    static func matchRightToLeft(
        last: Int, subject: Int, isChild: (Int) -> Bool, _ compound: (Int, Int) -> Bool
    ) -> Bool {
        // The subject first: most rules fail there, before anything is allocated.
        guard compound(last, subject) else { return false }
        guard last > 0 else { return true }
        var failed = [Bool](repeating: false, count: (last + 1) * (subject + 1))
        // Whether compound `ci` and those left of it match with `ci` at node `k`.
        func match(_ ci: Int, _ k: Int) -> Bool {
            if failed[ci * (subject + 1) + k] { return false }
            let ok = compound(ci, k) && (ci == 0 || left(of: ci, at: k))
            if !ok { failed[ci * (subject + 1) + k] = true }
            return ok
        }
        // Whether the compounds left of `ci` match the containers of node `k`.
        func left(of ci: Int, at k: Int) -> Bool {
            if isChild(ci) { return k > 0 && match(ci - 1, k - 1) }
            var j = k - 1
            while j >= 0 && !match(ci - 1, j) { j -= 1 }
            return j >= 0
        }
        return left(of: last, at: subject)
    }

    /// A type selector matches its subtypes; `:normal` matches a node in no other state.
    static func compoundMatches(_ c: CompoundSelector, _ node: PathNode, _ schema: Schema) -> Bool {
        if let t = c.type, t != node.type, !schema.isType(node.type, kindOf: t) { return false }
        for n in c.names where n != node.name { return false }
        for k in c.classes where !node.classes.contains(k) { return false }
        for s in c.states where !node.isIn(state: s) { return false }
        return true
    }

    /// Per-call memo of matched rules and resolved values along one path.
    struct Context {
        let cascade: Cascade
        let path: ComponentPath
        let app: String?
        var matched: [Int: [CompiledRule]] = [:]
        var resolved: [Int: [String: (Value, Origin)]] = [:]

        init(cascade: Cascade, path: ComponentPath, app: String?) {
            self.cascade = cascade
            self.path = path
            self.app = app
        }

        /// The winning declaration of `property` at node `index`, if one matches.
        mutating func declared(_ property: PropertyDefinition, at index: Int) -> (Value, Origin)? {
            let rules: [CompiledRule]
            if let m = matched[index] {
                rules = m
            } else {
                rules = cascade.matchingRules(path, at: index, app: app)
                matched[index] = rules
            }
            for rule in rules.reversed() {
                for d in rule.declarations.reversed() where d.property == property.name {
                    return (d.value, .declaration(d.location, selector: rule.selector.text, layer: rule.layer))
                }
            }
            return nil
        }

        /// Walks outwards from `index` to the first node that declares the property (or to one
        /// whose value is known, or to where it stops inheriting), then fills in the nodes
        /// between with the inherited value: a loop, so that a path of any length costs no
        /// recursion.
        mutating func value(of property: PropertyDefinition, at index: Int) -> (Value, Origin) {
            var i = index
            var inheriting: [Int] = []
            var found: (Value, Origin)
            while true {
                if let v = resolved[i]?[property.name] {
                    found = v
                    break
                }
                if let d = declared(property, at: i) {
                    found = d
                } else if property.inherits && i > 0 {
                    inheriting.append(i)
                    i -= 1
                    continue
                } else {
                    found = (property.initial, .initial)
                }
                resolved[i, default: [:]][property.name] = found
                break
            }
            for j in inheriting.reversed() {
                let from = ComponentPath(nodes: Array(path.nodes[...(j - 1)])).description
                found = (found.0, .inherited(from: from))
                resolved[j, default: [:]][property.name] = found
            }
            return found
        }
    }
}

/// Resolved styles by path and application for one theme generation, bounded in size.
final class StyleCache: @unchecked Sendable {
    // Safe to share: `entries` is only touched with `lock` held.
    struct Entry {
        var style: ComputedStyle
        /// The container state for the node's children (`StyleWalker.childState`).
        var state: ContiguousArray<UInt64>
        /// Set by `store`: unique in this cache's life (never reused after it starts over), so
        /// that a child's key (`prefixKey`) can name its container by it.
        var id = 0
    }

    /// The key of a path prefix's last node: its container's entry id (0 for a root), the node,
    /// and the suffix that names the application. `\u{1}` first: no path's text begins with it.
    static func prefixKey(parent: Int, node: PathNode, suffix: String) -> String {
        "\u{1}\(parent)/\(node.description)\(suffix)"
    }
    /// Entries kept at most, and the bytes they may take (keys, slots and container states,
    /// which grow with the theme's rules: 39 KB each for 10,000 rules of 32 compounds); past
    /// either the cache starts over (paths are few in practice).
    static let capacity = 8192
    static let byteCapacity = 32 << 20
    private let lock = NSLock()
    private var entries: [String: Entry] = [:]
    /// The bytes `entries` take, as `cost` counts them.
    private var bytes = 0
    private var nextID = 0

    func entry(_ key: String) -> Entry? { lock.withLock { entries[key] } }

    /// The bytes the entries take (`cost`), and how many there are.
    var size: (bytes: Int, entries: Int) { lock.withLock { (bytes, entries.count) } }

    /// Keeps `entry` under `key` (replacing one), unless it alone costs more than the cache may
    /// hold.
    /// - Returns: the id given to the entry.
    @discardableResult
    func store(_ key: String, _ entry: Entry) -> Int {
        var entry = entry
        let cost = StyleCache.cost(key, entry)
        return lock.withLock {
            nextID += 1
            entry.id = nextID
            guard cost <= StyleCache.byteCapacity else { return entry.id }
            if let old = entries.removeValue(forKey: key) { bytes -= StyleCache.cost(key, old) }
            if entries.count >= StyleCache.capacity || bytes + cost > StyleCache.byteCapacity {
                entries.removeAll(keepingCapacity: true)
                bytes = 0
            }
            entries[key] = entry
            bytes += cost
            return entry.id
        }
    }

    /// An entry's bytes: its key, slots and container state, and a little for the dictionary.
    static func cost(_ key: String, _ entry: Entry) -> Int {
        key.utf8.count + entry.style.slots.count * 4 + entry.state.count * 8 + 64
    }
}

/// Why a value won: every declaration that matched the node, in cascade order, and where the
/// value came from when none did (`livery explain`, DESIGN §4).
public struct Explanation: Sendable {
    /// One declaration that matched the node.
    public struct Candidate: Sendable, Equatable {
        /// Where the declaration's property name was written.
        public var location: SourceLocation
        /// The rule's selector in canonical form.
        public var selector: String
        /// The layer the rule belongs to.
        public var layer: Layer
        /// The application id of the rule's `@app` block, if any.
        public var app: String?
        /// The selector's specificity.
        public var specificity: Specificity
        /// The subject type's depth in the type hierarchy (−1 for `*`).
        public var subjectDepth: Int
        /// The value the declaration sets.
        public var value: Value
        /// Whether this declaration gives the property its value; true for the last one only.
        public var won: Bool
        /// Why it lost to the winner (empty for the winner): the first cascade step that decided.
        public var reason: String
    }

    /// The component path as text, e.g. `Window/Button:highlighted`.
    public var path: String
    /// The property explained.
    public var property: String
    /// Lowest precedence first; the winner, if any, is last. At most ``maximumCandidates``:
    /// the ones of highest precedence.
    public var candidates: [Candidate]
    /// How many candidates of lower precedence than the first listed were left out.
    public var omittedCandidates = 0
    /// The most candidates an explanation lists (the winner and those nearest to winning): a
    /// selector list of S selectors over a block declaring the property D times makes S × D
    /// candidates, which a theme within the size limits can make billions of.
    public static let maximumCandidates = 1000
    /// The resolved value.
    public var value: Value
    /// Where the value came from: the winning declaration, a container or the initial value.
    public var origin: Cascade.Origin
}

extension Cascade {
    /// Explains how `property` of the last node of `path` was resolved.
    /// - Parameters:
    ///   - path: The component; its last node is explained.
    ///   - property: A property name of the schema.
    ///   - app: The asking application's id, selecting its `@app` blocks.
    /// - Returns: The matching declarations, why each lost, and the value with its origin.
    /// - Throws: `Failure.unknownProperty`.
    public func explain(_ path: ComponentPath, property: String, app: String? = nil) throws(Failure)
        -> Explanation
    {
        let (value, origin) = try resolveWithOrigin(path, property: property, app: app)
        let rules = matchingRules(path, at: path.nodes.count - 1, app: app)
        // The property's declarations of each block, found once per block: a selector list's
        // rules share their block's declarations (`CompiledRule.block`).
        var declarationsOfBlock: [Int: [CompiledDeclaration]] = [:]
        func declarations(of rule: CompiledRule) -> [CompiledDeclaration] {
            if let known = declarationsOfBlock[rule.block] { return known }
            let found = rule.declarations.filter { $0.property == property }
            declarationsOfBlock[rule.block] = found
            return found
        }
        // From the winner back, until the list is full; the rest are counted.
        var candidates: [Explanation.Candidate] = []
        var omitted = 0
        for rule in rules.reversed() {
            let ds = declarations(of: rule)
            let room = Explanation.maximumCandidates - candidates.count
            omitted += max(0, ds.count - room)
            for d in ds.suffix(max(0, room)).reversed() {
                candidates.append(
                    Explanation.Candidate(
                        location: d.location, selector: rule.selector.text, layer: rule.layer, app: rule.app,
                        specificity: rule.specificity, subjectDepth: rule.subjectDepth, value: d.value,
                        won: false,
                        reason: ""))
            }
        }
        candidates.reverse()
        if let winner = candidates.indices.last {
            candidates[winner].won = true
            let w = candidates[winner]
            for i in candidates.indices.dropLast() {
                let c = candidates[i]
                if c.layer != w.layer {
                    candidates[i].reason = "lower layer (\(c.layer) < \(w.layer))"
                } else if c.specificity != w.specificity {
                    candidates[i].reason = "lower specificity (\(c.specificity) < \(w.specificity))"
                } else if c.subjectDepth != w.subjectDepth {
                    candidates[i].reason = "less derived subject type"
                } else {
                    candidates[i].reason = "earlier in source order"
                }
            }
        }
        return Explanation(
            path: path.description, property: property, candidates: candidates, omittedCandidates: omitted,
            value: value, origin: origin)
    }
}
