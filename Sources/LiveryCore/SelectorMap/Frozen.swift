extension SelectorMap {
    /// A flat, immutable copy of an array, read by pointer: no reference counting, no bounds
    /// checks (every index comes from the tables themselves).
    struct Frozen<T> {
        let base: UnsafeMutablePointer<T>
        let count: Int
        init(_ a: some Collection<T>) {
            base = .allocate(capacity: max(1, a.count))
            count = a.count
            _ = UnsafeMutableBufferPointer(start: base, count: a.count).initialize(from: a)
        }
        @inline(__always) subscript(i: Int) -> T { base[i] }
        func free() {
            base.deinitialize(count: count)
            base.deallocate()
        }
    }
}
