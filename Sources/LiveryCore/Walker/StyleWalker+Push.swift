extension StyleWalker {
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

    /// Pushes `n`, whose classes are already on the class stack, and computes its style as the
    /// walker's mode says.
    @inline(__always)
    mutating func pushInterned(_ n: SelectorMap.Node) {
        switch mode {
        case .indexed: pushIndexed(n)
        case .naive: pushNaive(n)
        case .floor: pushFloor(n)
        }
    }

    /// `pushInterned` in the indexed mode: the selector map, container states, style sharing and
    /// the container-free rules' cache (`freeTable`); what the daemon runs.
    // limits: the timed inner loop of every Resolve (`make bench`, indexed-a): its steps share
    // the node's registers and the matched list, which calls between them would spill.
    private mutating func pushIndexed(_ n: SelectorMap.Node) {
        let k = depth
        nodes[k] = n
        // Levels are bounded by the buffers (`reserve`): the arithmetic on them wraps, without
        // overflow checks.
        readyState(k)
        shareKeys[k &+ 1] = ShareKey.none
        depth = k &+ 1

        // The node's key, compared with its last sibling's; recorded in its place when the
        // node may be shared, else `ShareKey.none` (the row it stood for is about to change).
        let sharing = !tracksWinners && n.shareable && hasSiblings
        let key = ShareKey(
            lanes: SIMD8(
                n.type, n.name, Int32(truncatingIfNeeded: n.states),
                Int32(truncatingIfNeeded: n.states &>> 32),
                Int32(truncatingIfNeeded: n.classMask), Int32(truncatingIfNeeded: n.classMask &>> 32),
                n.classCount &<< 1 | (n.inAnyState ? 1 : 0), n.highClass))
        // Equal only to a key recorded for a shareable node with the style this node would get,
        // so no test of `sharing` (whose branch would mispredict): a key recorded for a node
        // that may not be shared is `none`, whose type (−1) no node has; none is recorded by
        // the other modes or while winners are tracked (switching `tracksWinners` forgets them);
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
        let parent = k == 0 ? frozen.initial.base : self.row(k &- 1)
        let m = Matcher(
            tables: tables, nodes: nodes, nodeClasses: nodeClasses, app: app,
            containerState: blocks + k &* blockWords,
            classMask: n.classMask, subject: k)
        // The entry of the container-free rules for the node's type and states (most nodes:
        // straight from `freeDirect`, without a call); its template row is applied below, after
        // the other matches are collected.
        let known = n.states < 16 ? Int(freeDirect[freeDirectSlot(n)]) : 0
        let free = known != 0 ? known - 1 : matchFree(n, m)

        var count = 0
        let ranks = freeRow(free, FreeRow.ranks)
        if tracksWinners {
            let orders = freeRow(free, FreeRow.orders)
            for p in 0..<width where ranks[p] >= 0 { winners[p] = orders[p] }
        }
        // The node's name's and classes' rules whose subject is `*` or a type the node is
        // a kind of.
        let type = Int(n.type)
        if n.name >= 0 {
            m.collect(frozen.keyedRanges[Int(frozen.nameBase[Int(n.name)]) &+ type], into: matched, &count)
        }
        let first = Int(frozen.classFirst[type])
        if first >= 0 {
            // Its classes' words of candidates (`FrozenTables.classMasks`) ORed, then the set
            // bits, each tested as a bucket's candidate is.
            let masks = frozen.classMasks.base + type &* frozen.classCount
            var bits: UInt64 = 0
            for j in Int(n.classStart)..<Int(n.classStart &+ n.classCount) {
                bits |= masks[Int(nodeClasses[j])]
            }
            while bits != 0 {
                let c = frozen.classCandidates[first &+ bits.trailingZeroBitCount]
                bits &= bits &- 1
                m.test(c, states: n.states, into: matched, &count)
            }
        } else {
            for j in Int(n.classStart)..<Int(n.classStart &+ n.classCount) {
                let base = Int(frozen.classBase[Int(nodeClasses[j])])
                m.collect(frozen.keyedRanges[base &+ type], into: matched, &count)
            }
        }
        m.collectChunks(frozen.typeChunks[type], into: matched, &count)
        // The container's values where the property inherits and no container-free rule
        // sets it, else the value of that rule or the initial one: a select over the
        // whole row without a branch (a loop the compiler vectorises), from a template
        // kept per (type, states) with the container-free rules (`matchFree`). After the
        // collection rather than before, so that the select's independent work overlaps
        // the chains of loads the buckets start (class, bucket, candidate).
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
        applyMatches(count, ranks: ranks, row: row, winners: winners)
    }

    /// Applies the first `count` matches (`matched`) to `row`: each declaration where its rule's
    /// rank beats `ranks` (what was applied before: the container-free rules' ranks, or none),
    /// and with `tracksWinners` its rule's source order to `winners`.
    @inline(__always)
    func applyMatches(
        _ count: Int, ranks: UnsafeMutablePointer<Int32>, row: UnsafeMutablePointer<Int32>,
        winners: UnsafeMutablePointer<Int32>
    ) {
        // In rank order; a value set by a container-free rule of higher rank stays. Two
        // copies of the loop, so that the one without winners tests nothing per declaration.
        let declarations = frozen.declarations.base
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
                        if tracking { winners[to] = frozen.rules[Int(rank)].order }
                    }
                    d &+= 4
                } while d < end
            }
        }
        if tracksWinners { apply(tracking: true) } else { apply(tracking: false) }
    }
}
