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

    /// The tables as they are built, before `Raw` freezes them.
    struct Built {
        var rules = ContiguousArray<Rule>()
        var compounds = ContiguousArray<Compound>()
        var classes = ContiguousArray<Int32>()
        /// Declarations: property index and value slot.
        var declarationProperties = ContiguousArray<Int32>()
        var declarationValues = ContiguousArray<Int32>()
        /// Candidates by subject bucket, each in rank order.
        var byName: [ContiguousArray<Candidate>] = []
        var byClass: [ContiguousArray<Candidate>] = []
        var byType: [ContiguousArray<Candidate>] = []
        var universal = ContiguousArray<Candidate>()
        /// The rules of `byType` and `universal` without containers (see `Raw.freeTypeBuckets`).
        var freeByType: [ContiguousArray<Candidate>] = []
        var freeUniversal = ContiguousArray<Candidate>()
        /// `isKind[sub * typeCount + sup]`: `sub` is `sup` or derives from it.
        var isKind = ContiguousArray<Bool>()
        var typeCount = 0
        /// Each type's chain as ids, most derived first.
        var chains: [[Int32]] = []
        var inherits = ContiguousArray<Bool>()
        /// The initial value of every property, as slots.
        var initialSlots = ContiguousArray<Int32>()
        var propertyCount = 0
        var nameIDs: [String: Int32] = [:]
        var classIDs: [String: Int32] = [:]
    }

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
        let ranked = theme.rules.sorted(by: Cascade.precedes)
        var seenListings = Set<Listing>()
        var kept = [Bool](repeating: true, count: ranked.count)
        for i in ranked.indices.reversed() {
            kept[i] = seenListings.insert(Listing(block: ranked[i].block, selector: ranked[i].selector.text)).inserted
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
        raw = Raw(built)
    }

    deinit { raw.free() }

    /// The most bytes a theme's index may take (`indexSize`); a theme past it is a load error.
    static let indexLimit = 64 << 20

    /// An estimate, in bytes, of the index `init(theme:)` builds for `rules` and of what a
    /// walker allocates for it, counting the tables that grow with the number of types: the
    /// rules whose subject has a name or class, or that have containers, are listed under each
    /// type their subject can be (every type for `*`), and so are the compounds left of a
    /// subject with a name, class or state (48 bytes a listing); each such name, class or state
    /// has a range per type in each index that keys by it (8 bytes); the type-by-type tables
    /// (`isKind`, a byte per pair of types; a walker's direct (type, states) table, 1,280 bytes
    /// a type; the container state's words per type, and a step per type for each compound that
    /// is a type alone, which building them takes); a chunk's fixed 256 bytes per type; and per
    /// type a word for each class and up to 64 `.class` candidates again (`Raw.classMasks`). Small
    /// for real themes (the shipped ones: tens of kilobytes; 10,000 random rules over the
    /// shipped schema: about 5 MB); it grows with rules × types and with types².
    static func indexSize(rules: [CompiledRule], schema: Schema) -> Int {
        let types = schema.types.keys
        let t = types.count
        var subtypes: [String: Int] = [:]
        for type in types { for s in schema.chain(of: type) { subtypes[s, default: 0] += 1 } }
        func listed(_ c: CompoundSelector) -> Int { c.type.map { subtypes[$0] ?? 0 } ?? t }
        var listings = 0
        var subjectKeys = Set<String>()
        var containerKeys = Set<String>()
        var typeAlone = 0
        var longer: [Int] = []  // rules with more than i + 1 compounds, per position i
        var classNames = Set<String>()
        for r in rules {
            let compounds = r.selector.compounds
            for c in compounds { classNames.formUnion(c.classes) }
            let subject = compounds[compounds.count - 1]
            if let key = subject.names.first.map({ "#" + $0 }) ?? subject.classes.first.map({ "." + $0 }) {
                subjectKeys.insert(key)
                listings += listed(subject)
            } else if compounds.count > 1 {
                listings += listed(subject)
            }
            for (i, c) in compounds.dropLast().enumerated() {
                if longer.count <= i { longer.append(0) }
                longer[i] += 1
                if c.names.isEmpty && c.classes.isEmpty && c.states.isEmpty {
                    typeAlone += 1
                } else {
                    containerKeys.insert(
                        c.names.first.map { "#" + $0 } ?? c.classes.first.map { "." + $0 } ?? ":"
                            + c.states[0])
                    listings += listed(c)
                }
            }
        }
        let stateWords = longer.reduce(0) { $0 + ContainerRules.words(forPrefixes: $1) }
        return listings * 48 + (subjectKeys.count + containerKeys.count) * t * 8 + t * t + t * 1_280
            + t * stateWords * 8 + t * typeAlone + t * 256 + t * classNames.count * 8 + t * 64 * 48
    }

    /// A flat, immutable copy of an array, read by pointer: no reference counting, no bounds
    /// checks (every index comes from the tables themselves).
    struct Frozen<T> {
        let base: UnsafeMutablePointer<T>
        let count: Int
        init(_ a: some Collection<T>) {
            base = .allocate(capacity: max(1, a.count))
            count = a.count
            _ = UnsafeMutableBufferPointer(start: base, count: a.count).initialize(from: a)
        }
        @inline(__always) subscript(i: Int) -> T { base[i] }
        func free() {
            base.deinitialize(count: count)
            base.deallocate()
        }
    }

    /// A range of `Raw.candidates`, `Raw.chainTypes`, `Raw.chunkFirst` or
    /// `ContainerRules.entries`.
    struct Bucket {
        var start: Int32
        var count: Int32
    }

    /// The rules with containers, matched top-down: for each node the walker keeps a container
    /// state, a bitset over these rules that says, for each compound left of a subject, whether
    /// the selector's prefix ending with it matches the chain of containers ending at the node
    /// — where the combinator after the compound is `>`; or ending at the node or above it —
    /// where it is a descendant combinator. That is exactly what the next compound's node, a
    /// child or a descendant, needs to know. A child's state is computed from its container's
    /// with word operations and a full test of the few compounds that need one, and a subject
    /// candidate's containers are then one bit of its container's state: exact, and never
    /// searched for — what the ancestor Bloom filter of Servo and WebKit only approximates.
    /// This is the bit-parallel simulation of the selectors' automaton (the matching of CSS
    /// Selectors 4 §16, read left to right).
    ///
    /// Rules are numbered by compound count, most first, so that position `i` (a selector's
    /// compound `i` from the left, before its subject) exists for a prefix of the numbers, and
    /// its bits are `words[i]` words from `offsets[i]` of the state's `stateWords` (an even
    /// number of words a position, the last perhaps unused), followed by two words of all ones
    /// (the first holds the bit of every candidate without containers): `blockWords` words
    /// (`StyleWalker.blocks`). Among rules of one compound count, those of one type bucket
    /// (`Built.byType`, `Built.universal`) are numbered together, so that a type bucket's
    /// container bits are a few runs of consecutive bits (`Raw.typeChunks`).
    struct ContainerRules {
        /// A compound that needs a test of its own, with what the test needs beyond its key and
        /// range (which decide its name and type): its classes' mask and its states (the
        /// compound's `exact` says whether these decide it; if not, `compound` is tested in
        /// full), and where its bit is in a container state: bit `bit` of word `word`, set
        /// when the compound matches and bit `bit` of word `source` of the container's state is
        /// set (the selector's prefix before the compound matched above; for the first compound
        /// `source` is the first all-ones word).
        struct Entry {
            var classMask: UInt64
            var states: UInt64
            var word: Int32
            var source: Int32
            var bit: Int32
            var compound: Int32
            var exact: Bool
        }

        /// Positions: the largest compound count − 1 (0 when no rule has containers).
        let positions: Int
        let words: Frozen<Int32>
        let offsets: Frozen<Int32>
        let stateWords: Int
        let blockWords: Int
        /// Per pair of words of the state (`stateWords / 2`), where the pair its bits extend
        /// starts in the container's state: the same rules' words at the position before, and
        /// for position 0 the all-ones words. `StyleWalker.extendState` computes the whole state
        /// in one loop of the same length for every node (a loop per position mispredicted its
        /// exit as the lengths alternated, and left an odd last word to a scalar step).
        let pairSources: Frozen<Int32>
        /// Per rule, the bit of a container state its candidates test (see `bit(ofRank:)`).
        let bits: Frozen<Int32>
        /// A bitset of `stateWords` words: the bits whose compound is followed by `>`.
        let child: Frozen<UInt64>
        /// Per type (`stateWords` words each): the compounds that are a type alone, or `*`
        /// alone, that a node of the type matches: decided by the type.
        let simple: Frozen<UInt64>
        /// The other compounds (with a name, a class, a state or `:normal`), tested one by one
        /// (`Entry`), under the compound's name (key: name id), else its first class (name
        /// count + class id), else its first state (name count + class count + the state's bit
        /// number), else under the last key (`:normal`). Indexed by the node's type as well:
        /// `typeRanges[keyBase[key] + type]` is the range of `entries` under `key` whose
        /// compound's type is `*` or one a node of `type` is a kind of (an entry is listed for
        /// each such type). A key without entries has base 0, a block of empty ranges.
        let keyBase: Frozen<Int32>
        let typeRanges: Frozen<Bucket>
        let entries: Frozen<Entry>
        let nameCount: Int
        let classCount: Int

        init(_ m: Built) {
            var numbered = m.rules.indices.filter { m.rules[$0].compoundCount > 1 }
            // Type bucket (`typeCount` for the universal one, after them the rules in a name's
            // or class's bucket).
            var bucket = [Int](repeating: m.typeCount + 1, count: m.rules.count)
            for (t, b) in m.byType.enumerated() { for c in b { bucket[Int(c.rank)] = t } }
            for c in m.universal { bucket[Int(c.rank)] = m.typeCount }
            numbered.sort {
                (-m.rules[$0].compoundCount, bucket[$0], $0) < (-m.rules[$1].compoundCount, bucket[$1], $1)
            }
            positions = numbered.first.map { Int(m.rules[$0].compoundCount) - 1 } ?? 0
            var words: [Int32] = []
            var offsets: [Int32] = []
            var total = 0
            for i in 0..<positions {
                let count = numbered.prefix { Int(m.rules[$0].compoundCount) - 2 >= i }.count
                let positionWords = ContainerRules.words(forPrefixes: count)
                offsets.append(Int32(total))
                words.append(Int32(positionWords))
                total += positionWords
            }
            stateWords = total
            blockWords = total + 2
            var sources: [Int32] = []
            for i in 0..<positions {
                for w in stride(from: Int(offsets[i]), to: Int(offsets[i] + words[i]), by: 2) {
                    sources.append(Int32(i == 0 ? total : w + Int(offsets[i - 1]) - Int(offsets[i])))
                }
            }
            pairSources = Frozen(sources)
            var bits = [Int32](repeating: Int32(total * 64), count: m.rules.count)
            nameCount = m.nameIDs.count
            classCount = m.classIDs.count
            var child = [UInt64](repeating: 0, count: total)
            var simple = [UInt64](repeating: 0, count: m.typeCount * total)
            var keyed = [[Entry]](repeating: [], count: nameCount + classCount + 64 + 1)
            for (q, rank) in numbered.enumerated() {
                let r = m.rules[rank]
                let n = Int(r.compoundCount)
                for i in 0..<n - 1 {
                    let at = Int(r.compoundStart) + i
                    let c = m.compounds[at]
                    let word = Int(offsets[i]) + q >> 6
                    let bit = UInt64(1) << UInt64(q & 63)
                    if c.combinator == 2 { child[word] |= bit }
                    if i == n - 2 {
                        bits[rank] = Int32(word * 64 + q & 63)
                    }
                    if c.name == -2 || c.type == -2 { continue }  // matches nothing
                    if c.name == -1 && c.classCount == 0 && c.states == 0 && !c.normal {
                        for t in 0..<m.typeCount where c.type == -1 || m.isKind[t * m.typeCount + Int(c.type)]
                        {
                            simple[t * total + word] |= bit
                        }
                        continue
                    }
                    let key =
                        c.name >= 0
                        ? Int(c.name)
                        : c.classCount > 0
                            ? nameCount + Int(m.classes[Int(c.classStart)])
                            : c.states != 0
                                ? nameCount + classCount + c.states.trailingZeroBitCount : keyed.count - 1
                    keyed[key].append(
                        Entry(
                            classMask: c.classMask, states: c.states, word: Int32(word),
                            source: Int32(i == 0 ? total : Int(offsets[i - 1]) + q >> 6), bit: Int32(q & 63),
                            compound: Int32(at), exact: c.exact))
                }
            }
            self.words = Frozen(words)
            self.offsets = Frozen(offsets)
            self.bits = Frozen(bits)
            self.child = Frozen(child)
            self.simple = Frozen(simple)
            var ranges = [Bucket](repeating: Bucket(start: 0, count: 0), count: m.typeCount)
            var all: [Entry] = []
            var keyBase: [Int32] = []
            for entries in keyed {
                keyBase.append(
                    m.byNodeType(entries, into: &ranges, type: { m.compounds[Int($0.compound)].type }) {
                        listed in
                        defer { all += listed }
                        return Bucket(start: Int32(all.count), count: Int32(listed.count))
                    })
            }
            self.keyBase = Frozen(keyBase)
            typeRanges = Frozen(ranges)
            entries = Frozen(all)
        }

        /// The words a position with `count` prefixes takes: a bit each, in whole pairs of words
        /// (`pairSources`).
        static func words(forPrefixes count: Int) -> Int { ((count + 63) / 64 + 1) / 2 * 2 }

        /// The bit a candidate of rule `rank` tests in its node's container's state: its
        /// compound before the subject matched there (`>`) or there or above (descendant); for
        /// a rule without containers, a bit of the first of the two all-ones words.
        func bit(ofRank rank: Int) -> Int32 { bits[rank] }

        func free() {
            words.free()
            offsets.free()
            pairSources.free()
            bits.free()
            child.free()
            simple.free()
            keyBase.free()
            typeRanges.free()
            entries.free()
        }
    }

    /// A run of consecutive bits of a container state, the container bits of consecutive
    /// candidates of a chunk (`Raw.typeChunks`).
    struct Segment {
        /// The run's first bit: bit `start & 63` of word `start >> 6`.
        var start: Int32
        /// Where the run goes in the chunk's word.
        var shift: Int32
        /// Ones over the run's length.
        var mask: UInt64
    }

    /// The tables the walker reads, as `Frozen` buffers.
    struct Raw {
        /// At most this many segments a chunk.
        static let maxSegments = 8
        /// The set bits of a chunk the walker takes without a branch before it loops over the
        /// rest (`Matcher.collectChunks`).
        static let unrolled = 4

        let rules: Frozen<Rule>
        let compounds: Frozen<Compound>
        let classes: Frozen<Int32>
        /// Declarations as (property index, value slot) pairs, side by side so that applying
        /// one reads one place; each rule's padded to whole groups of four (see `init`).
        let declarations: Frozen<SIMD2<Int32>>
        /// Per rule, its match as the walker records it (`Candidate.match`).
        let matches: Frozen<SIMD4<Int32>>
        /// Every bucket's candidates, one after another.
        let candidates: Frozen<SelectorMap.Candidate>
        /// Per name (and per class) and node type: `keyedRanges[nameBase[name] + type]` (and
        /// `classBase`) is the range of `candidates` whose subject has that name (or, without a
        /// name, that class first) and is `*` or a type a node of `type` is a kind of, in rank
        /// order (a rule is listed for each such type). A name or class without rules has base
        /// 0, a block of empty ranges.
        let nameBase: Frozen<Int32>
        let classBase: Frozen<Int32>
        let keyedRanges: Frozen<Bucket>
        /// The `.class` candidates again, found as the chunks find theirs, for each node type
        /// with at most 64 of them: its list (`classCandidates` from `classFirst[type]`, −1 for
        /// a type with more: the candidates of each class's range for the type, class after
        /// class) and per class a word of bits of that list (`classMasks[type * classCount +
        /// class]`). A node ORs its classes' words and visits the set bits: one load a class,
        /// from a table by type, instead of a chain of loads (its block of ranges, the type's
        /// range) and a loop over each class's bucket (+2–4 % on workload (a), 2 % fewer
        /// instructions). A type with more uses the buckets.
        let classCount: Int
        let classFirst: Frozen<Int32>
        let classMasks: Frozen<UInt64>
        let classCandidates: Frozen<SelectorMap.Candidate>
        /// Per node type, the rules with containers whose subject is a type the node is a kind of
        /// or `*` (with states, `:normal` or an `@app`: `Built.byType` along the type's chain,
        /// and `Built.universal`), as a range of chunks: chunk `i` is up to 64 candidates from
        /// `chunkFirst[i]` of `chunkMatches` and `chunkStates` (each candidate's match,
        /// `Candidate.match`, and required states; both padded with 64 entries, so that reading
        /// up to 64 past a chunk's first stays in bounds), in the order of their
        /// container bits, with `chunkInexact[i]` the bits of those whose subject needs a full
        /// test (see `Candidate.exact`), and `segmentSlots` segments from `segments[i * segmentSlots]`
        /// say where those bits are in a container state (runs of consecutive bits; unused
        /// slots have a zero mask). The walker gathers a chunk's container bits into one word
        /// with a fixed number of shifts and visits its set bits only (on workload (a), 3 of
        /// 28 candidates a node), instead of testing each candidate.
        let typeChunks: Frozen<Bucket>
        let chunkFirst: Frozen<Int32>
        let chunkInexact: Frozen<UInt64>
        /// Per chunk 16 words: `chunkPass[i * 16 + s]` has the bits of the exact candidates
        /// whose required states are among the first four and within `s` (a node's states
        /// below 16), so that a node's exact matches are one AND (the others are inexact).
        let chunkPass: Frozen<UInt64>
        let chunkMatches: Frozen<SIMD4<Int32>>
        let chunkStates: Frozen<UInt64>
        let segments: Frozen<Segment>
        let segmentSlots: Int
        /// Per type, the rules whose selector is that type alone (with states, `:normal` or an
        /// `@app`), and `freeUniversal` those of `*` alone, as ranges of `candidates`: whether
        /// they match depends only on the node's type and states (and the walker's application),
        /// not on its containers, so the walker keeps their result per (type, states).
        let freeTypeBuckets: Frozen<Bucket>
        let freeUniversal: Bucket
        let isKind: Frozen<Bool>
        let typeCount: Int
        /// Per type, its range of `chainTypes`.
        let chainRanges: Frozen<Bucket>
        let chainTypes: Frozen<Int32>
        /// Per type: the bits of the types it is a kind of (ids below 64).
        let kindMasks: Frozen<UInt64>
        let containerRules: ContainerRules
        let initial: Frozen<Int32>
        /// Per property, −1 where it inherits, else 0.
        let inheritMask: Frozen<Int32>
        let propertyCount: Int

        init(_ m: Built) {
            // Each rule's declarations padded to a multiple of four (at least four) with writes
            // to slot `propertyCount` (one past a row's properties, a scratch slot every row
            // has), so that applying a rule is whole groups of four writes, with no branch on
            // its declaration count.
            // Rules that share declarations (one block's selectors) share the padded copy.
            var rules = m.rules
            var padded: [SIMD2<Int32>] = []
            // Keyed by start and count: a block without declarations starts where the next begins.
            var paddedStarts: [SIMD2<Int32>: Int32] = [:]
            for i in rules.indices {
                let start = Int(rules[i].declarationStart)
                let count = Int(rules[i].declarationCount)
                let key = SIMD2(Int32(start), Int32(count))
                if let shared = paddedStarts[key] {
                    rules[i].declarationStart = shared
                    continue
                }
                paddedStarts[key] = Int32(padded.count)
                rules[i].declarationStart = Int32(padded.count)
                for d in start..<start + count {
                    padded.append(SIMD2(m.declarationProperties[d], m.declarationValues[d]))
                }
                let groups = max(1, (count + 3) / 4)
                for _ in count..<groups * 4 { padded.append(SIMD2(Int32(m.propertyCount), 0)) }
            }
            self.rules = Frozen(rules)
            compounds = Frozen(m.compounds)
            classes = Frozen(m.classes)
            declarations = Frozen(padded)
            let containerRules = ContainerRules(m)
            self.containerRules = containerRules
            var all: [SelectorMap.Candidate] = []
            func matchOf(_ rank: Int) -> SIMD4<Int32> {
                let r = rules[rank]
                return SIMD4(Int32(rank), r.declarationStart, r.declarationStart + r.declarationCount, 0)
            }
            self.matches = Frozen(rules.indices.map(matchOf))
            func append(_ b: ContiguousArray<SelectorMap.Candidate>) -> Bucket {
                defer {
                    all += b.map {
                        var c = $0
                        c.container = containerRules.bit(ofRank: Int($0.rank))
                        c.match = matchOf(Int($0.rank))
                        return c
                    }
                }
                return Bucket(start: Int32(all.count), count: Int32(b.count))
            }
            // Type buckets in chunks (`typeChunks`).
            var chunkFirst: [Int32] = []
            var chunkInexact: [UInt64] = []
            var chunkPass: [UInt64] = []
            var chunkMatches: [SIMD4<Int32>] = []
            var chunkStates: [UInt64] = []
            var chunkSegments: [[Segment]] = []
            func chunked(_ b: ContiguousArray<SelectorMap.Candidate>) -> Bucket {
                let start = chunkFirst.count
                let sorted = b.map {
                    var c = $0
                    c.container = containerRules.bit(ofRank: Int($0.rank))
                    return c
                }.sorted { $0.container < $1.container }
                var i = 0
                while i < sorted.count {
                    var segments: [Segment] = []
                    var used = 0
                    chunkFirst.append(Int32(chunkMatches.count + i))
                    let chunkStart = i
                    var inexact: UInt64 = 0
                    while i < sorted.count && used < 64 && segments.count < Raw.maxSegments {
                        var length = 1
                        while i + length < sorted.count && used + length < 64
                            && sorted[i + length].container == sorted[i].container + Int32(length)
                        {
                            length += 1
                        }
                        for j in 0..<length {
                            let c = sorted[i + j]
                            // Past the first four states: tested one by one with the inexact.
                            if !c.exact || c.states >= 16 { inexact |= 1 << UInt64(used + j) }
                        }
                        segments.append(
                            Segment(
                                start: sorted[i].container, shift: Int32(used),
                                mask: length == 64 ? ~0 : (1 << UInt64(length)) - 1))
                        used += length
                        i += length
                    }
                    chunkSegments.append(segments)
                    chunkInexact.append(inexact)
                    for states in UInt64(0)..<16 {
                        var pass: UInt64 = 0
                        for j in 0..<used where sorted[chunkStart + j].states & ~states == 0 {
                            pass |= 1 << UInt64(j)
                        }
                        chunkPass.append(pass & ~inexact)
                    }
                }
                chunkMatches += sorted.map { matchOf(Int($0.rank)) }
                chunkStates += sorted.map(\.states)
                return Bucket(start: Int32(start), count: Int32(chunkFirst.count - start))
            }
            typeChunks = Frozen(
                m.chains.map { chain in
                    chunked(ContiguousArray(chain.flatMap { m.byType[Int($0)] } + m.universal))
                })
            let slots = chunkSegments.map(\.count).max() ?? 1
            segmentSlots = slots
            chunkMatches += Array(repeating: SIMD4(0, 0, 0, 0), count: 64)
            chunkStates += Array(repeating: 0, count: 64)
            self.chunkFirst = Frozen(chunkFirst)
            self.chunkInexact = Frozen(chunkInexact)
            self.chunkPass = Frozen(chunkPass)
            self.chunkMatches = Frozen(chunkMatches)
            self.chunkStates = Frozen(chunkStates)
            segments = Frozen(
                chunkSegments.flatMap {
                    $0 + Array(repeating: Segment(start: 0, shift: 0, mask: 0), count: slots - $0.count)
                })
            freeTypeBuckets = Frozen(m.freeByType.map(append))
            freeUniversal = append(m.freeUniversal)
            // `#name` and `.class` buckets by the node's type as well (`keyedRanges`; a subject
            // of a type the schema lacks matches nothing, and is in none).
            var keyedRanges = [Bucket](repeating: Bucket(start: 0, count: 0), count: m.typeCount)
            func byType(_ b: ContiguousArray<SelectorMap.Candidate>) -> Int32 {
                m.byNodeType(Array(b), into: &keyedRanges, type: { m.subjectType(ofRank: Int($0.rank)) }) {
                    append(ContiguousArray($0))
                }
            }
            nameBase = Frozen(m.byName.map(byType))
            let classBases = m.byClass.map(byType)
            classBase = Frozen(classBases)
            self.keyedRanges = Frozen(keyedRanges)
            candidates = Frozen(all)
            // The class lists and masks, per node type, from the buckets just laid out.
            let classes = classBases.count
            classCount = classes
            var first = [Int32](repeating: -1, count: m.typeCount)
            var masks = [UInt64](repeating: 0, count: m.typeCount * classes)
            var listed: [SelectorMap.Candidate] = []
            for t in 0..<m.typeCount {
                let ranges = classBases.map { base in
                    base == 0 ? Bucket(start: 0, count: 0) : keyedRanges[Int(base) + t]
                }
                guard ranges.reduce(0, { $0 + Int($1.count) }) <= 64 else { continue }
                first[t] = Int32(listed.count)
                for (c, range) in ranges.enumerated() {
                    for i in Int(range.start)..<Int(range.start + range.count) {
                        masks[t * classes + c] |= 1 << UInt64(listed.count - Int(first[t]))
                        listed.append(all[i])
                    }
                }
            }
            classFirst = Frozen(first)
            classMasks = Frozen(masks)
            classCandidates = Frozen(listed)
            isKind = Frozen(m.isKind)
            typeCount = m.typeCount
            var ranges: [Bucket] = []
            for c in m.chains {
                ranges.append(
                    Bucket(start: Int32(ranges.last.map { $0.start + $0.count } ?? 0), count: Int32(c.count)))
            }
            chainRanges = Frozen(ranges)
            kindMasks = Frozen(
                m.chains.map { chain in chain.reduce(UInt64(0)) { $1 < 64 ? $0 | 1 << UInt64($1) : $0 } })
            chainTypes = Frozen(m.chains.joined())
            initial = Frozen(m.initialSlots)
            inheritMask = Frozen(m.inherits.map { $0 ? Int32(-1) : 0 })
            propertyCount = m.propertyCount
        }

        func free() {
            rules.free()
            compounds.free()
            classes.free()
            declarations.free()
            candidates.free()
            nameBase.free()
            classBase.free()
            classFirst.free()
            classMasks.free()
            classCandidates.free()
            keyedRanges.free()
            typeChunks.free()
            chunkFirst.free()
            chunkInexact.free()
            chunkPass.free()
            chunkMatches.free()
            matches.free()
            chunkStates.free()
            segments.free()
            freeTypeBuckets.free()
            isKind.free()
            chainRanges.free()
            kindMasks.free()
            chainTypes.free()
            containerRules.free()
            initial.free()
            inheritMask.free()
        }
    }

    /// A node on interned ids; its classes are `count` entries of the walker's class stack from
    /// `classStart`.
    struct Node {
        var type: Int32
        /// Name id, −1 for none, −3 for a name no selector uses.
        var name: Int32
        var states: UInt64
        /// In some state other than `normal`.
        var inAnyState: Bool
        /// At most one of its classes has an id of 64 or more (`highClass`), so that its class
        /// mask and that class say which classes it has: what style sharing compares
        /// (`StyleWalker.ShareKey`). Derivable (`classCount` is the mask's population count, plus
        /// one for `highClass`), but kept: baseline x86-64 has no population count instruction.
        var shareable = true
        var classStart: Int32
        var classCount: Int32
        /// Its class with an id of 64 or more, if it has one (−1 if not).
        var highClass: Int32 = -1
        /// The bits of the types it is a kind of, and of its classes (ids below 64).
        var kinds: UInt64 = 0
        var classMask: UInt64 = 0
    }
}

extension SelectorMap.Built {
    /// The type of rule `rank`'s subject (−1 for `*`).
    func subjectType(ofRank rank: Int) -> Int32 {
        let r = rules[rank]
        return compounds[Int(r.compoundStart) + Int(r.compoundCount) - 1].type
    }

    /// The index by node type that `ContainerRules.typeRanges` and `Raw.keyedRanges` are: for a
    /// non-empty list of `items`, `typeCount` ranges appended to `ranges`, one per node type, of
    /// the items whose type (`type`: −1 for `*`, other negative ids match nothing) a node of
    /// that type is a kind of, laid out by `store`. An empty list gets none.
    /// - Returns: the list's first range in `ranges`, or 0 for an empty list (the caller puts a
    ///   block of empty ranges first).
    func byNodeType<Item>(
        _ items: [Item], into ranges: inout [SelectorMap.Bucket], type: (Item) -> Int32,
        store: ([Item]) -> SelectorMap.Bucket
    ) -> Int32 {
        guard !items.isEmpty else { return 0 }
        let base = Int32(ranges.count)
        for t in 0..<typeCount {
            ranges.append(
                store(
                    items.filter {
                        let type = Int(type($0))
                        return type == -1 || (type >= 0 && isKind[t * typeCount + type])
                    }))
        }
        return base
    }
}

extension SelectorMap.Raw {
    /// Whether compound `c` matches node `n`: the masks first, and when they decide (`exact`)
    /// the name and states; otherwise type, name, states and each class in turn.
    @inline(__always)
    func compoundMatches(
        _ c: SelectorMap.Compound, _ n: SelectorMap.Node, _ nodeClasses: UnsafePointer<Int32>
    )
        -> Bool
    {
        if c.typeMask & n.kinds != c.typeMask || c.classMask & n.classMask != c.classMask { return false }
        if c.exact { return (c.name == -1 || c.name == n.name) && c.states & n.states == c.states }
        if c.type != -1 {
            if c.type < 0 || !isKind[Int(n.type) * typeCount + Int(c.type)] { return false }
        }
        if c.name != -1 && c.name != n.name { return false }
        if c.states & n.states != c.states { return false }
        if c.normal && n.inAnyState { return false }
        var k = Int(c.classStart)
        let end = k + Int(c.classCount)
        while k < end {
            let wanted = classes[k]
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

/// A forest of component trees with their types, names, classes and states interned for one
/// compiled theme: what a toolkit keeps per widget (as GTK keeps a CSS node's name and classes
/// as `GQuark`s, and browsers keep atoms), so that styling a tree compares integers only.
public struct StyleForest: Sendable {
    /// One node, in preorder; the root of each tree has depth 1.
    struct Entry {
        var depth: Int32
        /// Its container has other children (or, for a root, there are other roots): only
        /// then can it share a style with a sibling.
        var hasSiblings = true
        /// Its classes are `classes[node.classStart ..< node.classStart + node.classCount]`.
        var node: SelectorMap.Node
    }
    var entries: [Entry] = []
    var classes: [Int32] = []
    /// The selector map whose ids these are: a walker of another theme refuses the forest.
    let map: SelectorMap
    /// The number of nodes.
    public var count: Int { entries.count }

    /// Interns `trees` for `cascade`: each tree in preorder, with every node's depth (the root's
    /// 1, and each node at most one deeper than the node before it).
    /// - Returns: nil when some node's type is unknown to the cascade's schema, or a depth breaks
    ///   the preorder.
    public init?(_ trees: [[(node: PathNode, depth: Int)]], for cascade: Cascade) {
        map = cascade.map
        for tree in trees {
            var previous = 0
            for (node, depth) in tree {
                guard depth >= 1, depth <= previous + 1, depth <= Int(Int32.max),
                    let n = map.intern(node, classes: &classes)
                else { return nil }
                entries.append(Entry(depth: Int32(depth), node: n))
                previous = depth
            }
        }
        // Each entry's container (−1 for roots), and how many children each container has.
        var children = [Int32](repeating: 0, count: entries.count + 1)
        var containers = [Int](repeating: -1, count: entries.count)
        var open: [Int] = []
        for i in entries.indices {
            let depth = Int(entries[i].depth)
            if depth == 1 { open.removeAll(keepingCapacity: true) }
            while open.count >= depth { open.removeLast() }
            containers[i] = open.last ?? -1
            children[containers[i] + 1] += 1
            open.append(i)
        }
        for i in entries.indices { entries[i].hasSiblings = children[containers[i] + 1] > 1 }
    }
}

extension SelectorMap {
    /// `node` on interned ids, its known classes appended to `classes`, each once (a class no
    /// selector uses cannot affect matching, and is left out).
    /// - Returns: nil when the node's type is unknown to the schema.
    func intern(_ node: PathNode, classes: inout [Int32]) -> Node? {
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: max(1, node.classes.count)) { buffer in
            guard var n = intern(node, into: buffer.baseAddress!) else { return nil }
            n.classStart = Int32(classes.count)
            classes.append(contentsOf: buffer.prefix(Int(n.classCount)))
            return n
        }
    }

    /// `node` on interned ids, its known classes written to `classes` (room for all of the
    /// node's), each once; the node's `classStart` is left 0 for the caller to set.
    /// - Returns: nil when the node's type is unknown to the schema.
    @inline(__always)
    func intern(_ node: PathNode, into classes: UnsafeMutablePointer<Int32>) -> Node? {
        guard let type = typeIDs[node.type] else { return nil }
        var n = Node(
            type: type, name: node.name.map { nameIDs[$0] ?? -3 } ?? -1, states: 0, inAnyState: false,
            classStart: 0, classCount: 0)
        for s in node.states where s != "normal" {
            n.inAnyState = true
            n.states |= stateBits[s] ?? 0
        }
        for k in node.classes {
            // A class written twice is one class (and is looked up in its bucket once: the
            // walker's match list has room for each rule once).
            guard let id = classIDs[k] else { continue }
            var seen = false
            for j in 0..<Int(n.classCount) where classes[j] == id { seen = true }
            if !seen {
                classes[Int(n.classCount)] = id
                n.classCount += 1
                if id < 64 {
                    n.classMask |= 1 << UInt64(id)
                } else {
                    n.shareable = n.highClass < 0
                    n.highClass = id
                }
            }
        }
        n.kinds = raw.kindMasks[Int(type)]
        return n
    }
}

/// Computes styles node by node down a tree (or a path): each node's style from its container's
/// style, its containers' state (`SelectorMap.ContainerRules`) and the rules that match it.
///
/// Everything lives in flat buffers allocated once and grown with the depth: the node stack,
/// the container states, and per level a row of property slots (a node's row starts as its
/// container's values where a property inherits, and a template kept per (type, states)
/// elsewhere): a node with the same type, name, classes and states as its last sibling keeps
/// the sibling's row, since the sheet language has no sibling combinators, so such nodes
/// match the same rules (Servo's and Blink's "style sharing"). The table of container-free
/// results and templates (`freeTable`) grows with the (type, states) pairs met. Noncopyable,
/// because it owns those buffers.
public struct StyleWalker: ~Copyable {
    /// How rules are found: `indexed` (the selector map, container states, style sharing),
    /// `naive` (every rule tested against every node; the ablation), `floor` (no rules at all:
    /// only inheritance and initial values; the lower bound).
    public enum Mode: Sendable { case indexed, naive, floor }

    let map: SelectorMap
    let raw: SelectorMap.Raw
    /// A copy of `raw` at a fixed address, for `Matcher`.
    let tables: UnsafeMutablePointer<SelectorMap.Raw>
    let app: Int32
    let mode: Mode
    /// Properties per style row.
    let width: Int
    /// Slots per row of `rows` and `winnerRows`: the properties and one scratch slot that
    /// padding declarations write (`Raw.declarations`).
    let stride: Int
    /// Records the winning rule of every property (for cross-checks); off by default. Switching
    /// it forgets the sharing keys recorded so far, so that no node shares a row whose winners
    /// were not recorded (a walk that switched it on between two alike siblings read the
    /// second's winners from memory never written).
    public var tracksWinners = false {
        didSet { shareKeys.update(repeating: ShareKey.none, count: capacity + 1) }
    }

    /// Nodes on the stack.
    public private(set) var depth = 0
    /// Levels the buffers hold.
    var capacity = 0
    var nodes: UnsafeMutablePointer<SelectorMap.Node>
    /// Per level, a row of `stride` slots: the style of the level's node, kept after it is
    /// popped, so that a next sibling with the same key (`shareKeys`) shares it without a
    /// copy: `row(k) ..< row(k) + width` is the style of node `k`.
    var rows: UnsafeMutablePointer<Int32>
    var winnerRows: UnsafeMutablePointer<Int32>
    /// `blocks + k * blockWords`: the container state of node `k`'s containers (block 0: none,
    /// for a root), one more than nodes (`SelectorMap.ContainerRules`).
    var blocks: UnsafeMutablePointer<UInt64>
    let blockWords: Int
    /// The classes of the nodes on the stack.
    var nodeClasses: UnsafeMutablePointer<Int32>
    var nodeClassCount = 0
    var nodeClassCapacity = 64
    /// Style sharing, per level: the key of the node whose style the level's row holds, or
    /// `ShareKey.none` when it may not be shared (no node yet, winners tracked, a node that
    /// is not `SelectorMap.Node.shareable` or has no siblings). A node is compared with its
    /// last sibling only, as a list of alike cells needs: remembering the last two (so that
    /// an alternation of two kinds shares too) measured 2 % slower on workload (a), where
    /// siblings rarely share, and the last four or eight slower still.
    var shareKeys: UnsafeMutablePointer<ShareKey>
    /// How many nodes took their last sibling's style (for tests).
    var sharedNodes = 0
    /// The matches of the node being pushed (`Candidate.match`; and `matchFree`'s scratch):
    /// room for every rule once, and for the slot past the last match that the collectors
    /// write without a branch when a candidate does not match (a heap overflow when the
    /// list had room for the rules only and every rule matched); `matched[-1]` is the sort's
    /// sentinel (rank `Int32.min`), the allocation starting one slot before.
    var matched: UnsafeMutablePointer<SIMD4<Int32>>
    /// Whether the node being pushed may have siblings (`StyleForest.Entry.hasSiblings`; always
    /// when pushed from a path): when not, its key is not recorded, there being no sibling to
    /// serve.
    var hasSiblings = true
    /// The container states `blocks` holds for levels `0 ... readyDepth`: a node's state for its
    /// children is computed when its first child is pushed (leaves never need one).
    var readyDepth = 0
    /// What the container-free rules (`Raw.freeTypeBuckets`, `Raw.freeUniversal`) that match
    /// each (type, states) met so far set, already cascaded among themselves: an open-addressed
    /// table (`freeCapacity` a power of two, at most half full) of `FreeEntry`. Their match
    /// depends on nothing else while the walker lives (its application is fixed), so a node
    /// applies the entry's values instead of testing and sorting those rules (as Blink's
    /// matched-properties cache and GTK's style cache key results by what they depend on); the
    /// node's other matches then override a value only with a higher rank.
    var freeTable: UnsafeMutablePointer<FreeEntry>
    /// The rows of `freeTable`'s entries for states below 16 (the first four), directly by
    /// type, states and `inAnyState` (`type << 5 | states << 1 | inAnyState`): the entry's
    /// `rows` + 1, 0 when not met yet; what most nodes look up, without hashing.
    var freeDirect: UnsafeMutablePointer<Int32>
    var freeCapacity = 16
    var freeCount = 0
    /// Per entry `FreeRow.count` rows of `stride` from its `rows`: the template of a node's
    /// row — −1 where the property inherits and no container-free rule sets it (the node takes
    /// its container's value), else the winning rule's value or the initial one; each
    /// property's winning rank among the entry's rules (−1 where none set it); and the winning
    /// rule's source order (for `tracksWinners`). The template is one row, not a mask and a
    /// row of values, so that a node reads 256 bytes of it rather than 512 (by callgrind's
    /// cache model the two rows missed the L1 cache 5.6 times a node on workload (a), with 242
    /// entries; the time did not change measurably, the misses being hits in L2).
    var freeRows: UnsafeMutablePointer<Int32>
    var freeRowCapacity: Int
    /// A row of `stride` −1s: the ranks to beat when no rule was applied before (naive mode).
    var noRanks: UnsafeMutablePointer<Int32>

    /// One (type, states) of `freeTable` and where its rows start in `freeRows`; `type` −1
    /// marks an empty entry.
    struct FreeEntry {
        var states: UInt64
        var type: Int32
        var inAnyState: Bool
        var rows: Int32

        static let empty = FreeEntry(states: 0, type: -1, inAnyState: false, rows: 0)
    }

    /// Row `row` (a `FreeRow`) of the entry of `freeTable` whose rows start at `entry`.
    @inline(__always)
    func freeRow(_ entry: Int, _ row: Int) -> UnsafeMutablePointer<Int32> {
        freeRows + (entry &+ row &* stride)
    }

    /// The slot of `freeDirect` for `n`'s type and states, when they are among the first four
    /// (`n.states < 16`; the caller checks).
    @inline(__always)
    func freeDirectSlot(_ n: SelectorMap.Node) -> Int {
        Int(n.type) &<< 5 | Int(truncatingIfNeeded: n.states) &<< 1 | (n.inAnyState ? 1 : 0)
    }

    /// The rows of an entry of `freeTable`, in `stride`s from its `rows`.
    enum FreeRow {
        static let template = 0
        static let ranks = 1
        static let orders = 2
        static let count = 3
    }

    /// What decides a node's style among its siblings, as 8 lanes compared at once: type,
    /// name, states (low and high word), the class mask (low and high word), the class count
    /// and `inAnyState` (`count << 1 | inAnyState`), and the class with an id of 64 or more
    /// (−1 for none). For a `SelectorMap.Node.shareable` node (the only ones compared) that
    /// says which classes it has: they are distinct, so the mask and that class are all of them.
    struct ShareKey {
        var lanes: SIMD8<Int32>

        /// No node's key (a type of −1). Computed, not stored: a stored static is initialised
        /// lazily, and each push paid a `swift_once` call for it (1 % on workload (a)).
        static var none: ShareKey { ShareKey(lanes: SIMD8(repeating: -1)) }
    }

    /// - Parameters:
    ///   - cascade: the compiled theme.
    ///   - app: the asking application (its `@app` rules apply).
    ///   - mode: how rules are found.
    public init(_ cascade: Cascade, app: String? = nil, mode: Mode = .indexed) {
        self.init(map: cascade.map, app: app.map { cascade.map.appIDs[$0] ?? -2 } ?? -3, mode: mode)
    }

    /// An application no rule names gets an id no rule has (−2); none is −3.
    private init(map: SelectorMap, app: Int32, mode: Mode) {
        self.map = map
        self.raw = map.raw
        tables = .allocate(capacity: 1)
        tables.initialize(to: map.raw)
        self.app = app
        self.mode = mode
        width = raw.propertyCount
        stride = width + 1
        let levels = 16
        capacity = levels
        nodes = .allocate(capacity: levels)
        rows = .allocate(capacity: levels * stride)
        winnerRows = .allocate(capacity: levels * stride)
        blockWords = raw.containerRules.blockWords
        blocks = .allocate(capacity: (levels + 1) * blockWords)
        blocks.initialize(repeating: 0, count: blockWords - 2)
        (blocks + blockWords - 2).initialize(repeating: ~0, count: 2)
        nodeClasses = .allocate(capacity: nodeClassCapacity)
        // Every level's key is compared before any is recorded: all are initialised.
        shareKeys = .allocate(capacity: levels + 1)
        shareKeys.initialize(repeating: ShareKey.none, count: levels + 1)
        // One slot before the list holds a rank below every rule's: the insertion sort's
        // sentinel, so that its inner loop tests one condition (+0–2 % on workload (a)).
        matched = .allocate(capacity: raw.rules.count + SelectorMap.Raw.unrolled + 2) + 1
        matched[-1] = SIMD4(Int32.min, 0, 0, 0)
        freeTable = .allocate(capacity: freeCapacity)
        freeDirect = .allocate(capacity: max(1, raw.typeCount) << 5)
        freeDirect.initialize(repeating: 0, count: max(1, raw.typeCount) << 5)
        freeTable.initialize(
            repeating: FreeEntry.empty,
            count: freeCapacity)
        freeRowCapacity = 8 * FreeRow.count * (raw.propertyCount + 1)
        freeRows = .allocate(capacity: freeRowCapacity)
        noRanks = .allocate(capacity: raw.propertyCount + 1)
        noRanks.initialize(repeating: -1, count: raw.propertyCount + 1)
    }

    deinit {
        tables.deinitialize(count: 1)
        tables.deallocate()
        nodes.deallocate()
        rows.deallocate()
        winnerRows.deallocate()
        blocks.deallocate()
        nodeClasses.deallocate()
        shareKeys.deallocate()
        (matched - 1).deallocate()
        freeTable.deallocate()
        freeDirect.deallocate()
        freeRows.deallocate()
        noRanks.deallocate()
    }

    /// Property names in the order of `ComputedStyle.slots`.
    public var propertyNames: [String] { map.propertyNames }

    /// The row of level `k` (`rows`).
    @inline(__always)
    func row(_ k: Int) -> UnsafeMutablePointer<Int32> { rows + k &* stride }

    /// The style of the node on top of the stack.
    public var top: ComputedStyle? {
        guard depth > 0 else { return nil }
        return ComputedStyle(
            slots: ContiguousArray(UnsafeBufferPointer(start: row(depth - 1), count: width)),
            table: map.table,
            winners: tracksWinners
                ? ContiguousArray(UnsafeBufferPointer(start: winnerRows + (depth - 1) * stride, count: width))
                : [])
    }

    /// The value a slot of `topSlots` (or of `resolve`'s rows) stands for.
    public func value(ofSlot slot: Int32) -> Value { map.table.values[Int(slot)] }

    /// The slots of the node on top of the stack (as `ComputedStyle.slots`), valid until the
    /// next push or pop; empty when the stack is.
    public var topSlots: UnsafeBufferPointer<Int32> {
        UnsafeBufferPointer(
            start: depth > 0 ? row(depth - 1) : rows, count: depth > 0 ? width : 0)
    }

    /// The container state for the children of the node on top of the stack (computed now if
    /// no child has been pushed yet); meaningful in the indexed mode only.
    mutating func childState() -> ContiguousArray<UInt64> {
        readyState(depth)
        return ContiguousArray(UnsafeBufferPointer(start: blocks + depth * blockWords, count: blockWords))
    }

    /// Computes the container state for the children of the node at level `level − 1`, unless
    /// it is there already.
    @inline(__always)
    private mutating func readyState(_ level: Int) {
        guard mode == .indexed && readyDepth < level else { return }
        extendState(level &- 1, nodes[level &- 1])
        readyDepth = level
    }

    /// Enters `node` as a child of the current top and computes its style.
    /// - Parameter node: The child node; pop it to return to its container.
    /// - Returns: nil when the node's type is unknown to the schema.
    @discardableResult
    public mutating func push(_ node: PathNode) -> ComputedStyle? {
        guard enter(node) else { return nil }
        return top
    }

    /// `push` without materialising the style: read it with `topSlots`.
    /// - Returns: false when the node's type is unknown to the schema (nothing was pushed).
    public mutating func enter(_ node: PathNode) -> Bool {
        guard let n = stacked(node) else { return false }
        pushInterned(n)
        return true
    }

    /// `node` interned, with room made for it and its classes put on the class stack.
    /// - Returns: nil when the node's type is unknown to the schema.
    private mutating func stacked(_ node: PathNode) -> SelectorMap.Node? {
        reserve(depth + 1, classes: node.classes.count)
        guard var n = map.intern(node, into: nodeClasses + nodeClassCount) else { return nil }
        n.classStart = Int32(nodeClassCount)
        nodeClassCount += Int(n.classCount)
        return n
    }

    /// Styles every node of `forest`, calling `visit` with each node's index and slots (valid
    /// during the call only), in preorder. The walker must be empty, and is again afterwards.
    public mutating func resolve(_ forest: StyleForest, _ visit: (Int, UnsafeBufferPointer<Int32>) -> Void) {
        precondition(depth == 0, "resolve(_:_:) needs an empty walker")
        precondition(forest.map === map, "resolve(_:_:) needs a forest interned for the walker's theme")
        forest.entries.withUnsafeBufferPointer { entries in
            forest.classes.withUnsafeBufferPointer { classes in
                for i in 0..<entries.count {
                    let e = entries[i]
                    while depth >= Int(e.depth) { pop() }
                    var n = e.node
                    reserve(depth + 1, classes: Int(n.classCount))
                    let from = Int(n.classStart)
                    n.classStart = Int32(nodeClassCount)
                    for j in 0..<Int(n.classCount) { nodeClasses[nodeClassCount + j] = classes[from + j] }
                    nodeClassCount += Int(n.classCount)
                    hasSiblings = e.hasSiblings
                    pushInterned(n)
                    visit(i, UnsafeBufferPointer(start: row(depth &- 1), count: width))
                }
            }
        }
        while depth > 0 { pop() }
        hasSiblings = true
    }

    /// Makes room for `levels` nodes and `classes` more classes.
    private mutating func reserve(_ levels: Int, classes: Int) {
        if nodeClassCount + classes > nodeClassCapacity {
            let bigger = max(nodeClassCapacity * 2, nodeClassCount + classes)
            StyleWalker.grow(&nodeClasses, keeping: nodeClassCount, to: bigger)
            nodeClassCapacity = bigger
        }
        guard levels + 1 > capacity else { return }
        let old = capacity
        let new = max(capacity * 2, levels + 1)
        StyleWalker.grow(&nodes, keeping: old, to: new)
        StyleWalker.grow(&rows, keeping: old * stride, to: new * stride)
        StyleWalker.grow(&winnerRows, keeping: old * stride, to: new * stride)
        StyleWalker.grow(&blocks, keeping: (old + 1) * blockWords, to: (new + 1) * blockWords)
        StyleWalker.grow(&shareKeys, keeping: old + 1, to: new + 1)
        (shareKeys + old + 1).initialize(repeating: ShareKey.none, count: new - old)
        capacity = new
    }

    private static func grow<T>(_ p: inout UnsafeMutablePointer<T>, keeping count: Int, to capacity: Int) {
        let q = UnsafeMutablePointer<T>.allocate(capacity: capacity)
        q.moveInitialize(from: p, count: count)
        p.deallocate()
        p = q
    }

    /// Computes the container state for the children of node `k` (`n`, on the stack) from its
    /// containers' (`SelectorMap.ContainerRules`): per position, the prefixes that may extend
    /// here (position 0: all; then those the container's state has at the position before),
    /// those of them whose compound `n` matches (a type alone by the type's bits, the rest
    /// tested one by one), and, for a descendant combinator, those the container's state has.
    private mutating func extendState(_ k: Int, _ n: SelectorMap.Node) {
        let rules = raw.containerRules
        let words = rules.stateWords
        let above = blocks + k &* blockWords
        let here = blocks + (k &+ 1) &* blockWords
        let simple = rules.simple.base + Int(n.type) &* words
        // Per pair of words: the prefixes that may extend here (those the container's state has
        // at the position before; all, at position 0) and end with a type alone the node is,
        // and, for a descendant combinator, those the container's state has. As SIMD2 loads and
        // stores (LLVM leaves this loop scalar, since the pointers may alias: +1.5–2 % on
        // workload (a); four words at a time, no gain on baseline x86-64).
        typealias Pair = SIMD2<UInt64>
        let to = UnsafeMutableRawPointer(here)
        let from = UnsafeRawPointer(above)
        let types = UnsafeRawPointer(simple)
        let children = UnsafeRawPointer(rules.child.base)
        func pair(_ p: UnsafeRawPointer, _ word: Int) -> Pair {
            p.loadUnaligned(fromByteOffset: word &* 8, as: Pair.self)
        }
        let sources = rules.pairSources.base
        @inline(__always)
        func extend(_ j: Int) {
            let w = j &* 2
            let v = pair(from, Int(sources[j])) & pair(types, w) | pair(from, w) & ~pair(children, w)
            to.storeBytes(of: v, toByteOffset: w &* 8, as: Pair.self)
        }
        // Two pairs an iteration (LLVM does not unroll it).
        let pairs = words / 2
        var j = 0
        while j &+ 2 <= pairs {
            extend(j)
            extend(j &+ 1)
            j &+= 2
        }
        if j < pairs { extend(j) }
        // The other compounds: each whose prefix may extend here, tested by its masks,
        // states and name without a branch (whether one matches is hard to predict); the few
        // the masks cannot decide, in full.
        let classMask = n.classMask
        let states = n.states
        let type = Int(n.type)
        func gather(_ key: Int) {
            let range = rules.typeRanges[Int(rules.keyBase[key]) &+ type]
            // By pointer: no index scaled by the entry's size, and no check of the range.
            var e = rules.entries.base + Int(range.start)
            let end = e + Int(range.count)
            while e < end {
                let entry = e.pointee
                e += 1
                let bit = UInt64(truncatingIfNeeded: entry.bit)
                let may = above[Int(entry.source)] &>> bit & 1
                // The key decided the name (the node's) and the range the type (one the node is
                // a kind of, or `*`): the classes and states are left, tested without a branch.
                let missing = entry.classMask & ~classMask | entry.states & ~states
                if entry.exact {
                    here[Int(entry.word)] |= (missing == 0 ? may : 0) &<< bit
                } else if may != 0
                    && raw.compoundMatches(raw.compounds[Int(entry.compound)], n, nodeClasses)
                {
                    here[Int(entry.word)] |= 1 &<< bit
                }
            }
        }
        if n.name >= 0 { gather(Int(n.name)) }
        for j in Int(n.classStart)..<Int(n.classStart &+ n.classCount) {
            gather(rules.nameCount &+ Int(nodeClasses[j]))
        }
        let stateKeys = rules.nameCount + rules.classCount
        var bits = n.states
        while bits != 0 {
            gather(stateKeys &+ bits.trailingZeroBitCount)
            bits &= bits &- 1
        }
        gather(rules.keyBase.count - 1)
        here[words] = ~0
        here[words &+ 1] = ~0
    }

    /// `row[p] = keep[p] == −1 ? parent[p] : otherwise[p]` for `p < count`, as a select without a
    /// branch (a loop the compiler vectorises): how a row inherits.
    @inline(__always)
    private static func select(
        _ row: UnsafeMutablePointer<Int32>, parent: UnsafePointer<Int32>, keep: UnsafePointer<Int32>,
        otherwise: UnsafePointer<Int32>, count: Int
    ) {
        for p in 0..<count {
            let kept = keep[p]
            row[p] = parent[p] & kept | otherwise[p] & ~kept
        }
    }

    /// `row[p] = template[p] == −1 ? parent[p] : template[p]` for `p < count` (the template's
    /// slots are −1 or value slots, never another negative), as a select without a branch by
    /// the slot's sign (a loop the compiler vectorises).
    @inline(__always)
    private static func inherit(
        _ row: UnsafeMutablePointer<Int32>, parent: UnsafePointer<Int32>, template: UnsafePointer<Int32>,
        count: Int
    ) {
        for p in 0..<count {
            let t = template[p]
            let kept = t &>> 31
            row[p] = parent[p] & kept | t & ~kept
        }
    }

    /// Pushes `n`, whose classes are already on the class stack, and computes its style.
    private mutating func pushInterned(_ n: SelectorMap.Node) {
        let k = depth
        nodes[k] = n
        if mode == .floor {
            // Walking and inheriting only: one row per level, made as a select between the
            // container's values and the initial ones by the inherit mask (measured faster
            // than a copy and a reset: 28 → 34 M nodes/s on workload (a); 37 M without the
            // bookkeeping of style sharing).
            depth = k &+ 1
            StyleWalker.select(
                row(k), parent: k == 0 ? raw.initial.base : row(k &- 1),
                keep: raw.inheritMask.base,
                otherwise: raw.initial.base, count: width)
            // No rule wins anything.
            if tracksWinners { (winnerRows + k &* stride).update(repeating: -1, count: width) }
            return
        }
        // Levels are bounded by the buffers (`reserve`): the arithmetic on them wraps, without
        // overflow checks.
        readyState(k)
        shareKeys[k &+ 1] = ShareKey.none
        depth = k &+ 1

        // The node's key, compared with its last sibling's; recorded in its place when the
        // node may be shared, else `ShareKey.none` (the row it stood for is about to change).
        let sharing = mode == .indexed && !tracksWinners && n.shareable && hasSiblings
        let key = ShareKey(
            lanes: SIMD8(
                n.type, n.name, Int32(truncatingIfNeeded: n.states),
                Int32(truncatingIfNeeded: n.states &>> 32),
                Int32(truncatingIfNeeded: n.classMask), Int32(truncatingIfNeeded: n.classMask &>> 32),
                n.classCount &<< 1 | (n.inAnyState ? 1 : 0), n.highClass))
        // Equal only to a key recorded for a shareable node with the style this node would get,
        // so no test of `sharing` (whose branch would mispredict): a key recorded for a node
        // that may not be shared is `none`, whose type (−1) no node has; none is recorded in
        // another mode or while winners are tracked (switching `tracksWinners` forgets them);
        // a node that is not `shareable` has a class count no shareable node with its mask
        // has; an only child finds its level's key reset by its container's push. At level 0 an
        // earlier walk's last root may have left its key and row: a root alike it has its style,
        // which depends on nothing else.
        if all(shareKeys[k].lanes .== key.lanes) {
            sharedNodes &+= 1
            return
        }
        shareKeys[k] = ShareKey(lanes: key.lanes | SIMD8(repeating: sharing ? 0 : -1))
        let row = self.row(k)

        let winners = winnerRows + k &* stride
        if tracksWinners { winners.update(repeating: -1, count: width) }
        let parent = k == 0 ? raw.initial.base : self.row(k &- 1)
        if mode != .indexed {
            // The container's values where the property inherits, else the initial ones.
            StyleWalker.select(
                row, parent: parent, keep: raw.inheritMask.base, otherwise: raw.initial.base, count: width)
        }
        let m = Matcher(
            tables: tables, nodes: nodes, nodeClasses: nodeClasses, app: app,
            containerState: blocks + k &* blockWords,
            classMask: n.classMask, subject: k)
        var free = 0
        if mode == .indexed {
            // The entry of the container-free rules for the node's type and states (most
            // nodes: straight from `freeDirect`, without a call); its template row is applied
            // below, after the other matches are collected.
            let known = n.states < 16 ? Int(freeDirect[freeDirectSlot(n)]) : 0
            free = known != 0 ? known - 1 : matchFree(n, m)
        }

        if mode != .floor {
            var count = 0
            var ranks = noRanks
            if mode == .naive {
                for rank in 0..<raw.rules.count where m.matches(Int32(rank)) {
                    matched[count] = raw.matches[rank]
                    count += 1
                }
            } else {
                ranks = freeRow(free, FreeRow.ranks)
                if tracksWinners {
                    let orders = freeRow(free, FreeRow.orders)
                    for p in 0..<width where ranks[p] >= 0 { winners[p] = orders[p] }
                }
                // The node's name's and classes' rules whose subject is `*` or a type the node is
                // a kind of.
                let type = Int(n.type)
                if n.name >= 0 {
                    m.collect(raw.keyedRanges[Int(raw.nameBase[Int(n.name)]) &+ type], into: matched, &count)
                }
                let first = Int(raw.classFirst[type])
                if first >= 0 {
                    // Its classes' words of candidates (`Raw.classMasks`) ORed, then the set
                    // bits, each tested as a bucket's candidate is.
                    let masks = raw.classMasks.base + type &* raw.classCount
                    var bits: UInt64 = 0
                    for j in Int(n.classStart)..<Int(n.classStart &+ n.classCount) {
                        bits |= masks[Int(nodeClasses[j])]
                    }
                    while bits != 0 {
                        let c = raw.classCandidates[first &+ bits.trailingZeroBitCount]
                        bits &= bits &- 1
                        m.test(c, states: n.states, into: matched, &count)
                    }
                } else {
                    for j in Int(n.classStart)..<Int(n.classStart &+ n.classCount) {
                        let base = Int(raw.classBase[Int(nodeClasses[j])])
                        m.collect(raw.keyedRanges[base &+ type], into: matched, &count)
                    }
                }
                m.collectChunks(raw.typeChunks[type], into: matched, &count)
                // The container's values where the property inherits and no container-free rule
                // sets it, else the value of that rule or the initial one: a select over the
                // whole row without a branch (a loop the compiler vectorises), from a template
                // kept per (type, states) with the container-free rules (`matchFree`). After the
                // collection rather than before, so that the select's independent work overlaps
                // the chains of loads the buckets start (class, bucket, candidate): +3–5 % on
                // workload (a); after the sort it measured slower.
                StyleWalker.inherit(
                    row, parent: parent, template: freeRow(free, FreeRow.template),
                    count: width)
                // Buckets are each in rank order; together they need one sort, small as a rule
                // (an insertion sort), but a sheet can make any number of rules match a node.
                if count > 32 {
                    var all = UnsafeMutableBufferPointer(start: matched, count: count)
                    all.sort { $0.x < $1.x }
                } else {
                    var i = 1
                    while i < count {
                        let v = matched[i]
                        var j = i &- 1
                        while matched[j].x > v.x {
                            matched[j &+ 1] = matched[j]
                            j &-= 1
                        }
                        matched[j &+ 1] = v
                        i &+= 1
                    }
                }
            }
            // In rank order; a value set by a container-free rule of higher rank stays. Two
            // copies of the loop, so that the one without winners tests nothing per declaration.
            let declarations = raw.declarations.base
            let scratch = width
            @inline(__always)
            func apply(tracking: Bool) {
                for i in 0..<count {
                    let match = matched[i]
                    let rank = match.x
                    var d = Int(match.y)
                    let end = Int(match.z)
                    repeat {
                        for g in d..<d &+ 4 {
                            let a = declarations[g]
                            let p = Int(a.x)
                            // Written where the rule's rank is higher, else to the scratch slot
                            // (a select of the address: no branch, and no read of the old value,
                            // whose reads and writes would chain one declaration to the next).
                            let wins = Int(truncatingIfNeeded: (ranks[p] &- rank) &>> 31)
                            let to = scratch ^ (p ^ scratch) & wins
                            row[to] = a.y
                            if tracking { winners[to] = raw.rules[Int(rank)].order }
                        }
                        d &+= 4
                    } while d < end
                }
            }
            if tracksWinners { apply(tracking: true) } else { apply(tracking: false) }
        }
    }

    /// The rows (an offset in `freeRows`) of the entry of `freeTable` for `n`'s type and states:
    /// what the container-free rules that match it set (tested with `m` and remembered the first
    /// time its type and states are met).
    private mutating func matchFree(_ n: SelectorMap.Node, _ m: Matcher) -> Int {
        // Remembered in `freeDirect` too when in none of the first four states but those (the
        // caller looks there first).
        let direct = n.states < 16 ? freeDirectSlot(n) : -1
        var i = freeSlot(type: n.type, states: n.states, inAnyState: n.inAnyState)
        if freeTable[i].type == n.type {
            if direct >= 0 { freeDirect[direct] = freeTable[i].rows + 1 }
            return Int(freeTable[i].rows)
        }
        var count = 0
        func test(_ b: SelectorMap.Bucket) {
            for c in Int(b.start)..<Int(b.start + b.count)
            where m.matches(raw.candidates[c].rank) {
                matched[count] = raw.candidates[c].match
                count += 1
            }
        }
        let chain = raw.chainRanges[Int(n.type)]
        for t in Int(chain.start)..<Int(chain.start + chain.count) {
            test(raw.freeTypeBuckets[Int(raw.chainTypes[t])])
        }
        test(raw.freeUniversal)
        let found = UnsafeMutableBufferPointer(start: matched, count: count).map(\.x).sorted()
        // Cascade them among themselves: the last in rank order wins each property.
        let size = FreeRow.count * stride
        if (freeCount + 1) * size > freeRowCapacity {
            let bigger = max(freeRowCapacity * 2, (freeCount + 1) * size)
            StyleWalker.grow(&freeRows, keeping: freeCount * size, to: bigger)
            freeRowCapacity = bigger
        }
        let rows = freeCount * size
        let ranks = freeRow(rows, FreeRow.ranks)
        let values = freeRow(rows, FreeRow.template)
        let orders = freeRow(rows, FreeRow.orders)
        ranks.initialize(repeating: -1, count: stride)
        values.initialize(from: raw.initial.base, count: width)
        values[width] = 0
        orders.initialize(repeating: -1, count: stride)
        for rank in found {
            let r = raw.rules[Int(rank)]
            let start = Int(r.declarationStart)
            for d in start..<start + Int(r.declarationCount) {
                let a = raw.declarations[d]
                ranks[Int(a.x)] = rank
                values[Int(a.x)] = a.y
                orders[Int(a.x)] = r.order
            }
        }
        for p in 0..<width where raw.inheritMask[p] != 0 && ranks[p] < 0 { values[p] = -1 }
        if (freeCount + 1) * 2 > freeCapacity {
            let old = freeTable
            let oldCapacity = freeCapacity
            freeCapacity *= 2
            freeTable = .allocate(capacity: freeCapacity)
            freeTable.initialize(
                repeating: FreeEntry.empty,
                count: freeCapacity)
            for j in 0..<oldCapacity where old[j].type != -1 {
                freeTable[freeSlot(type: old[j].type, states: old[j].states, inAnyState: old[j].inAnyState)] =
                    old[j]
            }
            old.deallocate()
            i = freeSlot(type: n.type, states: n.states, inAnyState: n.inAnyState)
        }
        freeTable[i] = FreeEntry(states: n.states, type: n.type, inAnyState: n.inAnyState, rows: Int32(rows))
        freeCount += 1
        if direct >= 0 { freeDirect[direct] = Int32(rows + 1) }
        return rows
    }

    /// The entry of `freeTable` holding (type, states), or the empty one where it would go.
    private func freeSlot(type: Int32, states: UInt64, inAnyState: Bool) -> Int {
        var h =
            (states ^ UInt64(UInt32(bitPattern: type)) << 1 ^ (inAnyState ? 1 : 0)) &* 0x9E37_79B9_7F4A_7C15
        h ^= h >> 32
        var i = Int(truncatingIfNeeded: h) & (freeCapacity - 1)
        while true {
            let e = freeTable[i]
            if e.type == -1 || (e.type == type && e.states == states && e.inAnyState == inAnyState) {
                return i
            }
            i = (i + 1) & (freeCapacity - 1)
        }
    }

    /// Matching against the node on top of the walker's stack, on raw buffers: no reference
    /// counting and no bounds checks in the inner loops.
    struct Matcher {
        /// The walker's tables (`StyleWalker.tables`), by pointer: a copy of `Raw` per node
        /// would cost more than the matching it serves.
        let tables: UnsafePointer<SelectorMap.Raw>
        var raw: SelectorMap.Raw { _read { yield tables.pointee } }
        let nodes: UnsafeMutablePointer<SelectorMap.Node>
        let nodeClasses: UnsafeMutablePointer<Int32>
        let app: Int32
        /// The container state of the subject's containers (`SelectorMap.ContainerRules`).
        let containerState: UnsafePointer<UInt64>
        /// The bits of the subject's classes (ids below 64).
        let classMask: UInt64
        let subject: Int

        /// Tests the candidates of a `#name` or `.class` bucket (a range of them, whose subject
        /// type the node is a kind of), appending the matches (`Candidate.match`).
        @inline(__always)
        func collect(
            _ bucket: SelectorMap.Bucket, into matched: UnsafeMutablePointer<SIMD4<Int32>>, _ count: inout Int
        ) {
            let states = nodes[subject].states
            var i = Int(bucket.start)
            let end = i &+ Int(bucket.count)
            while i < end {
                test(raw.candidates[i], states: states, into: matched, &count)
                i &+= 1
            }
        }

        /// Tests candidate `c`, whose name (or first class) and type the node has (its bucket,
        /// or its class's bits, decided them), against the subject's `states`, appending its
        /// match when it matches.
        @inline(__always)
        func test(
            _ c: SelectorMap.Candidate, states: UInt64, into matched: UnsafeMutablePointer<SIMD4<Int32>>,
            _ count: inout Int
        ) {
            // The subject's classes and states and the containers' bit, combined without
            // branches (which would mispredict often).
            let missing = c.classMask & ~classMask | c.states & ~states
            let containers =
                containerState[Int(c.container &>> 6)] &>> UInt64(truncatingIfNeeded: c.container & 63)
                & 1
            let pass = missing == 0 ? Int(truncatingIfNeeded: containers) : 0
            // Almost all are decided by these (`exact`): recorded without a branch; the rest
            // take the (predictable) branch to the full test of the subject. The slot
            // written is in bounds: a rule matches a node once, so `count` is at most the
            // rule count, and `matched` has a slot past that.
            let exact = c.exact ? 1 : 0
            matched[count] = c.match
            count &+= pass & exact
            if pass & (exact ^ 1) != 0 && subjectMatches(c.rank) {
                matched[count] = c.match
                count &+= 1
            }
        }

        /// `collect` for the rules with containers whose subject is a type the node is a kind of,
        /// or `*`, with states and no name or class (a range of chunks, `Raw.typeChunks`). Each chunk's container bits are gathered into one word by its segments
        /// (the same number for every chunk, so the loop's branch is predictable), and only the
        /// candidates whose bit is set are looked at; their states are tested without a branch.
        @inline(__always)
        func collectChunks(
            _ chunks: SelectorMap.Bucket, into matched: UnsafeMutablePointer<SIMD4<Int32>>,
            _ count: inout Int
        ) {
            let states = nodes[subject].states
            let slots = raw.segmentSlots
            for chunk in Int(chunks.start)..<Int(chunks.start &+ chunks.count) {
                let segments = raw.segments.base + chunk &* slots
                var bits: UInt64 = 0
                for s in 0..<slots {
                    let g = segments[s]
                    // Bits `start ..< start + 64` of the state: a word and the next (the state
                    // ends with two all-ones words, so the next is always there).
                    let w = Int(g.start &>> 6)
                    let b = UInt64(truncatingIfNeeded: g.start & 63)
                    let run = containerState[w] &>> b | (containerState[w &+ 1] &<< 1) &<< (63 &- b)
                    bits |= (run & g.mask) &<< UInt64(truncatingIfNeeded: g.shift)
                }
                let first = Int(raw.chunkFirst[chunk])
                let inexact = raw.chunkInexact[chunk]
                // The exact candidates whose states the node is in: every bit a match.
                var exact = bits & raw.chunkPass[chunk &* 16 &+ Int(truncatingIfNeeded: states & 15)]
                // The first few without a branch (a loop's exit would mispredict: how many bits
                // are set varies from node to node); `chunkMatches` is padded so that reading
                // past a chunk's last candidate stays in bounds.
                for _ in 0..<SelectorMap.Raw.unrolled {
                    let j = first &+ exact.trailingZeroBitCount
                    let some = exact != 0 ? 1 : 0
                    exact &= exact &- 1
                    matched[count] = raw.chunkMatches[j]
                    count &+= some
                }
                while exact != 0 {
                    let j = first &+ exact.trailingZeroBitCount
                    exact &= exact &- 1
                    matched[count] = raw.chunkMatches[j]
                    count &+= 1
                }
                var others = bits & inexact
                while others != 0 {
                    let j = first &+ others.trailingZeroBitCount
                    others &= others &- 1
                    let required = raw.chunkStates[j]
                    if required & states == required && subjectMatches(raw.chunkMatches[j].x) {
                        matched[count] = raw.chunkMatches[j]
                        count += 1
                    }
                }
            }
        }

        /// Whether rule `rank`'s application and subject compound match (its containers are
        /// left to the caller).
        func subjectMatches(_ rank: Int32) -> Bool {
            let r = raw.rules[Int(rank)]
            return (r.app == -1 || r.app == app)
                && raw.compoundMatches(
                    raw.compounds[Int(r.compoundStart) + Int(r.compoundCount) - 1], nodes[subject],
                    nodeClasses)
        }

        /// Whether rule `rank` matches, searched as written: its application, the subject
        /// compound, then the compounds right to left. The naive mode tries every rule with it
        /// (the ablation, and the reference the indexed walk is tested against), and
        /// `matchFree` the container-free rules, which have no compounds left of the subject.
        func matches(_ rank: Int32) -> Bool {
            let r = raw.rules[Int(rank)]
            guard subjectMatches(rank) else { return false }
            let last = Int(r.compoundCount) - 1
            return last == 0 || (subject > 0 && containers(Int(r.compoundStart), last, subject))
        }

        /// Whether the compounds left of `ci` match the containers of node `k` (`ci` > 0, `k` > 0).
        @inline(__always)
        func containers(_ base: Int, _ ci: Int, _ k: Int) -> Bool {
            if raw.compounds[base + ci - 1].combinator == 2 { return match(base, ci - 1, k - 1) }
            var j = k - 1
            while j >= 0 {
                if match(base, ci - 1, j) { return true }
                j -= 1
            }
            return false
        }

        /// Compound `ci` of the selector starting at `base`, at node `k`, and everything to its
        /// left (CSS Selectors 4 §16: a descendant combinator tries each container outwards).
        /// Unlike `Cascade.matchRightToLeft` it remembers no failures (no allocation per rule:
        /// this is the naive ablation), so adversarial selectors make it exponential.
        func match(_ base: Int, _ ci: Int, _ k: Int) -> Bool {
            guard raw.compoundMatches(raw.compounds[base + ci], nodes[k], nodeClasses) else { return false }
            if ci == 0 { return true }
            if raw.compounds[base + ci - 1].combinator == 2 { return k > 0 && match(base, ci - 1, k - 1) }
            var j = k - 1
            while j >= 0 {
                if match(base, ci - 1, j) { return true }
                j -= 1
            }
            return false
        }
    }

    /// Starts below an already computed prefix: `path` are the containers, `style` and `state`
    /// the last one's style and its children's container state (`childState`). The walker
    /// cannot be popped below these nodes (their own states and rows are not known).
    mutating func seed(_ path: ArraySlice<PathNode>, style: ComputedStyle, state: ContiguousArray<UInt64>) {
        precondition(depth == 0, "seed(_:style:state:) needs an empty walker")
        for node in path {
            guard let n = stacked(node) else { continue }
            nodes[depth] = n
            depth += 1
        }
        guard depth > 0 else { return }
        // Only the last node has a row (its level's): no level's key may stand for a row, at
        // any level a later push can reach (a key left by an earlier walk included).
        shareKeys.update(repeating: ShareKey.none, count: depth + 1)
        let row = self.row(depth - 1)
        style.slots.withUnsafeBufferPointer { row.update(from: $0.baseAddress!, count: width) }
        state.withUnsafeBufferPointer {
            (blocks + depth * blockWords).update(from: $0.baseAddress!, count: blockWords)
        }
        readyDepth = depth
    }

    /// Leaves the top node.
    public mutating func pop() {
        precondition(depth > 0, "pop() on an empty walker")
        depth -= 1
        nodeClassCount -= Int(nodes[depth].classCount)
        readyDepth = min(readyDepth, depth)
    }
}
