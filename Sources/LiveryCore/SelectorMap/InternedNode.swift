extension SelectorMap {
    /// A node on interned ids; its classes are `count` entries of the walker's class stack from
    /// `classStart`.
    struct Node {
        var type: Int32
        /// Name id, −1 for none, −3 for a name no selector uses.
        var name: Int32
        var states: UInt64
        /// In some state other than `normal`.
        var inAnyState: Bool
        /// At most one of its classes has an id of 64 or more (`highClass`), so that its class
        /// mask and that class say which classes it has: what style sharing compares
        /// (`StyleWalker.ShareKey`). Derivable (`classCount` is the mask's population count, plus
        /// one for `highClass`), but kept: baseline x86-64 has no population count instruction.
        var shareable = true
        var classStart: Int32
        var classCount: Int32
        /// Its class with an id of 64 or more, if it has one (−1 if not).
        var highClass: Int32 = -1
        /// The bits of the types it is a kind of, and of its classes (ids below 64).
        var kinds: UInt64 = 0
        var classMask: UInt64 = 0
    }
}

extension SelectorMap {
    /// `node` on interned ids, its known classes appended to `classes`, each once (a class no
    /// selector uses cannot affect matching, and is left out).
    /// - Returns: nil when the node's type is unknown to the schema.
    func intern(_ node: PathNode, classes: inout [Int32]) -> Node? {
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: max(1, node.classes.count)) { buffer in
            guard var n = intern(node, into: buffer.baseAddress!) else { return nil }
            n.classStart = Int32(classes.count)
            classes.append(contentsOf: buffer.prefix(Int(n.classCount)))
            return n
        }
    }

    /// `node` on interned ids, its known classes written to `classes` (room for all of the
    /// node's), each once; the node's `classStart` is left 0 for the caller to set.
    /// - Returns: nil when the node's type is unknown to the schema.
    @inline(__always)
    func intern(_ node: PathNode, into classes: UnsafeMutablePointer<Int32>) -> Node? {
        guard let type = typeIDs[node.type] else { return nil }
        var n = Node(
            type: type, name: node.name.map { nameIDs[$0] ?? -3 } ?? -1, states: 0, inAnyState: false,
            classStart: 0, classCount: 0)
        for s in node.states where s != "normal" {
            n.inAnyState = true
            n.states |= stateBits[s] ?? 0
        }
        for k in node.classes {
            // A class written twice is one class (and is looked up in its bucket once: the
            // walker's match list has room for each rule once).
            guard let id = classIDs[k] else { continue }
            var seen = false
            for j in 0..<Int(n.classCount) where classes[j] == id { seen = true }
            if !seen {
                classes[Int(n.classCount)] = id
                n.classCount += 1
                if id < 64 {
                    n.classMask |= 1 << UInt64(id)
                } else {
                    n.shareable = n.highClass < 0
                    n.highClass = id
                }
            }
        }
        n.kinds = frozen.kindMasks[Int(type)]
        return n
    }
}
