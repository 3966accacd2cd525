import Dispatch
import Synchronization

/// A call waiting in a ``WatchQueue``, run in steps on the queue's thread.
///
/// The queue calls ``step(until:)`` and ``abandon()`` from its one thread, one at a time, so a
/// conforming class may keep the state of its call in plain stored properties.
protocol WatchQueueWork: AnyObject, Sendable {
    /// What the call counts against its client's ``WatchQueue/maximumWaitingPaths``: its
    /// paths, and at least 1.
    var cost: Int { get }
    /// Runs the next step of the call, stopping at the first point after `deadline` where it
    /// can (it does some work whatever the deadline).
    /// - Returns: true when the call is answered and done.
    func step(until deadline: ContinuousClock.Instant) -> Bool
    /// Gives the call up unanswered: its caller left the bus, so a reply would reach nobody.
    /// - Returns: Whether the call was still unanswered (its last step may have answered it).
    func abandon() -> Bool
}

/// The `Watch` and `Unwatch` calls waiting to run: a queue per client (its unique bus name),
/// served one step at a time on one thread of its own, away from the loop thread.
///
/// - A client's calls run in the order it sent them, so an `Unwatch` comes after the `Watch`
///   it undoes.
/// - A client whose queue was empty is served right after the step in progress; the clients
///   with more than one step to go take turns, a step each. So a new client waits for one step
///   of each client that came just before it, never for another client's backlog.
/// - When a client leaves the bus (``depart(_:then:)``), its waiting calls are dropped
///   unanswered, the step in progress finishes, and then what it held is released.
/// - A client may have at most ``maximumWaitingPaths`` paths waiting; a call past that fails
///   with `LimitExceeded` at once, so one connection's backlog, and the memory it takes, is
///   bounded.
/// - What is set with ``whenIdle(_:)`` runs each time the queue runs out of work, before any
///   call that comes after.
final class WatchQueue: Sendable {
    /// Paths one client may have waiting in its `Watch` and `Unwatch` calls (a call counts at
    /// least one): as many watches as it may hold, in 16 calls of the largest size.
    static let maximumWaitingPaths = WatchRegistry.maximumPerClient
    /// How long a step runs before the next client's turn, about: a client waits this long for
    /// each client served before it.
    static let stepLength = Duration.milliseconds(2)

    private struct Client {
        var calls = FIFO<any WatchQueueWork>()
        var waitingPaths = 0
    }

    private enum Action: Sendable {
        /// What to do once a client that left is dropped.
        case departure(@Sendable () -> Void)
        /// The next step of a client's first call.
        case step(client: String, call: any WatchQueueWork)
    }

    private struct State {
        /// Clients with calls waiting or running; a client that left is not here, and is
        /// skipped where its name is still listed below.
        var clients: [String: Client] = [:]
        /// Clients whose queue was empty before their first waiting call, in the order they came:
        /// served before `turns`.
        var newcomers = FIFO<String>()
        /// Clients that had a step and have more to go, in turn.
        var turns = FIFO<String>()
        var departures = FIFO<@Sendable () -> Void>()
        /// Whether `drain` is queued or running.
        var draining = false
    }

    private let state = Mutex(State())
    private let thread: DispatchQueue
    private let idle = Mutex<(@Sendable () -> Void)?>(nil)

    /// An empty queue whose steps run on a dispatch queue called `label`.
    init(label: String) { thread = DispatchQueue(label: label) }

    /// Runs `body` on the queue's thread each time the queue runs out of work; it replaces what
    /// was set before.
    func whenIdle(_ body: @escaping @Sendable () -> Void) { idle.withLock { $0 = body } }

    /// The paths `client` has waiting, the call running included.
    func waitingPaths(of client: String) -> Int { state.withLock { $0.clients[client]?.waitingPaths ?? 0 } }

    /// Queues `call` after the calls `client` has waiting.
    /// - Throws: `LimitExceeded` when `client` would have more than `maximumWaitingPaths` paths
    ///   waiting; nothing is queued then.
    func enqueue(_ call: any WatchQueueWork, from client: String) throws(ServiceError) {
        let start = try state.withLock { s throws(ServiceError) -> Bool in
            let waiting = s.clients[client]?.waitingPaths ?? 0
            guard waiting + call.cost <= WatchQueue.maximumWaitingPaths else {
                throw ServiceError(
                    .limitExceeded,
                    "\(client) has \(waiting) paths waiting in Watch and Unwatch calls; at most "
                        + "\(WatchQueue.maximumWaitingPaths) may wait: wait for their replies")
            }
            if s.clients[client] == nil {
                s.clients[client] = Client()
                s.newcomers.append(client)
            }
            s.clients[client]!.calls.append(call)
            s.clients[client]!.waitingPaths += call.cost
            return WatchQueue.startDraining(&s)
        }
        if start { thread.async { self.drain() } }
    }

    /// Drops the calls `client` has waiting, unanswered, and runs `release` on the queue's
    /// thread after the step in progress (a step of this client's included), before any other.
    /// Call it when `client` has left the bus: the bus delivers a client's calls before its
    /// leaving, so none of its calls comes after.
    /// - Parameters:
    ///   - client: The unique name that lost its owner.
    ///   - release: Releases what the client held; its argument is the number of calls dropped
    ///     unanswered.
    func depart(_ client: String, then release: @escaping @Sendable (_ dropped: Int) -> Void) {
        let start = state.withLock { s -> Bool in
            var calls = s.clients.removeValue(forKey: client)?.calls ?? FIFO()
            let waiting = calls.removeAll()
            // The calls are given up and freed on the queue's thread, not the caller's (the loop
            // thread): a call's paths are thousands of strings.
            s.departures.append {
                release(waiting.filter { $0.abandon() }.count)
            }
            return WatchQueue.startDraining(&s)
        }
        if start { thread.async { self.drain() } }
    }

    /// Runs the queue's work until none is left, then the idle work, on `thread`: a call queued
    /// meanwhile starts another `drain` there, after this one.
    private func drain() {
        while let action = state.withLock({ WatchQueue.next(&$0) }) {
            switch action {
            case .departure(let release):
                release()
            case .step(let client, let call):
                let done = call.step(until: .now + WatchQueue.stepLength)
                state.withLock { WatchQueue.finish(&$0, client, call, done: done) }
            }
        }
        idle.withLock { $0 }?()
    }

    /// Marks the queue draining; true when it was not, and `drain` must be started.
    private static func startDraining(_ s: inout State) -> Bool {
        defer { s.draining = true }
        return !s.draining
    }

    /// Departures first, then the newcomers' first steps, then the others in turn; nil (and
    /// draining ends) when nothing is left.
    private static func next(_ s: inout State) -> Action? {
        if let release = s.departures.popFirst() { return .departure(release) }
        while let client = s.newcomers.popFirst() ?? s.turns.popFirst() {
            if let call = s.clients[client]?.calls.first { return .step(client: client, call: call) }
        }
        s.draining = false
        return nil
    }

    /// After a step of `client`'s first call: the call leaves the queue when it is done, and the
    /// client takes its next turn after the others when it has more; nothing when it left.
    private static func finish(_ s: inout State, _ client: String, _ call: any WatchQueueWork, done: Bool) {
        guard s.clients[client] != nil else { return }
        if done {
            _ = s.clients[client]!.calls.popFirst()
            s.clients[client]!.waitingPaths -= call.cost
        }
        if s.clients[client]!.calls.isEmpty {
            s.clients[client] = nil
        } else {
            s.turns.append(client)
        }
    }
}

/// A first-in, first-out queue: elements are appended to one array and taken from the reverse
/// of it, each moved once, so both ends cost O(1) amortized.
struct FIFO<Element> {
    private var incoming: [Element] = []
    /// The oldest elements, last first.
    private var outgoing: [Element] = []

    var isEmpty: Bool { incoming.isEmpty && outgoing.isEmpty }
    /// The oldest element.
    var first: Element? { outgoing.last ?? incoming.first }

    mutating func append(_ element: Element) { incoming.append(element) }

    /// Removes and returns the oldest element.
    mutating func popFirst() -> Element? {
        if outgoing.isEmpty {
            outgoing = incoming.reversed()
            incoming = []
        }
        return outgoing.popLast()
    }

    /// Removes every element and returns them, oldest first.
    mutating func removeAll() -> [Element] {
        defer { (incoming, outgoing) = ([], []) }
        return outgoing.reversed() + incoming
    }
}

extension FIFO: Sendable where Element: Sendable {}
