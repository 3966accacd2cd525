/// The compiled form of a theme's rules for fast matching (named after Servo's `selector_map`):
///
/// - rules ranked by cascade precedence, so that a higher rank wins;
/// - bucketed by their subject's most selective part (`#name`, else `.class`, else type, else
///   universal) and its type, so that a node only tries the rules that could match it; rules
///   that are a type alone kept apart (their result depends on the node's type and states only);
/// - the rules with containers matched top-down through container states (`ContainerRules`), so
///   that a candidate's containers are one bit;
/// - types, names, classes and states interned to integers, and everything stored in flat
///   buffers of plain structs (`FrozenTables`), so that matching compares integers and touches no
///   reference counts;
/// - every declared and initial value interned in one table, so that a computed style is an
///   array of `Int32` slots and inheriting it is a copy of integers.
final class SelectorMap: @unchecked Sendable {
    // Safe to share: nothing changes after init; `frozen` holds the tables in memory of its own,
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
    /// 64), and the bit its containers have in a container state (`FrozenTables.containerRules`); its
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
        /// `FrozenTables.declarations`: start, end; 0), set when the tables are frozen.
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
    /// The tables the walker reads, as flat buffers (see `FrozenTables`).
    let frozen: FrozenTables
    /// Owns every buffer of `frozen`, and frees them with the map.
    private let arena = Arena()

    init(theme: CompiledTheme) {
        var builder = Builder(schema: theme.schema)
        var buckets = Buckets()
        for (rank, rule) in Builder.ranked(theme.rules).enumerated() {
            let (candidate, subject) = builder.add(rule, rank: rank)
            buckets.add(
                candidate, subject: subject, firstClass: builder.firstClass(of: subject),
                hasContainers: rule.selector.compounds.count > 1)
        }
        let tables = builder.finish(buckets)
        typeIDs = NameTable(builder.typeIDs)
        nameIDs = NameTable(builder.nameIDs)
        classIDs = NameTable(builder.classIDs)
        appIDs = builder.appIDs
        stateBits = NameTable(builder.stateBits)
        propertyNames = builder.propertyNames
        propertyIndex = builder.propertyIndex
        table = ValueTable(builder.values.values)
        frozen = FrozenTables(tables, arena: arena)
    }

    /// The index's budget as the compiler checks it (`IndexBudget.limit`).
    static var indexLimit: Int { IndexBudget.limit }

    /// The index's size as the compiler estimates it (`IndexBudget.size(rules:schema:)`).
    static func indexSize(rules: [CompiledRule], schema: Schema) -> Int {
        IndexBudget.size(rules: rules, schema: schema)
    }
}

extension SelectorMap {
    /// The rules' candidates by their subject's most selective part, each list in rank order:
    /// `#name`, else the first `.class`, else the type, else `*`; the rules of a type or `*`
    /// alone (no containers) apart from those with containers, since whether they match
    /// depends on the node's type and states only.
    struct Buckets {
        var byName: [Int32: ContiguousArray<Candidate>] = [:]
        var byClass: [Int32: ContiguousArray<Candidate>] = [:]
        var byType: [Int32: ContiguousArray<Candidate>] = [:]
        var universal = ContiguousArray<Candidate>()
        var freeByType: [Int32: ContiguousArray<Candidate>] = [:]
        var freeUniversal = ContiguousArray<Candidate>()

        /// Adds a rule's candidate to the bucket of its subject (the rule's last compound, its
        /// first class id `firstClass` if any). Rules must be added in rank order.
        mutating func add(
            _ candidate: Candidate, subject: Compound, firstClass: Int32?, hasContainers: Bool
        ) {
            if subject.name != -1 {
                // Two different names (`#a#b`, name −2) match nothing: no bucket.
                if subject.name >= 0 { byName[subject.name, default: []].append(candidate) }
            } else if let k = firstClass {
                byClass[k, default: []].append(candidate)
            } else if subject.type >= 0 {
                if hasContainers {
                    byType[subject.type, default: []].append(candidate)
                } else {
                    freeByType[subject.type, default: []].append(candidate)
                }
            } else if subject.type == -1 {
                if hasContainers { universal.append(candidate) } else { freeUniversal.append(candidate) }
            }
            // A subject of a type the schema lacks (−2) matches nothing and is in no bucket either.
        }
    }
}
