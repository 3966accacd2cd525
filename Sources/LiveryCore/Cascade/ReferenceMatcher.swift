/// The reference matcher: every rule tested against every node of a path, with no index,
/// container states or cache. What the fast path (`SelectorMap`, `StyleWalker`) is checked
/// against by the tests and the fuzz targets, and what `explain` and `resolveWithOrigin` use.
extension Cascade {
    /// The same as `resolve`, computed by testing every rule against every node of the path with
    /// no index, container states or cache: the reference the fast path is checked against.
    /// - Parameters:
    ///   - path: The component; its last node is resolved.
    ///   - properties: Property names; empty means every property the type uses (schema order).
    ///   - app: The asking application's id, selecting its `@app` blocks.
    /// - Returns: (property, value) pairs in the order asked.
    /// - Throws: `Failure.unknownProperty` for a name the schema does not know.
    package func resolveNaive(_ path: ComponentPath, properties: [String] = [], app: String? = nil)
        throws(Failure)
        -> [(property: String, value: Value)]
    {
        let defs = try definitions(path, properties)
        var context = Context(cascade: self, path: path, app: app)
        return defs.map { ($0.name, context.value(of: $0, at: path.nodes.count - 1).0) }
    }

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
        let isChild = { (k: Int) in selector.combinators[k - 1] == .child }
        return matchRightToLeft(last: selector.compounds.count - 1, subject: index, isChild: isChild) {
            ci, k in
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
                    return (
                        d.value, .declaration(d.location, selector: rule.selector.text, layer: rule.layer)
                    )
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
