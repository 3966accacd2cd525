/// The walker's modes that only the benchmarks and the tests use: the naive matcher (every rule
/// tested against every node: the ablation, and the reference the indexed walk is checked
/// against) and the no-rule floor (inheritance and initial values only: the lower bound).
extension StyleWalker {
    /// `row[p] = keep[p] == −1 ? parent[p] : otherwise[p]` for `p < count`, as a select without a
    /// branch (a loop the compiler vectorises): how a row inherits.
    @inline(__always)
    static func select(
        _ row: UnsafeMutablePointer<Int32>, parent: UnsafePointer<Int32>, keep: UnsafePointer<Int32>,
        otherwise: UnsafePointer<Int32>, count: Int
    ) {
        for p in 0..<count {
            let kept = keep[p]
            row[p] = parent[p] & kept | otherwise[p] & ~kept
        }
    }

    /// `pushInterned` in the floor mode: walking and inheriting only, one row per level, made as a
    /// select between the container's values and the initial ones by the inherit mask.
    mutating func pushFloor(_ n: SelectorMap.Node) {
        let k = depth
        nodes[k] = n
        // A select rather than a copy and a reset (faster: `bench/README.md`).
        depth = k &+ 1
        StyleWalker.select(
            row(k), parent: k == 0 ? frozen.initial.base : row(k &- 1),
            keep: frozen.inheritMask.base,
            otherwise: frozen.initial.base, count: width)
        // No rule wins anything.
        if tracksWinners { (winnerRows + k &* stride).update(repeating: -1, count: width) }
    }

    /// `pushInterned` in the naive mode: every rule tested with `Matcher.matches`, the matches
    /// applied over the container's values where the property inherits, else the initial ones.
    /// No key is recorded in this mode (each level's stays `ShareKey.none`), so no node shares.
    mutating func pushNaive(_ n: SelectorMap.Node) {
        let k = depth
        nodes[k] = n
        depth = k &+ 1
        let row = self.row(k)
        let winners = winnerRows + k &* stride
        if tracksWinners { winners.update(repeating: -1, count: width) }
        let parent = k == 0 ? frozen.initial.base : self.row(k &- 1)
        StyleWalker.select(
            row, parent: parent, keep: frozen.inheritMask.base, otherwise: frozen.initial.base, count: width)
        let m = Matcher(
            tables: tables, nodes: nodes, nodeClasses: nodeClasses, app: app,
            containerState: blocks + k &* blockWords,
            classMask: n.classMask, subject: k)
        var count = 0
        for rank in 0..<frozen.rules.count where m.matches(Int32(rank)) {
            matched[count] = frozen.matches[rank]
            count += 1
        }
        applyMatches(count, ranks: noRanks, row: row, winners: winners)
    }
}
