extension SelectorMap {
    /// A flat, immutable copy of an array, read by pointer: no reference counting, no bounds
    /// checks (every index comes from the tables themselves).
    ///
    /// Safety: the buffer is owned by whoever holds the `Frozen` that made it (`Raw`,
    /// `ContainerRules`, themselves owned by one `SelectorMap`), which calls `free()` once, in
    /// `SelectorMap.deinit`; copies of a `Frozen` (in a walker's copy of `Raw`) share the buffer
    /// and must not outlive the map, which the walker keeps alive (`StyleWalker.map`). Indices are
    /// in range because the tables are built from each other's counts; `subscript` asserts it in
    /// debug builds.
    struct Frozen<T> {
        let base: UnsafeMutablePointer<T>
        let count: Int
        init(_ a: some Collection<T>) {
            base = .allocate(capacity: max(1, a.count))
            count = a.count
            _ = UnsafeMutableBufferPointer(start: base, count: a.count).initialize(from: a)
        }
        @inline(__always) subscript(i: Int) -> T {
            assert(i >= 0 && i < count, "index out of a frozen table")
            return base[i]
        }
        func free() {
            base.deinitialize(count: count)
            base.deallocate()
        }
    }
}
