import Foundation
import LiveryCore

extension SplitMix64 {
    /// Uniform in 0..<n.
    mutating func int(_ n: Int) -> Int { below(n) }
    mutating func chance(_ p: Double) -> Bool { unit() < p }
    /// Index into `weights` (need not sum to 1).
    mutating func weighted(_ weights: [Double]) -> Int {
        var x = unit() * weights.reduce(0, +)
        for (i, w) in weights.enumerated() {
            if x < w { return i }
            x -= w
        }
        return weights.count - 1
    }
    /// Skewed towards low indices (popular names and classes): floor(n × u^power).
    mutating func skewed(_ n: Int, power: Double = 2) -> Int {
        min(n - 1, Int(Double(n) * pow(unit(), power)))
    }
    /// `count` distinct skewed indices.
    mutating func distinctSkewed(_ count: Int, of n: Int) -> [Int] {
        var out: [Int] = []
        while out.count < count {
            let i = skewed(n)
            if !out.contains(i) { out.append(i) }
        }
        return out
    }
}

/// One compound of a generated selector; `type == nil` is `*`.
struct GenCompound {
    var type: String?
    var name: String?
    var classes: [String]
    var states: [String]

    /// Livery's sheet syntax: `Button#ok.primary:highlighted`.
    var livery: String {
        (type ?? "*") + (name.map { "#" + $0 } ?? "") + classes.map { "." + $0 }.joined()
            + states.map { ":" + $0 }.joined()
    }
    /// The CSS given to cssselect2: types are element names, `#name` an id, states classes
    /// prefixed `state-` (`Button#ok.primary.state-highlighted`).
    var css: String {
        (type ?? "*") + (name.map { "#" + $0 } ?? "") + classes.map { "." + $0 }.joined()
            + states.map { ".state-" + $0 }.joined()
    }
}

struct GenRule {
    var compounds: [GenCompound]
    /// `child[i]`: compounds i and i+1 are joined by `>` (else by a space).
    var child: [Bool]
    var declarations: [(property: String, value: String)]

    func selector(_ text: (GenCompound) -> String) -> String {
        var out = text(compounds[0])
        for i in 1..<max(1, compounds.count) where compounds.count > 1 {
            out += (child[i - 1] ? " > " : " ") + text(compounds[i])
        }
        return out
    }
    var declarationText: String { declarations.map { "\($0.property): \($0.value);" }.joined(separator: " ") }
}

/// A node of a generated tree, in preorder, with its depth (the root is 1).
struct GenNode {
    var node: PathNode
    var depth: Int
}

/// A generated benchmark: a sheet and a forest, both deterministic in the seed.
///
/// Tie-free by construction, so that Livery's cascade and plain CSS must pick the same winners:
/// every type in a selector is a leaf of the schema's type hierarchy (no selector type is a
/// supertype of another type), every subject has a type (so equal-specificity candidates have the
/// same subject depth), there are no `@app` blocks or overrides, and no `:normal`.
struct Workload {
    let label: String
    let seed: UInt64
    let rules: [GenRule]
    let trees: [[GenNode]]
    var nodeCount: Int { trees.reduce(0) { $0 + $1.count } }
    var maxDepth: Int { trees.map { $0.map(\.depth).max() ?? 0 }.max() ?? 0 }

    static let maximumDepth = 12
    static let states = ["highlighted", "selected", "disabled", "focused"]
    static let names = (0..<150).map { "n\($0)" }
    static let classes = (0..<80).map { "c\($0)" }
    /// A handful of properties of every value type but images (which must name files), some
    /// inherited and some not.
    static let properties = [
        "background-color", "tint-color", "text-color", "title-color", "border-color", "corner-radius",
        "border-width", "alpha", "font-size", "font-weight", "font-family", "row-height", "content-insets",
        "shadow-offset", "transition-duration", "selection-style",
    ]

    /// The schema's leaf types: those that are no other type's supertype.
    static func leafTypes(_ schema: Schema) -> [String] {
        let supers = Set(schema.types.values.compactMap(\.superType))
        return schema.types.keys.filter { !supers.contains($0) }.sorted()
    }

    static func value(for property: String, _ schema: Schema, _ rng: inout SplitMix64) -> String {
        let def = schema.properties[property]!
        func n(_ range: Int) -> Int { rng.int(range) }
        switch def.type {
        case .color: return String(format: "#%02x%02x%02x", n(256), n(256), n(256))
        case .length: return "\(n(120))"
        case .number: return String(format: "0.%02d", n(100))
        case .duration: return "\(n(20) * 50)ms"
        case .keyword: return rng.pick(def.keywords)
        case .string: return "\"Font \(n(10))\""
        case .size: return "\(n(60)) \(n(60))"
        case .insets: return "\(n(20)) \(n(20)) \(n(20)) \(n(20))"
        case .image: fatalError("image properties need files")
        }
    }

    init(label: String, ruleCount: Int, nodeCount: Int, seed: UInt64, schema: Schema) {
        self.label = label
        self.seed = seed
        var rng = SplitMix64(seed: seed)
        let types = Workload.leafTypes(schema)

        var rules: [GenRule] = []
        for _ in 0..<ruleCount {
            let depth = 1 + rng.weighted([0.35, 0.30, 0.20, 0.15])
            var compounds: [GenCompound] = []
            for i in 0..<depth {
                let subject = i == depth - 1
                var c = GenCompound(type: nil, name: nil, classes: [], states: [])
                if subject || rng.chance(0.8) { c.type = rng.pick(types) }
                if rng.chance(subject ? 0.15 : 0.1) {
                    c.name = Workload.names[rng.skewed(Workload.names.count)]
                }
                let k = subject ? rng.weighted([0.55, 0.35, 0.10]) : rng.weighted([0.6, 0.35, 0.05])
                c.classes = rng.distinctSkewed(k, of: Workload.classes.count).map { Workload.classes[$0] }
                if rng.chance(subject ? 0.25 : 0.1) { c.states = [rng.pick(Workload.states)] }
                compounds.append(c)
            }
            let child = (0..<(depth - 1)).map { _ in rng.chance(0.4) }
            let dcount = 1 + rng.int(4)
            var props: [String] = []
            while props.count < dcount {
                let p = rng.pick(Workload.properties)
                if !props.contains(p) { props.append(p) }
            }
            let decls = props.map { ($0, Workload.value(for: $0, schema, &rng)) }
            rules.append(GenRule(compounds: compounds, child: child, declarations: decls))
        }
        self.rules = rules

        // Trees of 50–800 nodes until the total is reached; each new node hangs under one of
        // the last few nodes (with a per-tree probability, for deep chains) or under any node (for
        // wide fan-out), never deeper than 12.
        var trees: [[GenNode]] = []
        var total = 0
        while total < nodeCount {
            let size = min(nodeCount - total, 50 + rng.int(751))
            let locality = 0.3 + 0.6 * rng.unit()
            var parent = [-1]
            var depth = [1]
            for k in 1..<max(1, size) where size > 1 {
                var p: Int
                repeat {
                    p = rng.chance(locality) ? max(0, k - 1 - rng.int(4)) : rng.int(k)
                } while depth[p] >= Workload.maximumDepth
                parent.append(p)
                depth.append(depth[p] + 1)
            }
            var children = [[Int]](repeating: [], count: size)
            for k in 1..<max(1, size) where size > 1 { children[parent[k]].append(k) }
            var tree: [GenNode] = []
            var stack = [0]
            while let i = stack.popLast() {
                var node = PathNode(type: i == 0 ? "Window" : rng.pick(types))
                if rng.chance(0.25) {
                    node.name = Workload.names[rng.skewed(Workload.names.count, power: 1.5)]
                }
                let k = rng.weighted([0.40, 0.35, 0.18, 0.07])
                node.classes = rng.distinctSkewed(k, of: Workload.classes.count).map { Workload.classes[$0] }
                let s = rng.weighted([0.75, 0.20, 0.05])
                while node.states.count < s {
                    let st = rng.pick(Workload.states)
                    if !node.states.contains(st) { node.states.append(st) }
                }
                tree.append(GenNode(node: node, depth: depth[i]))
                stack += children[i].reversed()
            }
            trees.append(tree)
            total += size
        }
        self.trees = trees
    }

    /// The sheet in Livery's language, one rule a line.
    var liverySheet: String {
        "/* livery-bench workload \(label): \(rules.count) rules, seed \(seed) */\n"
            + rules.map { "\($0.selector(\.livery)) { \($0.declarationText) }\n" }.joined()
    }

    /// The same sheet as CSS for cssselect2, rule for rule.
    var cssSheet: String {
        "/* livery-bench workload \(label) as CSS: \(rules.count) rules, seed \(seed) */\n"
            + rules.map { "\($0.selector(\.css)) { \($0.declarationText) }\n" }.joined()
    }

    /// The forest as XML, one tree a line: element name = type, `id` = name, `class` = classes
    /// and `state-` + each state.
    var xml: String {
        var out = ""
        out.reserveCapacity(nodeCount * 48)
        for tree in trees {
            var open: [String] = []
            for n in tree {
                while open.count >= n.depth { out += "</\(open.removeLast())>" }
                out += "<" + n.node.type
                if let name = n.node.name { out += " id=\"\(name)\"" }
                let cls = n.node.classes + n.node.states.map { "state-" + $0 }
                if !cls.isEmpty { out += " class=\"\(cls.joined(separator: " "))\"" }
                out += ">"
                open.append(n.node.type)
            }
            while let t = open.popLast() { out += "</\(t)>" }
            out += "\n"
        }
        return out
    }
}
