/// A forest of component trees with their types, names, classes and states interned for one
/// compiled theme: what a toolkit keeps per widget (as GTK keeps a CSS node's name and classes
/// as `GQuark`s, and browsers keep atoms), so that styling a tree compares integers only.
package struct StyleForest: Sendable {
    /// One node, in preorder; the root of each tree has depth 1.
    struct PreorderNode {
        var depth: Int32
        /// Its container has other children (or, for a root, there are other roots): only
        /// then can it share a style with a sibling.
        var hasSiblings = true
        /// Its classes are `classes[node.classStart ..< node.classStart + node.classCount]`.
        var node: SelectorMap.Node
    }
    var entries: [PreorderNode] = []
    var classes: [Int32] = []
    /// The selector map whose ids these are: a walker of another theme refuses the forest.
    let map: SelectorMap
    /// The number of nodes.
    package var count: Int { entries.count }

    /// Interns `trees` for `cascade`: each tree in preorder, with every node's depth (the root's
    /// 1, and each node at most one deeper than the node before it).
    /// - Returns: nil when some node's type is unknown to the cascade's schema, or a depth breaks
    ///   the preorder.
    package init?(_ trees: [[(node: PathNode, depth: Int)]], for cascade: Cascade) {
        map = cascade.map
        for tree in trees {
            var previous = 0
            for (node, depth) in tree {
                guard depth >= 1, depth <= previous + 1, depth <= Int(Int32.max),
                    let n = map.intern(node, classes: &classes)
                else { return nil }
                entries.append(PreorderNode(depth: Int32(depth), node: n))
                previous = depth
            }
        }
        // Each entry's container (−1 for roots), and how many children each container has.
        var children = [Int32](repeating: 0, count: entries.count + 1)
        var containers = [Int](repeating: -1, count: entries.count)
        var open: [Int] = []
        for i in entries.indices {
            let depth = Int(entries[i].depth)
            if depth == 1 { open.removeAll(keepingCapacity: true) }
            while open.count >= depth { open.removeLast() }
            containers[i] = open.last ?? -1
            children[containers[i] + 1] += 1
            open.append(i)
        }
        for i in entries.indices { entries[i].hasSiblings = children[containers[i] + 1] > 1 }
    }
}

extension StyleWalker {
    /// Styles every node of `forest`, calling `visit` with each node's index and slots (valid
    /// during the call only), in preorder. The walker must be empty, and is again afterwards.
    package mutating func resolve(_ forest: StyleForest, _ visit: (Int, UnsafeBufferPointer<Int32>) -> Void) {
        precondition(depth == 0, "resolve(_:_:) needs an empty walker")
        precondition(forest.map === map, "resolve(_:_:) needs a forest interned for the walker's theme")
        forest.entries.withUnsafeBufferPointer { entries in
            forest.classes.withUnsafeBufferPointer { classes in
                for i in 0..<entries.count {
                    let e = entries[i]
                    while depth >= Int(e.depth) { pop() }
                    var n = e.node
                    reserve(depth + 1, classes: Int(n.classCount))
                    let from = Int(n.classStart)
                    n.classStart = Int32(nodeClassCount)
                    for j in 0..<Int(n.classCount) { nodeClasses[nodeClassCount + j] = classes[from + j] }
                    nodeClassCount += Int(n.classCount)
                    hasSiblings = e.hasSiblings
                    pushInterned(n)
                    visit(i, UnsafeBufferPointer(start: row(depth &- 1), count: width))
                }
            }
        }
        while depth > 0 { pop() }
        hasSiblings = true
    }
}
