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

    /// ``Interleaved``: `calls / 2` rounds of Ping then Resolve, then as many of Resolve then
    /// the C floor's Resolve.
    func interleave(ping: Block, resolve: Block, floor: Block) throws -> Interleaved {
        let n = calls / 2
        let (p, r) = try alternateCalls(n, ping, resolve)
        let (rf, f) = try alternateCalls(n, resolve, floor)
        func quantiles(_ xs: [Double]) -> [Double] {
            let s = xs.sorted()
            return [0.1, 0.5, 0.9].map { s[min(s.count - 1, Int((Double(s.count) * $0).rounded(.up)) - 1)] }
        }
        /// Rate of `a` ÷ rate of `b`: the median of the rounds', and from the totals.
        func ratio(_ a: [Double], over b: [Double]) -> (median: Double, totals: Double) {
            (median(zip(a, b).map { $1 / $0 }), b.reduce(0, +) / a.reduce(0, +))
        }
        let (overPing, overFloor) = (ratio(r, over: p), ratio(rf, over: f))
        return Interleaved(
            rounds: n, ping: quantiles(p), resolveAfterPing: quantiles(r), resolve: quantiles(rf),
            floor: quantiles(f), resolveOverPing: overPing.median, resolveOverPingTotals: overPing.totals,
            resolveOverFloor: overFloor.median, resolveOverFloorTotals: overFloor.totals)
    }

    /// `n` rounds of one call of `a` then one of `b`, each call timed: their seconds.
    private func alternateCalls(_ n: Int, _ a: Block, _ b: Block) throws -> ([Double], [Double]) {
        var (x, y) = ([Double](repeating: 0, count: n), [Double](repeating: 0, count: n))
        for r in 0..<n {
            var t0 = now()
            try a.call()
            let t1 = now()
            x[r] = t1 - t0
            t0 = now()
            try b.call()
            y[r] = now() - t0
        }
        return (x, y)
    }
}
