extension SelectorMap {
    /// The one owner of every buffer the frozen tables hand out: each ``Frozen`` is made in an
    /// arena and the arena frees them all when it goes, with the `SelectorMap` that holds it.
    /// Adding a table is one `Frozen(in: arena, …)`; nothing else frees it.
    ///
    /// Safety: buffers are added only while the map is built, on the building thread, before
    /// the map is shared; after that the arena is never touched until its `deinit`.
    final class Arena: @unchecked Sendable {
        private var buffers: [UnsafeMutableRawPointer] = []

        func adopt(_ buffer: UnsafeMutableRawPointer) { buffers.append(buffer) }

        deinit { for b in buffers { b.deallocate() } }
    }

    /// A flat, immutable copy of an array, read by pointer: no reference counting, no bounds
    /// checks (every index comes from the tables themselves).
    ///
    /// Safety: the buffer belongs to the ``Arena`` it was made in, which frees it; `T` is
    /// `BitwiseCopyable`, so there is nothing to deinitialise. Copies of a `Frozen` (in a
    /// walker's copy of `FrozenTables`) share the buffer and must not outlive the map holding the arena,
    /// which the walker keeps alive (`StyleWalker.map`). Indices are in range because the tables
    /// are built from each other's counts; `subscript` asserts it in debug builds.
    struct Frozen<T: BitwiseCopyable> {
        let base: UnsafeMutablePointer<T>
        let count: Int
        init(in arena: Arena, _ a: some Collection<T>) {
            base = .allocate(capacity: max(1, a.count))
            count = a.count
            _ = UnsafeMutableBufferPointer(start: base, count: a.count).initialize(from: a)
            arena.adopt(UnsafeMutableRawPointer(base))
        }
        @inline(__always) subscript(i: Int) -> T {
            assert(i >= 0 && i < count, "index out of a frozen table")
            return base[i]
        }
    }
}
