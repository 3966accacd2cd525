import Foundation
import LiveryAPI
import LiveryCore
import Synchronization

/// The subscriptions of the bus API (the README's "D-Bus API"): each belongs to the unique name that made it, holds a fixed
/// set of paths and properties, and remembers the values last sent so that only changes go out.
///
/// Safe to share between threads: its state is one `State` behind a `Mutex`.
public final class SubscriptionRegistry: Sendable {
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
    /// Paths subscribed by one client in all its subscriptions: a quarter of the total, so that
    /// one client cannot take every path there is and lock the others out.
    public static let maximumPathsPerClient = 16_384

    private let state = Mutex(State())

    /// The registry's state, under `state`'s lock.
    private struct State {
        /// Subscriptions asking for the same paths, properties and application, with the values
        /// last sent to them: always the same values for every member, because a subscription is
        /// made only while its paths resolve and every update reaches every member at once.
        var groups: [Request: Group] = [:]
        var byID: [UInt32: (request: Request, owner: String)] = [:]
        var perOwner: [String: Int] = [:]
        var pathsPerOwner: [String: Int] = [:]
        var nextID: UInt32 = 1
        var totalPaths = 0

        /// Removes subscription `id`, which is live.
        mutating func drop(_ id: UInt32) {
            let (request, owner) = byID.removeValue(forKey: id)!
            groups[request]!.members[id] = nil
            if groups[request]!.members.isEmpty { groups[request] = nil }
            perOwner[owner]! -= 1
            pathsPerOwner[owner]! -= request.paths.count
            if perOwner[owner] == 0 {
                perOwner[owner] = nil
                pathsPerOwner[owner] = nil
            }
            totalPaths -= request.paths.count
        }
    }

    struct Group {
        var values: StyleSnapshot
        /// Subscription id → owner.
        var members: [UInt32: String]
    }

    /// An empty registry.
    public init() {}

    /// The number of live subscriptions.
    public var count: Int { state.withLock { $0.byID.count } }

    /// The number of subscriptions `owner` holds.
    /// - Parameter owner: A unique bus name such as `:1.42`.
    /// - Returns: How many live subscriptions it made.
    public func count(of owner: String) -> Int {
        state.withLock { $0.perOwner[owner] ?? 0 }
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
    /// - Throws: `LimitExceeded` past the limits (`maximumPaths`, `maximumPerClient`,
    ///   `maximumPathsPerClient`, `maximumTotalPaths`); whatever `current` throws.
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
        return try state.withLock { s throws(ServiceError) -> Subscription in
            guard s.perOwner[owner, default: 0] < SubscriptionRegistry.maximumPerClient else {
                throw ServiceError(
                    .limitExceeded,
                    "\(owner) already holds \(SubscriptionRegistry.maximumPerClient) subscriptions")
            }
            let owned = s.pathsPerOwner[owner, default: 0]
            guard owned + paths.count <= SubscriptionRegistry.maximumPathsPerClient else {
                throw ServiceError(
                    .limitExceeded,
                    "\(owner) already follows \(owned) subscribed paths; one client may follow at most \(SubscriptionRegistry.maximumPathsPerClient)"
                )
            }
            guard s.totalPaths + paths.count <= SubscriptionRegistry.maximumTotalPaths else {
                throw ServiceError(
                    .limitExceeded,
                    "the daemon already follows \(s.totalPaths) subscribed paths; at most \(SubscriptionRegistry.maximumTotalPaths) in all"
                )
            }
            let values = try current()
            while s.byID[s.nextID] != nil || s.nextID == 0 { s.nextID &+= 1 }
            let id = s.nextID
            s.nextID &+= 1
            let request = Request(paths: paths, properties: properties, app: app)
            // A new member of an existing group keeps the group's values, the ones last sent: should
            // the theme have changed since without an update, the next update then tells every
            // member (the newcomer at worst hears of a value it already has; nobody misses one).
            s.groups[request, default: Group(values: values, members: [:])].members[id] = owner
            s.byID[id] = (request, owner)
            s.perOwner[owner, default: 0] += 1
            s.pathsPerOwner[owner, default: 0] += paths.count
            s.totalPaths += paths.count
            return Subscription(
                id: id, owner: owner, paths: paths, properties: properties, app: app, values: values)
        }
    }

    /// Removes a subscription of `owner`.
    /// - Parameters:
    ///   - id: The subscription's id.
    ///   - owner: The caller's unique bus name.
    /// - Throws: `UnknownSubscription` for an id that is not live; `AccessDenied` when it belongs
    ///   to another client.
    public func remove(_ id: UInt32, owner: String) throws(ServiceError) {
        try state.withLock { s throws(ServiceError) in
            guard let live = s.byID[id] else {
                throw ServiceError(.unknownSubscription, "no subscription \(id)")
            }
            guard live.owner == owner else {
                throw ServiceError(.accessDenied, "subscription \(id) belongs to another client")
            }
            s.drop(id)
        }
    }

    /// Drops every subscription of a client that left the bus.
    /// - Parameter owner: The client's unique bus name.
    /// - Returns: how many were dropped.
    @discardableResult
    public func removeAll(of owner: String) -> Int {
        state.withLock { s in
            guard s.perOwner[owner] != nil else { return 0 }
            let ids = s.byID.filter { $0.value.owner == owner }.map(\.key)
            for id in ids { s.drop(id) }
            return ids.count
        }
    }

    /// The changes of one publication for one group of subscriptions.
    public struct Delivery: Sendable {
        /// The values that changed: the same for every recipient.
        public var changes: StyleSnapshot
        /// The subscriptions to send them to, in id order.
        public var recipients: [(id: UInt32, owner: String)]
    }

    /// Recomputes the values of every group of subscriptions (those with the same paths,
    /// properties and application) with `resolve`, once per group and outside the lock, and
    /// returns the changes per group; stores the new values. A path missing from what `resolve`
    /// returns (it no longer resolves: a component type only the old theme defined) keeps its
    /// old values and reports no change; the group's other paths are followed as usual.
    /// - Parameters:
    ///   - editedImages: Images whose files changed under the same path: reported as changed.
    ///   - resolve: Resolves a request's paths in the active theme, leaving out those that no
    ///     longer resolve.
    /// - Returns: Per group with changes: the changed values only, and its subscriptions.
    public func update(editedImages: Set<String> = [], resolve: (Request) -> StyleSnapshot) -> [Delivery] {
        let requests = state.withLock { Array($0.groups.keys) }
        var resolved: [Request: StyleSnapshot] = [:]
        for r in requests { resolved[r] = resolve(r) }
        return state.withLock { s in
            var out: [Delivery] = []
            for (request, new) in resolved {
                // A group that emptied meanwhile is gone.
                guard let group = s.groups[request] else { continue }
                let changes = StyleDiff.changes(from: group.values, to: new, editedImages: editedImages)
                guard !changes.isEmpty else { continue }
                s.groups[request]!.values.merge(new) { _, now in now }
                out.append(
                    Delivery(
                        changes: changes,
                        recipients: group.members.sorted { $0.key < $1.key }.map {
                            (id: $0.key, owner: $0.value)
                        }
                    ))
            }
            return out
        }
    }

    /// What a subscription asks for: subscriptions asking for the same are resolved and
    /// encoded together.
    public struct Request: Hashable, Sendable {
        /// The component paths, as the subscriber wrote them.
        public var paths: [String]
        /// The properties; empty for every property of each path's type.
        public var properties: [String]
        /// The subscriber's application id.
        public var app: String?
    }
}
