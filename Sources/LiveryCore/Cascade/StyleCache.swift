import Foundation

/// Resolved styles by path and application for one theme generation, bounded in size.
final class StyleCache: @unchecked Sendable {
    // Safe to share: `entries` is only touched with `lock` held.
    struct Entry {
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
    /// which grow with the theme's rules: 39 KB each for 10,000 rules of 32 compounds); past
    /// either the cache starts over (paths are few in practice).
    static let capacity = 8192
    static let byteCapacity = 32 << 20
    private let lock = NSLock()
    private var entries: [String: Entry] = [:]
    /// The bytes `entries` take, as `cost` counts them.
    private var bytes = 0
    private var nextID = 0

    func entry(_ key: String) -> Entry? { lock.withLock { entries[key] } }

    /// The bytes the entries take (`cost`), and how many there are.
    var size: (bytes: Int, entries: Int) { lock.withLock { (bytes, entries.count) } }

    /// Keeps `entry` under `key` (replacing one), unless it alone costs more than the cache may
    /// hold.
    /// - Returns: the id given to the entry.
    @discardableResult
    func store(_ key: String, _ entry: Entry) -> Int {
        var entry = entry
        let cost = StyleCache.cost(key, entry)
        return lock.withLock {
            nextID += 1
            entry.id = nextID
            guard cost <= StyleCache.byteCapacity else { return entry.id }
            if let old = entries.removeValue(forKey: key) { bytes -= StyleCache.cost(key, old) }
            if entries.count >= StyleCache.capacity || bytes + cost > StyleCache.byteCapacity {
                entries.removeAll(keepingCapacity: true)
                bytes = 0
            }
            entries[key] = entry
            bytes += cost
            return entry.id
        }
    }

    /// An entry's bytes: its key, slots and container state, and a little for the dictionary.
    static func cost(_ key: String, _ entry: Entry) -> Int {
        key.utf8.count + entry.style.slots.count * 4 + entry.state.count * 8 + 64
    }
}
