import Foundation

/// Times blocks of calls: the wall time, and the CPU time of the server, of its dbus-daemon and
/// of this process, over the same block.
struct CallTimer {
    /// Calls of each kind in all.
    let calls: Int
    let rounds = 10

    /// One kind of call and the processes that serve it.
    struct Block {
        let daemon: pid_t
        let bus: pid_t
        let call: () throws -> Void
    }

    /// Each block's totals, and each round's seconds per block.
    struct Alternation {
        var loops: [BusResults.Loop]
        var seconds: [[Double]]

        /// Each round's rate of block `a` ÷ the rate of block `b`.
        func ratios(_ a: Int, over b: Int) -> [Double] { seconds.map { $0[b] / $0[a] } }
    }

    /// This process's CPU time, in seconds.
    private static func own() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }

    private func delta(_ a: Double?, _ b: Double?) -> Double? { a.flatMap { x in b.map { $0 - x } } }

    /// `n` calls of `block`, timed.
    func timed(_ n: Int, _ block: Block) throws -> BusResults.Loop {
        let (d0, b0, c0, t0) = (cpuSeconds(block.daemon), cpuSeconds(block.bus), Self.own(), now())
        for _ in 0..<n { try block.call() }
        let (t1, c1) = (now(), Self.own())
        return BusResults.Loop(
            seconds: t1 - t0, daemonCPU: delta(d0, cpuSeconds(block.daemon)),
            busCPU: delta(b0, cpuSeconds(block.bus)), clientCPU: c1 - c0)
    }

    /// `rounds` rounds of each block in turn, `calls / rounds` calls a block.
    func alternate(_ blocks: [Block]) throws -> Alternation {
        let zero = BusResults.Loop(seconds: 0, daemonCPU: 0, busCPU: 0, clientCPU: 0)
        var a = Alternation(loops: Array(repeating: zero, count: blocks.count), seconds: [])
        for _ in 0..<rounds {
            let round = try blocks.map { try timed(calls / rounds, $0) }
            for (k, l) in round.enumerated() { a.loops[k] = a.loops[k] + l }
            a.seconds.append(round.map(\.seconds))
        }
        return a
    }

    /// ``Interleaved``: `calls / 2` rounds of one call of each of `blocks` (Ping, Resolve, the
    /// C floor's Resolve), every other round in the reverse order.
    func interleave(_ blocks: [Block]) throws -> Interleaved {
        let n = calls / 2
        var seconds = Array(repeating: [Double](repeating: 0, count: n), count: blocks.count)
        for r in 0..<n {
            for k in (r % 2 == 0 ? Array(blocks.indices) : blocks.indices.reversed()) {
                let t0 = now()
                try blocks[k].call()
                seconds[k][r] = now() - t0
            }
        }
        func quantiles(_ xs: [Double]) -> [Double] {
            let s = xs.sorted()
            return [0.1, 0.5, 0.9].map { s[min(s.count - 1, Int((Double(s.count) * $0).rounded(.up)) - 1)] }
        }
        func ratio(_ a: Int, over b: Int) -> (median: Double, totals: Double) {
            (
                median((0..<n).map { seconds[b][$0] / seconds[a][$0] }),
                seconds[b].reduce(0, +) / seconds[a].reduce(0, +)
            )
        }
        let (overPing, overFloor) = (ratio(1, over: 0), ratio(1, over: 2))
        return Interleaved(
            rounds: n, ping: quantiles(seconds[0]), resolve: quantiles(seconds[1]),
            floor: quantiles(seconds[2]),
            resolveOverPing: overPing.median, resolveOverPingTotals: overPing.totals,
            resolveOverFloor: overFloor.median, resolveOverFloorTotals: overFloor.totals)
    }
}
