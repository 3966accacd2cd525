/// The compiled form of a theme's rules for fast matching (named after Servo's `selector_map`):
///
/// - rules ranked by cascade precedence, so that a higher rank wins;
/// - bucketed by their subject's most selective part (`#name`, else `.class`, else type, else
///   universal), so that a node only tries the rules that could match it;
/// - types, names, classes and states interned to integers, and everything stored in flat arrays
///   of plain structs, so that matching compares integers and touches no reference counts;
/// - every declared and initial value interned in one table, so that a computed style is an
///   array of `Int32` slots and inheriting it is a copy of integers.
final class SelectorMap: Sendable {
    /// One compound selector, on interned ids.
    struct Compound: Sendable {
        /// Type id, or −1 for `*`, −2 for a type the schema lacks (matches nothing).
        var type: Int32
        /// Name id, or −1 for none, −2 for two different names (matches nothing).
        var name: Int32
        /// Bits of the states required (`:normal` excluded).
        var states: UInt64
        /// `:normal`: the node is in no other state.
        var normal: Bool
        /// The compound's classes: `classes[classStart ..< classStart + classCount]`.
        var classStart: Int32
        var classCount: Int32
        /// How this compound joins the next one to its right: 1 descendant, 2 child (0 for the
        /// subject).
        var combinator: UInt8
    }

    /// One rule with one selector, as ranges into the flat arrays.
    struct Rule: Sendable {
        var compoundStart: Int32
        var compoundCount: Int32
        /// Application id for `@app` rules, −1 otherwise.
        var app: Int32
        /// Hashes every container of a match must put in the ancestor filter.
        var hashStart: Int32
        var hashCount: Int32
        var declarationStart: Int32
        var declarationCount: Int32
        /// The compiled rule's source order (`CompiledRule.order`).
        var order: Int32
    }

    let rules: ContiguousArray<Rule>
    let compounds: ContiguousArray<Compound>
    let classes: ContiguousArray<Int32>
    let hashes: ContiguousArray<UInt32>
    /// Declarations: property index and value slot.
    let declarationProperties: ContiguousArray<Int32>
    let declarationValues: ContiguousArray<Int32>

    /// One rule in a bucket, with what rejects it cheaply: the subject's required states and
    /// name, and two ancestor hashes: the innermost container's and the outermost's (0 when the
    /// selector has no containers, or only one).
    struct Candidate: Sendable {
        var rank: Int32
        var name: Int32
        var states: UInt64
        var hash: UInt32
        var hash2: UInt32
    }

    /// Candidates by subject bucket, each in rank order.
    let byName: [ContiguousArray<Candidate>]
    let byClass: [ContiguousArray<Candidate>]
    let byType: [ContiguousArray<Candidate>]
    let universal: ContiguousArray<Candidate>

    let typeIDs: [String: Int32]
    let nameIDs: [String: Int32]
    let classIDs: [String: Int32]
    let appIDs: [String: Int32]
    /// State name to bit (`normal` has none).
    let stateBits: [String: UInt64]
    /// `isKind[sub * typeCount + sup]`: `sub` is `sup` or derives from it.
    let isKind: ContiguousArray<Bool>
    let typeCount: Int
    /// Each type's chain as ids, most derived first.
    let chains: [[Int32]]
    /// Each type's chain as ancestor-filter hashes.
    let chainHashes: [[UInt32]]
    /// Property names in index order.
    let propertyNames: [String]
    let propertyIndex: [String: Int]
    let inherits: ContiguousArray<Bool>
    /// Every value any style can hold: initial values and declared ones, interned.
    let table: ValueTable
    /// The initial value of every property, as slots.
    let initialSlots: ContiguousArray<Int32>

    init(theme: CompiledTheme) {
        let schema = theme.schema
        let typeNames = schema.types.keys.sorted()
        var ids: [String: Int32] = [:]
        for (i, t) in typeNames.enumerated() { ids[t] = Int32(i) }
        typeIDs = ids
        typeCount = typeNames.count
        var kind = ContiguousArray<Bool>(repeating: false, count: typeCount * typeCount)
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
        var bits: [String: UInt64] = [:]
        for s in schema.states where s != "normal" && bits.count < 64 { bits[s] = 1 << UInt64(bits.count) }
        stateBits = bits

        propertyNames = schema.properties.keys.sorted()
        var pindex: [String: Int] = [:]
        for (i, p) in propertyNames.enumerated() { pindex[p] = i }
        propertyIndex = pindex
        inherits = ContiguousArray(propertyNames.map { schema.properties[$0]!.inherits })
        var values: [Value] = []
        var valueIDs: [Value: Int32] = [:]
        func intern(_ v: Value) -> Int32 {
            if let i = valueIDs[v] { return i }
            values.append(v)
            valueIDs[v] = Int32(values.count - 1)
            return Int32(values.count - 1)
        }
        initialSlots = ContiguousArray(propertyNames.map { intern(schema.properties[$0]!.initial) })

        var names: [String: Int32] = [:]
        var classIDs: [String: Int32] = [:]
        var apps: [String: Int32] = [:]
        func id(_ s: String, in table: inout [String: Int32]) -> Int32 {
            if let i = table[s] { return i }
            table[s] = Int32(table.count)
            return Int32(table.count - 1)
        }

        var rules = ContiguousArray<Rule>()
        var compounds = ContiguousArray<Compound>()
        var classList = ContiguousArray<Int32>()
        var hashes = ContiguousArray<UInt32>()
        var declProps = ContiguousArray<Int32>()
        var declValues = ContiguousArray<Int32>()
        var byName: [Int32: ContiguousArray<Candidate>] = [:]
        var byClass: [Int32: ContiguousArray<Candidate>] = [:]
        var byType: [Int32: ContiguousArray<Candidate>] = [:]
        var universal = ContiguousArray<Candidate>()
        for (rank, r) in theme.rules.sorted(by: Cascade.precedes).enumerated() {
            let compoundStart = Int32(compounds.count)
            for (i, c) in r.selector.compounds.enumerated() {
                let classStart = Int32(classList.count)
                for k in c.classes { classList.append(id(k, in: &classIDs)) }
                var required: UInt64 = 0
                for s in c.states { required |= bits[s] ?? 0 }
                let combinator: UInt8 =
                    i + 1 < r.selector.compounds.count
                    ? (r.selector.combinators[i] == .child ? 2 : 1) : 0
                let name: Int32 =
                    c.names.isEmpty ? -1 : (Set(c.names).count > 1 ? -2 : id(c.names[0], in: &names))
                compounds.append(
                    Compound(
                        type: c.type.map { ids[$0] ?? -2 } ?? -1, name: name, states: required,
                        normal: c.states.contains("normal"), classStart: classStart,
                        classCount: Int32(c.classes.count), combinator: combinator))
            }
            let hashStart = Int32(hashes.count)
            for c in r.selector.compounds.dropLast() {
                if let t = c.type { hashes.append(AncestorFilter.hash(AncestorFilter.typeTag, t)) }
                for n in c.names { hashes.append(AncestorFilter.hash(AncestorFilter.nameTag, n)) }
                for k in c.classes { hashes.append(AncestorFilter.hash(AncestorFilter.classTag, k)) }
            }
            let declStart = Int32(declProps.count)
            for d in r.declarations {
                declProps.append(Int32(pindex[d.property]!))
                declValues.append(intern(d.value))
            }
            rules.append(
                Rule(
                    compoundStart: compoundStart, compoundCount: Int32(r.selector.compounds.count),
                    app: r.app.map { id($0, in: &apps) } ?? -1, hashStart: hashStart,
                    hashCount: Int32(hashes.count) - hashStart, declarationStart: declStart,
                    declarationCount: Int32(r.declarations.count), order: Int32(r.order)))
            let subject = r.selector.compounds.last!
            let entry = Candidate(
                rank: Int32(rank), name: compounds[compounds.count - 1].name,
                states: compounds[compounds.count - 1].states,
                hash: hashes.count > Int(hashStart) ? hashes[hashes.count - 1] : 0,
                hash2: hashes.count > Int(hashStart) + 1 ? hashes[Int(hashStart)] : 0)
            if let n = subject.names.first {
                byName[names[n]!, default: []].append(entry)
            } else if let k = subject.classes.first {
                byClass[classIDs[k]!, default: []].append(entry)
            } else if let t = subject.type, let tid = ids[t] {
                byType[tid, default: []].append(entry)
            } else if subject.type == nil {
                universal.append(entry)
            }
            // A subject of a type the schema lacks matches nothing and is in no bucket.
        }
        self.rules = rules
        self.compounds = compounds
        self.classes = classList
        self.hashes = hashes
        declarationProperties = declProps
        declarationValues = declValues
        self.byName = (0..<names.count).map { byName[Int32($0)] ?? [] }
        self.byClass = (0..<classIDs.count).map { byClass[Int32($0)] ?? [] }
        self.byType = (0..<typeCount).map { byType[Int32($0)] ?? [] }
        self.universal = universal
        nameIDs = names
        self.classIDs = classIDs
        appIDs = apps
        table = ValueTable(values)
    }

    /// A node on interned ids; its classes are `classes[classStart ..< classStart + classCount]`
    /// of the walker's class stack.
    struct Node {
        var type: Int32
        /// Name id, −1 for none, −3 for a name no selector uses.
        var name: Int32
        var states: UInt64
        /// In some state other than `normal`.
        var inAnyState: Bool
        var classStart: Int32
        var classCount: Int32
    }

    @inline(__always)
    func compoundMatches(
        _ c: Compound, _ n: Node, _ nodeClasses: UnsafeBufferPointer<Int32>,
        _ compoundClasses: UnsafeBufferPointer<Int32>
    ) -> Bool {
        if c.type != -1 {
            if c.type < 0 || !isKind[Int(n.type) * typeCount + Int(c.type)] { return false }
        }
        if c.name != -1 && c.name != n.name { return false }
        if c.states & n.states != c.states { return false }
        if c.normal && n.inAnyState { return false }
        var k = Int(c.classStart)
        let end = k + Int(c.classCount)
        while k < end {
            let wanted = compoundClasses[k]
            var found = false
            var j = Int(n.classStart)
            let nodeEnd = j + Int(n.classCount)
            while j < nodeEnd {
                if nodeClasses[j] == wanted {
                    found = true
                    break
                }
                j += 1
            }
            if !found { return false }
            k += 1
        }
        return true
    }
}

/// The values a compiled theme's styles refer to by slot.
public final class ValueTable: Sendable {
    /// The distinct values, indexed by `ComputedStyle.slots`.
    public let values: [Value]
    init(_ values: [Value]) { self.values = values }
}

/// The values of every property of one node, in `StyleWalker.propertyNames` order, as slots of
/// the theme's value table.
public struct ComputedStyle: Sendable {
    /// Per property, the index of its value in the table.
    public var slots: ContiguousArray<Int32>
    let table: ValueTable
    /// With `StyleWalker.tracksWinners`: per property, the source order (`CompiledRule.order`)
    /// of the rule whose declaration won, or −1 when no declaration matched. Empty otherwise.
    public var winners: ContiguousArray<Int32> = []

    /// The number of properties.
    public var count: Int { slots.count }
    /// The value of the property at `index`.
    public func value(at index: Int) -> Value { table.values[Int(slots[index])] }
    /// Every value, materialised.
    public var values: [Value] { slots.map { table.values[Int($0)] } }
}

/// Computes styles node by node down a tree (or a path): each node's style from its container's
/// style, the ancestor filter and the rules that match it.
///
/// Siblings with the same type, name, classes and states share one computed style: the sheet
/// language has no sibling combinators, so such nodes match the same rules (Servo's and Blink's
/// "style sharing").
public struct StyleWalker {
    /// How rules are found: `indexed` (the selector map, the ancestor filter and style sharing),
    /// `naive` (every rule tested against every node; the ablation), `floor` (no rules at all:
    /// only inheritance and initial values; the lower bound).
    public enum Mode: Sendable { case indexed, naive, floor }

    let map: SelectorMap
    let app: Int32
    let mode: Mode
    var stack: [SelectorMap.Node] = []
    var nodeClasses: [Int32] = []
    var styles: [ComputedStyle] = []
    var filters: [AncestorFilter] = []
    /// The last few children's styles of every level, for sharing (a short list compared
    /// directly, as Servo's style sharing cache is: hashing every node would cost more). Flat:
    /// level `l`'s entries start at `sharedStart[l]`; their classes are in `sharedClasses`.
    var shared: [Shared] = []
    var sharedStart: [Int] = [0]
    var sharedClasses: [Int32] = []
    /// Children remembered per level.
    static let sharingCandidates = 8
    var matched: [Int32] = []
    /// Records the winning rule of every property (for cross-checks); off by default.
    public var tracksWinners = false

    /// A computed child style and what decided it among siblings.
    struct Shared {
        var type: Int32
        var name: Int32
        var states: UInt64
        var inAnyState: Bool
        var classStart: Int
        var classCount: Int
        var style: ComputedStyle
    }

    /// - Parameters:
    ///   - cascade: the compiled theme.
    ///   - app: the asking application (its `@app` rules apply).
    public init(_ cascade: Cascade, app: String? = nil, mode: Mode = .indexed) {
        self.map = cascade.map
        // An application no rule names gets an id no rule has.
        self.app = app.map { cascade.map.appIDs[$0] ?? -2 } ?? -3
        self.mode = mode
    }

    private init(map: SelectorMap, app: Int32, mode: Mode) {
        self.map = map
        self.app = app
        self.mode = mode
    }

    /// Property names in the order of `ComputedStyle.slots`.
    public var propertyNames: [String] { map.propertyNames }

    /// The style of the node on top of the stack.
    public var top: ComputedStyle? { styles.last }

    /// Enters `node` as a child of the current top and computes its style.
    /// - Parameter node: The child node; pop it to return to its container.
    /// - Returns: nil when the node's type is unknown to the schema.
    @discardableResult
    public mutating func push(_ node: PathNode) -> ComputedStyle? {
        guard let type = map.typeIDs[node.type] else { return nil }
        var n = SelectorMap.Node(
            type: type, name: node.name.map { map.nameIDs[$0] ?? -3 } ?? -1, states: 0, inAnyState: false,
            classStart: Int32(nodeClasses.count), classCount: 0)
        for s in node.states where s != "normal" {
            n.inAnyState = true
            n.states |= map.stateBits[s] ?? 0
        }
        for k in node.classes {
            // A class no selector uses cannot affect matching.
            if let id = map.classIDs[k] {
                nodeClasses.append(id)
                n.classCount += 1
            }
        }
        // The filter for this node's children: this node's filter plus this node.
        let ownFilter = filters.last ?? AncestorFilter()
        var childFilter = ownFilter
        if mode == .indexed {
            for h in map.chainHashes[Int(type)] { childFilter.insert(h) }
            if let name = node.name { childFilter.insert(AncestorFilter.hash(AncestorFilter.nameTag, name)) }
            for k in node.classes { childFilter.insert(AncestorFilter.hash(AncestorFilter.classTag, k)) }
        }
        stack.append(n)

        let sharing = mode == .indexed && !tracksWinners
        if sharing {
            let nodeClassList = nodeClasses[Int(n.classStart)...]
            for i in sharedStart[sharedStart.count - 1]..<shared.count {
                let c = shared[i]
                guard
                    c.type == n.type && c.name == n.name && c.states == n.states
                        && c.inAnyState == n.inAnyState
                        && sharedClasses[c.classStart..<(c.classStart + c.classCount)].elementsEqual(
                            nodeClassList)
                else { continue }
                styles.append(c.style)
                filters.append(childFilter)
                sharedStart.append(shared.count)
                return c.style
            }
        }

        var slots: ContiguousArray<Int32>
        if let parent = styles.last {
            slots = parent.slots
            map.inherits.withUnsafeBufferPointer { inherits in
                map.initialSlots.withUnsafeBufferPointer { initial in
                    slots.withUnsafeMutableBufferPointer { s in
                        for i in 0..<s.count where !inherits[i] { s[i] = initial[i] }
                    }
                }
            }
        } else {
            slots = map.initialSlots
        }
        var winners: ContiguousArray<Int32> =
            tracksWinners ? ContiguousArray(repeating: -1, count: slots.count) : []

        if mode != .floor {
            matched.removeAll(keepingCapacity: true)
            let stackCount = stack.count
            stack.withUnsafeBufferPointer { stackBuffer in
                nodeClasses.withUnsafeBufferPointer { nodeClassBuffer in
                    map.rules.withUnsafeBufferPointer { rules in
                        map.compounds.withUnsafeBufferPointer { compounds in
                            map.classes.withUnsafeBufferPointer { classes in
                                map.hashes.withUnsafeBufferPointer { hashes in
                                    let m = Matcher(
                                        map: map, rules: rules, compounds: compounds, classes: classes,
                                        hashes: hashes, stack: stackBuffer, nodeClasses: nodeClassBuffer,
                                        app: app, filter: ownFilter, subject: stackCount - 1)
                                    if mode == .naive {
                                        for rank in 0..<rules.count
                                        where m.matches(Int32(rank), filtered: false) {
                                            matched.append(Int32(rank))
                                        }
                                        return
                                    }
                                    if n.name >= 0 { m.collect(map.byName[Int(n.name)], into: &matched) }
                                    for j in Int(n.classStart)..<Int(n.classStart + n.classCount) {
                                        m.collect(map.byClass[Int(nodeClassBuffer[j])], into: &matched)
                                    }
                                    for t in map.chains[Int(type)] {
                                        m.collect(map.byType[Int(t)], into: &matched)
                                    }
                                    m.collect(map.universal, into: &matched)
                                }
                            }
                        }
                    }
                }
            }
            // Buckets are each in rank order; together they need one small sort.
            if mode == .indexed { matched.sort() }
            for rank in matched {
                let r = map.rules[Int(rank)]
                var d = Int(r.declarationStart)
                let end = d + Int(r.declarationCount)
                while d < end {
                    let p = Int(map.declarationProperties[d])
                    slots[p] = map.declarationValues[d]
                    if tracksWinners { winners[p] = r.order }
                    d += 1
                }
            }
        }
        let style = ComputedStyle(slots: slots, table: map.table, winners: winners)
        if sharing {
            // Keep the last few children of this level.
            let start = sharedStart[sharedStart.count - 1]
            if shared.count - start == StyleWalker.sharingCandidates { shared.remove(at: start) }
            let classStart = sharedClasses.count
            sharedClasses.append(contentsOf: nodeClasses[Int(n.classStart)...])
            shared.append(
                Shared(
                    type: n.type, name: n.name, states: n.states, inAnyState: n.inAnyState,
                    classStart: classStart, classCount: Int(n.classCount), style: style))
        }
        styles.append(style)
        filters.append(childFilter)
        sharedStart.append(shared.count)
        return style
    }

    /// Matching against the node on top of the walker's stack, on raw buffers: no reference
    /// counting and no bounds checks in the inner loops.
    struct Matcher {
        let map: SelectorMap
        let rules: UnsafeBufferPointer<SelectorMap.Rule>
        let compounds: UnsafeBufferPointer<SelectorMap.Compound>
        let classes: UnsafeBufferPointer<Int32>
        let hashes: UnsafeBufferPointer<UInt32>
        let stack: UnsafeBufferPointer<SelectorMap.Node>
        let nodeClasses: UnsafeBufferPointer<Int32>
        let app: Int32
        let filter: AncestorFilter
        let subject: Int

        /// Tests one bucket's candidates, appending the ranks that match.
        @inline(__always)
        func collect(_ bucket: ContiguousArray<SelectorMap.Candidate>, into matched: inout [Int32]) {
            let node = stack[subject]
            bucket.withUnsafeBufferPointer { candidates in
                for c in candidates {
                    // Cheap rejections first: the subject's states and name, two ancestor hashes.
                    if c.states & node.states != c.states { continue }
                    if c.name >= 0 && c.name != node.name { continue }
                    if c.hash != 0 && !filter.mayContain(c.hash) { continue }
                    if c.hash2 != 0 && !filter.mayContain(c.hash2) { continue }
                    if matches(c.rank, filtered: true) { matched.append(c.rank) }
                }
            }
        }

        /// Whether rule `rank` matches: its application, the ancestor filter (when `filtered`),
        /// then the selector right to left.
        @inline(__always)
        func matches(_ rank: Int32, filtered: Bool) -> Bool {
            let r = rules[Int(rank)]
            if r.app != -1 && r.app != app { return false }
            if filtered {
                var h = Int(r.hashStart)
                let end = h + Int(r.hashCount)
                while h < end {
                    if !filter.mayContain(hashes[h]) { return false }
                    h += 1
                }
            }
            return match(Int(r.compoundStart), Int(r.compoundCount) - 1, subject)
        }

        /// Compound `ci` of the selector starting at `base`, at node `k`, and everything to its
        /// left (CSS Selectors 4 §16: a descendant combinator tries each container outwards).
        func match(_ base: Int, _ ci: Int, _ k: Int) -> Bool {
            guard map.compoundMatches(compounds[base + ci], stack[k], nodeClasses, classes) else {
                return false
            }
            if ci == 0 { return true }
            if compounds[base + ci - 1].combinator == 2 { return k > 0 && match(base, ci - 1, k - 1) }
            var j = k - 1
            while j >= 0 {
                if match(base, ci - 1, j) { return true }
                j -= 1
            }
            return false
        }
    }

    /// Starts below an already computed prefix: `nodes` are the containers, `style` and
    /// `filter` the last one's style and its children's ancestor filter.
    mutating func seed(_ nodes: ArraySlice<PathNode>, style: ComputedStyle, filter: AncestorFilter) {
        var walker = StyleWalker(map: map, app: app, mode: .floor)
        for n in nodes { walker.push(n) }
        stack = walker.stack
        nodeClasses = walker.nodeClasses
        styles = [style]
        filters = [filter]
        shared = []
        sharedStart = Array(repeating: 0, count: stack.count + 1)
        sharedClasses = []
    }

    /// Leaves the top node.
    public mutating func pop() {
        let n = stack.removeLast()
        nodeClasses.removeLast(Int(n.classCount))
        styles.removeLast()
        filters.removeLast()
        // The popped node's children go; the node itself stays a sharing candidate for its
        // siblings. Their classes are dropped with the level's last entry.
        let childrenStart = sharedStart.removeLast()
        shared.removeSubrange(childrenStart...)
        if let last = shared.last {
            sharedClasses.removeSubrange((last.classStart + last.classCount)...)
        } else {
            sharedClasses.removeAll(keepingCapacity: true)
        }
    }
}
