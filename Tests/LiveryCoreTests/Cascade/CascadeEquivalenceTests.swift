import Foundation
import XCTest

@testable import LiveryCore

/// The indexed cascade (selector map, container states, style cache) gives the same values as the
/// reference matcher on random sheets and paths.
final class CascadeEquivalenceTests: XCTestCase {
    /// SplitMix64: seeded, so that a failure is reproducible.
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
        mutating func pick<T>(_ a: [T]) -> T { a[below(a.count)] }
        mutating func chance(_ p: Double) -> Bool { Double(next() % 1000) / 1000 < p }
    }

    let types = [
        "View", "Window", "Control", "Button", "Label", "NavigationBar", "ToolBar", "BarButtonItem", "Switch",
        "TableView",
        "TableViewCell", "Popover",
    ]
    let names = ["title", "ok", "field"]
    let classes = ["destructive", "primary", "compact"]
    let states = ["normal", "highlighted", "selected", "disabled"]
    let properties = ["tint-color", "text-color", "background-color", "on-tint-color", "row-height"]

    func compound(_ r: inout Random) -> String {
        var s = r.chance(0.1) ? "*" : r.pick(types)
        if r.chance(0.15) { s += "#" + r.pick(names) }
        if r.chance(0.25) { s += "." + r.pick(classes) }
        if r.chance(0.2) { s += ":" + r.pick(states) }
        return s
    }

    /// A compound of `types` and `classes`: sometimes `*`, a name, up to two classes, a state.
    func compound(_ r: inout Random, types: [String], classes: [String]) -> String {
        var s = r.chance(0.1) ? "*" : r.pick(types)
        if r.chance(0.15) { s += "#" + r.pick(names) }
        for _ in 0..<r.below(3) { s += "." + r.pick(classes) }
        if r.chance(0.2) { s += ":" + r.pick(states) }
        return s
    }

    func sheet(_ r: inout Random, rules: Int) -> String {
        var out = ""
        for i in 0..<rules {
            var sel = compound(&r)
            for _ in 0..<r.below(4) { sel = compound(&r) + (r.chance(0.3) ? " > " : " ") + sel }
            var decls = ""
            for _ in 0...r.below(2) {
                let p = r.pick(properties)
                decls +=
                    p == "row-height"
                    ? "\(p): \(r.below(100)); " : "\(p): #\(String(format: "%06x", r.below(0xffffff))); "
            }
            let rule = "\(sel) { \(decls)}\n"
            out += i % 7 == 3 ? "@app \"org.example.App\" { \(rule) }\n" : rule
        }
        return out
    }

    func path(_ r: inout Random) -> String {
        (0...r.below(6)).map { _ in
            var s = r.pick(types)
            if r.chance(0.3) { s += "#" + r.pick(names) }
            for k in classes where r.chance(0.2) { s += "." + k }
            for k in states.dropFirst() where r.chance(0.2) { s += ":" + k }
            return s
        }.joined(separator: "/")
    }

    /// Every node's values from the naive walker, pushed node by node in preorder.
    func naiveValues(_ c: Cascade, _ trees: [[(node: PathNode, depth: Int)]]) throws -> [[Value]] {
        var values: [[Value]] = []
        var slow = StyleWalker(c, mode: .naive)
        for tree in trees {
            for (node, depth) in tree {
                while slow.depth >= depth { slow.pop() }
                values.append(try XCTUnwrap(slow.push(node)).values)
            }
            while slow.depth > 0 { slow.pop() }
        }
        return values
    }

    /// Every node's values from the indexed walker styling `forest` in one call.
    func forestValues(_ c: Cascade, _ forest: StyleForest) -> [[Value]] {
        var fast = StyleWalker(c)
        var rows: [[Int32]] = []
        fast.resolve(forest) { _, slots in rows.append(Array(slots)) }
        return rows.map { $0.map { fast.value(ofSlot: $0) } }
    }

    func testIndexedCascadeMatchesReferenceOnRandomSheets() throws {
        var r = Random(state: 20_261_129)
        var compared = 0
        for _ in 0..<60 {
            let css = sheet(&r, rules: 5 + r.below(40))
            let c = try compileSheet(css)
            for _ in 0..<50 {
                let p = try ComponentPath(path(&r), schema: c.theme.schema)
                let app: String? = r.chance(0.5) ? "org.example.App" : nil
                let fast = try c.resolve(p, properties: properties, app: app)
                let slow = try c.resolveNaive(p, properties: properties, app: app)
                XCTAssertEqual(fast.map(\.value), slow.map(\.value), "\(p) app=\(app ?? "-")\n\(css)")
                // A second resolve is served from the cache and must not change.
                XCTAssertEqual(
                    try c.resolve(p, properties: properties, app: app).map(\.value), slow.map(\.value))
                var walker = StyleWalker(c, app: app, mode: .naive)
                for n in p.nodes { walker.push(n) }
                let idx = properties.map { walker.propertyNames.firstIndex(of: $0)! }
                XCTAssertEqual(idx.map { walker.top!.values[$0] }, slow.map(\.value))
                compared += 1
            }
        }
        XCTAssertEqual(compared, 3000)
    }

    /// Trees, walked node by node: the indexed walker (which shares styles between identical
    /// siblings) gives every node the values the naive walker computes.
    func testIndexedWalkerMatchesNaiveWalkerOnRandomTrees() throws {
        var r = Random(state: 7_001)
        var nodes = 0
        for _ in 0..<20 {
            let c = try compileSheet(sheet(&r, rules: 10 + r.below(60)))
            let app: String? = r.chance(0.5) ? "org.example.App" : nil
            var fast = StyleWalker(c, app: app)
            var slow = StyleWalker(c, app: app, mode: .naive)
            var depth = 0
            for _ in 0..<300 {
                // Up or down a level at random; siblings repeat often with so few features.
                if depth > 0 && (depth > 8 || r.chance(0.4)) {
                    let up = 1 + r.below(depth)
                    for _ in 0..<up {
                        fast.pop()
                        slow.pop()
                    }
                    depth -= up
                }
                var node = PathNode(type: r.pick(types))
                if r.chance(0.2) { node.name = r.pick(names) }
                if r.chance(0.3) { node.classes = [r.pick(classes)] }
                if r.chance(0.3) { node.states = [r.pick(states)] }
                let a = try XCTUnwrap(fast.push(node))
                let b = try XCTUnwrap(slow.push(node))
                depth += 1
                XCTAssertEqual(a.values, b.values, "\(node) at depth \(depth)")
                nodes += 1
            }
        }
        XCTAssertEqual(nodes, 6000)
    }

    /// Interned forests styled in one call (`StyleWalker.resolve`), deeper than the walker's
    /// first buffers (40 levels) and with nodes of up to 10 classes: every node gets the values
    /// the naive walker computes node by node.
    func testForestResolveMatchesNaiveWalkerOnDeepTrees() throws {
        var r = Random(state: 4_242)
        var checked = 0
        for _ in 0..<10 {
            let c = try compileSheet(sheet(&r, rules: 10 + r.below(60)))
            var trees: [[(node: PathNode, depth: Int)]] = []
            for _ in 0..<3 {
                var tree: [(node: PathNode, depth: Int)] = []
                var depth = 0
                for _ in 0..<200 {
                    depth = depth > 0 && r.chance(0.2) ? 1 + r.below(depth) : min(depth + 1, 40)
                    var node = PathNode(type: r.pick(types))
                    if r.chance(0.2) { node.name = r.pick(names) }
                    node.classes = classes.filter { _ in r.chance(r.chance(0.1) ? 0.9 : 0.2) }
                    if r.chance(0.3) { node.states = [r.pick(states)] }
                    tree.append((node, depth))
                }
                tree[0].depth = 1
                trees.append(tree)
            }
            let forest = try XCTUnwrap(StyleForest(trees, for: c))
            // A depth that skips a level, and a type the schema lacks, are refused.
            XCTAssertNil(
                StyleForest([[(PathNode(type: "Window"), 1), (PathNode(type: "Button"), 3)]], for: c))
            XCTAssertNil(StyleForest([[(PathNode(type: "Window"), 2)]], for: c))
            XCTAssertNil(StyleForest([[(PathNode(type: "Nonesuch"), 1)]], for: c))
            let expected = try naiveValues(c, trees)
            let got = forestValues(c, forest)
            XCTAssertEqual(got.count, expected.count)
            for k in 0..<min(got.count, expected.count) where got[k] != expected[k] {
                XCTFail("node \(k) differs")
                break
            }
            checked += got.count
        }
        XCTAssertEqual(checked, 6000)
    }

    /// More than 64 types (components declared by the sheet) and more than 64 classes: ids past
    /// 64 fall outside the 64-bit masks the fast path tests first, which must then stay mere
    /// necessary conditions. Paths and forests against the reference matchers.
    func testIdsPastSixtyFourMatchLikeTheReference() throws {
        var r = Random(state: 64_064)
        let components = (0..<70).map { "K\($0)" }
        let manyClasses = (0..<80).map { "k\($0)" }
        let header = components.enumerated().map { i, k in
            "@component \(k) : \(i == 0 ? "Control" : components[(i - 1) / 2]) { part p\(i): View; }\n"
        }.joined()
        let allTypes = types + components
        func compound(_ r: inout Random) -> String {
            self.compound(&r, types: allTypes, classes: manyClasses)
        }
        var css = header
        for _ in 0..<200 {
            var sel = compound(&r)
            for _ in 0..<r.below(3) { sel = compound(&r) + (r.chance(0.3) ? " > " : " ") + sel }
            css +=
                "\(sel) { tint-color: #\(String(format: "%06x", r.below(0xffffff))); row-height: \(r.below(99)); }\n"
        }
        let c = try compileSheet(css)
        func node(_ r: inout Random) -> PathNode {
            var n = PathNode(type: r.pick(allTypes))
            if r.chance(0.2) { n.name = r.pick(names) }
            n.classes = (0..<r.below(4)).map { _ in r.pick(manyClasses) }
            if r.chance(0.3) { n.states = [r.pick(states)] }
            return n
        }
        for _ in 0..<300 {
            let nodes = (0...r.below(5)).map { _ in node(&r) }
            let p = ComponentPath(nodes: nodes)
            XCTAssertEqual(
                try c.resolve(p, properties: ["tint-color", "row-height"]).map(\.value),
                try c.resolveNaive(p, properties: ["tint-color", "row-height"]).map(\.value), "\(p)")
        }
        var tree: [(node: PathNode, depth: Int)] = []
        var depth = 0
        for _ in 0..<1500 {
            depth = depth > 0 && r.chance(0.3) ? 1 + r.below(depth) : min(depth + 1, 12)
            tree.append((node(&r), depth))
        }
        XCTAssertEqual(
            forestValues(c, try XCTUnwrap(StyleForest([tree], for: c))), try naiveValues(c, [tree]))

        // Pinned: seventy classes take ids 0–69, so `.z` gets id 70; a Button with only `.a0`
        // must not match `Button.a0.z`, as subject or as container.
        let pinned = try compileSheet(
            (0..<70).map { ".a\($0) { row-height: \($0); }\n" }.joined()
                + "Button.a0.z { tint-color: #ff0000; }\nButton.a0.z Label { tint-color: #00ff00; }\n")
        let button = PathNode(type: "Button", classes: ["a0"])
        XCTAssertNotEqual(
            try pinned.resolve(ComponentPath(nodes: [button]), properties: ["tint-color"])[0].value
                .description,
            "#ff0000ff")
        XCTAssertNotEqual(
            try pinned.resolve(
                ComponentPath(nodes: [button, PathNode(type: "Label")]), properties: ["tint-color"])[
                    0
                ].value.description, "#00ff00ff")
        XCTAssertEqual(
            try pinned.resolve(
                ComponentPath(nodes: [PathNode(type: "Button", classes: ["z", "a0"])]),
                properties: ["tint-color"])[0]
                .value.description, "#ff0000ff")
    }

    /// A class written many times is one class (the walker's match list has room for each rule
    /// once: a path `Label.x.x.x…` used to overflow it); a compound with two different names
    /// matches nothing (it used to crash the selector map's construction).
    func testRepeatedClassesAndImpossibleNames() throws {
        let c = try compileSheet(
            ".a { tint-color: #ff0000; }\nButton.a { row-height: 7; }\nButton#x#y { tint-color: #00ff00; }\n")
        let node = PathNode(type: "Button", classes: Array(repeating: "a", count: 5000))
        let p = ComponentPath(nodes: [PathNode(type: "Window"), node])
        let fast = try c.resolve(p, properties: ["tint-color", "row-height"]).map(\.value.description)
        XCTAssertEqual(fast, ["#ff0000ff", "7"])
        XCTAssertEqual(
            fast, try c.resolveNaive(p, properties: ["tint-color", "row-height"]).map(\.value.description))
        var walker = StyleWalker(c)
        var rows: [[Int32]] = []
        walker.resolve(try XCTUnwrap(StyleForest([[(PathNode(type: "Window"), 1), (node, 2)]], for: c))) {
            _, s in
            rows.append(Array(s))
        }
        XCTAssertEqual(rows.count, 2)
        let named = ComponentPath(nodes: [PathNode(type: "Button", name: "x")])
        XCTAssertNotEqual(try c.resolve(named, properties: ["tint-color"])[0].value.description, "#00ff00ff")
    }

    /// Rules that are a type (or `*`) alone are kept per (type, states) as the walker meets
    /// them; a node in a state the schema lacks (in some state, none of them known) is not a
    /// node in no state (`:normal`), with an application or without, and rules of more than four
    /// declarations (applied in groups of four) set every one.
    func testContainerFreeRulesAreKeptPerTypeAndStates() throws {
        let c = try compileSheet(
            """
            Button { corner-radius: 1; }
            Button:normal { tint-color: #ff0000; }
            Button:selected { corner-radius: 2; }
            View:disabled { alpha: 0.5; }
            *:selected:disabled { border-width: 3; }
            @app "org.example.App" { Button { border-width: 9; } }
            Label { background-color: #010101; tint-color: #020202; alpha: 0.25; corner-radius: 4; border-width: 5; border-color: #030303; }
            """)
        let window = PathNode(type: "Window")
        let children = [
            PathNode(type: "Button"), PathNode(type: "Button", states: ["selected"]),
            PathNode(type: "Button", states: ["pressed"]),
            PathNode(type: "Button", states: ["selected", "disabled"]),
            PathNode(type: "Label"), PathNode(type: "Button"), PathNode(type: "Button", states: ["pressed"]),
        ]
        let forest = try XCTUnwrap(StyleForest([[(window, 1)] + children.map { ($0, 2) }], for: c))
        let properties = [
            "tint-color", "corner-radius", "alpha", "border-width", "background-color", "border-color",
        ]
        for app in [nil, "org.example.App"] {
            var walker = StyleWalker(c, app: app)
            let columns = properties.map { walker.propertyNames.firstIndex(of: $0)! }
            var rows: [[String]] = []
            walker.resolve(forest) { _, slots in
                rows.append(columns.map { c.map.table.values[Int(slots[$0])].description })
            }
            for (i, node) in children.enumerated() {
                let expected = try c.resolveNaive(
                    ComponentPath(nodes: [window, node]), properties: properties, app: app)
                XCTAssertEqual(rows[i + 1], expected.map(\.value.description), "\(node) app=\(app ?? "-")")
            }
            XCTAssertEqual(
                rows[1], ["#ff0000ff", "1", "1", app == nil ? "0" : "9", "#00000000", "#000000ff"])
            XCTAssertEqual(rows[3][0], "#007affff", "a state the schema lacks is not :normal")
            XCTAssertEqual(
                rows[4], ["#007affff", "2", "0.5", app == nil ? "3" : "9", "#00000000", "#000000ff"])
            XCTAssertEqual(rows[5], ["#020202ff", "4", "0.25", "5", "#010101ff", "#030303ff"])
        }
    }

    /// Thousands of rules matching one node from two buckets whose ranks interleave (each
    /// class's rules in two runs): sorted into cascade order, the last declaration wins each
    /// property (a newcomer trial held the daemon for seconds with 200,000 such rules, sorted
    /// by insertion).
    func testManyMatchesFromInterleavedBucketsKeepCascadeOrder() throws {
        var sheet = ""
        for run in 0..<4 {
            let k = run % 2 == 0 ? "b" : "a"
            for i in 0..<1500 { sheet += ".\(k) { row-height: \(run * 10_000 + i); }\n" }
        }
        sheet += ".b { alpha: 0.5; }\n.a { alpha: 0.25; }\n"
        let c = try compileSheet(sheet)
        let p = ComponentPath(nodes: [
            PathNode(type: "Window"), PathNode(type: "TableView", classes: ["a", "b"]),
        ])
        let fast = try c.resolve(p, properties: ["row-height", "alpha"]).map(\.value.description)
        XCTAssertEqual(fast, ["31499", "0.25"])
        XCTAssertEqual(
            fast, try c.resolveNaive(p, properties: ["row-height", "alpha"]).map(\.value.description))
        let b = ComponentPath(nodes: [PathNode(type: "Window"), PathNode(type: "TableView", classes: ["b"])])
        XCTAssertEqual(
            try c.resolve(b, properties: ["row-height", "alpha"]).map(\.value.description), ["21499", "0.5"])
    }

    /// The cache of resolved paths is bounded in bytes as well as entries: each entry keeps a
    /// container state, which grows with the theme (a newcomer trial took a daemon from 254 to
    /// 870 MB with 300 paths and a theme of 10,000 rules of 32 compounds).
    func testStyleCacheIsBoundedInBytes() throws {
        let c = try compileSheet("Button { tint-color: #ff0000; }")
        var walker = StyleWalker(c)
        let style = try XCTUnwrap(walker.push(PathNode(type: "Button")))
        let cache = StyleCache()
        let state = ContiguousArray<UInt64>(repeating: 7, count: 100_000)
        for i in 0..<100 {
            cache.store("path \(i)", StyleCache.CachedStyle(style: style, state: state))
            XCTAssertLessThanOrEqual(cache.size.bytes, StyleCache.byteCapacity)
            XCTAssertEqual(cache.entry("path \(i)")?.state.count, 100_000)
        }
        XCTAssertLessThan(cache.size.entries, 42, "800 KB entries: at most 41 fit in 32 MiB")
        cache.store("path 99", StyleCache.CachedStyle(style: style, state: [1]))
        let (bytes, entries) = cache.size
        cache.store("path 99", StyleCache.CachedStyle(style: style, state: [1]))
        XCTAssertEqual(cache.size.bytes, bytes, "replacing an entry counts it once")
        XCTAssertEqual(cache.size.entries, entries)
        // Replacing an entry near the cap does not start over; one larger than the cap is not kept.
        let big = StyleCache.CachedStyle(
            style: style, state: ContiguousArray(repeating: 0, count: 4 << 20 + 1))
        cache.store("too big", big)
        XCTAssertNil(cache.entry("too big"))
        XCTAssertEqual(cache.size.entries, entries)
        XCTAssertLessThanOrEqual(cache.size.bytes, StyleCache.byteCapacity)
    }

    /// Long selectors (up to 9 compounds, so that the container states span several words per
    /// position), wide and deep forests whose siblings have up to 12 classes (and runs of
    /// siblings alike but for their last class, which style sharing must tell apart), the
    /// winners tracked (`tracksWinners`), deep paths through the prefix
    /// cache, and a theme without rules with containers: all as the naive walker has them.
    func testLongSelectorsManyClassesWinnersAndDeepPathsMatchTheNaiveWalker() throws {
        var r = Random(state: 9_009)
        let pool = (0..<12).map { "m\($0)" }
        func compound(_ r: inout Random) -> String { self.compound(&r, types: types, classes: pool) }
        func longSheet(_ r: inout Random, rules: Int, containers: Bool) -> String {
            (0..<rules).map { _ in
                var sel = compound(&r)
                if containers {
                    for _ in 0..<r.below(9) { sel = compound(&r) + (r.chance(0.3) ? " > " : " ") + sel }
                }
                let colour = r.pick(properties.filter { $0 != "row-height" })
                return
                    "\(sel) { \(colour): #\(String(format: "%06x", r.below(0xffffff))); row-height: \(r.below(99)); }\n"
            }.joined()
        }
        var checked = 0
        for round in 0..<4 {
            let c = try compileSheet(longSheet(&r, rules: 300, containers: round != 3))
            var tree: [(node: PathNode, depth: Int)] = []
            var depth = 0
            for _ in 0..<400 {
                // Runs of siblings that differ only in their last class.
                depth = depth > 0 && r.chance(0.35) ? 1 + r.below(depth) : min(depth + 1, 30)
                var node = PathNode(type: r.pick(types))
                node.classes = r.chance(0.5) ? pool.filter { _ in r.chance(0.8) } : [r.pick(pool)]
                if r.chance(0.2) { node.states = [r.pick(states)] }
                tree.append((node, depth))
                if r.chance(0.3) && node.classes.count > 1 {
                    var twin = node
                    twin.classes.removeLast()
                    tree.append((twin, depth))
                }
            }
            let forest = try XCTUnwrap(StyleForest([tree], for: c))
            XCTAssertEqual(forestValues(c, forest), try naiveValues(c, [tree]))
            var fast = StyleWalker(c)
            fast.tracksWinners = true
            var slow = StyleWalker(c, mode: .naive)
            slow.tracksWinners = true
            for (node, depth) in tree {
                while fast.depth >= depth {
                    fast.pop()
                    slow.pop()
                }
                let a = try XCTUnwrap(fast.push(node))
                let b = try XCTUnwrap(slow.push(node))
                XCTAssertEqual(a.winners, b.winners)
                XCTAssertEqual(a.values, b.values)
                checked += 1
            }
            // Every node's path from the root, resolved through the cache of prefixes.
            var stack: [PathNode] = []
            for (node, depth) in tree.prefix(150) {
                stack = Array(stack.prefix(depth - 1)) + [node]
                let p = ComponentPath(nodes: stack)
                XCTAssertEqual(
                    try c.resolve(p, properties: properties).map(\.value),
                    try c.resolveNaive(p, properties: properties).map(\.value), "\(p)")
            }
        }
        XCTAssertGreaterThan(checked, 1600)
    }

    /// A type bucket's rules with containers are gathered in chunks of at most 64 candidates
    /// and 8 runs of container bits (`SelectorMap.FrozenTables.typeChunks`): 200 `Button` subjects with
    /// 1–11 containers (a run per compound count and more than 64 of some counts), some with
    /// states, `@app` or an id past 63 (taking the full test), and `*` subjects (the universal
    /// chunks) give the naive walker's values on random trees, in every chunk.
    func testTypeBucketChunksPastSixtyFourCandidatesAndEightRuns() throws {
        var r = Random(state: 6_464)
        let extra = (0..<70).map { "x\($0)" }
        var sheet = extra.map { "Label.\($0) { row-height: 1; }\n" }.joined()
        for i in 0..<240 {
            let containers = i < 100 ? 1 : 1 + r.below(11)
            var sel = i % 6 == 5 ? "*" : "Button"
            if r.chance(0.3) { sel += ":" + r.pick(states.dropFirst().map { $0 }) }
            if i % 17 == 3 { sel += ":normal" }
            for _ in 0..<containers {
                var c = r.chance(0.2) ? "*" : r.pick(types)
                if r.chance(0.2) { c += "." + r.pick(classes) }
                if r.chance(0.05) { c += "." + r.pick(extra) }
                sel = c + (r.chance(0.4) ? " > " : " ") + sel
            }
            let rule =
                "\(sel) { \(r.pick(properties.filter { $0 != "row-height" })): #\(String(format: "%06x", r.below(0xffffff))); row-height: \(r.below(99)); }\n"
            sheet += i % 13 == 7 ? "@app \"org.example.App\" { \(rule) }\n" : rule
        }
        let c = try compileSheet(sheet)
        let frozen = c.map.frozen
        let button = Int(try XCTUnwrap(c.map.typeIDs["Button"]))
        let chunks = frozen.typeChunks[button]
        XCTAssertGreaterThan(chunks.count, 2, "Button's rules span several chunks")
        XCTAssertEqual(
            frozen.segmentSlots, SelectorMap.FrozenTables.maxSegments, "some chunk has all its runs")
        XCTAssertGreaterThan(
            frozen.typeChunks[Int(try XCTUnwrap(c.map.typeIDs["Label"]))].count, 0, "`*` subjects")
        // The unrolled steps read up to 64 entries past a chunk's first: padding keeps them in.
        for chunk in 0..<frozen.chunkFirst.count {
            XCTAssertLessThanOrEqual(Int(frozen.chunkFirst[chunk]) + 64, frozen.chunkMatches.count)
            XCTAssertLessThanOrEqual(Int(frozen.chunkFirst[chunk]) + 64, frozen.chunkStates.count)
        }
        XCTAssertTrue(
            (Int(chunks.start)..<Int(chunks.start + chunks.count)).contains { frozen.chunkInexact[$0] != 0 },
            "some candidates take the full test")
        for app in [nil, "org.example.App"] as [String?] {
            var trees: [[(node: PathNode, depth: Int)]] = []
            for _ in 0..<30 {
                var tree: [(node: PathNode, depth: Int)] = []
                var depth = 0
                for _ in 0..<60 {
                    depth = depth > 0 && r.chance(0.3) ? 1 + r.below(depth) : min(depth + 1, 14)
                    var node = PathNode(type: r.chance(0.5) ? "Button" : r.pick(types))
                    if r.chance(0.3) { node.classes = [r.pick(classes)] }
                    if r.chance(0.1) { node.classes.append(r.pick(extra)) }
                    if r.chance(0.4) { node.states = [r.pick(states)] }
                    tree.append((node, depth))
                }
                trees.append(tree)
            }
            var fast = StyleWalker(c, app: app)
            var slow = StyleWalker(c, app: app, mode: .naive)
            var compared = 0
            for tree in trees {
                for (node, depth) in tree {
                    while fast.depth >= depth {
                        fast.pop()
                        slow.pop()
                    }
                    XCTAssertEqual(
                        try XCTUnwrap(fast.push(node)).values, try XCTUnwrap(slow.push(node)).values)
                    compared += 1
                }
                while fast.depth > 0 {
                    fast.pop()
                    slow.pop()
                }
            }
            XCTAssertEqual(compared, 1800)
            if app == nil {
                let forest = try XCTUnwrap(StyleForest(trees, for: c))
                XCTAssertEqual(forestValues(c, forest), try naiveValues(c, trees))
            }
        }
    }

    /// The table that looks a node's strings up: every name found with its value among
    /// thousands (so probes run through collisions), names of every length up to 20 bytes
    /// (the hash reads 8 at a time), non-ASCII, the empty name, and strings made in other ways
    /// (a substring's copy, a concatenation); names it lacks are not found.
    func testNameTableFindsEveryNameAndNothingElse() {
        var pairs: [String: Int32] = [:]
        for i in 0..<5_000 { pairs["n\(i)" + String(repeating: "é", count: i % 7)] = Int32(i) }
        for length in 0...20 { pairs[String(repeating: "a", count: length)] = Int32(10_000 + length) }
        let table = NameTable(pairs)
        XCTAssertEqual(table.count, pairs.count)
        for (name, value) in pairs { XCTAssertEqual(table[name], value, name) }
        XCTAssertEqual(table[String("xxaaaaaaaaaaxx".dropFirst(2).dropLast(2))], 10_010)
        XCTAssertEqual(table["n4" + "2"], 42)
        for missing in ["", "b", "n5000", "aaaaaaaaaaaaaaaaaaaaa", "n1é", "N1", "n42 "]
        where pairs[missing] == nil {
            XCTAssertNil(table[missing], missing)
        }
        XCTAssertNil(NameTable([String: Int32]())["Button"])
        // The hash spreads names that differ in any byte, the last ones included.
        let hashes = Set((0..<5_000).map { table.hash("name-\($0)") })
        XCTAssertGreaterThan(hashes.count, 4_990)
    }

    /// Names equal as Swift strings are (canonically equivalent: `é` as one scalar or as `e`
    /// and a combining accent; the Kelvin sign and `K`) are found whichever way either is
    /// written, in the table and in the cascade, as the reference matcher compares them.
    func testNamesAreFoundByCanonicalEquivalence() throws {
        let table = NameTable(["caf\u{E9}": Int32(1), "K": 2, "cafe\u{301}s": 3])
        XCTAssertEqual("\u{212A}", "K")
        XCTAssertEqual(table["cafe\u{301}"], 1)
        XCTAssertEqual(table["caf\u{E9}"], 1)
        XCTAssertEqual(table["\u{212A}"], 2)
        XCTAssertEqual(table["caf\u{E9}s"], 3)
        XCTAssertNil(table["cafe"])
        // Scripts newer than Foundation's Unicode data (Kirat Rai, Unicode 16), and new
        // combining marks in either order (found in review: Foundation's NFC left them apart).
        let newer = NameTable(["x\u{16D68}": Int32(1), "y\u{897}\u{323}": 2])
        XCTAssertEqual(newer["x\u{16D67}\u{16D67}"], 1)
        XCTAssertEqual(newer["y\u{323}\u{897}"], 2)
        // Equal names hash alike (a lookup can find a key from the wrong slot by probing, so
        // the hashes are compared themselves).
        for (a, b) in [
            ("x\u{16D68}", "x\u{16D67}\u{16D67}"), ("y\u{897}\u{323}", "y\u{323}\u{897}"),
            ("caf\u{E9}", "cafe\u{301}"), ("K", "\u{212A}"),
        ] {
            XCTAssertEqual(a, b)
            XCTAssertEqual(newer.hash(a), newer.hash(b), "\(a.unicodeScalars.map(\.value))")
        }
        let c = try compileSheet(
            "Label.caf\u{E9} { row-height: 7; }\nLabel#caf\u{E9} { tint-color: #ff0000; }\n")
        let p = ComponentPath(nodes: [PathNode(type: "Label", name: "cafe\u{301}", classes: ["cafe\u{301}"])])
        let properties = ["row-height", "tint-color"]
        let fast = try c.resolve(p, properties: properties).map(\.value)
        XCTAssertEqual(fast, try c.resolveNaive(p, properties: properties).map(\.value))
        XCTAssertEqual(fast.map(\.description), ["7", "#ff0000ff"])
        // A component type written the other way: the path parser accepts it (the schema's
        // types are compared as strings), and the walker must find it too (it crashed the
        // daemon: a push of an unknown type was force-unwrapped; found by a newcomer trial).
        let typed = try compileSheet("@component Caf\u{E9} : Control { }\nCaf\u{E9} { row-height: 9; }\n")
        let path = try ComponentPath("Window/Cafe\u{301}", schema: typed.theme.schema)
        XCTAssertEqual(try typed.resolve(path, properties: ["row-height"]).map(\.value.description), ["9"])
        XCTAssertEqual(
            try typed.resolve(path, properties: ["row-height"]).map(\.value),
            try typed.resolveNaive(path, properties: ["row-height"]).map(\.value))
    }

    /// A path of a type the theme does not know (one not checked against its schema) is an
    /// error, not a crash.
    func testUnknownTypeIsAnErrorNotACrash() throws {
        let c = try compileSheet("Button { row-height: 3; }")
        let path = ComponentPath(nodes: [PathNode(type: "Window"), PathNode(type: "Nope")])
        XCTAssertThrowsError(try c.resolve(path, properties: ["row-height"])) {
            XCTAssertEqual("\($0)", "unknown component type 'Nope'")
        }
    }

    /// The floor (`StyleWalker.Mode.floor`, the benchmark's lower bound) walks and inherits
    /// only, on a short path of its own: below a node with declared values (seeded, as the
    /// style cache seeds a walker), every node has its container's value for each property
    /// that inherits and the initial value for the others, whatever rules the theme has, and
    /// no rule wins anything (winners −1, not whatever the buffer held).
    func testFloorInheritsOnly() throws {
        let c = try compileSheet(
            """
            Window { text-color: #112233; tint-color: #445566; background-color: #778899; font-size: 21; }
            Label { text-color: #abcdef; background-color: #010203; }
            """)
        var indexed = StyleWalker(c)
        let window = PathNode(type: "Window")
        let style = try XCTUnwrap(indexed.push(window))
        var floor = StyleWalker(c, mode: .floor)
        floor.tracksWinners = true
        floor.seed([window], style: style, state: indexed.childState())
        let names = floor.propertyNames
        let expected = names.indices.map { p in
            shippedSchema.properties[names[p]]!.inherits
                ? style.value(at: p) : shippedSchema.properties[names[p]]!.initial
        }
        XCTAssertNotEqual(expected, style.values, "some property does not inherit")
        XCTAssertNotEqual(
            expected, names.map { shippedSchema.properties[$0]!.initial }, "some inherited value was declared"
        )
        for (node, depth) in [("Label", 2), ("Label", 3), ("Button", 4), ("Label", 3), ("Label", 2)] {
            while floor.depth >= depth { floor.pop() }
            let pushed = try XCTUnwrap(floor.push(PathNode(type: node)))
            XCTAssertEqual(pushed.values, expected, "\(node) at \(depth)")
            XCTAssertEqual(pushed.winners, ContiguousArray(repeating: -1, count: names.count), "no rule wins")
        }
    }

    /// The selector index lists a `*` or supertype selector under every type it can match, so
    /// a theme with hundreds of `@component` types and thousands of `*.class` rules would take
    /// gigabytes: past `SelectorMap.indexLimit` it is a load error that says why, and a theme
    /// with fewer types compiles. Random sheets of 10,000 rules over the shipped schema stay
    /// far below the limit.
    func testSelectorIndexSizeIsBounded() throws {
        let components = (0..<300).map { "@component Widget\($0) : View { }\n" }.joined()
        let rules = (0..<2_500).map { "*.k\($0) *.k\($0) { row-height: 1; }\n" }.joined()
        let source = try bundle(components + rules, files: [:])
        let (theme, diagnostics) = ThemeCompiler.compile(chain: [source], schema: shippedSchema)
        XCTAssertNil(theme)
        let error = try XCTUnwrap(diagnostics.first { $0.severity == .error })
        XCTAssertTrue(error.message.hasPrefix("the theme's selector index would take"), error.message)
        XCTAssertTrue(
            error.message.contains("(at most 64 MiB): 2500 rules over 324 component types"), error.message)
        XCTAssertEqual(error.location.line, 301)
        let fewer = try bundle(
            (0..<20).map { "@component Widget\($0) : View { }\n" }.joined() + rules, files: [:])
        let compiled = ThemeCompiler.compile(chain: [fewer], schema: shippedSchema)
        XCTAssertNotNil(compiled.theme, "\(compiled.diagnostics.prefix(3))")

        // Tables that grow with types², and the per-type container state of long selectors
        // whose compounds are a type alone (found in review: neither was counted, and such
        // themes took 80–90 MB and a minute and a half to build).
        let squared = try bundle(
            (0..<9_000).map { "@component W\($0) : View { }\n" }.joined() + "Button { row-height: 1; }\n",
            files: [:])
        XCTAssertNil(ThemeCompiler.compile(chain: [squared], schema: shippedSchema).theme)
        let long = try bundle(
            (0..<2_000).map { "@component W\($0) : View { }\n" }.joined()
                + (0..<2_500).map {
                    "\(String(repeating: "* ", count: 31))Button.k\($0) { row-height: 1; }\n"
                }
                .joined(), files: [:])
        let longCompiled = ThemeCompiler.compile(chain: [long], schema: shippedSchema)
        XCTAssertNil(longCompiled.theme)
        XCTAssertEqual(longCompiled.diagnostics.first { $0.severity == .error }?.location.line, 2_001)

        var r = Random(state: 10_000)
        let big = try compileSheet(sheet(&r, rules: 10_000))
        let size = SelectorMap.indexSize(rules: big.theme.rules, schema: big.theme.schema)
        XCTAssertLessThan(size, SelectorMap.indexLimit / 4)
        XCTAssertGreaterThan(size, 0)
    }

    /// Nodes and rules in states past the schema's first four: candidates of a type bucket that
    /// require such a state take the full test (a chunk's one-AND state masks cover the first
    /// four only), and (type, states) past 15 are looked up by hash, not directly. A schema of
    /// 12 states, rules with and without containers requiring them: the naive walker's values.
    func testStatesPastTheFirstFourMatchLikeTheNaiveWalker() throws {
        let url = themesDirectory.appendingPathComponent("schema.json")
        var root = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let extra = (5...12).map { "s\($0)" }
        root["states"] = ["normal", "highlighted", "selected", "disabled", "focused"] + extra
        let schema = try Schema(json: JSONSerialization.data(withJSONObject: root), file: "s.json")
        var r = Random(state: 1_212)
        let all = ["highlighted", "selected", "disabled", "focused"] + extra
        var css = ""
        for i in 0..<400 {
            var sel = r.pick(["Button", "Label", "*"])
            for _ in 0..<r.below(3) { sel += ":" + r.pick(all) }
            for _ in 0..<(i % 4 == 0 ? 0 : 1 + r.below(3)) {
                sel =
                    r.pick(["Window", "View", "*", "ToolBar:" + r.pick(all)]) + (r.chance(0.4) ? " > " : " ")
                    + sel
            }
            css +=
                "\(sel) { tint-color: #\(String(format: "%06x", r.below(0xffffff))); row-height: \(r.below(99)); }\n"
        }
        let (theme, diagnostics) = ThemeCompiler.compile(chain: [try bundle(css, files: [:])], schema: schema)
        let c = Cascade(theme: try XCTUnwrap(theme, "\(diagnostics.prefix(3))"))
        var fast = StyleWalker(c)
        var slow = StyleWalker(c, mode: .naive)
        var depth = 0
        for _ in 0..<3_000 {
            depth = depth > 0 && r.chance(0.35) ? 1 + r.below(depth) : min(depth + 1, 12)
            while fast.depth >= depth {
                fast.pop()
                slow.pop()
            }
            var node = PathNode(type: r.pick(["Window", "ToolBar", "Button", "Label", "View"]))
            node.states = (0..<r.below(4)).map { _ in r.pick(all + ["normal"]) }
            XCTAssertEqual(
                try XCTUnwrap(fast.push(node)).values, try XCTUnwrap(slow.push(node)).values, "\(node)")
        }
    }

    /// Style sharing keys a node by its type, name, states and classes, the classes as a mask
    /// of the ids below 64 and the one class past them a node may have, and compares it with
    /// its last sibling's: a node with two classes past 64 is never shared, nor shared with;
    /// siblings whose classes differ only past 64, or in one class below, or that are alike
    /// but not adjacent, get their own values; adjacent alike siblings share, and so do
    /// adjacent siblings that list the same classes in another order.
    func testSiblingsShareOnlyWhatTheirKeysDecide() throws {
        // Class ids follow first appearance: c0 … c69 are ids 0 … 69.
        let c = try compileSheet(
            (0..<70).map { "Button.c\($0) { row-height: \($0); }" }.joined(separator: " ")
                + " Button.c65 { tint-color: #ff0000; } Button.c66 { tint-color: #0000ff; }"
                + " Window Button.c1.c2 { alpha: 0.5; }")
        func button(_ classes: [Int]) -> PathNode {
            var b = PathNode(type: "Button")
            b.classes = classes.map { "c\($0)" }
            return b
        }
        let siblings: [[Int]] = [
            [65, 66], [65, 66], [66, 67], [65], [65], [66], [65], [1, 65], [2, 65], [1], [1, 2], [1],
            [3], [4], [1, 2], [2, 1], [2, 1],
        ]
        var fast = StyleWalker(c)
        var slow = StyleWalker(c, mode: .naive)
        _ = fast.push(PathNode(type: "Window"))
        _ = slow.push(PathNode(type: "Window"))
        var values: [[Value]] = []
        var shared: [Int] = []
        for (i, classes) in siblings.enumerated() {
            let before = fast.sharedNodes
            let a = try XCTUnwrap(fast.push(button(classes)))
            let b = try XCTUnwrap(slow.push(button(classes)))
            XCTAssertEqual(a.values, b.values, "\(classes)")
            values.append(a.values)
            if fast.sharedNodes > before { shared.append(i) }
            fast.pop()
            slow.pop()
        }
        XCTAssertEqual(shared, [4, 15, 16])
        let tint = try XCTUnwrap(fast.propertyNames.firstIndex(of: "tint-color"))
        let height = try XCTUnwrap(fast.propertyNames.firstIndex(of: "row-height"))
        let alpha = try XCTUnwrap(fast.propertyNames.firstIndex(of: "alpha"))
        XCTAssertEqual(values[0][tint], values[1][tint])
        XCTAssertEqual(values[2][height], .length(67))  // 67 after 66
        XCTAssertEqual(values[3][tint], values[4][tint])
        XCTAssertNotEqual(values[5][tint], values[4][tint])  // c66 (blue) after c65 (red)
        XCTAssertEqual(values[8][height], .length(65))  // c2 c65 after c1 c65: c65's rule is last
        XCTAssertEqual(values[10][alpha], .number(0.5))
        XCTAssertNotEqual(values[11][alpha], .number(0.5))  // c1 after c1 c2
        XCTAssertEqual(values[15][alpha], .number(0.5))
        // Nodes resolved with winners tracked are never shared.
        var tracked = StyleWalker(c)
        tracked.tracksWinners = true
        _ = tracked.push(PathNode(type: "Window"))
        for _ in 0..<3 {
            _ = tracked.push(button([1]))
            tracked.pop()
        }
        XCTAssertEqual(tracked.sharedNodes, 0)
    }

    /// A node's `.class` rules are found by per-type masks of them when a type has at most 64
    /// (`SelectorMap.FrozenTables.classMasks`), else by the class buckets: both as the naive walker has
    /// them, with classes past the 64 a mask holds, subjects of two classes, `*` subjects,
    /// states and containers.
    func testClassRulesByMaskAndByBucketMatchTheNaiveWalker() throws {
        var r = Random(state: 6_464)
        let pool = (0..<90).map { "k\($0)" }
        var sheet = ""
        // 100 class rules with a Button subject (past 64: buckets), 30 with a Label subject and
        // 10 with `*` (at most 64 for a Label: masks).
        for (type, count) in [("Button", 100), ("Label", 30), ("*", 10)] {
            for _ in 0..<count {
                var subject = type + "." + r.pick(pool)
                if r.chance(0.3) { subject += "." + r.pick(pool) }
                if r.chance(0.2) { subject += ":" + r.pick(["highlighted", "selected"]) }
                let selector =
                    r.chance(0.4) ? r.pick(["Window ", "View > ", "Window View "]) + subject : subject
                sheet += "\(selector) { row-height: \(r.below(99)); alpha: 0.\(r.below(9)); }\n"
            }
        }
        let c = try compileSheet(sheet)
        let frozen = c.map.frozen
        XCTAssertFalse(frozen.classFirst[Int(try XCTUnwrap(c.map.typeIDs["Button"]))] >= 0)
        XCTAssertTrue(frozen.classFirst[Int(try XCTUnwrap(c.map.typeIDs["Label"]))] >= 0)
        var tree: [(node: PathNode, depth: Int)] = []
        var depth = 0
        for _ in 0..<1_500 {
            depth = depth > 0 && r.chance(0.3) ? 1 + r.below(depth) : min(depth + 1, 12)
            var node = PathNode(type: depth == 1 ? "Window" : r.pick(["Button", "Label", "View", "Button"]))
            node.classes = (0..<r.below(5)).map { _ in r.pick(pool) }
            if r.chance(0.3) { node.states = [r.pick(["highlighted", "selected"])] }
            tree.append((node, depth))
        }
        let forest = try XCTUnwrap(StyleForest([tree], for: c))
        let expected = try naiveValues(c, [tree])
        let got = forestValues(c, forest)
        XCTAssertEqual(got.count, 1_500)
        var differing = 0
        for k in 0..<min(got.count, expected.count) where got[k] != expected[k] { differing += 1 }
        XCTAssertEqual(differing, 0)
        // Enough of them were styled by a class rule for the comparison to mean something.
        let rowHeight = try XCTUnwrap(StyleWalker(c).propertyNames.firstIndex(of: "row-height"))
        var floor = StyleWalker(c, mode: .floor)
        let initial = try XCTUnwrap(floor.push(PathNode(type: "Label"))).values[rowHeight]
        XCTAssertGreaterThan(got.filter { $0[rowHeight] != initial }.count, 300)
    }
}
