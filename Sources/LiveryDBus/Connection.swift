import CDBus
import Foundation
import Synchronization

/// Flags for `RequestName` (D-Bus specification, "Message Bus Messages: RequestName").
public struct RequestNameFlags: OptionSet, Sendable {
    /// The flag bits as sent to the bus.
    public let rawValue: UInt32

    /// Creates flags from their bits.
    ///
    /// - Parameter rawValue: `DBUS_NAME_FLAG_*` bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// `DBUS_NAME_FLAG_ALLOW_REPLACEMENT`: another connection may take the name from us.
    public static let allowReplacement = RequestNameFlags(rawValue: CDBUS_NAME_FLAG_ALLOW_REPLACEMENT)
    /// `DBUS_NAME_FLAG_REPLACE_EXISTING`: take the name if its owner allows replacement.
    public static let replaceExisting = RequestNameFlags(rawValue: CDBUS_NAME_FLAG_REPLACE_EXISTING)
    /// `DBUS_NAME_FLAG_DO_NOT_QUEUE`: fail with ``RequestNameReply/exists`` instead of queueing.
    public static let doNotQueue = RequestNameFlags(rawValue: CDBUS_NAME_FLAG_DO_NOT_QUEUE)
}

/// The bus's answer to `RequestName`.
public enum RequestNameReply: Sendable, Equatable {
    /// `DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER`: we own the name now.
    case primaryOwner
    /// `DBUS_REQUEST_NAME_REPLY_IN_QUEUE`: someone else owns it; we are queued.
    case inQueue
    /// `DBUS_REQUEST_NAME_REPLY_EXISTS`: someone else owns it and we asked not to queue.
    case exists
    /// `DBUS_REQUEST_NAME_REPLY_ALREADY_OWNER`: we already owned it.
    case alreadyOwner
}

/// The bus's answer to `ReleaseName`.
public enum ReleaseNameReply: Sendable, Equatable {
    /// `DBUS_RELEASE_NAME_REPLY_RELEASED`: we owned the name and gave it up.
    case released
    /// `DBUS_RELEASE_NAME_REPLY_NON_EXISTENT`: nobody owned the name.
    case nonExistent
    /// `DBUS_RELEASE_NAME_REPLY_NOT_OWNER`: someone else owns the name.
    case notOwner
}

/// A private connection to a message bus, with its own event loop.
///
/// **Threads.** `Connection` is `Sendable`: libdbus is made thread-safe with
/// `dbus_threads_init_default()` before the first connection is opened, and all Swift-side
/// state (exported objects, match handlers, callbacks, the loop's watches) lives behind
/// `Mutex`es from the Synchronization module. The raw `DBusConnection *` is only ever handed
/// to libdbus, which does its own locking. Method handlers, property accessors, match handlers
/// and `perform` blocks all run on the thread inside ``run()``.
///
/// Any thread may send (``emitSignal(path:interface:member:arguments:destination:)``), make
/// blocking calls (``call(destination:path:interface:member:arguments:timeout:)``, also from
/// inside a method handler on the loop thread) and ``stop()`` the loop.
public final class Connection: @unchecked Sendable {
    // @unchecked: `raw` is a C pointer (not Sendable) to an object libdbus locks internally
    // once dbus_threads_init_default() has run; everything else is immutable or in a Mutex.
    let raw: OpaquePointer
    let loop: EventLoop

    struct MatchHandler {
        let id: UInt64
        let rule: MatchRule
        let handler: @Sendable (Message) -> Void
    }

    struct State {
        var objects = ExportedObjects()
        var matches: [MatchHandler] = []
        var nextMatchID: UInt64 = 1
        var onNameLost: (@Sendable (String) -> Void)? = nil
        var onDisconnect: (@Sendable () -> Void)? = nil
        var closed = false
    }

    let state = Mutex(State())

    /// Run once, before any other libdbus call; a global `let` initialiser runs exactly once.
    private static let threadsReady: Bool = dbus_threads_init_default() != 0

    /// Opens a private connection to the bus at `address` and registers with it (`Hello`).
    ///
    /// - Parameter address: a D-Bus server address such as `unix:path=/run/user/1000/bus`
    ///   (D-Bus specification, "Server Addresses").
    /// - Throws: ``DBusError`` from libdbus when the address is malformed, nothing listens
    ///   there, authentication fails or `Hello` fails; `InvalidArgs` for a NUL in `address`.
    public convenience init(address: String) throws(DBusError) {
        _ = Connection.threadsReady
        try NameRules.checkString(address, what: "address")
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        guard let raw = dbus_connection_open_private(address, &error) else {
            throw DBusError.take(&error, fallback: "cannot connect to \(address)")
        }
        dbus_connection_set_exit_on_disconnect(raw, 0)
        if dbus_bus_register(raw, &error) == 0 {
            dbus_connection_close(raw)
            dbus_connection_unref(raw)
            throw DBusError.take(&error, fallback: "cannot register with the bus at \(address)")
        }
        self.init(raw: raw)
    }

    /// Opens a private connection to the session bus (`DBUS_SESSION_BUS_ADDRESS`).
    ///
    /// - Returns: a connection registered with the bus.
    /// - Throws: ``DBusError`` when there is no session bus or it refuses us.
    public static func session() throws(DBusError) -> Connection {
        try open(DBUS_BUS_SESSION, "session")
    }

    /// Opens a private connection to the system bus.
    ///
    /// - Returns: a connection registered with the bus.
    /// - Throws: ``DBusError`` when the system bus is unreachable or refuses us.
    public static func system() throws(DBusError) -> Connection {
        try open(DBUS_BUS_SYSTEM, "system")
    }

    private static func open(_ type: DBusBusType, _ label: String) throws(DBusError) -> Connection {
        _ = threadsReady
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        guard let raw = dbus_bus_get_private(type, &error) else {
            throw DBusError.take(&error, fallback: "cannot connect to the \(label) bus")
        }
        // dbus_bus_get_private turns this on; a daemon must decide for itself.
        dbus_connection_set_exit_on_disconnect(raw, 0)
        return Connection(raw: raw)
    }

    private init(raw: OpaquePointer) {
        self.raw = raw
        self.loop = EventLoop()
        let loopData = { Unmanaged.passRetained(self.loop).toOpaque() }
        dbus_connection_set_watch_functions(
            raw, eventLoopAddWatch, eventLoopRemoveWatch, eventLoopToggleWatch, loopData(), eventLoopRelease)
        dbus_connection_set_timeout_functions(
            raw, eventLoopAddTimeout, eventLoopRemoveTimeout, eventLoopToggleTimeout, loopData(),
            eventLoopRelease)
        dbus_connection_set_wakeup_main_function(raw, eventLoopWakeup, loopData(), eventLoopRelease)
        dbus_connection_set_dispatch_status_function(
            raw, eventLoopDispatchStatus, loopData(), eventLoopRelease)
        // Unretained: `self` outlives this registration, which close() removes. The filter sees
        // every message: the signals for the match handlers, and every method call, which it
        // routes to the exported objects (unknown objects get UnknownObject, parents of exported
        // paths can be introspected).
        let me = Unmanaged.passUnretained(self).toOpaque()
        _ = dbus_connection_add_filter(raw, connectionFilter, me, nil)
    }

    deinit {
        close()
        dbus_connection_unref(raw)
    }

    /// Closes the connection; later calls fail with `Disconnected`. Called by `deinit`.
    ///
    /// Safe from any thread: when the loop runs on another thread, the close happens there.
    public func close() {
        if loop.isLoopThread {
            closeNow()
            return
        }
        // libdbus frees its watches on close; the loop thread must not be polling them then.
        let done = DispatchSemaphore(value: 0)
        if loop.enqueueIfRunning({ [self] in
            closeNow()
            done.signal()
        }) {
            done.wait()
        } else {
            closeNow()
        }
    }

    private func closeNow() {
        let closing = state.withLock { s -> Bool in
            if s.closed { return false }
            s.closed = true
            s.objects = ExportedObjects()
            s.matches = []
            return true
        }
        guard closing else { return }
        dbus_connection_remove_filter(raw, connectionFilter, Unmanaged.passUnretained(self).toOpaque())
        dbus_connection_close(raw)
        loop.requestStop()
    }

    /// Whether the connection is still open.
    public var isConnected: Bool { dbus_connection_get_is_connected(raw) != 0 }

    /// This connection's unique bus name, such as `:1.42`; empty on a peer-to-peer connection.
    public var uniqueName: String {
        dbus_bus_get_unique_name(raw).map { String(cString: $0) } ?? ""
    }

    /// Called on the loop thread when the bus takes away a name we owned (`NameLost`), with
    /// that name; a single-instance service usually exits then.
    public var onNameLost: (@Sendable (String) -> Void)? {
        get { state.withLock { $0.onNameLost } }
        set { state.withLock { $0.onNameLost = newValue } }
    }

    /// Called on the loop thread once the connection is lost; ``run()`` returns afterwards.
    public var onDisconnect: (@Sendable () -> Void)? {
        get { state.withLock { $0.onDisconnect } }
        set { state.withLock { $0.onDisconnect = newValue } }
    }

    // MARK: Bus names

    /// Asks the bus for a well-known name (`RequestName`). Export objects first.
    ///
    /// - Parameters:
    ///   - name: the well-known name, such as `org.example.Service1`.
    ///   - flags: queueing and replacement behaviour.
    /// - Returns: what the bus did.
    /// - Throws: ``DBusError`` from the bus, such as `AccessDenied`, or `InvalidArgs` for a
    ///   unique name.
    public func requestName(_ name: BusName, flags: RequestNameFlags = []) throws(DBusError)
        -> RequestNameReply
    {
        if name.isUnique { throw .invalidArgs("cannot request the unique name \(name)") }
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        let reply = dbus_bus_request_name(raw, name.rawValue, flags.rawValue, &error)
        switch reply {
        case CDBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER: return .primaryOwner
        case CDBUS_REQUEST_NAME_REPLY_IN_QUEUE: return .inQueue
        case CDBUS_REQUEST_NAME_REPLY_EXISTS: return .exists
        case CDBUS_REQUEST_NAME_REPLY_ALREADY_OWNER: return .alreadyOwner
        default: throw DBusError.take(&error, fallback: "RequestName(\(name)) failed")
        }
    }

    /// The unique name that owns `name` (`org.freedesktop.DBus.GetNameOwner`, D-Bus
    /// specification "Message Bus Messages").
    ///
    /// - Parameter name: a well-known or unique bus name.
    /// - Returns: the owner's unique name, such as `:1.42`.
    /// - Throws: ``DBusError`` `NameHasNoOwner` when nobody owns it; `InvalidArgs` for an
    ///   invalid name.
    public func nameOwner(_ name: String) throws(DBusError) -> String {
        let reply = try call(
            destination: .bus, path: ObjectPath(unchecked: "/org/freedesktop/DBus"), interface: .bus,
            member: MemberName(unchecked: "GetNameOwner"), arguments: [.string(try BusName(name).rawValue)])
        return reply.first?.string ?? ""
    }

    /// Gives up a well-known name (`ReleaseName`).
    ///
    /// - Parameter name: the well-known name.
    /// - Returns: what the bus did.
    /// - Throws: ``DBusError`` from the bus.
    @discardableResult
    public func releaseName(_ name: BusName) throws(DBusError) -> ReleaseNameReply {
        if name.isUnique { throw .invalidArgs("cannot release the unique name \(name)") }
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        let reply = dbus_bus_release_name(raw, name.rawValue, &error)
        switch reply {
        case CDBUS_RELEASE_NAME_REPLY_RELEASED: return .released
        case CDBUS_RELEASE_NAME_REPLY_NON_EXISTENT: return .nonExistent
        case CDBUS_RELEASE_NAME_REPLY_NOT_OWNER: return .notOwner
        default: throw DBusError.take(&error, fallback: "ReleaseName(\(name)) failed")
        }
    }

    // MARK: Sending

    /// Emits a signal; with a `destination` it is unicast to that connection only.
    ///
    /// - Parameters:
    ///   - path: the emitting object.
    ///   - interface: the signal's interface.
    ///   - member: the signal name.
    ///   - arguments: the body.
    ///   - destination: nil to broadcast to every matching listener, or the one receiver.
    /// - Throws: ``DBusError`` `InvalidArgs` for an invalid value, `Disconnected` when closed.
    public func emitSignal(
        path: ObjectPath, interface: InterfaceName, member: MemberName, arguments: [DBusValue] = [],
        destination: BusName? = nil
    ) throws(DBusError) {
        try send(
            MessageReference.make(
                CDBUS_MESSAGE_TYPE_SIGNAL, path: path, interface: interface, member: member,
                destination: destination,
                arguments: arguments))
    }

    /// Emits `signal` to `destination` with `first` as its first argument.
    /// - Throws: ``DBusError`` `NoMemory`; `Disconnected` once the connection is closed.
    public func emit(_ signal: FanOutSignal, first: UInt32, destination: BusName) throws(DBusError) {
        try send(signal.message(first: first, destination: destination))
    }

    /// Emits `org.freedesktop.DBus.Properties.PropertiesChanged` (`sa{sv}as`).
    ///
    /// - Parameters:
    ///   - path: the object whose properties changed.
    ///   - interface: the interface the properties belong to.
    ///   - changed: new values by property name (wrapped in variants, sorted by name).
    ///   - invalidated: names of properties that changed without their values being sent.
    /// - Throws: ``DBusError`` as ``emitSignal(path:interface:member:arguments:destination:)``.
    public func emitPropertiesChanged(
        path: ObjectPath, interface: InterfaceName, changed: [String: DBusValue], invalidated: [String] = []
    ) throws(DBusError) {
        try emitSignal(
            path: path, interface: .properties, member: MemberName(unchecked: "PropertiesChanged"),
            arguments: [.string(interface.rawValue), .dict(changed), .strings(invalidated.sorted())])
    }

    func send(_ message: MessageReference) throws(DBusError) {
        if state.withLock({ $0.closed }) || !isConnected {
            throw DBusError(.disconnected, "the connection is closed")
        }
        if dbus_connection_send(raw, message.raw, nil) == 0 {
            throw DBusError(.noMemory, "cannot queue the message")
        }
    }

    /// Calls a method and waits for its reply (`dbus_connection_send_with_reply_and_block`).
    ///
    /// Works from any thread, including a method handler on the loop thread (other incoming
    /// messages wait until the handler returns). A handler must not call an object exported on
    /// this same connection: nobody would be left to answer.
    ///
    /// - Parameters:
    ///   - destination: the bus name of the callee.
    ///   - path: the object.
    ///   - interface: the method's interface.
    ///   - member: the method name.
    ///   - arguments: the body.
    ///   - timeout: seconds to wait for the reply; `.infinity` waits forever.
    /// - Returns: the reply's body.
    /// - Throws: ``DBusError`` carrying the remote error's name and message; `NoReply` on
    ///   timeout; `InvalidArgs` for invalid arguments; `Disconnected` when closed.
    public func call(
        destination: BusName, path: ObjectPath, interface: InterfaceName, member: MemberName,
        arguments: [DBusValue] = [], timeout: Double = 25
    ) throws(DBusError) -> [DBusValue] {
        try callMessage(
            destination: destination, path: path, interface: interface, member: member, arguments: arguments,
            timeout: timeout
        ).arguments
    }

    /// Like ``call(destination:path:interface:member:arguments:timeout:)`` but returns the
    /// whole reply message (sender, signature and body).
    ///
    /// - Parameters: as `call`; `timeout` in seconds.
    /// - Returns: the method return message.
    /// - Throws: ``DBusError`` as `call`.
    public func callMessage(
        destination: BusName, path: ObjectPath, interface: InterfaceName, member: MemberName,
        arguments: [DBusValue] = [], timeout: Double = 25
    ) throws(DBusError) -> Message {
        let call = try MessageReference.make(
            CDBUS_MESSAGE_TYPE_METHOD_CALL, path: path, interface: interface, member: member,
            destination: destination, arguments: arguments)
        return try sendAndWait(call, timeout: timeout, what: "\(interface).\(member)")
    }

    /// Sends a method call and blocks for its reply (`dbus_connection_send_with_reply_and_block`).
    private func sendAndWait(
        _ call: MessageReference, timeout: Double, what: @autoclosure () -> String
    ) throws(DBusError) -> Message {
        if state.withLock({ $0.closed }) || !isConnected {
            throw DBusError(.disconnected, "the connection is closed")
        }
        let milliseconds: Int32
        if timeout.isInfinite {
            milliseconds = CDBUS_TIMEOUT_INFINITE
        } else if timeout.isNaN || timeout < 0 {
            throw .invalidArgs("timeout must be a non-negative number of seconds, not \(timeout)")
        } else {
            milliseconds = Int32(clamping: Int64(min(timeout * 1000, Double(Int32.max - 1)).rounded()))
        }
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        guard let reply = dbus_connection_send_with_reply_and_block(raw, call.raw, milliseconds, &error)
        else {
            throw DBusError.take(&error, fallback: "\(what()) failed")
        }
        return MessageReference(reply).message
    }

    /// Calls a method prepared beforehand (``PreparedCall``) and waits for its reply: for a
    /// client that makes the same call many times, the arguments are marshalled once.
    ///
    /// - Parameters:
    ///   - prepared: the call.
    ///   - timeout: seconds to wait for the reply.
    /// - Returns: the method return message.
    /// - Throws: ``DBusError`` as ``call(destination:path:interface:member:arguments:timeout:)``.
    public func call(_ prepared: PreparedCall, timeout: Double = 25) throws(DBusError) -> Message {
        // The copy has serial 0, so the connection numbers it.
        guard let copy = prepared.call.copy() else {
            throw DBusError(.noMemory, "cannot copy a method call")
        }
        return try sendAndWait(copy, timeout: timeout, what: "the prepared call")
    }

    /// Blocks until every queued outgoing message has been written to the socket.
    public func flush() {
        dbus_connection_flush(raw)
    }

    // MARK: Match rules

    /// Subscribes to messages matching `rule` (`AddMatch`) and delivers them to `handler` on
    /// the loop thread.
    ///
    /// - Parameters:
    ///   - rule: a match rule, such as `type='signal',interface='org.example.Service1'`
    ///     (D-Bus specification, "Match Rules").
    ///   - handler: called for every matching message.
    /// - Throws: ``DBusError`` `MatchRuleInvalid` from the bus or the local parser.
    public func addMatch(_ rule: String, handler: @escaping @Sendable (Message) -> Void) throws(DBusError) {
        let parsed = try MatchRule(rule)
        let id = state.withLock { s -> UInt64 in
            let id = s.nextMatchID
            s.nextMatchID += 1
            s.matches.append(MatchHandler(id: id, rule: parsed, handler: handler))
            return id
        }
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        dbus_bus_add_match(raw, rule, &error)
        if dbus_error_is_set(&error) != 0 {
            state.withLock { $0.matches.removeAll { $0.id == id } }
            throw DBusError.take(&error, fallback: "AddMatch failed")
        }
    }

    /// Removes every handler added with exactly this rule text and the bus-side matches.
    ///
    /// - Parameter rule: the rule text given to ``addMatch(_:handler:)``.
    /// - Throws: ``DBusError`` from the bus (`MatchRuleNotFound` when it was never added).
    public func removeMatch(_ rule: String) throws(DBusError) {
        try NameRules.checkString(rule, what: "match rule")
        let count = state.withLock { s -> Int in
            let before = s.matches.count
            s.matches.removeAll { $0.rule.text == rule }
            return before - s.matches.count
        }
        for _ in 0..<max(count, 1) {
            var error = CDBus.DBusError()
            dbus_error_init(&error)
            dbus_bus_remove_match(raw, rule, &error)
            if dbus_error_is_set(&error) != 0 { throw DBusError.take(&error, fallback: "RemoveMatch failed") }
        }
    }

    // MARK: Event loop

    /// Runs the event loop on the calling thread until ``stop()`` or disconnection.
    ///
    /// Polls libdbus's file descriptors, runs its timeouts, dispatches incoming messages to
    /// exported objects and match handlers, and runs ``perform(_:)`` blocks. Returns at once
    /// if another thread is already running the loop.
    public func run() {
        loop.run(connection: raw)
    }

    /// Starts ``run()`` on a new thread.
    ///
    /// - Returns: the thread, already started.
    @discardableResult
    public func startThread() -> Thread {
        let thread = Thread { [self] in
            Thread.current.name = "livery-dbus"
            run()
        }
        thread.start()
        return thread
    }

    /// Makes ``run()`` return after the current iteration; safe from any thread. A stop
    /// requested while no loop runs makes the next ``run()`` return at once.
    public func stop() {
        loop.requestStop()
    }

    /// Queues `work` to run on the loop thread, in order, and wakes the loop.
    ///
    /// - Parameter work: runs on the thread inside ``run()``.
    public func perform(_ work: @escaping @Sendable () -> Void) {
        loop.enqueue(work)
    }

    /// Wakes the loop, for example after state it polls has changed.
    public func wakeup() {
        loop.wakeup()
    }

    // MARK: Incoming messages (loop thread)

    func filter(_ rawMessage: OpaquePointer) -> DBusHandlerResult {
        switch dbus_message_get_type(rawMessage) {
        case CDBUS_MESSAGE_TYPE_SIGNAL: break
        case CDBUS_MESSAGE_TYPE_METHOD_CALL: return handleObjectMessage(rawMessage)
        default: return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        }
        let message = Message(rawMessage)
        if message.path == "/org/freedesktop/DBus/Local" && message.interface == "org.freedesktop.DBus.Local"
            && message.member == "Disconnected"
        {
            let callback = state.withLock { $0.onDisconnect }
            callback?()
            loop.requestStop()
            return DBUS_HANDLER_RESULT_HANDLED
        }
        if message.sender == BusName.bus.rawValue && message.interface == InterfaceName.bus.rawValue
            && message.member == "NameLost", let name = message.arguments.first?.string
        {
            let callback = state.withLock { $0.onNameLost }
            callback?(name)
        }
        let handlers = state.withLock { s in s.matches.filter { $0.rule.matches(message) }.map(\.handler) }
        for handler in handlers { handler(message) }
        return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
    }
}

let connectionFilter: DBusHandleMessageFunction = { _, message, data in
    guard let message, let data else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
    return Unmanaged<Connection>.fromOpaque(data).takeUnretainedValue().filter(message)
}
