import Foundation
import LiveryAPI
import LiveryCore
import LiveryDBus

/// A `Watch` call waiting in the ``WatchQueue``: reads its paths and checks the limits, resolves
/// the keys nobody watches yet in the active theme a few at a time, then registers every key at
/// one serial and answers. While a publication is under way the serials can differ: it waits
/// for the publication (on the queue's threads, never the loop thread) and reads again.
///
/// `@unchecked Sendable`: the mutable properties are used by the queue alone, one step after
/// the other (``WatchQueueWork``).
final class WatchCall: WatchQueueWork, @unchecked Sendable {
    let owner: String
    let reply: PendingReply
    let service: ThemeService
    let watches: WatchRegistry
    let cost: Int

    /// The call, until the first step reads its keys.
    private var call: MethodInvocation?
    private var keys: [WatchRegistry.Key] = []
    /// The theme and serial `fresh` is read at.
    private var reading: (cascade: Cascade, serial: UInt32)?
    /// Values of keys nobody watched when they were read, by path (one `Watch` has one app).
    private var fresh: StyleSnapshot = [:]
    /// Keys still to resolve into `fresh`, the next one last.
    private var unresolved: [WatchRegistry.Key] = []
    private var attempts = 0

    /// The call of `paths` paths (`call`, detached from the received message), answered through
    /// `reply`.
    init(call: MethodInvocation, paths: Int, reply: PendingReply, interface: LiveryInterface) {
        self.owner = call.sender
        self.call = call
        self.cost = max(paths, 1)
        self.reply = reply
        self.service = interface.service
        self.watches = interface.watches
    }

    func step(until deadline: ContinuousClock.Instant) -> Bool {
        do {
            if let call {
                keys = try LiveryInterface.keys(call)
                self.call = nil
                try watches.admit(owner: owner, keys: keys)
                for key in keys { try ThemeService.checkLimits(key.path, properties: [], app: key.app) }
            }
            let reading = self.reading ?? service.published
            if self.reading == nil {
                self.reading = reading
                unresolved = unwatchedAndUnread()
            }
            while let key = unresolved.last {
                if fresh[key.path] == nil {
                    fresh[key.path] = try ThemeService.values(of: key.path, app: key.app, in: reading.cascade)
                }
                unresolved.removeLast()
                if !unresolved.isEmpty && ContinuousClock.now >= deadline { return false }
            }
            if let r = try watches.add(owner: owner, keys: keys, fresh: fresh, serial: reading.serial) {
                reply.succeed(WatchReply(serial: r.serial, values: ComponentValues(r.values)).arguments)
                return true
            }
            attempts += 1
            guard attempts < 10_000 else {
                throw DBusError(.failed, "the theme kept changing while the paths were read; try again")
            }
            if service.published.serial != reading.serial {
                // A newer change is published: read every key again, in it.
                (self.reading, fresh) = (nil, [:])
                return false
            }
            // Keys released meanwhile are read now; with none, a publication is under way.
            unresolved = unwatchedAndUnread()
            if unresolved.isEmpty { usleep(1000) }
            return false
        } catch {
            reply.fail(error)
            return true
        }
    }

    func abandon() -> Bool { reply.abandon() }

    /// The keys nobody watches and `fresh` has no values for, the first last.
    private func unwatchedAndUnread() -> [WatchRegistry.Key] {
        watches.unwatched(keys).filter { fresh[$0.path] == nil }.reversed()
    }
}

/// An `Unwatch` call waiting in the ``WatchQueue``: reads its paths, removes one of the
/// caller's watches of each in one step, and answers; memory goes back to the system once the
/// queue is idle when the caller holds no watch any more.
final class UnwatchCall: WatchQueueWork {
    let call: MethodInvocation
    let reply: PendingReply
    let interface: LiveryInterface
    let cost: Int

    /// The call of `paths` paths (`call`, detached from the received message), answered through
    /// `reply`.
    init(call: MethodInvocation, paths: Int, reply: PendingReply, interface: LiveryInterface) {
        self.call = call
        self.cost = max(paths, 1)
        self.reply = reply
        self.interface = interface
    }

    func step(until deadline: ContinuousClock.Instant) -> Bool {
        do {
            let owner = call.sender
            interface.watches.remove(owner: owner, keys: try LiveryInterface.keys(call))
            if interface.watches.count(of: owner) == 0 { interface.memoryFreed() }
            reply.succeed([])
        } catch {
            reply.fail(error)
        }
        return true
    }

    func abandon() -> Bool { reply.abandon() }
}
