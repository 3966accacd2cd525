import Synchronization

/// Resolved styles by path and application for one theme generation, bounded in size.
final class StyleCache: Sendable {
    struct CachedStyle {
        var style: ComputedStyle
        /// The container state for the node's children (`StyleWalker.childState`).
        var state: ContiguousArray<UInt64>
        /// Set by `store`: unique in this cache's life (never reused after it starts over), so
        /// that a child's key (`prefixKey`) can name its container by it.
        var id = 0
    }

    /// The key of a path prefix's last node: its container's entry id (0 for a root), the node,
    /// and the suffix that names the application. `\u{1}` first: no path's text begins with it.
    static func prefixKey(parent: Int, node: PathNode, suffix: String) -> String {
        "\u{1}\(parent)/\(node.description)\(suffix)"
    }
    /// Entries kept at most, and the bytes they may take (keys, slots and container states,
    /// which grow with the theme's rules); past either the cache starts over (paths are few in
    /// practice).
    static let capacity = 8192
    static let byteCapacity = 32 << 20
    private struct State {
        var entries: [String: CachedStyle] = [:]
        /// The bytes `entries` take, as `cost` counts them.
        var bytes = 0
        var nextID = 0
    }
    private let state = Mutex(State())

    func entry(_ key: String) -> CachedStyle? { state.withLock { $0.entries[key] } }

    /// The bytes the entries take (`cost`), and how many there are.
    var size: (bytes: Int, entries: Int) { state.withLock { ($0.bytes, $0.entries.count) } }

    /// Keeps `entry` under `key` (replacing one), unless it alone costs more than the cache may
    /// hold.
    /// - Returns: the id given to the entry.
    @discardableResult
    func store(_ key: String, _ entry: CachedStyle) -> Int {
        var entry = entry
        let cost = StyleCache.cost(key, entry)
        return state.withLock { s in
            s.nextID += 1
            entry.id = s.nextID
            guard cost <= StyleCache.byteCapacity else { return entry.id }
            if let old = s.entries.removeValue(forKey: key) { s.bytes -= StyleCache.cost(key, old) }
            if s.entries.count >= StyleCache.capacity || s.bytes + cost > StyleCache.byteCapacity {
                s.entries.removeAll(keepingCapacity: true)
                s.bytes = 0
            }
            s.entries[key] = entry
            s.bytes += cost
            return entry.id
        }
    }

    /// Drops every entry and the table's storage (a long run of distinct paths, such as a
    /// watcher's, leaves it at its largest). Ids go on from where they were.
    func empty() {
        state.withLock { s in
            s.entries = [:]
            s.bytes = 0
        }
    }

    /// An entry's bytes: its key, slots and container state, and a little for the dictionary.
    static func cost(_ key: String, _ entry: CachedStyle) -> Int {
        key.utf8.count + entry.style.slots.count * 4 + entry.state.count * 8 + 64
    }
}
