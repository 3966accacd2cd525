/// Computes styles node by node down a tree (or a path): each node's style from its container's
/// style, its containers' state (`SelectorMap.ContainerRules`) and the rules that match it.
///
/// Everything lives in flat buffers allocated once and grown with the depth: the node stack,
/// the container states, and per level a row of property slots (a node's row starts as its
/// container's values where a property inherits, and a template kept per (type, states)
/// elsewhere): a node with the same type, name, classes and states as its last sibling keeps
/// the sibling's row, since the sheet language has no sibling combinators, so such nodes
/// match the same rules (Servo's and Blink's "style sharing"). The table of container-free
/// results and templates (`freeTable`) grows with the (type, states) pairs met. Noncopyable,
/// because it owns those buffers.
///
/// Safety: the walker owns its buffers (`nodes`, `rows`, `winnerRows`, `blocks`, `nodeClasses`,
/// `shareKeys`, `matched`, the `freeTable` rows and `tables`), allocates them in `init`, grows
/// them in `reserve` and `matchFree`, and frees them in `deinit`; being noncopyable, no copy can
/// free them twice. Levels stay below `capacity` because every push reserves first; `topSlots`
/// hands out a pointer into `rows` that is valid until the next push or pop. The map's tables
/// it reads (`frozen`, `tables`) belong to `map`, which the walker keeps alive.
public struct StyleWalker: ~Copyable {
    /// How rules are found: `indexed` (the selector map, container states, style sharing),
    /// `naive` (every rule tested against every node; the ablation), `floor` (no rules at all:
    /// only inheritance and initial values; the lower bound).
    package enum Mode: Sendable { case indexed, naive, floor }

    let map: SelectorMap
    let frozen: SelectorMap.FrozenTables
    /// A copy of `frozen` at a fixed address, for `Matcher`.
    let tables: UnsafeMutablePointer<SelectorMap.FrozenTables>
    let app: Int32
    let mode: Mode
    /// Properties per style row.
    let width: Int
    /// Slots per row of `rows` and `winnerRows`: the properties and one scratch slot that
    /// padding declarations write (`FrozenTables.declarations`).
    let stride: Int
    /// Records the winning rule of every property (for cross-checks); off by default. Switching
    /// it forgets the sharing keys recorded so far, so that no node shares a row whose winners
    /// were not recorded.
    package var tracksWinners = false {
        didSet { shareKeys.update(repeating: ShareKey.none, count: capacity + 1) }
    }

    /// Nodes on the stack.
    public internal(set) var depth = 0
    /// Levels the buffers hold.
    var capacity = 0
    var nodes: UnsafeMutablePointer<SelectorMap.Node>
    /// Per level, a row of `stride` slots: the style of the level's node, kept after it is
    /// popped, so that a next sibling with the same key (`shareKeys`) shares it without a
    /// copy: `row(k) ..< row(k) + width` is the style of node `k`.
    var rows: UnsafeMutablePointer<Int32>
    var winnerRows: UnsafeMutablePointer<Int32>
    /// `blocks + k * blockWords`: the container state of node `k`'s containers (block 0: none,
    /// for a root), one more than nodes (`SelectorMap.ContainerRules`).
    var blocks: UnsafeMutablePointer<UInt64>
    let blockWords: Int
    /// The classes of the nodes on the stack.
    var nodeClasses: UnsafeMutablePointer<Int32>
    var nodeClassCount = 0
    var nodeClassCapacity = 64
    /// Style sharing, per level: the key of the node whose style the level's row holds, or
    /// `ShareKey.none` when it may not be shared (no node yet, winners tracked, a node that
    /// is not `SelectorMap.Node.shareable` or has no siblings). A node is compared with its
    /// last sibling only, as a list of alike cells needs (`bench/README.md` has what remembering
    /// more siblings measured).
    var shareKeys: UnsafeMutablePointer<ShareKey>
    /// How many nodes took their last sibling's style (for tests).
    var sharedNodes = 0
    /// The matches of the node being pushed (`Candidate.match`; and `matchFree`'s scratch):
    /// room for every rule once, and for the slot past the last match that the collectors
    /// write without a branch when a candidate does not match; `matched[-1]` is the sort's
    /// sentinel (rank `Int32.min`), the allocation starting one slot before.
    var matched: UnsafeMutablePointer<SIMD4<Int32>>
    /// Whether the node being pushed may have siblings (`StyleForest.PreorderNode.hasSiblings`; always
    /// when pushed from a path): when not, its key is not recorded, there being no sibling to
    /// serve.
    var hasSiblings = true
    /// The container states `blocks` holds for levels `0 ... readyDepth`: a node's state for its
    /// children is computed when its first child is pushed (leaves never need one).
    var readyDepth = 0
    /// What the container-free rules (`FrozenTables.freeTypeBuckets`, `FrozenTables.freeUniversal`) that match
    /// each (type, states) met so far set, already cascaded among themselves: an open-addressed
    /// table (`freeCapacity` a power of two, at most half full) of `FreeEntry`. Their match
    /// depends on nothing else while the walker lives (its application is fixed), so a node
    /// applies the entry's values instead of testing and sorting those rules (as Blink's
    /// matched-properties cache and GTK's style cache key results by what they depend on); the
    /// node's other matches then override a value only with a higher rank.
    var freeTable: UnsafeMutablePointer<FreeEntry>
    /// The rows of `freeTable`'s entries for states below 16 (the first four), directly by
    /// type, states and `inAnyState` (`type << 5 | states << 1 | inAnyState`): the entry's
    /// `rows` + 1, 0 when not met yet; what most nodes look up, without hashing.
    var freeDirect: UnsafeMutablePointer<Int32>
    var freeCapacity = 16
    var freeCount = 0
    /// Per entry `FreeRow.count` rows of `stride` from its `rows`: the template of a node's
    /// row — −1 where the property inherits and no container-free rule sets it (the node takes
    /// its container's value), else the winning rule's value or the initial one; each
    /// property's winning rank among the entry's rules (−1 where none set it); and the winning
    /// rule's source order (for `tracksWinners`). The template is one row, not a mask and a
    /// row of values, so that a node reads half as many bytes of it.
    var freeRows: UnsafeMutablePointer<Int32>
    var freeRowCapacity: Int
    /// A row of `stride` −1s: the ranks to beat when no rule was applied before (naive mode).
    var noRanks: UnsafeMutablePointer<Int32>

    /// A walker in the indexed mode, as the daemon runs it.
    /// - Parameters:
    ///   - cascade: the compiled theme.
    ///   - app: the asking application (its `@app` rules apply).
    public init(_ cascade: Cascade, app: String? = nil) {
        self.init(cascade, app: app, mode: .indexed)
    }

    /// A walker that finds rules as `mode` says (the benchmarks' and tests' ablations).
    package init(_ cascade: Cascade, app: String? = nil, mode: Mode) {
        self.init(map: cascade.map, app: app.map { cascade.map.appIDs[$0] ?? -2 } ?? -3, mode: mode)
    }

    /// An application no rule names gets an id no rule has (−2); none is −3.
    private init(map: SelectorMap, app: Int32, mode: Mode) {
        self.map = map
        self.frozen = map.frozen
        tables = .allocate(capacity: 1)
        tables.initialize(to: map.frozen)
        self.app = app
        self.mode = mode
        width = frozen.propertyCount
        stride = width + 1
        let levels = 16
        capacity = levels
        nodes = .allocate(capacity: levels)
        rows = .allocate(capacity: levels * stride)
        winnerRows = .allocate(capacity: levels * stride)
        blockWords = frozen.containerRules.blockWords
        blocks = .allocate(capacity: (levels + 1) * blockWords)
        blocks.initialize(repeating: 0, count: blockWords - 2)
        (blocks + blockWords - 2).initialize(repeating: ~0, count: 2)
        nodeClasses = .allocate(capacity: nodeClassCapacity)
        // Every level's key is compared before any is recorded: all are initialised.
        shareKeys = .allocate(capacity: levels + 1)
        shareKeys.initialize(repeating: ShareKey.none, count: levels + 1)
        // One slot before the list holds a rank below every rule's: the insertion sort's
        // sentinel, so that its inner loop tests one condition.
        matched = .allocate(capacity: frozen.rules.count + SelectorMap.FrozenTables.unrolled + 2) + 1
        matched[-1] = SIMD4(Int32.min, 0, 0, 0)
        freeTable = .allocate(capacity: freeCapacity)
        freeDirect = .allocate(capacity: max(1, frozen.typeCount) << 5)
        freeDirect.initialize(repeating: 0, count: max(1, frozen.typeCount) << 5)
        freeTable.initialize(
            repeating: FreeEntry.empty,
            count: freeCapacity)
        freeRowCapacity = 8 * FreeRow.count * (frozen.propertyCount + 1)
        freeRows = .allocate(capacity: freeRowCapacity)
        noRanks = .allocate(capacity: frozen.propertyCount + 1)
        noRanks.initialize(repeating: -1, count: frozen.propertyCount + 1)
    }

    deinit {
        tables.deinitialize(count: 1)
        tables.deallocate()
        nodes.deallocate()
        rows.deallocate()
        winnerRows.deallocate()
        blocks.deallocate()
        nodeClasses.deallocate()
        shareKeys.deallocate()
        (matched - 1).deallocate()
        freeTable.deallocate()
        freeDirect.deallocate()
        freeRows.deallocate()
        noRanks.deallocate()
    }

    /// Property names in the order of `ComputedStyle.slots`.
    public var propertyNames: [String] { map.propertyNames }

    /// The row of level `k` (`rows`).
    @inline(__always)
    func row(_ k: Int) -> UnsafeMutablePointer<Int32> { rows + k &* stride }

    /// The style of the node on top of the stack.
    public var top: ComputedStyle? {
        guard depth > 0 else { return nil }
        return ComputedStyle(
            slots: ContiguousArray(UnsafeBufferPointer(start: row(depth - 1), count: width)),
            table: map.table,
            winners: tracksWinners
                ? ContiguousArray(UnsafeBufferPointer(start: winnerRows + (depth - 1) * stride, count: width))
                : [])
    }

    /// The value a slot of `topSlots` (or of `resolve`'s rows) stands for.
    public func value(ofSlot slot: Int32) -> Value { map.table.values[Int(slot)] }

    /// The slots of the node on top of the stack (as `ComputedStyle.slots`), valid until the
    /// next push or pop; empty when the stack is.
    public var topSlots: UnsafeBufferPointer<Int32> {
        UnsafeBufferPointer(
            start: depth > 0 ? row(depth - 1) : rows, count: depth > 0 ? width : 0)
    }

    /// Enters `node` as a child of the current top and computes its style.
    /// - Parameter node: The child node; pop it to return to its container.
    /// - Returns: nil when the node's type is unknown to the schema.
    @discardableResult
    public mutating func push(_ node: PathNode) -> ComputedStyle? {
        guard enter(node) else { return nil }
        return top
    }

    /// `push` without materialising the style: read it with `topSlots`.
    /// - Returns: false when the node's type is unknown to the schema (nothing was pushed).
    public mutating func enter(_ node: PathNode) -> Bool {
        guard let n = stacked(node) else { return false }
        pushInterned(n)
        return true
    }

    /// `node` interned, with room made for it and its classes put on the class stack.
    /// - Returns: nil when the node's type is unknown to the schema.
    private mutating func stacked(_ node: PathNode) -> SelectorMap.Node? {
        reserve(depth + 1, classes: node.classes.count)
        guard var n = map.intern(node, into: nodeClasses + nodeClassCount) else { return nil }
        n.classStart = Int32(nodeClassCount)
        nodeClassCount += Int(n.classCount)
        return n
    }

    /// Makes room for `levels` nodes and `classes` more classes.
    mutating func reserve(_ levels: Int, classes: Int) {
        if nodeClassCount + classes > nodeClassCapacity {
            let bigger = max(nodeClassCapacity * 2, nodeClassCount + classes)
            StyleWalker.grow(&nodeClasses, keeping: nodeClassCount, to: bigger)
            nodeClassCapacity = bigger
        }
        guard levels + 1 > capacity else { return }
        let old = capacity
        let new = max(capacity * 2, levels + 1)
        StyleWalker.grow(&nodes, keeping: old, to: new)
        StyleWalker.grow(&rows, keeping: old * stride, to: new * stride)
        StyleWalker.grow(&winnerRows, keeping: old * stride, to: new * stride)
        StyleWalker.grow(&blocks, keeping: (old + 1) * blockWords, to: (new + 1) * blockWords)
        StyleWalker.grow(&shareKeys, keeping: old + 1, to: new + 1)
        (shareKeys + old + 1).initialize(repeating: ShareKey.none, count: new - old)
        capacity = new
    }

    static func grow<T: BitwiseCopyable>(
        _ p: inout UnsafeMutablePointer<T>, keeping count: Int, to capacity: Int
    ) {
        let q = UnsafeMutablePointer<T>.allocate(capacity: capacity)
        q.moveInitialize(from: p, count: count)
        p.deallocate()
        p = q
    }

    /// Starts below an already computed prefix: `path` are the containers, `style` and `state`
    /// the last one's style and its children's container state (`childState`). The walker
    /// cannot be popped below these nodes (their own states and rows are not known).
    mutating func seed(_ path: ArraySlice<PathNode>, style: ComputedStyle, state: ContiguousArray<UInt64>) {
        precondition(depth == 0, "seed(_:style:state:) needs an empty walker")
        for node in path {
            guard let n = stacked(node) else { continue }
            nodes[depth] = n
            depth += 1
        }
        guard depth > 0 else { return }
        // Only the last node has a row (its level's): no level's key may stand for a row, at
        // any level a later push can reach (a key left by an earlier walk included).
        shareKeys.update(repeating: ShareKey.none, count: depth + 1)
        let row = self.row(depth - 1)
        style.slots.withUnsafeBufferPointer { row.update(from: $0.baseAddress!, count: width) }
        state.withUnsafeBufferPointer {
            (blocks + depth * blockWords).update(from: $0.baseAddress!, count: blockWords)
        }
        readyDepth = depth
    }

    /// Leaves the top node.
    public mutating func pop() {
        precondition(depth > 0, "pop() on an empty walker")
        depth -= 1
        nodeClassCount -= Int(nodes[depth].classCount)
        readyDepth = min(readyDepth, depth)
    }
}
