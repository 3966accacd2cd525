/// The compiled form of a theme's rules for fast matching (named after Servo's `selector_map`):
///
/// - rules ranked by cascade precedence, so that a higher rank wins;
/// - bucketed by their subject's most selective part (`#name`, else `.class`, else type, else
///   universal) and its type, so that a node only tries the rules that could match it; rules
///   that are a type alone kept apart (their result depends on the node's type and states only);
/// - the rules with containers matched top-down through container states (`ContainerRules`), so
///   that a candidate's containers are one bit;
/// - types, names, classes and states interned to integers, and everything stored in flat
///   buffers of plain structs (`Raw`), so that matching compares integers and touches no
///   reference counts;
/// - every declared and initial value interned in one table, so that a computed style is an
///   array of `Int32` slots and inheriting it is a copy of integers.
final class SelectorMap: @unchecked Sendable {
    // Safe to share: nothing changes after init; `raw` holds the tables in memory of its own,
    // read without reference counting by the walker, freed in deinit.
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
        /// The type's bit and the classes' bits (ids below 64), tested against a node's
        /// `Node.kinds` and `Node.classMask` before anything else; when every id is below 64
        /// and there is no `:normal` or impossible name, these with the name and states decide
        /// the compound (`exact`).
        var typeMask: UInt64 = 0
        var classMask: UInt64 = 0
        var exact = false
    }

    /// One rule with one selector, as ranges into the flat arrays.
    struct Rule: Sendable {
        var compoundStart: Int32
        var compoundCount: Int32
        /// Application id for `@app` rules, −1 otherwise.
        var app: Int32
        var declarationStart: Int32
        var declarationCount: Int32
        /// The compiled rule's source order (`CompiledRule.order`).
        var order: Int32
    }

    /// One rule in a bucket, with what decides it without looking at the rule itself: the
    /// subject's required states, its classes as a 64-bit mask (the bits of class ids below
    /// 64), and the bit its containers have in a container state (`Raw.containerRules`); its
    /// name, if any, is its bucket's, and its type its range's. When these decide the rule
    /// (`exact`: every id below 64, no `:normal`, no `@app`) it is decided without a branch;
    /// otherwise its subject is tested in full.
    struct Candidate: Sendable {
        var rank: Int32
        var states: UInt64
        /// The bit of the container state (`StyleWalker.blocks`) that says whether the rule's
        /// compounds left of its subject match the node's containers; for a rule without
        /// containers, a bit of the word that is always all ones.
        var container: Int32 = -1
        var exact: Bool
        var classMask: UInt64
        /// The rule's match as the walker records it: (rank, its padded range of
        /// `Raw.declarations`: start, end; 0), set when the tables are frozen.
        var match = SIMD4<Int32>(0, 0, 0, 0)
    }

    /// The ids of the types, `#name`s and `.class`es, looked up per node (`intern`).
    let typeIDs: NameTable<Int32>
    let nameIDs: NameTable<Int32>
    let classIDs: NameTable<Int32>
    let appIDs: [String: Int32]
    /// State name to bit (`normal` has none).
    let stateBits: NameTable<UInt64>
    /// Property names in index order.
    let propertyNames: [String]
    let propertyIndex: [String: Int]
    /// Every value any style can hold: initial values and declared ones, interned.
    let table: ValueTable
    /// The tables the walker reads, as flat buffers (see `Raw`).
    let raw: Raw
    /// Owns every buffer of `raw`, and frees them with the map.
    private let arena = Arena()

    init(theme: CompiledTheme) {
        var built = Built()
        let schema = theme.schema
        let typeNames = schema.types.keys.sorted()
        var ids: [String: Int32] = [:]
        for (i, t) in typeNames.enumerated() { ids[t] = Int32(i) }
        typeIDs = NameTable(ids)
        built.typeCount = typeNames.count
        let typeCount = typeNames.count
        var kind = ContiguousArray<Bool>(repeating: false, count: typeCount * typeCount)
        var chains: [[Int32]] = []
        for (i, t) in typeNames.enumerated() {
            let chain = schema.chain(of: t)
            for s in chain { kind[i * typeCount + Int(ids[s]!)] = true }
            chains.append(chain.map { ids[$0]! })
        }
        built.isKind = kind
        built.chains = chains
        var bits: [String: UInt64] = [:]
        // The schema has at most 64 of them, each listed once.
        for s in schema.states where s != "normal" { bits[s] = 1 << UInt64(bits.count) }
        stateBits = NameTable(bits)

        propertyNames = schema.properties.keys.sorted()
        var pindex: [String: Int] = [:]
        for (i, p) in propertyNames.enumerated() { pindex[p] = i }
        propertyIndex = pindex
        built.inherits = ContiguousArray(propertyNames.map { schema.properties[$0]!.inherits })
        var values: [Value] = []
        var valueIDs: [Value: Int32] = [:]
        func intern(_ v: Value) -> Int32 {
            if let i = valueIDs[v] { return i }
            values.append(v)
            valueIDs[v] = Int32(values.count - 1)
            return Int32(values.count - 1)
        }
        built.initialSlots = ContiguousArray(propertyNames.map { intern(schema.properties[$0]!.initial) })

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
        var declProps = ContiguousArray<Int32>()
        var declValues = ContiguousArray<Int32>()
        var byName: [Int32: ContiguousArray<Candidate>] = [:]
        var byClass: [Int32: ContiguousArray<Candidate>] = [:]
        var byType: [Int32: ContiguousArray<Candidate>] = [:]
        var universal = ContiguousArray<Candidate>()
        var freeByType: [Int32: ContiguousArray<Candidate>] = [:]
        var freeUniversal = ContiguousArray<Candidate>()
        // The rules of one block share its declarations: stored once, at the first of them.
        var blockStarts: [Int: Int32] = [:]
        // A selector listed twice in one block (`Button, Button { … }`) sets the same values at
        // two ranks; only the higher can win, so the lower is left out of the index: a node
        // matching a list of S copies then applies one block, not S.
        struct Listing: Hashable {
            var block: Int
            var selector: String
        }
        let ranked = theme.rules.sorted(by: CascadeOrder.precedes)
        var seenListings = Set<Listing>()
        var kept = [Bool](repeating: true, count: ranked.count)
        for i in ranked.indices.reversed() {
            kept[i] =
                seenListings.insert(Listing(block: ranked[i].block, selector: ranked[i].selector.text))
                .inserted
        }
        for (rank, r) in zip(ranked.indices, ranked).filter({ kept[$0.0] }).map(\.1).enumerated() {
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
                var compound = Compound(
                    type: c.type.map { ids[$0] ?? -2 } ?? -1, name: name, states: required,
                    normal: c.states.contains("normal"), classStart: classStart,
                    classCount: Int32(c.classes.count), combinator: combinator)
                let own = classList[Int(classStart)...]
                if (0..<64).contains(compound.type) { compound.typeMask = 1 << UInt64(compound.type) }
                for k in own where k < 64 { compound.classMask |= 1 << UInt64(k) }
                compound.exact =
                    (compound.type == -1 || (0..<64).contains(compound.type)) && compound.name != -2
                    && !compound.normal && own.allSatisfy { $0 < 64 }
                compounds.append(compound)
            }
            let declStart: Int32
            if let start = blockStarts[r.block] {
                declStart = start
            } else {
                declStart = Int32(declProps.count)
                blockStarts[r.block] = declStart
                for d in r.declarations {
                    declProps.append(Int32(pindex[d.property]!))
                    declValues.append(intern(d.value))
                }
            }
            rules.append(
                Rule(
                    compoundStart: compoundStart, compoundCount: Int32(r.selector.compounds.count),
                    app: r.app.map { id($0, in: &apps) } ?? -1, declarationStart: declStart,
                    declarationCount: Int32(r.declarations.count), order: Int32(r.order)))
            let subject = r.selector.compounds.last!
            let last = compounds[compounds.count - 1]
            let entry = Candidate(
                rank: Int32(rank), states: last.states, exact: last.exact && rules[rules.count - 1].app == -1,
                classMask: last.classMask)
            let containers = r.selector.compounds.count > 1
            if !subject.names.isEmpty {
                // Two different names (`#a#b`, name −2) match nothing: no bucket.
                if last.name >= 0 { byName[last.name, default: []].append(entry) }
            } else if let k = subject.classes.first {
                byClass[classIDs[k]!, default: []].append(entry)
            } else if let t = subject.type, let tid = ids[t] {
                if containers {
                    byType[tid, default: []].append(entry)
                } else {
                    freeByType[tid, default: []].append(entry)
                }
            } else if subject.type == nil {
                if containers { universal.append(entry) } else { freeUniversal.append(entry) }
            }
            // A subject of a type the schema lacks matches nothing and is in no bucket either.
        }
        built.rules = rules
        built.compounds = compounds
        built.classes = classList
        built.declarationProperties = declProps
        built.declarationValues = declValues
        built.byName = (0..<names.count).map { byName[Int32($0)] ?? [] }
        built.byClass = (0..<classIDs.count).map { byClass[Int32($0)] ?? [] }
        built.byType = (0..<typeCount).map { byType[Int32($0)] ?? [] }
        built.universal = universal
        built.freeByType = (0..<typeCount).map { freeByType[Int32($0)] ?? [] }
        built.freeUniversal = freeUniversal
        nameIDs = NameTable(names)
        self.classIDs = NameTable(classIDs)
        appIDs = apps
        table = ValueTable(values)
        built.propertyCount = propertyNames.count
        built.nameIDs = names
        built.classIDs = classIDs
        raw = Raw(built, arena: arena)
    }

    /// The index's budget as the compiler checks it (`IndexBudget.limit`).
    static var indexLimit: Int { IndexBudget.limit }

    /// The index's size as the compiler estimates it (`IndexBudget.size(rules:schema:)`).
    static func indexSize(rules: [CompiledRule], schema: Schema) -> Int {
        IndexBudget.size(rules: rules, schema: schema)
    }
}
