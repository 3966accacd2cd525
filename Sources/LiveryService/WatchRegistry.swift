import Foundation
import LiveryCore
import Synchronization

/// The watches (dconf's model): a client asks to watch paths and is told each path's changed
/// values once per published change and watched (path, app), whatever the number of watchers
/// (on the bus: a match rule for the path's `Changed` signal, then `Watch`).
///
/// Watches are counted per (path, app) over all clients and per client; each (path, app) keeps
/// the values last published for it and the serial they are at, so that values are computed
/// once per (path, app) and only changes go out. A watch belongs to the caller's unique name and
/// goes with `Unwatch` or when the client leaves the bus.
///
/// The invariant that makes the protocol lose nothing: every entry's values are those of the
/// theme at its `serial`, and when a publication of serial S completes, no entry is below S
/// (``stale(below:)`` and ``commit(_:serial:)`` are repeated until none is, and ``add`` refuses
/// values older than the last completed publication).
///
/// Safe to share between threads: its state is one `State` behind a `Mutex`.
public final class WatchRegistry: Sendable {
    /// A watched component: its path as the client wrote it and the application whose `@app`
    /// blocks apply (nil for none).
    public struct Key: Hashable, Sendable {
        /// The component path, as written.
        public var path: String
        /// The application id, or nil.
        public var app: String?

        /// The key of `path` for `app`.
        public init(path: String, app: String?) {
            self.path = path
            self.app = app
        }
    }

    /// Paths per `Watch` or `Unwatch` call.
    public static let maximumPathsPerCall = 1024
    /// Watches one client may hold: a quarter of the total, so that one client cannot take every
    /// watch there is and lock the others out.
    public static let maximumPerClient = 16_384
    /// Distinct (path, app) watched by all clients together: the per-client limit alone would
    /// let many connections make every switch arbitrarily slow. It binds only past a client's
    /// first `guaranteedPerClient` watches.
    public static let maximumWatched = 65_536
    /// Watches every client gets, even when `maximumWatched` is reached: a few clients holding
    /// the total must not lock out a status bar's or `livery watch`'s few paths (a sample
    /// screen's window watches under a hundred). Many connections can still each hold this many:
    /// the bus's own limit on connections bounds that.
    public static let guaranteedPerClient = 256

    /// What the registry holds for one watched (path, app).
    struct Watched {
        /// Watches of this key, over all clients.
        var count: Int
        /// The values last published (or read by the first `Watch`).
        var values: [String: Value]
        /// The serial `values` are at.
        var serial: UInt32
    }

    private struct State {
        var entries: [Key: Watched] = [:]
        /// Per client: its watches, with multiplicity.
        var owners: [String: [Key: Int]] = [:]
        /// Per client: how many watches it holds in all.
        var perOwner: [String: Int] = [:]
        /// The serial of the last publication that completed: no entry is below it.
        var completed: UInt32 = 0
        /// Bumped by every commit, completion and removal: what a waiting `add` waits for.
        var progress: UInt64 = 0
    }

    private let state = Mutex(State())
    /// Broadcast after `progress` is bumped, for `waitForProgress` (a `Mutex` cannot be waited on).
    private let progressed = NSCondition()

    /// The current `progress`, to wait from.
    public var progress: UInt64 { state.withLock { $0.progress } }

    /// Waits until a commit, completion or removal comes after `progress` was `since`, or
    /// `timeout` seconds have passed: a `Watch` whose keys' values were at different serials
    /// (a publication under way) reads again when the publication has moved on.
    public func waitForProgress(since: UInt64, timeout: Double) {
        let deadline = Date(timeIntervalSinceNow: timeout)
        progressed.lock()
        defer { progressed.unlock() }
        while state.withLock({ $0.progress }) == since {
            guard progressed.wait(until: deadline) else { return }
        }
    }

    /// Bumps `progress` and wakes `waitForProgress`; called with `state` not locked.
    private func didProgress() {
        state.withLock { $0.progress &+= 1 }
        progressed.lock()
        progressed.broadcast()
        progressed.unlock()
    }

    /// An empty registry whose values are at `serial`.
    public init(serial: UInt32 = 0) { state.withLock { $0.completed = serial } }

    /// The number of distinct (path, app) watched.
    public var watchedCount: Int { state.withLock { $0.entries.count } }

    /// The number of watches `owner` holds.
    public func count(of owner: String) -> Int { state.withLock { $0.perOwner[owner] ?? 0 } }

    /// How many watches of `key` there are, over all clients.
    public func watches(of key: Key) -> Int { state.withLock { $0.entries[key]?.count ?? 0 } }

    /// The serial of the last completed publication.
    public var completedSerial: UInt32 { state.withLock { $0.completed } }

    /// Checks a `Watch` call against the limits before anything is computed.
    /// - Throws: `LimitExceeded` past `maximumPathsPerCall`, `maximumPerClient` or
    ///   `maximumWatched` (counting the keys not watched yet; not within a client's first
    ///   `guaranteedPerClient`).
    public func admit(owner: String, keys: [Key]) throws(ServiceError) {
        guard keys.count <= WatchRegistry.maximumPathsPerCall else {
            throw ServiceError(
                .limitExceeded,
                "\(keys.count) paths; Watch takes at most \(WatchRegistry.maximumPathsPerCall) a call")
        }
        try state.withLock { s throws(ServiceError) in try WatchRegistry.check(s, owner: owner, keys: keys) }
    }

    private static func check(_ s: State, owner: String, keys: [Key]) throws(ServiceError) {
        let held = s.perOwner[owner] ?? 0
        guard held + keys.count <= maximumPerClient else {
            throw ServiceError(
                .limitExceeded,
                "\(owner) already holds \(held) watches; one client may hold at most \(maximumPerClient)")
        }
        let new = Set(keys.filter { s.entries[$0] == nil }).count
        guard held + keys.count <= guaranteedPerClient || s.entries.count + new <= maximumWatched else {
            throw ServiceError(
                .limitExceeded,
                "the daemon already watches \(s.entries.count) paths; at most \(maximumWatched) in all")
        }
    }

    /// What `Watch` answers: the serial and the values of each path at it.
    public struct Reading: Sendable {
        /// The serial every value is at.
        public var serial: UInt32
        /// Each path's values.
        public var values: StyleSnapshot
    }

    /// Registers `owner`'s watches of `keys` and returns their values, all at one serial.
    ///
    /// Keys watched already give the values last published for them; new keys take theirs from
    /// `fresh`. Should the keys' values be at different serials (a publication under way), or
    /// `fresh`'s serial be below the last completed publication, nothing is registered and nil
    /// is returned: the caller reads again.
    /// - Parameters:
    ///   - owner: The caller's unique bus name.
    ///   - keys: The (path, app) pairs, each resolvable.
    ///   - fresh: Values of every key not watched yet (at least), at `serial`.
    ///   - serial: The serial `fresh` is at.
    /// - Returns: The reading, or nil to read again.
    /// - Throws: `LimitExceeded` as `admit`.
    public func add(owner: String, keys: [Key], fresh: StyleSnapshot, serial: UInt32) throws(ServiceError)
        -> Reading?
    {
        try state.withLock { s throws(ServiceError) -> Reading? in
            try WatchRegistry.check(s, owner: owner, keys: keys)
            guard serial >= s.completed else { return nil }
            // Every key's values must be at one serial: the existing entries' (all equal once a
            // publication completed) or the fresh ones'.
            var at: UInt32?
            for key in keys {
                let serialOfKey = s.entries[key]?.serial ?? serial
                if at == nil { at = serialOfKey }
                guard at == serialOfKey else { return nil }
            }
            var values: StyleSnapshot = [:]
            for key in keys {
                if s.entries[key] == nil {
                    guard let v = fresh[key.path] else { return nil }
                    s.entries[key] = Watched(count: 0, values: v, serial: serial)
                }
                s.entries[key]!.count += 1
                s.owners[owner, default: [:]][key, default: 0] += 1
                values[key.path] = s.entries[key]!.values
            }
            s.perOwner[owner, default: 0] += keys.count
            return Reading(serial: at ?? serial, values: values)
        }
    }

    /// Keys of `keys` that nobody watches yet, to compute their values.
    public func unwatched(_ keys: [Key]) -> [Key] {
        state.withLock { s in keys.filter { s.entries[$0] == nil } }
    }

    /// Removes one watch of each key `owner` holds; keys it does not watch are ignored.
    /// - Returns: How many watches were removed.
    @discardableResult
    public func remove(owner: String, keys: [Key]) -> Int {
        defer { didProgress() }
        return state.withLock { s in
            var removed = 0
            for key in keys {
                guard let n = s.owners[owner]?[key], n > 0 else { continue }
                s.owners[owner]![key] = n == 1 ? nil : n - 1
                WatchRegistry.release(&s, key, 1)
                removed += 1
            }
            WatchRegistry.settle(&s, owner, removed)
            return removed
        }
    }

    /// Drops every watch of a client that left the bus.
    /// - Returns: How many watches were dropped.
    @discardableResult
    public func removeAll(of owner: String) -> Int {
        defer { didProgress() }
        return state.withLock { s in
            guard let held = s.owners[owner] else { return 0 }
            var removed = 0
            for (key, n) in held {
                WatchRegistry.release(&s, key, n)
                removed += n
            }
            s.owners[owner] = [:]
            WatchRegistry.settle(&s, owner, removed)
            return removed
        }
    }

    private static func release(_ s: inout State, _ key: Key, _ n: Int) {
        s.entries[key]!.count -= n
        if s.entries[key]!.count == 0 { s.entries[key] = nil }
    }

    private static func settle(_ s: inout State, _ owner: String, _ removed: Int) {
        s.perOwner[owner, default: 0] -= removed
        if s.perOwner[owner]! <= 0 {
            s.perOwner[owner] = nil
            s.owners[owner] = nil
        }
        // A dictionary keeps its largest storage when emptied: new ones give it back once
        // nothing is watched.
        if s.entries.isEmpty && s.entries.capacity > 64 {
            s.entries = [:]
            s.owners = [:]
            s.perOwner = [:]
        }
    }

    /// The keys whose values are below `serial`, to recompute for a publication: the most
    /// watched first, so that a path a thousand clients show is not sent after a thousand paths
    /// one client shows.
    public func stale(below serial: UInt32) -> [Key] {
        state.withLock { s in
            s.entries.filter { $0.value.serial < serial }.sorted { $0.value.count > $1.value.count }.map(
                \.key)
        }
    }

    /// Stores the values of `serial` for the keys given and returns, per key still watched and
    /// below `serial`, its changed properties (an image in `editedImages` counts as changed). A
    /// key missing from `values` (its path no longer resolves) keeps its old values, now at
    /// `serial`.
    /// - Returns: The changes, in no particular order.
    public func commit(
        _ values: [Key: [String: Value]], serial: UInt32, editedImages: Set<String> = [], keys: [Key]
    ) -> [(key: Key, changes: [String: Value])] {
        defer { didProgress() }
        return state.withLock { s in
            var out: [(key: Key, changes: [String: Value])] = []
            for key in keys {
                guard let entry = s.entries[key], entry.serial < serial else { continue }
                s.entries[key]!.serial = serial
                guard let new = values[key] else { continue }
                let changes = StyleDiff.changes(
                    from: [key.path: entry.values], to: [key.path: new], editedImages: editedImages)
                s.entries[key]!.values = new
                if let c = changes[key.path] { out.append((key, c)) }
            }
            return out
        }
    }

    /// Marks the publication of `serial` complete when no entry is below it.
    /// - Returns: Whether it was (false: keys were added meanwhile; recompute them first).
    public func complete(_ serial: UInt32) -> Bool {
        defer { didProgress() }
        return state.withLock { s in
            guard !s.entries.values.contains(where: { $0.serial < serial }) else { return false }
            s.completed = max(s.completed, serial)
            return true
        }
    }
}
