import Foundation
import LiveryCore

/// Monotonic seconds.
func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

/// Pushes and pops `walker` down each tree in preorder (nodes carry their depth), calling
/// `visit` with every node's style.
func walk(_ walker: inout StyleWalker, _ trees: [[GenNode]], _ visit: (ComputedStyle) -> Void) {
    for tree in trees {
        var depth = 0
        for n in tree {
            while depth >= n.depth {
                walker.pop()
                depth -= 1
            }
            visit(walker.push(n.node)!)
            depth += 1
        }
        while depth > 0 {
            walker.pop()
            depth -= 1
        }
    }
}

/// The forest interned for `cascade`, as a toolkit holds its widgets' names and classes.
func intern(_ trees: [[GenNode]], _ cascade: Cascade) -> StyleForest {
    StyleForest(trees.map { $0.map { (node: $0.node, depth: $0.depth) } }, for: cascade)!
}

/// Resolves every property of every node of every tree: one `StyleWalker` down the interned
/// forest in preorder, as a toolkit styling a window would. The timed part of the cascade
/// benchmarks (and what `make bench-profile` collects, by this function's name).
/// - Returns: a checksum, so that the work cannot be dropped.
@inline(never)
func resolveForest(_ cascade: Cascade, _ mode: StyleWalker.Mode, _ forest: StyleForest) -> Int {
    var walker = StyleWalker(cascade, mode: mode)
    var sum = 0
    walker.resolve(forest) { _, slots in sum &+= Int(slots[slots.count - 1]) &+ 1 }
    return sum
}

/// The same from the trees' strings: each node's type, name, classes and states are looked up
/// as it is pushed (`StyleWalker.enter`), as `Resolve` does for a path.
@inline(never)
func resolveStrings(_ cascade: Cascade, _ mode: StyleWalker.Mode, _ trees: [[GenNode]]) -> Int {
    var walker = StyleWalker(cascade, mode: mode)
    var sum = 0
    for tree in trees {
        for n in tree {
            while walker.depth >= n.depth { walker.pop() }
            _ = walker.enter(n.node)
            let slots = walker.topSlots
            sum &+= Int(slots[slots.count - 1]) &+ 1
        }
        while walker.depth > 0 { walker.pop() }
    }
    return sum
}

/// The winning rule of every property of every node, one line a node in preorder: the
/// `property=rule-order` pairs of the properties some declaration set, sorted by property name
/// (the format cssselect2_bench.py writes).
func winnerLines(_ cascade: Cascade, _ mode: StyleWalker.Mode, _ trees: [[GenNode]]) -> [String] {
    var walker = StyleWalker(cascade, mode: mode)
    walker.tracksWinners = true
    let names = walker.propertyNames
    var lines: [String] = []
    walk(&walker, trees) { style in
        var pairs: [(String, Int32)] = []
        for (i, w) in style.winners.enumerated() where w >= 0 { pairs.append((names[i], w)) }
        pairs.sort { $0.0 < $1.0 }
        lines.append(pairs.map { "\($0.0)=\($0.1)" }.joined(separator: " "))
    }
    return lines
}

/// Timings of repeated runs.
struct Runs: Codable {
    var seconds: [Double]
    var nodes: Int
    var best: Double { seconds.min() ?? .nan }
    var median: Double {
        let s = seconds.sorted()
        guard !s.isEmpty else { return .nan }
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }
    var bestRate: Double { Double(nodes) / best }
    var medianRate: Double { Double(nodes) / median }
}

/// Times `runs` walks over the interned forest, or over the strings with `strings`.
func timeWalk(_ cascade: Cascade, _ mode: StyleWalker.Mode, _ w: Workload, runs: Int, strings: Bool = false)
    -> Runs
{
    var seconds: [Double] = []
    var check = 0
    let forest = intern(w.trees, cascade)
    for _ in 0..<runs {
        let t0 = now()
        check &+= strings ? resolveStrings(cascade, mode, w.trees) : resolveForest(cascade, mode, forest)
        seconds.append(now() - t0)
    }
    precondition(check != 0)
    return Runs(seconds: seconds, nodes: w.nodeCount)
}

func median(_ xs: [Double]) -> Double { Runs(seconds: xs, nodes: 0).median }
