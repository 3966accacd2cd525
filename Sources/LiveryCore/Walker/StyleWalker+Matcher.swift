extension StyleWalker {
    /// Matching against the node on top of the walker's stack, on frozen buffers: no reference
    /// counting and no bounds checks in the inner loops.
    ///
    /// Safety: it borrows the walker's buffers for one push and must not outlive it; the node
    /// levels it reads are below the walker's depth.
    struct Matcher {
        /// The walker's tables (`StyleWalker.tables`), by pointer: a copy of `FrozenTables` per node
        /// would cost more than the matching it serves.
        let tables: UnsafePointer<SelectorMap.FrozenTables>
        var frozen: SelectorMap.FrozenTables { _read { yield tables.pointee } }
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
                test(frozen.candidates[i], states: states, into: matched, &count)
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
        /// or `*`, with states and no name or class (a range of chunks, `FrozenTables.typeChunks`). Each chunk's container bits are gathered into one word by its segments
        /// (the same number for every chunk, so the loop's branch is predictable), and only the
        /// candidates whose bit is set are looked at; their states are tested without a branch.
        @inline(__always)
        func collectChunks(
            _ chunks: SelectorMap.Bucket, into matched: UnsafeMutablePointer<SIMD4<Int32>>,
            _ count: inout Int
        ) {
            let states = nodes[subject].states
            let slots = frozen.segmentSlots
            for chunk in Int(chunks.start)..<Int(chunks.start &+ chunks.count) {
                let segments = frozen.segments.base + chunk &* slots
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
                let first = Int(frozen.chunkFirst[chunk])
                let inexact = frozen.chunkInexact[chunk]
                // The exact candidates whose states the node is in: every bit a match.
                var exact = bits & frozen.chunkPass[chunk &* 16 &+ Int(truncatingIfNeeded: states & 15)]
                // The first few without a branch (a loop's exit would mispredict: how many bits
                // are set varies from node to node); `chunkMatches` is padded so that reading
                // past a chunk's last candidate stays in bounds.
                for _ in 0..<SelectorMap.FrozenTables.unrolled {
                    let j = first &+ exact.trailingZeroBitCount
                    let some = exact != 0 ? 1 : 0
                    exact &= exact &- 1
                    matched[count] = frozen.chunkMatches[j]
                    count &+= some
                }
                while exact != 0 {
                    let j = first &+ exact.trailingZeroBitCount
                    exact &= exact &- 1
                    matched[count] = frozen.chunkMatches[j]
                    count &+= 1
                }
                var others = bits & inexact
                while others != 0 {
                    let j = first &+ others.trailingZeroBitCount
                    others &= others &- 1
                    let required = frozen.chunkStates[j]
                    if required & states == required && subjectMatches(frozen.chunkMatches[j].x) {
                        matched[count] = frozen.chunkMatches[j]
                        count += 1
                    }
                }
            }
        }

        /// Whether rule `rank`'s application and subject compound match (its containers are
        /// left to the caller).
        func subjectMatches(_ rank: Int32) -> Bool {
            let r = frozen.rules[Int(rank)]
            return (r.app == -1 || r.app == app)
                && frozen.compoundMatches(
                    frozen.compounds[Int(r.compoundStart) + Int(r.compoundCount) - 1], nodes[subject],
                    nodeClasses)
        }

        /// Whether rule `rank` matches, searched as written: its application, the subject
        /// compound, then the compounds right to left. The naive mode tries every rule with it
        /// (the ablation, and the reference the indexed walk is tested against), and
        /// `matchFree` the container-free rules, which have no compounds left of the subject.
        func matches(_ rank: Int32) -> Bool {
            let r = frozen.rules[Int(rank)]
            guard subjectMatches(rank) else { return false }
            let last = Int(r.compoundCount) - 1
            return last == 0 || (subject > 0 && containers(Int(r.compoundStart), last, subject))
        }

        /// Whether the compounds left of `ci` match the containers of node `k` (`ci` > 0, `k` > 0).
        @inline(__always)
        func containers(_ base: Int, _ ci: Int, _ k: Int) -> Bool {
            if frozen.compounds[base + ci - 1].combinator == 2 { return match(base, ci - 1, k - 1) }
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
            guard frozen.compoundMatches(frozen.compounds[base + ci], nodes[k], nodeClasses) else {
                return false
            }
            return ci == 0 || (k > 0 && containers(base, ci, k))
        }
    }
}
