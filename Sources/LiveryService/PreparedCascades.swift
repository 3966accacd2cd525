import LiveryCore

/// The indexes (`Cascade`s, each with its resolved styles) of the last few themes made active,
/// keyed by what their compiled theme says (`PreparedTheme.key`), each with the compile a switch
/// made it from (`KeptCompile`) when there is one.
///
/// A switch to a theme kept here whose files are all unchanged (`KeptCompile.files`) uses the
/// kept compile: it reads, compiles and fingerprints nothing and is a commit. Otherwise it reads
/// and compiles, and a compile with the same key as a kept one still reuses that index and its
/// warm style cache. So a kept index is never served for a theme that differs from it, and a
/// kept compile never for files that changed.
///
/// At most `capacity` are kept; the one evicted forgets its resolved styles, so that a copy
/// still held elsewhere (a publication in flight) gives their memory back as well.
struct PreparedCascades {
    /// How many indexes are kept, the active theme's included: 4, so that a light and a dark
    /// theme (what a toggle, the schedule and darkman go back and forth between) stay kept
    /// through a manual switch to two others and back. Each holds its index with the styles
    /// resolved in it, its compiled theme and its parsed chain (`bench/README.md`, "Watching",
    /// has the memory).
    static let capacity = 4

    private struct Entry {
        var key: String
        var cascade: Cascade
        var compile: KeptCompile?
    }

    /// Oldest first; each key once.
    private var entries: [Entry] = []

    /// How many indexes are kept.
    var count: Int { entries.count }

    /// The index kept under `key`, or nil.
    func cascade(for key: String) -> Cascade? {
        entries.last(where: { $0.key == key })?.cascade
    }

    /// The compile of theme `id` kept from the catalog's scan `scan`, the most recent, or nil;
    /// its files are not looked at here (`KeptCompile.files.isCurrent`).
    func compile(of id: String, scan: Int) -> KeptCompile? {
        entries.last(where: { $0.compile?.id == id && $0.compile?.scan == scan })?.compile
    }

    /// Keeps `cascade` under `key` as the most recent, replacing what was kept under it, with
    /// `compile` (nil: the compile kept with it before, if any), and evicts the oldest beyond
    /// `capacity`.
    mutating func keep(_ cascade: Cascade, for key: String, compile: KeptCompile? = nil) {
        var compile = compile
        if let i = entries.firstIndex(where: { $0.key == key }) {
            let old = entries.remove(at: i)
            if old.cascade.generation !== cascade.generation { old.cascade.forgetResolvedStyles() }
            compile = compile ?? old.compile
        }
        entries.append(Entry(key: key, cascade: cascade, compile: compile))
        while entries.count > PreparedCascades.capacity {
            entries.removeFirst().cascade.forgetResolvedStyles()
        }
    }

    /// Forgets every index but `cascade` (kept under `key`, with `compile`, or the compile kept
    /// with it before): their resolved styles and compiles too.
    mutating func keepOnly(_ cascade: Cascade, for key: String, compile: KeptCompile? = nil) {
        let before = entries.last(where: { $0.key == key })?.compile
        for e in entries where e.cascade.generation !== cascade.generation {
            e.cascade.forgetResolvedStyles()
        }
        entries = [Entry(key: key, cascade: cascade, compile: compile ?? before)]
    }

    /// Forgets the resolved styles of every index kept (they are resolved again when asked for).
    func forgetResolvedStyles() {
        for e in entries { e.cascade.forgetResolvedStyles() }
    }
}

/// A theme as a switch or a reload read and compiled it, with everything that depended on:
/// used by a later switch to the theme instead of reading and compiling it again, while the
/// catalog is the same scan of the search path and every file is as it was (`files`).
struct KeptCompile {
    /// The theme's id (an alias's theme).
    let id: String
    /// The catalog's scan its chain was read from (`State.catalogScan`): which entry of the
    /// search path each id of the chain is, and the formats that read them.
    var scan: Int
    /// Its `inherits` chain as read, root first: what the catalog holds while it is active.
    let chain: [ThemeSource]
    /// Every file the read of the chain, the overrides and the compile looked at: the sheets
    /// and their `@import`s (those not found too), the images, the palette picture, the
    /// overrides file. The schema is the service's own, read once at start-up.
    let files: FileStamps
    /// The compiled theme, fingerprinted.
    let prepared: PreparedTheme
}
