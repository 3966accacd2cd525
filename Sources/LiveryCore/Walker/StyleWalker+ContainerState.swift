extension StyleWalker {
    /// The container state for the children of the node on top of the stack (computed now if
    /// no child has been pushed yet); meaningful in the indexed mode only.
    mutating func childState() -> ContiguousArray<UInt64> {
        readyState(depth)
        return ContiguousArray(UnsafeBufferPointer(start: blocks + depth * blockWords, count: blockWords))
    }

    /// Computes the container state for the children of the node at level `level − 1`, unless
    /// it is there already.
    @inline(__always)
    mutating func readyState(_ level: Int) {
        guard mode == .indexed && readyDepth < level else { return }
        extendState(level &- 1, nodes[level &- 1])
        readyDepth = level
    }

    /// Computes the container state for the children of node `k` (`n`, on the stack) from its
    /// containers' (`SelectorMap.ContainerRules`): per position, the prefixes that may extend
    /// here (position 0: all; then those the container's state has at the position before),
    /// those of them whose compound `n` matches (a type alone by the type's bits, the rest
    /// tested one by one), and, for a descendant combinator, those the container's state has.
    private mutating func extendState(_ k: Int, _ n: SelectorMap.Node) {
        let rules = frozen.containerRules
        let words = rules.stateWords
        let above = blocks + k &* blockWords
        let here = blocks + (k &+ 1) &* blockWords
        let simple = rules.simple.base + Int(n.type) &* words
        // Per pair of words: the prefixes that may extend here (those the container's state has
        // at the position before; all, at position 0) and end with a type alone the node is,
        // and, for a descendant combinator, those the container's state has. As SIMD2 loads and
        // stores (LLVM leaves this loop scalar, since the pointers may alias).
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
                    && frozen.compoundMatches(frozen.compounds[Int(entry.compound)], n, nodeClasses)
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
}
