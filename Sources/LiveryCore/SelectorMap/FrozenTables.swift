extension SelectorMap {
    /// A range of `FrozenTables.candidates`, `FrozenTables.chainTypes`, `FrozenTables.chunkFirst` or
    /// `ContainerRules.entries`.
    struct Bucket {
        var start: Int32
        var count: Int32
    }

    /// A run of consecutive bits of a container state, the container bits of consecutive
    /// candidates of a chunk (`FrozenTables.typeChunks`).
    struct Segment {
        /// The run's first bit: bit `start & 63` of word `start >> 6`.
        var start: Int32
        /// Where the run goes in the chunk's word.
        var shift: Int32
        /// Ones over the run's length.
        var mask: UInt64
    }

    /// The tables the walker reads, as `Frozen` buffers.
    ///
    /// Safety: every buffer belongs to the `Arena` of the `SelectorMap` whose `frozen` this is,
    /// which frees them with the map; a walker reads a copy of this struct, which shares the
    /// buffers, while it holds the map. Every range and id stored in one table was computed from the count of
    /// the table it indexes when the tables were built, and nothing changes after.
    struct FrozenTables {
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
        /// range) and a loop over each class's bucket. A type with more uses the buckets.
        let classCount: Int
        let classFirst: Frozen<Int32>
        let classMasks: Frozen<UInt64>
        let classCandidates: Frozen<SelectorMap.Candidate>
        /// Per node type, the rules with containers whose subject is a type the node is a kind of
        /// or `*` (with states, `:normal` or an `@app`: `Tables.byType` along the type's chain,
        /// and `Tables.universal`), as a range of chunks: chunk `i` is up to 64 candidates from
        /// `chunkFirst[i]` of `chunkMatches` and `chunkStates` (each candidate's match,
        /// `Candidate.match`, and required states; both padded with 64 entries, so that reading
        /// up to 64 past a chunk's first stays in bounds), in the order of their
        /// container bits, with `chunkInexact[i]` the bits of those whose subject needs a full
        /// test (see `Candidate.exact`), and `segmentSlots` segments from `segments[i * segmentSlots]`
        /// say where those bits are in a container state (runs of consecutive bits; unused
        /// slots have a zero mask). The walker gathers a chunk's container bits into one word
        /// with a fixed number of shifts and visits its set bits only, instead of testing each
        /// candidate.
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

        init(_ m: Tables, arena: Arena) {
            let (rules, declarations) = Self.padDeclarations(m)
            self.rules = Frozen(in: arena, rules)
            compounds = Frozen(in: arena, m.compounds)
            classes = Frozen(in: arena, m.classes)
            self.declarations = Frozen(in: arena, declarations)
            let containerRules = ContainerRules(m, arena: arena)
            self.containerRules = containerRules
            let matches = rules.indices.map { rank in
                let r = rules[rank]
                return SIMD4(Int32(rank), r.declarationStart, r.declarationStart + r.declarationCount, 0)
            }
            self.matches = Frozen(in: arena, matches)

            var chunks = Chunks(containerRules: containerRules, matches: matches)
            typeChunks = Frozen(
                in: arena,
                m.chains.map { chain in chunks.add(chain.flatMap { m.byType[Int($0)] } + m.universal) })
            chunks.pad()
            chunkFirst = Frozen(in: arena, chunks.first)
            chunkInexact = Frozen(in: arena, chunks.inexact)
            chunkPass = Frozen(in: arena, chunks.pass)
            chunkMatches = Frozen(in: arena, chunks.matches)
            chunkStates = Frozen(in: arena, chunks.states)
            segmentSlots = chunks.segmentSlots
            segments = Frozen(in: arena, chunks.paddedSegments)

            var list = CandidateList(containerRules: containerRules, matches: matches)
            freeTypeBuckets = Frozen(in: arena, m.freeByType.map { list.append($0) })
            freeUniversal = list.append(m.freeUniversal)
            // `#name` and `.class` buckets by the node's type as well (`keyedRanges`; a subject
            // of a type the schema lacks matches nothing, and is in none).
            var keyedRanges = [Bucket](repeating: Bucket(start: 0, count: 0), count: m.typeCount)
            func byType(_ b: ContiguousArray<SelectorMap.Candidate>) -> Int32 {
                let type = { (c: SelectorMap.Candidate) in m.subjectType(ofRank: Int(c.rank)) }
                return m.byNodeType(Array(b), into: &keyedRanges, type: type) { list.append($0) }
            }
            nameBase = Frozen(in: arena, m.byName.map(byType))
            let classBases = m.byClass.map(byType)
            classBase = Frozen(in: arena, classBases)
            self.keyedRanges = Frozen(in: arena, keyedRanges)
            candidates = Frozen(in: arena, list.all)

            let classLists = ClassLists(
                classBases: classBases, keyedRanges: keyedRanges, candidates: list.all, typeCount: m.typeCount
            )
            classCount = classBases.count
            classFirst = Frozen(in: arena, classLists.first)
            classMasks = Frozen(in: arena, classLists.masks)
            classCandidates = Frozen(in: arena, classLists.listed)

            isKind = Frozen(in: arena, m.isKind)
            typeCount = m.typeCount
            var ranges: [Bucket] = []
            for c in m.chains {
                ranges.append(
                    Bucket(start: Int32(ranges.last.map { $0.start + $0.count } ?? 0), count: Int32(c.count)))
            }
            chainRanges = Frozen(in: arena, ranges)
            kindMasks = Frozen(
                in: arena,
                m.chains.map { chain in chain.reduce(UInt64(0)) { $1 < 64 ? $0 | 1 << UInt64($1) : $0 } })
            chainTypes = Frozen(in: arena, m.chains.joined())
            initial = Frozen(in: arena, m.initialSlots)
            inheritMask = Frozen(in: arena, m.inherits.map { $0 ? Int32(-1) : 0 })
            propertyCount = m.propertyCount
        }

        /// The rules with their declarations moved to the padded list, and that list: each
        /// rule's (property index, value slot) pairs padded to a multiple of four (at least
        /// four) with writes to slot `propertyCount` (one past a row's properties, a scratch
        /// slot every row has), so that applying a rule is whole groups of four writes, with no
        /// branch on its declaration count. Rules that share declarations (one block's
        /// selectors) share the padded copy.
        private static func padDeclarations(_ m: Tables) -> (ContiguousArray<Rule>, [SIMD2<Int32>]) {
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
            return (rules, padded)
        }
    }
}

extension SelectorMap.FrozenTables {
    typealias Candidate = SelectorMap.Candidate
    typealias Bucket = SelectorMap.Bucket
    typealias Segment = SelectorMap.Segment

    /// `candidates` as it is laid out: buckets appended one after another, each candidate
    /// given its container bit and its match.
    struct CandidateList {
        let containerRules: SelectorMap.ContainerRules
        let matches: [SIMD4<Int32>]
        var all: [Candidate] = []

        /// Appends a bucket's candidates.
        /// - Returns: their range.
        mutating func append(_ b: some Collection<Candidate>) -> Bucket {
            let range = Bucket(start: Int32(all.count), count: Int32(b.count))
            all += b.map {
                var c = $0
                c.container = containerRules.bit(ofRank: Int($0.rank))
                c.match = matches[Int($0.rank)]
                return c
            }
            return range
        }
    }

    /// The chunks of the type buckets (`typeChunks`) as they are laid out.
    struct Chunks {
        let containerRules: SelectorMap.ContainerRules
        let ruleMatches: [SIMD4<Int32>]
        var first: [Int32] = []
        var inexact: [UInt64] = []
        var pass: [UInt64] = []
        var matches: [SIMD4<Int32>] = []
        var states: [UInt64] = []
        var segments: [[Segment]] = []

        init(containerRules: SelectorMap.ContainerRules, matches: [SIMD4<Int32>]) {
            self.containerRules = containerRules
            ruleMatches = matches
        }

        /// Appends a type's candidates as chunks of up to 64, in the order of their container
        /// bits, each with at most `maxSegments` runs of consecutive bits.
        /// - Returns: the range of chunks.
        mutating func add(_ b: [Candidate]) -> Bucket {
            let start = first.count
            let sorted = b.map {
                var c = $0
                c.container = containerRules.bit(ofRank: Int($0.rank))
                return c
            }.sorted { $0.container < $1.container }
            var i = 0
            while i < sorted.count { i = addChunk(sorted, from: i) }
            matches += sorted.map { ruleMatches[Int($0.rank)] }
            states += sorted.map(\.states)
            return Bucket(start: Int32(start), count: Int32(first.count - start))
        }

        /// Appends the chunk of `sorted` that starts at `chunkStart`.
        /// - Returns: the index of the first candidate after it.
        private mutating func addChunk(_ sorted: [Candidate], from chunkStart: Int) -> Int {
            var chunkSegments: [Segment] = []
            var used = 0
            var i = chunkStart
            first.append(Int32(matches.count + i))
            var inexactBits: UInt64 = 0
            while i < sorted.count && used < 64 && chunkSegments.count < SelectorMap.FrozenTables.maxSegments
            {
                var length = 1
                while i + length < sorted.count && used + length < 64
                    && sorted[i + length].container == sorted[i].container + Int32(length)
                {
                    length += 1
                }
                for j in 0..<length {
                    let c = sorted[i + j]
                    // Past the first four states: tested one by one with the inexact.
                    if !c.exact || c.states >= 16 { inexactBits |= 1 << UInt64(used + j) }
                }
                chunkSegments.append(
                    Segment(
                        start: sorted[i].container, shift: Int32(used),
                        mask: length == 64 ? ~0 : (1 << UInt64(length)) - 1))
                used += length
                i += length
            }
            segments.append(chunkSegments)
            inexact.append(inexactBits)
            for nodeStates in UInt64(0)..<16 {
                var bits: UInt64 = 0
                for j in 0..<used where sorted[chunkStart + j].states & ~nodeStates == 0 {
                    bits |= 1 << UInt64(j)
                }
                pass.append(bits & ~inexactBits)
            }
            return i
        }

        /// Pads the matches and states with 64 entries, so that reading up to 64 past a chunk's
        /// first stays in bounds.
        mutating func pad() {
            matches += Array(repeating: SIMD4(0, 0, 0, 0), count: 64)
            states += Array(repeating: 0, count: 64)
        }

        /// Segment slots a chunk: the most any chunk has.
        var segmentSlots: Int { segments.map(\.count).max() ?? 1 }

        /// Every chunk's segments, padded to `segmentSlots` with unused (zero-mask) ones.
        var paddedSegments: [Segment] {
            let slots = segmentSlots
            return segments.flatMap {
                $0 + Array(repeating: Segment(start: 0, shift: 0, mask: 0), count: slots - $0.count)
            }
        }
    }

    /// The `.class` candidates listed per node type with at most 64 of them, from the buckets
    /// laid out (`classFirst`, `classMasks`, `classCandidates`).
    struct ClassLists {
        var first: [Int32]
        var masks: [UInt64]
        var listed: [Candidate] = []

        init(classBases: [Int32], keyedRanges: [Bucket], candidates: [Candidate], typeCount: Int) {
            let classes = classBases.count
            first = [Int32](repeating: -1, count: typeCount)
            masks = [UInt64](repeating: 0, count: typeCount * classes)
            for t in 0..<typeCount {
                let ranges = classBases.map { base in
                    base == 0 ? Bucket(start: 0, count: 0) : keyedRanges[Int(base) + t]
                }
                guard ranges.reduce(0, { $0 + Int($1.count) }) <= 64 else { continue }
                first[t] = Int32(listed.count)
                for (c, range) in ranges.enumerated() {
                    for i in Int(range.start)..<Int(range.start + range.count) {
                        masks[t * classes + c] |= 1 << UInt64(listed.count - Int(first[t]))
                        listed.append(candidates[i])
                    }
                }
            }
        }
    }
}

extension SelectorMap.FrozenTables {
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
