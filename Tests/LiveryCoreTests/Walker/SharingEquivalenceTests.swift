import Foundation
import XCTest

@testable import LiveryCore

/// Differential tests of the indexed walker (style sharing by `ShareKey`, the template row, the
/// paired container state) against the naive walker: random sheets over classes past id 64,
/// twelve states, names no rule uses; trees with runs of alike and nearly alike siblings, deeper
/// than the walker's first buffers; pushed node by node, styled as forests (the same walker
/// reused), with winners tracked, and resumed below a seeded prefix as the style cache does.
final class SharingEquivalenceTests: XCTestCase {
    typealias Random = CascadeEquivalenceTests.Random
    typealias Tree = [(node: PathNode, depth: Int)]

    let types = [
        "View", "Window", "Control", "Button", "Label", "NavigationBar", "ToolBar", "BarButtonItem", "Switch",
        "TableView", "TableViewCell", "Popover",
    ]
    let names = ["title", "ok", "field"]
    /// Names and classes no rule uses.
    let unknownNames = ["zz", "yy"]
    let unknownClasses = ["nope", "nada"]
    let pool = (0..<100).map { "k\($0)" }
    func statesUpTo(_ n: Int) -> [String] {
        ["highlighted", "selected", "disabled", "focused"] + (5...n).map { "s\($0)" }
    }
    /// The states of the schema in use (besides `normal`).
    var known = ["highlighted", "selected", "disabled"]
    let properties = ["tint-color", "text-color", "background-color", "row-height", "alpha"]

    /// The shipped schema with `n` states besides `normal` (and not `pressed`, a state of no rule).
    func schema(states n: Int) throws -> Schema {
        let url = themesDirectory.appendingPathComponent("schema.json")
        var root = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        root["states"] = ["normal"] + statesUpTo(n)
        return try Schema(json: JSONSerialization.data(withJSONObject: root), file: "s.json")
    }

    func compile(_ css: String, schema: Schema) throws -> Cascade {
        let (theme, diagnostics) = ThemeCompiler.compile(chain: [try bundle(css, files: [:])], schema: schema)
        return Cascade(theme: try XCTUnwrap(theme, "\(diagnostics.prefix(3))"))
    }

    /// A class biased to the ids around and past 64.
    func someClass(_ r: inout Random) -> String {
        r.chance(0.5) ? pool[60 + r.below(40)] : r.pick(pool)
    }

    func compound(_ r: inout Random) -> String {
        var s = r.chance(0.15) ? "*" : r.pick(types)
        if r.chance(0.15) { s += "#" + r.pick(names) }
        for _ in 0..<r.below(3) { s += "." + someClass(&r) }
        for _ in 0..<(r.chance(0.3) ? 1 + r.below(2) : 0) { s += ":" + r.pick(known) }
        if r.chance(0.05) { s += ":normal" }
        return s
    }

    /// `rules` rules, with up to `maxContainers` containers; the first `header` of them name
    /// every class in order (so that `kN` has id N).
    func sheet(_ r: inout Random, rules: Int, maxContainers: Int, header: Bool) -> String {
        var out = header ? pool.map { ".\($0) { row-height: \($0.dropFirst()); }\n" }.joined() : ""
        // Every state sets a colour of its own (later states win).
        if header || r.chance(0.5) {
            out += known.enumerated().map { "*:\($1) { text-color: #\(String(format: "%06x", $0 + 1)); }\n" }
                .joined()
        }
        for i in 0..<rules {
            var sel = compound(&r)
            let n = maxContainers == 0 ? 0 : r.below(maxContainers + 1)
            for _ in 0..<n { sel = compound(&r) + (r.chance(0.3) ? " > " : " ") + sel }
            var decls = ""
            for _ in 0...r.below(2) {
                let p = r.pick(properties)
                switch p {
                case "row-height": decls += "\(p): \(r.below(100)); "
                case "alpha": decls += "\(p): 0.\(r.below(10)); "
                default: decls += "\(p): #\(String(format: "%06x", r.below(0xffffff))); "
                }
            }
            let rule = "\(sel) { \(decls)}\n"
            out += i % 9 == 4 ? "@app \"org.example.App\" { \(rule) }\n" : rule
        }
        return out
    }

    func node(_ r: inout Random) -> PathNode {
        var n = PathNode(type: r.pick(types))
        switch r.below(10) {
        case 0, 1: n.name = r.pick(names)
        case 2: n.name = r.pick(unknownNames)
        default: break
        }
        let count = r.chance(0.2) ? 4 + r.below(8) : r.below(4)
        n.classes = (0..<count).map { _ in r.chance(0.05) ? r.pick(unknownClasses) : someClass(&r) }
        if r.chance(0.1), let c = n.classes.first { n.classes.append(c) }
        if r.chance(0.4) {
            n.states = (0..<1 + r.below(3)).map { _ in r.pick(known + ["normal", "pressed"]) }
        }
        return n
    }

    /// `n` changed in one respect a sharing key must tell (or must not: a reordering, a class
    /// written twice, another unknown class, `normal` added).
    func variant(_ r: inout Random, _ n: PathNode) -> PathNode {
        var m = n
        switch r.below(14) {
        case 0:
            for i in stride(from: m.classes.count - 1, to: 0, by: -1) { m.classes.swapAt(i, r.below(i + 1)) }
        case 1: if !m.classes.isEmpty { m.classes.append(r.pick(m.classes)) }
        case 2: m.classes.append(pool[64 + r.below(36)])
        case 3: m.classes.append(pool[r.below(64)])
        case 4: if !m.classes.isEmpty { m.classes.removeLast() }
        case 5:
            // A class past 64 swapped for another past 64.
            if let i = m.classes.firstIndex(where: { Int($0.dropFirst()).map { $0 >= 64 } ?? false }) {
                m.classes[i] = pool[64 + r.below(36)]
            }
        case 6: m.name = m.name == "zz" ? "yy" : "zz"
        case 7: m.name = m.name == nil ? r.pick(names) : nil
        case 8: m.states.append("pressed")
        case 9: m.states.append("normal")
        case 10: m.states = m.states.isEmpty ? [r.pick(known)] : []
        case 11: m.classes.append(r.pick(unknownClasses))
        case 12: m.type = r.pick(types)
        default: m.states.append(r.pick(known))
        }
        return m
    }

    /// A tree in preorder: children come in runs of equal and nearly equal siblings.
    func tree(_ r: inout Random, nodes: Int, maxDepth: Int) -> Tree {
        var out: Tree = []
        func children(_ depth: Int) {
            guard out.count < nodes else { return }
            let count = depth >= maxDepth ? 0 : (depth < 3 ? 2 + r.below(4) : r.below(r.chance(0.3) ? 6 : 3))
            var last: PathNode? = nil
            for _ in 0..<count where out.count < nodes {
                var n: PathNode
                if let l = last, r.chance(0.5) {
                    n = r.chance(0.5) ? l : variant(&r, l)
                } else {
                    n = node(&r)
                }
                out.append((n, depth))
                last = n
                // Deep chains now and then.
                if r.chance(depth < 8 ? 0.6 : 0.45) { children(depth + 1) }
            }
        }
        while out.count < nodes {
            out.append((node(&r), 1))
            children(2)
        }
        return out
    }

    /// Indexed and naive walkers pushed in lockstep (and winners, when tracked): every node equal.
    func comparePushed(_ c: Cascade, _ trees: [Tree], app: String?, winners: Bool, _ compared: inout Int)
        throws
    {
        var fast = StyleWalker(c, app: app)
        var slow = StyleWalker(c, app: app, mode: .naive)
        fast.tracksWinners = winners
        slow.tracksWinners = winners
        var sharedBefore = 0
        for t in trees {
            for (i, (node, depth)) in t.enumerated() {
                while fast.depth >= depth {
                    fast.pop()
                    slow.pop()
                }
                let a = try XCTUnwrap(fast.push(node))
                let b = try XCTUnwrap(slow.push(node))
                if a.values != b.values || a.winners != b.winners {
                    var path: [PathNode] = []
                    for (n, d) in t.prefix(i + 1) { path = Array(path.prefix(d - 1)) + [n] }
                    XCTFail("pushed node \(i) differs: \(ComponentPath(nodes: path)) winners=\(winners)")
                    return
                }
                compared += 1
            }
            sharedTotal += fast.sharedNodes - sharedBefore
            sharedBefore = fast.sharedNodes
            // Not emptied between trees half the time: the next root is a sibling of the last.
            if r0.chance(0.5) {
                while fast.depth > 0 {
                    fast.pop()
                    slow.pop()
                }
            }
        }
    }
    var r0 = Random(state: 1)
    /// Seeds per test: `LIVERY_FUZZ_SEEDS` in the environment, else 8 (about 2 s each in a debug
    /// build; the review that wrote these ran 1,500).
    var seedCount: Int { ProcessInfo.processInfo.environment["LIVERY_FUZZ_SEEDS"].flatMap(Int.init) ?? 8 }
    /// Nodes the indexed walkers shared (`StyleWalker.sharedNodes`).
    var sharedTotal = 0

    /// Naive values of every node, pushed node by node.
    func naive(_ c: Cascade, _ trees: [Tree], app: String?) throws -> [[Int32]] {
        var slow = StyleWalker(c, app: app, mode: .naive)
        var out: [[Int32]] = []
        for t in trees {
            for (node, depth) in t {
                while slow.depth >= depth { slow.pop() }
                out.append(Array(try XCTUnwrap(slow.push(node)).slots))
            }
            while slow.depth > 0 { slow.pop() }
        }
        return out
    }

    /// Resumed below a prefix as `Cascade.computedStyle` does: a walker pushes the prefix and
    /// hands over its style and `childState()`; a fresh walker is seeded with them and pushes
    /// the rest, and then siblings of the rest's nodes.
    func compareSeeded(_ c: Cascade, _ t: Tree, app: String?, _ r: inout Random, _ compared: inout Int) throws
    {
        var stack: [PathNode] = []
        for (n, d) in t {
            stack = Array(stack.prefix(d - 1)) + [n]
            guard stack.count >= 2, r.chance(0.3) else { continue }
            let k = r.below(stack.count - 1)
            var first = StyleWalker(c, app: app)
            var style: ComputedStyle? = nil
            for node in stack[...k] { style = first.push(node) }
            let state = first.childState()
            var second = StyleWalker(c, app: app)
            second.seed(stack[...k], style: try XCTUnwrap(style), state: state)
            var slow = StyleWalker(c, app: app, mode: .naive)
            for node in stack[...k] { slow.push(node) }
            for (j, node) in stack[(k + 1)...].enumerated() {
                let a = try XCTUnwrap(second.push(node))
                let b = try XCTUnwrap(slow.push(node))
                XCTAssertEqual(
                    a.values, b.values, "seeded at \(k), node \(k + 1 + j) of \(ComponentPath(nodes: stack))")
                compared += 1
            }
            // Alike and nearly alike siblings of the last node, below the seeded prefix.
            if stack.count - 1 > k + 1 || r.chance(0.5) {
                let last = stack[stack.count - 1]
                for _ in 0..<3 {
                    second.pop()
                    slow.pop()
                    let sib = r.chance(0.5) ? last : variant(&r, last)
                    let a = try XCTUnwrap(second.push(sib))
                    let b = try XCTUnwrap(slow.push(sib))
                    XCTAssertEqual(
                        a.values, b.values, "seeded sibling \(sib) of \(ComponentPath(nodes: stack))")
                    compared += 1
                }
            }
            // And through the cascade's cache, twice.
            let p = ComponentPath(nodes: stack)
            let want = try c.resolveNaive(p, properties: properties, app: app).map(\.value)
            XCTAssertEqual(try c.resolve(p, properties: properties, app: app).map(\.value), want, "\(p)")
            XCTAssertEqual(try c.resolve(p, properties: properties, app: app).map(\.value), want, "\(p)")
        }
    }

    func run(seeds: Range<UInt64>, schema: Schema, nodes: Int, maxDepth: Int) throws -> (Int, Int, Int) {
        var pushed = 0
        var forestNodes = 0
        var seeded = 0
        known = schema.states.filter { $0 != "normal" }
        for seed in seeds {
            var r = Random(state: seed &* 7919 &+ 17)
            r0 = Random(state: seed)
            let maxContainers = [0, 2, 5, 10][r.below(4)]
            // Rule counts around word boundaries (64, 128) per position.
            let rules = [10, 63, 64, 65, 127, 129, 200, 300][r.below(8)]
            let css = sheet(&r, rules: rules, maxContainers: maxContainers, header: r.chance(0.6))
            let c = try compile(css, schema: schema)
            let app: String? = r.chance(0.5) ? "org.example.App" : nil
            let trees = (0..<3).map { _ in tree(&r, nodes: nodes, maxDepth: maxDepth) }
            let before = pushed
            try comparePushed(c, trees, app: app, winners: false, &pushed)
            try comparePushed(c, trees, app: app, winners: true, &pushed)
            if pushed - before != 2 * trees.map(\.count).reduce(0, +) {
                XCTFail("seed \(seed): rules=\(rules) containers=\(maxContainers)\n\(css)")
                return (pushed, forestNodes, seeded)
            }
            // Forests: each tree alone and all together, in one walker reused (the roots'
            // level keeps its last key from one resolve to the next), then pushed again.
            let expected = try naive(c, trees, app: app)
            var fast = StyleWalker(c, app: app)
            var got: [[Int32]] = []
            for t in trees {
                let forest = try XCTUnwrap(StyleForest([t], for: c))
                fast.resolve(forest) { _, s in got.append(Array(s)) }
            }
            let all = try XCTUnwrap(StyleForest(trees, for: c))
            var again: [[Int32]] = []
            fast.resolve(all) { _, s in again.append(Array(s)) }
            fast.resolve(all) { _, s in again.append(Array(s)) }
            XCTAssertEqual(got, expected, "seed \(seed) forest")
            XCTAssertEqual(again, expected + expected, "seed \(seed) forest again")
            for (node, depth) in trees[0] {
                while fast.depth >= depth { fast.pop() }
                _ = fast.push(node)
            }
            while fast.depth > 0 { fast.pop() }
            var third: [[Int32]] = []
            fast.resolve(all) { _, s in third.append(Array(s)) }
            XCTAssertEqual(third, expected, "seed \(seed) forest after pushes")
            forestNodes += got.count + again.count + third.count
            try compareSeeded(c, trees[0], app: app, &r, &seeded)
        }
        return (pushed, forestNodes, seeded)
    }

    /// `seedCount` seeds from `first` over `schema`, every node compared.
    /// - Returns: the nodes pushed and those pushed below a seeded prefix.
    func runChecked(from first: UInt64, schema: Schema) throws -> (pushed: Int, seeded: Int) {
        let (p, f, s) = try run(
            seeds: first..<(first + UInt64(seedCount)), schema: schema, nodes: 300, maxDepth: 40)
        XCTAssertEqual(p, 2 * 3 * 300 * seedCount)
        XCTAssertEqual(f, 4 * 3 * 300 * seedCount)
        return (p, s)
    }

    func testIndexedMatchesNaiveWithSharingOnShippedSchema() throws {
        let (pushed, seeded) = try runChecked(from: 0, schema: shippedSchema)
        XCTAssertGreaterThan(
            sharedTotal, pushed / 50, "enough siblings share for the comparison to mean something")
        XCTAssertGreaterThan(seeded, 0)
    }

    func testIndexedMatchesNaiveWithSharingOnTwelveStates() throws {
        _ = try runChecked(from: 1000, schema: try schema(states: 12))
    }

    /// States past bit 32 (the high word of a node's states in the sharing key).
    func testIndexedMatchesNaiveWithSharingOnFortyStates() throws {
        _ = try runChecked(from: 2000, schema: try schema(states: 40))
    }

    /// A theme without rules with containers (two words of state, both all ones), seeded.
    func testNoContainerRulesSeeded() throws {
        let c = try compileSheet("Button.a { row-height: 3; } Label { tint-color: #ff0000; }")
        XCTAssertEqual(c.map.frozen.containerRules.blockWords, 2)
        var first = StyleWalker(c)
        let window = PathNode(type: "Window")
        let style = try XCTUnwrap(first.push(window))
        let state = first.childState()
        XCTAssertEqual(Array(state), [~0, ~0])
        var second = StyleWalker(c)
        second.seed([window], style: style, state: state)
        let b = try XCTUnwrap(second.push(PathNode(type: "Button", classes: ["a"])))
        XCTAssertEqual(b.value(at: second.propertyNames.firstIndex(of: "row-height")!).description, "3")
    }

    /// Word counts per position that are odd before padding, even already (2 words), and the
    /// all-ones pair read by position 0: 65 rules of 2 compounds and 130 of 3.
    func testPaddedPositions() throws {
        var css = ""
        for i in 0..<65 { css += "Window Button.c\(i) { row-height: \(i); }\n" }
        for i in 0..<130 { css += "Window View Label.d\(i) { row-height: \(i); }\n" }
        let c = try compileSheet(css)
        let rules = c.map.frozen.containerRules
        XCTAssertEqual(Array(UnsafeBufferPointer(start: rules.words.base, count: rules.words.count)), [4, 4])
        XCTAssertEqual(rules.stateWords, 8)
        XCTAssertEqual(rules.blockWords, 10)
        XCTAssertEqual(
            Array(UnsafeBufferPointer(start: rules.pairSources.base, count: rules.pairSources.count)),
            [8, 8, 0, 2])
        let tree: Tree = [
            (PathNode(type: "Window"), 1), (PathNode(type: "View"), 2),
            (PathNode(type: "Label", classes: ["d129"]), 3), (PathNode(type: "Label", classes: ["d129"]), 3),
            (PathNode(type: "Button", classes: ["c64"]), 3), (PathNode(type: "Label", classes: ["d64"]), 3),
        ]
        let expected = try naive(c, [tree], app: nil)
        var fast = StyleWalker(c)
        var got: [[Int32]] = []
        fast.resolve(try XCTUnwrap(StyleForest([tree], for: c))) { _, s in got.append(Array(s)) }
        XCTAssertEqual(got, expected)
    }

    /// Winners switched on after a sibling was pushed without them: the next alike sibling must
    /// not take that sibling's row (its winners were never recorded).
    func testWinnersSwitchedOnMidWalk() throws {
        let c = try compileSheet("Button { row-height: 3; } Window Button { tint-color: #ff0000; }")
        var fast = StyleWalker(c)
        var slow = StyleWalker(c, mode: .naive)
        slow.tracksWinners = true
        _ = fast.push(PathNode(type: "Window"))
        _ = slow.push(PathNode(type: "Window"))
        _ = fast.push(PathNode(type: "Button"))
        fast.pop()
        fast.tracksWinners = true
        let a = try XCTUnwrap(fast.push(PathNode(type: "Button")))
        let b = try XCTUnwrap(slow.push(PathNode(type: "Button")))
        XCTAssertEqual(a.values, b.values)
        XCTAssertEqual(a.winners, b.winners)
        XCTAssertEqual(fast.sharedNodes, 0)
    }

    /// A root alike the last root of an earlier walk of the same walker shares its row (a
    /// root's style depends on nothing else), and gets the naive walker's values.
    func testRootSharesAcrossWalks() throws {
        let c = try compileSheet("Window { row-height: 3; } Window.a { row-height: 4; }")
        var w = StyleWalker(c)
        let two = try XCTUnwrap(
            StyleForest(
                [[(PathNode(type: "Window"), 1)], [(PathNode(type: "Window", classes: ["a"]), 1)]], for: c))
        let one = try XCTUnwrap(StyleForest([[(PathNode(type: "Window", classes: ["a"]), 1)]], for: c))
        w.resolve(two) { _, _ in }
        let before = w.sharedNodes
        var got: [[Int32]] = []
        w.resolve(one) { _, s in got.append(Array(s)) }
        XCTAssertEqual(w.sharedNodes - before, 1)
        XCTAssertEqual(got, try naive(c, [[(PathNode(type: "Window", classes: ["a"]), 1)]], app: nil))
    }
}
