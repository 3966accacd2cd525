import LiveryDBus
import Synchronization

/// The client half of the watch protocol, shared by `livery watch PATH…` and `livery-demo`: a
/// match rule for each path's `Changed` first, then `Watch`, whose serial separates the signals
/// older than the values read (not above it: dropped) from the changes after them; it follows
/// the daemon's bus name, and watches a replacement (`liveryd --replace`) again.
///
/// Ordering does not depend on the thread signals are dispatched on: a `Changed` handled while
/// `Watch` is awaited (the loop running on another thread, or the reply of a call made from a
/// handler) is held, and handed on after the values it follows if it is newer than them. The
/// handler is called for one event at a time, in the order: the values read, then each newer
/// `Changed` in the order the bus delivered them.
public final class WatchClient: Sendable {
    /// What the handler is told.
    public enum Event: Sendable {
        /// Every property of each path, from a `Watch` reply: the first, or after the daemon was
        /// replaced (whose serials start again).
        case values(WatchReply)
        /// A change of one watched path, newer than the values read.
        case changed(ChangedSignal)
        /// The daemon's bus name has a new owner (given), which is watched again next.
        case replaced(by: String)
        /// The daemon left the bus: nothing more comes until one takes its name.
        case left
        /// Watching the replacement failed (the bus's error, or the handler's for its values).
        case failed(any Error)
    }

    /// The client's paths as given.
    public let paths: [String]
    /// The application id whose `@app` blocks apply; empty for none.
    public let app: String
    private let pathSet: Set<String>
    private let connection: Connection
    private let timeout: Double
    private let handler: @Sendable (Event) throws -> Void

    private struct State {
        /// The serial of the last `Watch` reply; nil before it and while one is awaited.
        var serial: UInt32?
        /// Signals handled while `Watch` was awaited, in the order they came.
        var early: [ChangedSignal] = []
    }
    private let state = Mutex(State())
    /// Held while the handler runs, so that it sees one event at a time and the values before
    /// the changes that follow them.
    private let delivery = Mutex(())

    /// A watch not started yet.
    /// - Parameters:
    ///   - connection: A connection to the bus liveryd is on; its loop runs the signal handlers.
    ///   - paths: The component paths to watch.
    ///   - app: The application id whose `@app` blocks apply, or nil for none.
    ///   - timeout: Seconds to wait for `Watch`'s reply.
    ///   - handler: Told of each event, on the thread that read the values or dispatched the
    ///     signal; an error it throws for `.values` is thrown by `start()` (or told as
    ///     `.failed` after a replacement), and the changes held for those values are dropped.
    public init(
        connection: Connection, paths: [String], app: String?, timeout: Double = 25,
        handler: @escaping @Sendable (Event) throws -> Void
    ) {
        self.connection = connection
        self.paths = paths
        self.pathSet = Set(paths)
        self.app = app ?? ""
        self.timeout = timeout
        self.handler = handler
    }

    /// Adds the match rules (each path's `Changed`, the daemon's bus name) and reads every
    /// property of each path with `Watch`, handing the values to the handler.
    /// - Throws: `DBusError` from the bus (`ServiceUnknown` when liveryd is not on it) or from
    ///   liveryd; `Failed` when the reply is not `(ua{sa{sv}})`; what the handler throws for the
    ///   values.
    public func start() throws {
        // One rule per path (arg0, arg1), so that the bus routes only what is watched; a path
        // too long for a rule is heard through one rule for every Changed, filtered here.
        var general = false
        for path in Set(paths).sorted() {
            var rule = ChangedSignal.rule(path: path, app: app)
            if rule.utf8.count > LiveryBus.maximumMatchRuleLength {
                if general { continue }
                general = true
                rule = LiveryBus.signalRule(ChangedSignal.member)
            }
            try connection.addMatch(rule) { [weak self] message in self?.received(message.arguments) }
        }
        try connection.addMatch(LiveryBus.ownerRule) { [weak self] message in
            self?.ownerChanged(message.arguments)
        }
        try read()
    }

    /// `Watch(as paths, a{sv} options)`, then the values and the changes held meanwhile.
    private func read() throws {
        state.withLock {
            $0.serial = nil
            $0.early = []
        }
        let options: [String: DBusValue] = app.isEmpty ? [:] : ["app": .string(app)]
        let arguments = try connection.call(.watch, [.strings(paths), .dict(options)], timeout: timeout)
        guard let reply = WatchReply(decoding: arguments) else {
            throw DBusError(.failed, "liveryd's Watch reply is not (ua{sa{sv}})")
        }
        try delivery.withLock { _ in
            // A signal handled from here on waits for this lock, so it follows the held ones.
            let early = state.withLock { s in
                s.serial = reply.serial
                defer { s.early = [] }
                return s.early
            }
            try handler(.values(reply))
            for signal in early where signal.serial > reply.serial { try? handler(.changed(signal)) }
        }
    }

    /// A received `Changed`: dropped for another path or application (a general rule hears
    /// them all) and when not above the serial read; held while `Watch` is awaited.
    private func received(_ arguments: [DBusValue]) {
        guard let signal = ChangedSignal(decoding: arguments), pathSet.contains(signal.path),
            signal.app == app
        else { return }
        delivery.withLock { _ in
            let serial: UInt32? = state.withLock { s in
                if s.serial == nil { s.early.append(signal) }
                return s.serial
            }
            guard let serial, signal.serial > serial else { return }
            try? handler(.changed(signal))
        }
    }

    /// The daemon's bus name changed owner: a replacement is watched again, a departure told.
    private func ownerChanged(_ arguments: [DBusValue]) {
        guard let change = NameOwnerChange(decoding: arguments) else { return }
        if change.newOwner.isEmpty {
            deliver(.left)
            return
        }
        deliver(.replaced(by: change.newOwner))
        do { try read() } catch { deliver(.failed(error)) }
    }

    private func deliver(_ event: Event) {
        delivery.withLock { _ in try? handler(event) }
    }
}
