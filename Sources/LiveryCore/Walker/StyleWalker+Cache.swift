extension StyleWalker {
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

    /// The rows (an offset in `freeRows`) of the entry of `freeTable` for `n`'s type and states:
    /// what the container-free rules that match it set (tested with `m` and remembered the first
    /// time its type and states are met).
    mutating func matchFree(_ n: SelectorMap.Node, _ m: Matcher) -> Int {
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
            where m.matches(frozen.candidates[c].rank) {
                matched[count] = frozen.candidates[c].match
                count += 1
            }
        }
        let chain = frozen.chainRanges[Int(n.type)]
        for t in Int(chain.start)..<Int(chain.start + chain.count) {
            test(frozen.freeTypeBuckets[Int(frozen.chainTypes[t])])
        }
        test(frozen.freeUniversal)
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
        values.initialize(from: frozen.initial.base, count: width)
        values[width] = 0
        orders.initialize(repeating: -1, count: stride)
        for rank in found {
            let r = frozen.rules[Int(rank)]
            let start = Int(r.declarationStart)
            for d in start..<start + Int(r.declarationCount) {
                let a = frozen.declarations[d]
                ranks[Int(a.x)] = rank
                values[Int(a.x)] = a.y
                orders[Int(a.x)] = r.order
            }
        }
        for p in 0..<width where frozen.inheritMask[p] != 0 && ranks[p] < 0 { values[p] = -1 }
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
}
