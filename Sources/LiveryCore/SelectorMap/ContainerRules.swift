extension SelectorMap {
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
    /// (`Tables.byType`, `Tables.universal`) are numbered together, so that a type bucket's
    /// container bits are a few runs of consecutive bits (`FrozenTables.typeChunks`).
    ///
    /// Safety: its `Frozen` buffers belong to the map's `Arena`, which frees them with the map;
    /// `words`, `offsets`, `bits` and `pairSources` address the `blockWords` words of a container
    /// state, which the walker allocates per level from `blockWords`.
    struct ContainerRules {
        /// A compound that needs a test of its own, with what the test needs beyond its key and
        /// range (which decide its name and type): its classes' mask and its states (the
        /// compound's `exact` says whether these decide it; if not, `compound` is tested in
        /// full), and where its bit is in a container state: bit `bit` of word `word`, set
        /// when the compound matches and bit `bit` of word `source` of the container's state is
        /// set (the selector's prefix before the compound matched above; for the first compound
        /// `source` is the first all-ones word).
        struct TestedCompound {
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
        /// in one loop of the same length for every node, so that the loop's exit is predicted
        /// whatever the positions' lengths and no odd last word is left to a scalar step.
        let pairSources: Frozen<Int32>
        /// Per rule, the bit of a container state its candidates test (see `bit(ofRank:)`).
        let bits: Frozen<Int32>
        /// A bitset of `stateWords` words: the bits whose compound is followed by `>`.
        let child: Frozen<UInt64>
        /// Per type (`stateWords` words each): the compounds that are a type alone, or `*`
        /// alone, that a node of the type matches: decided by the type.
        let simple: Frozen<UInt64>
        /// The other compounds (with a name, a class, a state or `:normal`), tested one by one
        /// (`TestedCompound`), under the compound's name (key: name id), else its first class (name
        /// count + class id), else its first state (name count + class count + the state's bit
        /// number), else under the last key (`:normal`). Indexed by the node's type as well:
        /// `typeRanges[keyBase[key] + type]` is the range of `entries` under `key` whose
        /// compound's type is `*` or one a node of `type` is a kind of (an entry is listed for
        /// each such type). A key without entries has base 0, a block of empty ranges.
        let keyBase: Frozen<Int32>
        let typeRanges: Frozen<Bucket>
        let entries: Frozen<TestedCompound>
        let nameCount: Int
        let classCount: Int

        init(_ m: Tables, arena: Arena) {
            let numbered = Self.numbered(m)
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
            pairSources = Frozen(in: arena, sources)
            nameCount = m.nameIDs.count
            classCount = m.classIDs.count
            var placement = Placement(m, stateWords: total, keys: nameCount + classCount + 64 + 1)
            for (q, rank) in numbered.enumerated() {
                placement.place(
                    rank: rank, number: q, offsets: offsets, nameCount: nameCount, classCount: classCount)
            }
            self.words = Frozen(in: arena, words)
            self.offsets = Frozen(in: arena, offsets)
            bits = Frozen(in: arena, placement.bits)
            child = Frozen(in: arena, placement.child)
            simple = Frozen(in: arena, placement.simple)
            var ranges = [Bucket](repeating: Bucket(start: 0, count: 0), count: m.typeCount)
            var all: [TestedCompound] = []
            var keyBase: [Int32] = []
            for entries in placement.keyed {
                keyBase.append(
                    m.byNodeType(entries, into: &ranges, type: { m.compounds[Int($0.compound)].type }) {
                        listed in
                        defer { all += listed }
                        return Bucket(start: Int32(all.count), count: Int32(listed.count))
                    })
            }
            self.keyBase = Frozen(in: arena, keyBase)
            typeRanges = Frozen(in: arena, ranges)
            entries = Frozen(in: arena, all)
        }

        /// The ranks of the rules with containers in the order their bits are numbered: most
        /// compounds first, then by type bucket (`typeCount` for the universal one, after them
        /// the rules in a name's or class's bucket), then by rank.
        private static func numbered(_ m: Tables) -> [Int] {
            var numbered = m.rules.indices.filter { m.rules[$0].compoundCount > 1 }
            var bucket = [Int](repeating: m.typeCount + 1, count: m.rules.count)
            for (t, b) in m.byType.enumerated() { for c in b { bucket[Int(c.rank)] = t } }
            for c in m.universal { bucket[Int(c.rank)] = m.typeCount }
            numbered.sort {
                (-m.rules[$0].compoundCount, bucket[$0], $0) < (-m.rules[$1].compoundCount, bucket[$1], $1)
            }
            return numbered
        }

        /// Where each compound left of a subject goes: its bit, in `child` when `>` follows it,
        /// in `simple` when its type decides it, else a test under its key (`keyBase`).
        private struct Placement {
            let m: Tables
            let total: Int
            var bits: [Int32]
            var child: [UInt64]
            var simple: [UInt64]
            var keyed: [[TestedCompound]]

            init(_ m: Tables, stateWords total: Int, keys: Int) {
                self.m = m
                self.total = total
                bits = [Int32](repeating: Int32(total * 64), count: m.rules.count)
                child = [UInt64](repeating: 0, count: total)
                simple = [UInt64](repeating: 0, count: m.typeCount * total)
                keyed = [[TestedCompound]](repeating: [], count: keys)
            }

            /// Places the compounds of rule `rank`, whose bits are number `q` of each position.
            mutating func place(rank: Int, number q: Int, offsets: [Int32], nameCount: Int, classCount: Int) {
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
                        TestedCompound(
                            classMask: c.classMask, states: c.states, word: Int32(word),
                            source: Int32(i == 0 ? total : Int(offsets[i - 1]) + q >> 6), bit: Int32(q & 63),
                            compound: Int32(at), exact: c.exact))
                }
            }
        }

        /// The words a position with `count` prefixes takes: a bit each, in whole pairs of words
        /// (`pairSources`).
        static func words(forPrefixes count: Int) -> Int { IndexBudget.containerWords(forPrefixes: count) }

        /// The bit a candidate of rule `rank` tests in its node's container's state: its
        /// compound before the subject matched there (`>`) or there or above (descendant); for
        /// a rule without containers, a bit of the first of the two all-ones words.
        func bit(ofRank rank: Int) -> Int32 { bits[rank] }
    }
}
