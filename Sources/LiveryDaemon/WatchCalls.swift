import Foundation
import LiveryAPI
import LiveryCore
import LiveryDBus
import LiveryService

/// A `Watch` call waiting in the ``WatchQueue``: its first step reads its paths, then the
/// service's `WatchRequest` is stepped until it answers (the limits, the keys nobody watches yet
/// resolved a few at a time, every key registered at one serial).
///
/// `@unchecked Sendable`: the mutable properties are used by the queue alone, one step after
/// the other (``WatchQueueWork``).
final class WatchCall: WatchQueueWork, @unchecked Sendable {
    let owner: String
    let reply: PendingReply
    let service: Service
    let cost: Int

    /// The call, until the first step reads its keys.
    private var call: MethodInvocation?
    /// The service's side of the call, from the first step on.
    private var request: WatchRequest?

    /// The call of `paths` paths (`call`, detached from the received message), answered through
    /// `reply`.
    init(call: MethodInvocation, paths: Int, reply: PendingReply, interface: LiveryInterface) {
        self.owner = call.sender
        self.call = call
        self.cost = max(paths, 1)
        self.reply = reply
        self.service = interface.service
    }

    func step(until deadline: ContinuousClock.Instant) -> Bool {
        if let call {
            self.call = nil
            do { request = service.watch(owner: owner, keys: try LiveryInterface.keys(call)) } catch {
                reply.fail(error)
                return true
            }
        }
        switch request?.step(until: deadline) {
        case .success(let r)?:
            reply.succeed(WatchReply(serial: r.serial, values: ComponentValues(r.values)).arguments)
            return true
        case .failure(let error)?:
            reply.fail(error)
            return true
        case nil:
            return false
        }
    }

    func abandon() -> Bool { reply.abandon() }
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
            if interface.service.unwatch(owner: call.sender, keys: try LiveryInterface.keys(call)) {
                interface.memoryFreed()
            }
            reply.succeed([])
        } catch {
            reply.fail(error)
        }
        return true
    }

    func abandon() -> Bool { reply.abandon() }
}
