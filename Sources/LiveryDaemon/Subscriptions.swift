import Foundation
import LiveryCore

/// The subscriptions of DESIGN §5: each belongs to the unique name that made it, holds a fixed
/// set of paths and properties, and remembers the values last sent so that only changes go out.
///
/// Safe to share between threads: every piece of state is read and written under `lock`.
public final class SubscriptionRegistry: @unchecked Sendable {
    /// One subscription.
    public struct Subscription: Sendable {
        /// The id `Subscribe` returned: never 0, unique among live subscriptions.
        public var id: UInt32
        /// The subscriber's unique bus name.
        public var owner: String
        /// The component paths followed, as the subscriber wrote them.
        public var paths: [String]
        /// The properties asked for; empty means every property of each path's type.
        public var properties: [String]
        /// The subscriber's application id, selecting its `@app` blocks.
        public var app: String?
        /// The values last sent.
        public var values: StyleSnapshot
    }

    /// Paths per subscription.
    public static let maximumPaths = 1024
    /// Subscriptions per client.
    public static let maximumPerClient = 64
    /// Paths subscribed by all clients together: the per-client limits alone would let many
    /// connections make every switch arbitrarily slow.
    public static let maximumTotalPaths = 65_536

    private let lock = NSLock()
    private var byID: [UInt32: Subscription] = [:]
    private var nextID: UInt32 = 1
    private var totalPaths = 0

    /// An empty registry.
    public init() {}

    /// The number of live subscriptions.
    public var count: Int { lock.withLock { byID.count } }

    /// The number of subscriptions `owner` holds.
    /// - Parameter owner: A unique bus name such as `:1.42`.
    /// - Returns: How many live subscriptions it made.
    public func count(of owner: String) -> Int {
        lock.withLock { byID.values.filter { $0.owner == owner }.count }
    }

    /// Registers a subscription whose current values were computed by `current`, under the
    /// registry's lock, so that nothing can change between reading and registering.
    /// - Parameters:
    ///   - owner: The subscriber's unique bus name.
    ///   - paths: Component paths; at most `maximumPaths`.
    ///   - properties: Property names; empty for every property; at most `Limits.propertiesPerCall`.
    ///   - app: The subscriber's application id, or nil.
    ///   - current: Resolves the paths now; its values become the subscription's first ones.
    /// - Returns: The new subscription, with its id and current values.
    /// - Throws: `LimitExceeded` past the limits; whatever `current` throws.
    public func add(
        owner: String, paths: [String], properties: [String], app: String?,
        current: () throws(ServiceError) -> StyleSnapshot
    ) throws(ServiceError) -> Subscription {
        guard paths.count <= SubscriptionRegistry.maximumPaths else {
            throw ServiceError(
                .limitExceeded,
                "\(paths.count) paths; a subscription takes at most \(SubscriptionRegistry.maximumPaths)")
        }
        guard properties.count <= Limits.propertiesPerCall else {
            throw ServiceError(
                .limitExceeded,
                "\(properties.count) properties; the limit is \(Limits.propertiesPerCall) per call")
        }
        lock.lock()
        defer { lock.unlock() }
        guard byID.values.filter({ $0.owner == owner }).count < SubscriptionRegistry.maximumPerClient else {
            throw ServiceError(
                .limitExceeded,
                "\(owner) already holds \(SubscriptionRegistry.maximumPerClient) subscriptions")
        }
        guard totalPaths + paths.count <= SubscriptionRegistry.maximumTotalPaths else {
            throw ServiceError(
                .limitExceeded,
                "the daemon already follows \(totalPaths) subscribed paths; at most \(SubscriptionRegistry.maximumTotalPaths) in all"
            )
        }
        let values = try current()
        while byID[nextID] != nil || nextID == 0 { nextID &+= 1 }
        let s = Subscription(
            id: nextID, owner: owner, paths: paths, properties: properties, app: app, values: values)
        byID[s.id] = s
        totalPaths += paths.count
        nextID &+= 1
        return s
    }

    /// Removes a subscription of `owner`.
    /// - Parameters:
    ///   - id: The subscription's id.
    ///   - owner: The caller's unique bus name.
    /// - Throws: `UnknownSubscription` for an id that is not live; `AccessDenied` when it belongs
    ///   to another client.
    public func remove(_ id: UInt32, owner: String) throws(ServiceError) {
        lock.lock()
        defer { lock.unlock() }
        guard let s = byID[id] else { throw ServiceError(.unknownSubscription, "no subscription \(id)") }
        guard s.owner == owner else {
            throw ServiceError(.accessDenied, "subscription \(id) belongs to another client")
        }
        byID[id] = nil
        totalPaths -= s.paths.count
    }

    /// Drops every subscription of a client that left the bus.
    /// - Parameter owner: The client's unique bus name.
    /// - Returns: how many were dropped.
    @discardableResult
    public func removeAll(of owner: String) -> Int {
        lock.withLock {
            let ids = byID.values.filter { $0.owner == owner }.map(\.id)
            for id in ids { totalPaths -= byID.removeValue(forKey: id)!.paths.count }
            return ids.count
        }
    }

    /// Recomputes every subscription's values with `resolve` and returns, per subscription, the
    /// values that changed; stores the new values. Subscriptions with the same paths, properties
    /// and application are resolved once. Subscriptions whose paths no longer resolve keep their
    /// old values.
    /// - Parameter resolve: Resolves a subscription's paths in the active theme; nil when they no
    ///   longer resolve.
    /// - Returns: Per subscription with changes, in id order: its id, owner and changed values only.
    public func update(resolve: (Subscription) -> StyleSnapshot?) -> [(
        id: UInt32, owner: String, changes: StyleSnapshot
    )] {
        // Resolve outside the lock, once per distinct request.
        let current = lock.withLock { byID }
        var resolved: [RequestKey: StyleSnapshot?] = [:]
        for s in current.values where resolved[RequestKey(s)] == nil {
            resolved[RequestKey(s)] = .some(resolve(s))
        }
        lock.lock()
        defer { lock.unlock() }
        var out: [(id: UInt32, owner: String, changes: StyleSnapshot)] = []
        for id in byID.keys.sorted() {
            guard var s = byID[id], let new = resolved[RequestKey(s)] ?? nil else { continue }
            let changes = StyleDiff.changes(from: s.values, to: new)
            guard !changes.isEmpty else { continue }
            s.values = new
            byID[id] = s
            out.append((id, s.owner, changes))
        }
        return out
    }

    /// What a subscription asks for, as a dictionary key.
    struct RequestKey: Hashable {
        var paths: [String]
        var properties: [String]
        var app: String?
        init(_ s: Subscription) {
            paths = s.paths
            properties = s.properties
            app = s.app
        }
    }
}
