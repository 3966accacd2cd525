import LiveryCore

/// The indexes (`Cascade`s, each with its resolved styles) of the last few themes made active,
/// keyed by what their compiled theme says (`PreparedTheme.key`): a switch back to a
/// theme whose freshly compiled version has the same key reuses its index and its warm style
/// cache instead of building them again. The theme is still read and compiled on every switch,
/// so an edit on disk gives another key and a new index: a kept index is never served for a
/// theme that differs from it.
///
/// At most `capacity` are kept; the one evicted forgets its resolved styles, so that a copy
/// still held elsewhere (a publication in flight) gives their memory back as well.
struct PreparedCascades {
    /// How many indexes are kept, the active theme's included.
    static let capacity = 4

    /// Oldest first; each key once.
    private var entries: [(key: String, cascade: Cascade)] = []

    /// How many indexes are kept.
    var count: Int { entries.count }

    /// The index kept under `key`, or nil.
    func cascade(for key: String) -> Cascade? {
        entries.last(where: { $0.key == key })?.cascade
    }

    /// Keeps `cascade` under `key` as the most recent, replacing what was kept under it, and
    /// evicts the oldest beyond `capacity`.
    mutating func keep(_ cascade: Cascade, for key: String) {
        if let i = entries.firstIndex(where: { $0.key == key }) {
            let old = entries.remove(at: i)
            if old.cascade.generation !== cascade.generation { old.cascade.forgetResolvedStyles() }
        }
        entries.append((key, cascade))
        while entries.count > PreparedCascades.capacity {
            entries.removeFirst().cascade.forgetResolvedStyles()
        }
    }

    /// Forgets every index but `cascade` (kept under `key`): their resolved styles too.
    mutating func keepOnly(_ cascade: Cascade, for key: String) {
        for e in entries where e.cascade.generation !== cascade.generation {
            e.cascade.forgetResolvedStyles()
        }
        entries = [(key, cascade)]
    }

    /// Forgets the resolved styles of every index kept (they are resolved again when asked for).
    func forgetResolvedStyles() {
        for e in entries { e.cascade.forgetResolvedStyles() }
    }
}
