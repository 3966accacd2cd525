/// The compiled form of a theme's rules for fast matching: rules ranked by cascade precedence,
/// bucketed by their subject's most selective part (`#name`, else `.class`, else type, else
/// universal), with selectors on interned type ids and precomputed ancestor hashes. Named after
/// Servo's `selector_map`.
final class SelectorMap: Sendable {
    struct Compound: Sendable {
        /// Interned type id, or −1 for `*`.
        var type: Int32
        var names: [String]
        var classes: [String]
        var states: [String]
    }

    struct Rule: Sendable {
        var compounds: [Compound]
        var combinators: [Combinator]
        var app: String?
        /// Hashes every container of a match must put in the ancestor filter.
        var ancestorHashes: [UInt32]
        /// (property index, value) in source order.
        var declarations: [(Int, Value)]
        /// The compiled rule's source order (`CompiledRule.order`).
        var order: Int32
    }

    /// Rules in cascade order: a higher index wins over a lower one.
    let rules: [Rule]
    let byName: [String: [Int32]]
    let byClass: [String: [Int32]]
    let byType: [Int32: [Int32]]
    let universal: [Int32]
    /// Interned type ids.
    let typeIDs: [String: Int32]
    /// `isKind[sub * typeCount + sup]`: `sub` is `sup` or derives from it.
    let isKind: [Bool]
    let typeCount: Int
    /// Each type's chain as ids, most derived first.
    let chains: [[Int32]]
    /// Each type's chain as ancestor-filter hashes.
    let chainHashes: [[UInt32]]
    /// Property names in index order, their definitions, and the theme's initial values.
    let propertyNames: [String]
    let propertyIndex: [String: Int]
    let inherits: [Bool]
    let initial: [Value]

    init(theme: CompiledTheme) {
        let schema = theme.schema
        let typeNames = schema.types.keys.sorted()
        var ids: [String: Int32] = [:]
        for (i, t) in typeNames.enumerated() { ids[t] = Int32(i) }
        typeIDs = ids
        typeCount = typeNames.count
        var kind = [Bool](repeating: false, count: typeCount * typeCount)
        var chains: [[Int32]] = []
        var chainHashes: [[UInt32]] = []
        for (i, t) in typeNames.enumerated() {
            let chain = schema.chain(of: t)
            for s in chain { kind[i * typeCount + Int(ids[s]!)] = true }
            chains.append(chain.map { ids[$0]! })
            chainHashes.append(chain.map { AncestorFilter.hash(AncestorFilter.typeTag, $0) })
        }
        isKind = kind
        self.chains = chains
        self.chainHashes = chainHashes
        propertyNames = schema.properties.keys.sorted()
        var pindex: [String: Int] = [:]
        for (i, p) in propertyNames.enumerated() { pindex[p] = i }
        propertyIndex = pindex
        inherits = propertyNames.map { schema.properties[$0]!.inherits }
        initial = propertyNames.map { schema.properties[$0]!.initial }

        let ranked = theme.rules.sorted(by: Cascade.precedes)
        var rules: [Rule] = []
        var byName: [String: [Int32]] = [:]
        var byClass: [String: [Int32]] = [:]
        var byType: [Int32: [Int32]] = [:]
        var universal: [Int32] = []
        for (rank, r) in ranked.enumerated() {
            let compounds = r.selector.compounds.map {
                Compound(
                    type: $0.type.map { ids[$0] ?? -2 } ?? -1, names: $0.names, classes: $0.classes,
                    states: $0.states)
            }
            var hashes: [UInt32] = []
            for c in r.selector.compounds.dropLast() {
                if let t = c.type { hashes.append(AncestorFilter.hash(AncestorFilter.typeTag, t)) }
                for n in c.names { hashes.append(AncestorFilter.hash(AncestorFilter.nameTag, n)) }
                for k in c.classes { hashes.append(AncestorFilter.hash(AncestorFilter.classTag, k)) }
            }
            rules.append(
                Rule(
                    compounds: compounds, combinators: r.selector.combinators, app: r.app,
                    ancestorHashes: hashes,
                    declarations: r.declarations.map { (pindex[$0.property]!, $0.value) },
                    order: Int32(r.order)))
            let subject = r.selector.compounds.last!
            let i = Int32(rank)
            if let n = subject.names.first {
                byName[n, default: []].append(i)
            } else if let k = subject.classes.first {
                byClass[k, default: []].append(i)
            } else if let t = subject.type, let id = ids[t] {
                byType[id, default: []].append(i)
            } else {
                universal.append(i)
            }
        }
        self.rules = rules
        self.byName = byName
        self.byClass = byClass
        self.byType = byType
        self.universal = universal
    }

    /// A node with its interned type id.
    struct Node {
        var type: Int32
        var node: PathNode
    }

    @inline(__always)
    func compoundMatches(_ c: Compound, _ n: Node) -> Bool {
        if c.type != -1 {
            if c.type < 0 || !isKind[Int(n.type) * typeCount + Int(c.type)] { return false }
        }
        for name in c.names where name != n.node.name { return false }
        for k in c.classes where !n.node.classes.contains(k) { return false }
        for s in c.states where !n.node.isIn(state: s) { return false }
        return true
    }

    /// Whether rule `r` matches the last node of `stack` (right-to-left, CSS Selectors 4 §16).
    func matches(_ r: Rule, _ stack: [Node]) -> Bool {
        Cascade.matchRightToLeft(r.combinators, subject: stack.count - 1) { ci, k in
            compoundMatches(r.compounds[ci], stack[k])
        }
    }
}

/// The values of every property of one node, in `SelectorMap.propertyNames` order.
public struct ComputedStyle: Sendable {
    public var values: [Value]
    /// With `StyleWalker.tracksWinners`: per property, the source order (`CompiledRule.order`)
    /// of the rule whose declaration won, or −1 when no declaration matched. Empty otherwise.
    public var winners: [Int32] = []
}

/// Computes styles node by node down a tree (or a path): each node's style from its container's
/// style, the ancestor filter and the rules that match it.
public struct StyleWalker {
    /// How rules are found: `indexed` (the selector map and the ancestor filter), `naive`
    /// (every rule tested against every node; the ablation), `floor` (no rules at all: only
    /// inheritance and initial values; the lower bound).
    public enum Mode: Sendable { case indexed, naive, floor }

    let map: SelectorMap
    let app: String?
    let mode: Mode
    var stack: [SelectorMap.Node] = []
    var styles: [ComputedStyle] = []
    var filters: [AncestorFilter] = []
    var scratch: [Int32] = []
    /// Records the winning rule of every property (for cross-checks); off by default.
    public var tracksWinners = false

    /// - Parameters:
    ///   - cascade: the compiled theme.
    ///   - app: the asking application (its `@app` rules apply).
    public init(_ cascade: Cascade, app: String? = nil, mode: Mode = .indexed) {
        self.map = cascade.map
        self.app = app
        self.mode = mode
    }

    /// Property names in the order of `ComputedStyle.values`.
    public var propertyNames: [String] { map.propertyNames }

    /// The style of the node on top of the stack.
    public var top: ComputedStyle? { styles.last }

    /// Enters `node` as a child of the current top and computes its style.
    /// - Returns: nil when the node's type is unknown to the schema.
    @discardableResult
    public mutating func push(_ node: PathNode) -> ComputedStyle? {
        guard let type = map.typeIDs[node.type] else { return nil }
        let n = SelectorMap.Node(type: type, node: node)
        let parent = styles.last
        // The filter for this node's children: this node's filter plus this node.
        var childFilter = filters.last ?? AncestorFilter()
        let ownFilter = childFilter
        if mode == .indexed {
            for h in map.chainHashes[Int(type)] { childFilter.insert(h) }
            if let name = node.name { childFilter.insert(AncestorFilter.hash(AncestorFilter.nameTag, name)) }
            for k in node.classes { childFilter.insert(AncestorFilter.hash(AncestorFilter.classTag, k)) }
        }
        stack.append(n)
        var values: [Value]
        if let parent {
            values = parent.values
            for i in values.indices where !map.inherits[i] { values[i] = map.initial[i] }
        } else {
            values = map.initial
        }
        var winners: [Int32] = tracksWinners ? Array(repeating: -1, count: values.count) : []
        switch mode {
        case .floor:
            break
        case .naive:
            for r in map.rules where (r.app == nil || r.app == app) && map.matches(r, stack) {
                for (p, v) in r.declarations { values[p] = v }
                if tracksWinners { for (p, _) in r.declarations { winners[p] = r.order } }
            }
        case .indexed:
            scratch.removeAll(keepingCapacity: true)
            if let name = node.name, let b = map.byName[name] { scratch += b }
            for k in node.classes { if let b = map.byClass[k] { scratch += b } }
            for t in map.chains[Int(type)] { if let b = map.byType[t] { scratch += b } }
            scratch += map.universal
            scratch.sort()
            var last: Int32 = -1
            for i in scratch where i != last {
                last = i
                let r = map.rules[Int(i)]
                if let a = r.app, a != app { continue }
                var possible = true
                for h in r.ancestorHashes where !ownFilter.mayContain(h) {
                    possible = false
                    break
                }
                guard possible, map.matches(r, stack) else { continue }
                for (p, v) in r.declarations { values[p] = v }
                if tracksWinners { for (p, _) in r.declarations { winners[p] = r.order } }
            }
        }
        let style = ComputedStyle(values: values, winners: winners)
        styles.append(style)
        filters.append(childFilter)
        return style
    }

    /// Starts below an already computed prefix: `nodes` are the containers, `style` and
    /// `filter` the last one's style and its children's ancestor filter.
    mutating func seed(_ nodes: ArraySlice<PathNode>, style: ComputedStyle, filter: AncestorFilter) {
        stack = nodes.map { SelectorMap.Node(type: map.typeIDs[$0.type] ?? 0, node: $0) }
        styles = [style]
        filters = [filter]
    }

    /// Leaves the top node.
    public mutating func pop() {
        stack.removeLast()
        styles.removeLast()
        filters.removeLast()
    }
}
