extension StyleWalker {
    /// What decides a node's style among its siblings, as 8 lanes compared at once: type,
    /// name, states (low and high word), the class mask (low and high word), the class count
    /// and `inAnyState` (`count << 1 | inAnyState`), and the class with an id of 64 or more
    /// (−1 for none). For a `SelectorMap.Node.shareable` node (the only ones compared) that
    /// says which classes it has: they are distinct, so the mask and that class are all of them.
    struct ShareKey {
        var lanes: SIMD8<Int32>

        /// No node's key (a type of −1). Computed, not stored: a stored static is initialised
        /// lazily, and each push would pay a `swift_once` call for it.
        static var none: ShareKey { ShareKey(lanes: SIMD8(repeating: -1)) }
    }
}
