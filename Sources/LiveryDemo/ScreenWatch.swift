import LiveryAPI
import LiveryCore
import LiveryDBus
import Synchronization

/// The watch of the sample screen's component paths on liveryd, DESIGN §5's protocol: a match
/// rule for each path's `Changed` first, then `Watch`, whose serial tells the signals older
/// than the values read (not above it: dropped) from the changes after them. Values are typed
/// by the schema (`Value(decoding:type:)`).
///
/// Signals are handled on the connection's loop thread, which runs only after `start()` has
/// read the values (or, after the daemon was replaced, while its handler reads them again), so
/// a signal never sees a serial that is not yet known.
public final class ScreenWatch: Sendable {
    /// Values of some paths: path → property → value.
    public typealias Update = [String: [String: Value]]

    private let connection: Connection
    private let paths: [String]
    private let app: String?
    private let schema: Schema
    private let timeout: Double
    private let deliver: @Sendable (Update) -> Void
    private let report: @Sendable (String) -> Void
    /// The serial of the last `Watch` reply; nil before the first and while one is awaited.
    private let serial = Mutex<UInt32?>(nil)

    /// A watch not started yet.
    /// - Parameters:
    ///   - connection: A connection to the bus liveryd is on; its loop runs `Changed` handlers.
    ///   - paths: The component paths to watch (`SampleScreen.paths`).
    ///   - app: The application id whose `@app` blocks apply, or nil for none.
    ///   - schema: The schema the daemon's themes use, for the type of each property.
    ///   - timeout: Seconds to wait for `Watch`'s reply.
    ///   - deliver: Called on the loop thread with the values of a `Changed`, or all values
    ///     again after the daemon was replaced.
    ///   - report: Called on the loop thread with what to tell the user: the daemon left the bus,
    ///     or reading from its replacement failed.
    public init(
        connection: Connection, paths: [String], app: String?, schema: Schema, timeout: Double = 5,
        deliver: @escaping @Sendable (Update) -> Void, report: @escaping @Sendable (String) -> Void
    ) {
        self.connection = connection
        self.paths = paths
        self.app = app
        self.schema = schema
        self.timeout = timeout
        self.deliver = deliver
        self.report = report
    }

    /// Adds the match rules and reads every property of each path with `Watch`. Call before
    /// the connection's loop runs.
    /// - Returns: The values of every path.
    /// - Throws: `DBusError` from the bus (`ServiceUnknown` when liveryd is not on it) or from
    ///   liveryd; `Failed` when the reply is not `(ua{sa{sv}})`.
    public func start() throws(DBusError) -> Update {
        // One rule per path (arg0, arg1); a path too long for a rule is heard through one rule
        // for every Changed, filtered here, as the README says.
        var general = false
        for path in Set(paths) {
            var rule = ChangedSignal.rule(path: path, app: app)
            if rule.utf8.count > LiveryBus.maximumMatchRuleLength {
                if general { continue }
                general = true
                rule = LiveryBus.signalRule(ChangedSignal.member)
            }
            try connection.addMatch(rule) { [self] message in received(message.arguments) }
        }
        try connection.addMatch(LiveryBus.ownerRule) { [self] message in ownerChanged(message.arguments) }
        return try read()
    }

    /// `Watch(as paths, a{sv} options) → (u serial, a{sa{sv}} values)`.
    private func read() throws(DBusError) -> Update {
        serial.withLock { $0 = nil }
        let options: [String: DBusValue] = app.map { ["app": .string($0)] } ?? [:]
        let arguments = try connection.call(
            destination: LiveryBus.busName, path: LiveryBus.objectPath, interface: LiveryBus.interfaceName,
            member: try MemberName("Watch"), arguments: [.strings(paths), .dict(options)], timeout: timeout)
        guard let reply = WatchReply(decoding: arguments) else {
            throw DBusError(.failed, "liveryd's Watch reply is not (ua{sa{sv}})")
        }
        serial.withLock { $0 = reply.serial }
        var update: Update = [:]
        for component in reply.values.components {
            update[component.path] = component.values.typed(by: schema)
        }
        return update
    }

    private func received(_ arguments: [DBusValue]) {
        guard let signal = ChangedSignal(decoding: arguments), paths.contains(signal.path),
            signal.app == (app ?? "")
        else { return }
        guard let read = serial.withLock({ $0 }), signal.serial > read else { return }
        deliver([signal.path: signal.values.typed(by: schema)])
    }

    /// A replacement (`liveryd --replace`) is watched again, its serials from the new reply; a
    /// daemon that left is reported, and watched again when one comes back.
    private func ownerChanged(_ arguments: [DBusValue]) {
        guard let change = NameOwnerChange(decoding: arguments) else { return }
        if change.newOwner.isEmpty {
            report("liveryd left the bus; the window keeps its colours until it is back")
            return
        }
        do { deliver(try read()) } catch {
            report("cannot watch liveryd again: \(ScreenWatch.describe(error))")
        }
    }

    /// A bus error for people: what it means for the demo rather than libdbus's words.
    public static func describe(_ error: DBusError) -> String {
        switch error.name {
        case .serviceUnknown, .nameHasNoOwner:
            "liveryd is not running on this bus (\(error.name.rawValue)); start it with 'make run'"
        case .noReply, .timeout: "liveryd did not answer (is it stopped or busy?)"
        default:
            "\(LiveryErrorKind(errorName: error.name)?.rawValue ?? error.name.rawValue): \(error.message)"
        }
    }
}
