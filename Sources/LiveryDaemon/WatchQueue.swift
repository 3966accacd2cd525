import Dispatch
import LiveryService
import Synchronization

/// A call waiting in a ``WatchQueue``, run in steps.
///
/// The queue never runs two steps of one client's calls at once, nor ``abandon()`` during a
/// step, and each step happens after the one before it, so a conforming class may keep the state
/// of its call in plain stored properties.
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
/// served a step at a time away from the loop thread.
///
/// - A client's calls run in the order it sent them, one step at a time, so an `Unwatch` comes
///   after the `Watch` it undoes.
/// - Clients whose queue was empty (newcomers) are served first, in the order they came; the
///   clients with more steps to go take turns, a step each.
/// - Two threads take the steps: `turns` serves newcomers and then the clients in turn, and
///   `newcomers` serves only newcomers (and departures). So a new client waits for the steps of
///   the newcomers before it, never for another client's backlog, nor for a thread busy with one.
/// - When a client leaves the bus (``depart(_:then:)``), its waiting calls are dropped
///   unanswered, its step in progress (if any) finishes, and then what it held is released.
/// - A client may have at most ``maximumWaitingPaths`` paths waiting; a call past that fails
///   with `LimitExceeded` at once, so one connection's backlog, and the memory it takes, is
///   bounded.
/// - What is set with ``whenIdle(_:)`` runs when both threads run out of work.
final class WatchQueue: Sendable {
    /// Paths one client may have waiting in its `Watch` and `Unwatch` calls (a call counts at
    /// least one): as many watches as it may hold, in 16 calls of the largest size.
    static let maximumWaitingPaths = WatchRegistry.maximumPerClient
    /// How long a step runs before the next client's turn, about.
    static let stepLength = Duration.milliseconds(2)

    /// The two threads' jobs.
    private enum Lane: Int, CaseIterable {
        /// Departures, newcomers, then the clients in turn.
        case turns
        /// Departures and newcomers only.
        case newcomers
    }

    private struct Client {
        var calls = FIFO<any WatchQueueWork>()
        var waitingPaths = 0
        /// Whether a step of its first call is running.
        var running = false
    }

    private enum Action: Sendable {
        /// Releases a client that left.
        case departure(@Sendable () -> Void)
        /// The next step of a client's first call.
        case step(client: String, call: any WatchQueueWork)
    }

    private struct State {
        /// Clients with calls waiting or running; a client that left is not here, and is
        /// skipped where its name is still listed below.
        var clients: [String: Client] = [:]
        /// Clients whose queue was empty before their first waiting call, in the order they came.
        var newcomers = FIFO<String>()
        /// Clients that had a step and have more to go, in turn.
        var turns = FIFO<String>()
        var departures = FIFO<@Sendable () -> Void>()
        /// The departures of clients that left during a step of theirs: run after it.
        var afterStep: [String: @Sendable () -> Void] = [:]
        /// Whether each lane's `drain` is queued or running.
        var draining = [false, false]
    }

    private let state = Mutex(State())
    private let threads: [DispatchQueue]
    private let idle = Mutex<(@Sendable () -> Void)?>(nil)

    /// An empty queue whose steps run on two dispatch queues, `label` and `label.newcomers`.
    init(label: String) {
        threads = [DispatchQueue(label: label), DispatchQueue(label: label + ".newcomers")]
    }

    /// Runs `body` on one of the queue's threads each time both run out of work; it replaces
    /// what was set before.
    func whenIdle(_ body: @escaping @Sendable () -> Void) { idle.withLock { $0 = body } }

    /// The paths `client` has waiting, the call running included.
    func waitingPaths(of client: String) -> Int { state.withLock { $0.clients[client]?.waitingPaths ?? 0 } }

    /// Queues `call` after the calls `client` has waiting.
    /// - Throws: `LimitExceeded` when `client` would have more than `maximumWaitingPaths` paths
    ///   waiting; nothing is queued then.
    func enqueue(_ call: any WatchQueueWork, from client: String) throws(ServiceError) {
        let lane = try state.withLock { s throws(ServiceError) -> Lane? in
            let waiting = s.clients[client]?.waitingPaths ?? 0
            guard waiting + call.cost <= WatchQueue.maximumWaitingPaths else {
                throw ServiceError(
                    .limitExceeded,
                    "\(client) has \(waiting) paths waiting in Watch and Unwatch calls; at most "
                        + "\(WatchQueue.maximumWaitingPaths) may wait: wait for their replies")
            }
            s.clients[client, default: Client()].calls.append(call)
            s.clients[client]!.waitingPaths += call.cost
            guard waiting == 0 else { return nil }  // listed already, or running
            s.newcomers.append(client)
            return WatchQueue.start(&s, [.newcomers, .turns])
        }
        if let lane { start(lane) }
    }

    /// Drops the calls `client` has waiting, unanswered, and runs `release` on one of the
    /// queue's threads after the client's step in progress, if any. Call it when `client` has
    /// left the bus: the bus delivers a client's calls before its leaving, so none comes after.
    /// - Parameters:
    ///   - client: The unique name that lost its owner.
    ///   - release: Releases what the client held; its argument is the number of calls dropped
    ///     unanswered.
    func depart(_ client: String, then release: @escaping @Sendable (_ dropped: Int) -> Void) {
        let lane = state.withLock { s -> Lane? in
            let left = s.clients.removeValue(forKey: client)
            var calls = left?.calls ?? FIFO()
            let waiting = calls.removeAll()
            // The calls are given up and freed on the queue's threads, not the caller's (the loop
            // thread): a call's paths are thousands of strings.
            let departure: @Sendable () -> Void = { release(waiting.filter { $0.abandon() }.count) }
            if left?.running == true {
                s.afterStep[client] = departure
                return nil
            }
            s.departures.append(departure)
            return WatchQueue.start(&s, [.newcomers, .turns])
        }
        if let lane { start(lane) }
    }

    private func start(_ lane: Lane) { threads[lane.rawValue].async { self.drain(lane) } }

    /// Runs `lane`'s work until none is left for it, on its thread.
    private func drain(_ lane: Lane) {
        while true {
            let (action, idle) = state.withLock { WatchQueue.next(&$0, lane) }
            guard let action else {
                if idle { self.idle.withLock { $0 }?() }
                return
            }
            switch action {
            case .departure(let release):
                release()
            case .step(let client, let call):
                let done = call.step(until: .now + WatchQueue.stepLength)
                let (departure, other) = state.withLock { WatchQueue.finish(&$0, client, call, done: done) }
                departure?()
                if let other { start(other) }
            }
        }
    }

    /// The first of `lanes` not draining, marked draining; nil when all are.
    private static func start(_ s: inout State, _ lanes: [Lane]) -> Lane? {
        guard let lane = lanes.first(where: { !s.draining[$0.rawValue] }) else { return nil }
        s.draining[lane.rawValue] = true
        return lane
    }

    /// `lane`'s next action: departures first, then the newcomers' first steps, then (for
    /// `turns`) the others in turn. With none, the lane stops draining; `idle` tells whether the
    /// other has stopped too.
    private static func next(_ s: inout State, _ lane: Lane) -> (action: Action?, idle: Bool) {
        if let release = s.departures.popFirst() { return (.departure(release), false) }
        while let client = s.newcomers.popFirst() ?? (lane == .turns ? s.turns.popFirst() : nil) {
            guard let call = s.clients[client]?.calls.first else { continue }
            s.clients[client]!.running = true
            return (.step(client: client, call: call), false)
        }
        s.draining[lane.rawValue] = false
        return (nil, !s.draining.contains(true))
    }

    /// After a step of `client`'s first call: the call leaves the queue when it is done, and the
    /// client takes its next turn after the others when it has more.
    /// - Returns: The client's departure when it left during the step; the lane to start for
    ///   its next turn, when `turns` is not draining.
    private static func finish(_ s: inout State, _ client: String, _ call: any WatchQueueWork, done: Bool)
        -> (departure: (@Sendable () -> Void)?, start: Lane?)
    {
        guard s.clients[client] != nil else { return (s.afterStep.removeValue(forKey: client), nil) }
        s.clients[client]!.running = false
        if done {
            _ = s.clients[client]!.calls.popFirst()
            s.clients[client]!.waitingPaths -= call.cost
        }
        if s.clients[client]!.calls.isEmpty {
            s.clients[client] = nil
            return (nil, nil)
        }
        s.turns.append(client)
        return (nil, start(&s, [.turns]))
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
