import Foundation
import LiveryAPI
import LiveryCore
import LiveryDBus
import LiveryService

/// `Watch`, `Unwatch` and the `Changed` signals: the clients' watches, run on the watch queue
/// (`WatchQueue`) and released when a client leaves the bus.
extension LiveryInterface {
    /// `Watch(as paths, a{sv} options) → (ua{sa{sv}})`: every property of each path, with the
    /// serial they are at; answered from the watch queue. Option `app` (s).
    var watchMethod: Method {
        Method.deferred(.watch) { [weak self] call, reply in
            guard let self else { return }
            do {
                let paths = try LiveryInterface.pathCount(call)
                let owner = call.sender
                // Follow the client from now on, on the loop thread, so that its leaving is heard.
                self.followOwner(owner)
                try self.calls.enqueue(
                    WatchCall(call: call.detached(), paths: paths, reply: reply, interface: self), from: owner
                )
            } catch {
                reply.fail(error)
            }
        }
    }

    /// The number of paths of a `Watch` or `Unwatch` call, counted on the loop thread without
    /// reading them: the call's first step reads them (`keys`), on the watch queue, or never
    /// when the caller leaves first.
    /// - Throws: `LimitExceeded` past `WatchRegistry.maximumPathsPerCall` paths.
    static func pathCount(_ call: MethodInvocation) throws(ServiceError) -> Int {
        let count = call.count(ofArrayArgument: 0) ?? 0
        guard count <= WatchRegistry.maximumPathsPerCall else {
            throw ServiceError(
                .limitExceeded,
                "\(count) paths; \(call.member) takes at most \(WatchRegistry.maximumPathsPerCall) a call")
        }
        return count
    }

    /// The keys of a `Watch` or `Unwatch` call: its paths with the option `app`.
    /// - Throws: `InvalidArgs` when `app` is not a string.
    static func keys(_ call: MethodInvocation) throws(DBusError) -> [WatchRegistry.Key] {
        let app = try LiveryInterface.app(call.arguments[1])
        return (call.arguments[0].stringArray ?? []).map { WatchRegistry.Key(path: $0, app: app) }
    }

    /// `Unwatch(as paths, a{sv} options)`: removes one of the caller's watches of each path
    /// (for the option `app`); paths it does not watch are ignored. Answered from the watch
    /// queue, after the caller's `Watch` calls before it.
    var unwatchMethod: Method {
        Method.deferred(.unwatch) {
            [weak self] call, reply in
            guard let self else { return }
            do {
                let paths = try LiveryInterface.pathCount(call)
                self.followOwner(call.sender)
                try self.calls.enqueue(
                    UnwatchCall(call: call.detached(), paths: paths, reply: reply, interface: self),
                    from: call.sender)
            } catch {
                reply.fail(error)
            }
        }
    }

    /// Notes that a client's last watches went: memory is given back when the watch queue is
    /// idle.
    func memoryFreed() { freedMemory.store(true, ordering: .releasing) }

    static let changedMember = LiverySignal.changed.member

    /// Follows the unique name of a client of `Watch` or `Unwatch`, so that its waiting calls
    /// and its watches go when it leaves the bus (the `OwnerWatch.departures` match, added at
    /// `export`).
    func followOwner(_ owner: String) {
        _ = watcher.insert(owner)
    }

    /// Drops the calls a client that left has waiting, unanswered, and releases every watch
    /// it holds once the step in progress is done (the bus routes a client's messages before
    /// its leaving, so none of its calls comes after).
    func release(_ owner: String) {
        calls.depart(owner) { [weak self] dropped in
            guard let self else { return }
            let released = self.service.releaseWatches(of: owner)
            _ = self.watcher.remove(owner)
            self.service.log(
                .debug,
                "\(owner) left the bus; released \(released) watch(es), dropped \(dropped) waiting call(s)")
            if released > 0 { self.memoryFreed() }
        }
    }

}
