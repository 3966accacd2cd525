import CDBus
import Synchronization

/// A named, typed argument of a method or signal, as listed in introspection data.
public struct Argument: Sendable, Equatable {
    /// The argument's name in introspection XML; may be empty.
    public var name: String
    /// The argument's single complete type.
    public var signature: Signature

    /// Creates an argument.
    ///
    /// - Parameters:
    ///   - name: a descriptive name, shown by `gdbus introspect` and `busctl introspect`.
    ///   - signature: exactly one complete type, for example `a{sv}`; checked by
    ///     ``Connection/export(_:at:)``.
    public init(_ name: String, _ signature: Signature) {
        self.name = name
        self.signature = signature
    }
}

/// What a method handler is told about the call it answers.
public struct MethodInvocation: Sendable {
    /// The caller's unique bus name (`:1.42`); empty on a peer-to-peer connection.
    public let sender: String
    /// The object path the call was addressed to.
    public let path: ObjectPath
    /// The method name.
    public let member: String
    private let call: CallBody

    /// The call's arguments, already checked against the method's input signature; read out of
    /// the message the first time they are asked for.
    public var arguments: [DBusValue] { call.arguments }

    /// The call's body as marshalled (D-Bus specification, "Message Format": the bytes after
    /// the header; `[]` for no arguments), in this machine's byte order: a call from a sender
    /// of the other order is swapped when it is received. Equal bytes are equal arguments, so
    /// a handler whose answer depends on its arguments alone can key a cache on them without
    /// reading the arguments.
    public var marshalledBody: [UInt8] { call.body }

    /// `body` applied to the bytes of ``marshalledBody`` where they lie, valid only during the
    /// call: for a received call, in a marshalled copy of the message that is not kept (a
    /// lookup by them copies nothing).
    public func withMarshalledBody<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try call.withBody(body)
    }

    /// The number of elements of the array argument at `index` (0 for the first), counted
    /// without reading them into values; nil when there is no such argument or it is not an
    /// array.
    public func count(ofArrayArgument index: Int) -> Int? { call.count(ofArrayArgument: index) }

    /// The same invocation over a copy of the received call (`dbus_message_copy`), for a
    /// deferred handler that reads the arguments on another thread after it has returned: the
    /// received message is then freed when the handler returns, and the copy, which the
    /// connection does not count among the messages it received, when the last copy of the
    /// invocation goes. (Out of memory, it holds the received message, as the original does.)
    public func detached() -> MethodInvocation {
        MethodInvocation(sender: sender, path: path, member: member, call: call.detached())
    }

    private init(sender: String, path: ObjectPath, member: String, call: CallBody) {
        self.sender = sender
        self.path = path
        self.member = member
        self.call = call
    }

    /// Creates an invocation, as tests of handlers need.
    ///
    /// - Parameters: the fields described on each property.
    public init(sender: String, path: ObjectPath, member: String, arguments: [DBusValue]) {
        self.sender = sender
        self.path = path
        self.member = member
        self.call = CallBody(arguments: arguments)
    }

    /// The invocation of a received call (`message`, a method call libdbus has validated).
    init(sender: String, path: ObjectPath, member: String, message: OpaquePointer) {
        self.sender = sender
        self.path = path
        self.member = member
        self.call = CallBody(message: message)
    }
}

/// The body of a call: its arguments and its marshalled bytes, each computed once, when first
/// asked for, from the received message (which it holds a reference to) or from given values.
final class CallBody: @unchecked Sendable {
    // Safe to share: the message is never changed after `init` (which puts it in this
    // machine's byte order), and the lazily computed values are only touched with `lock` held.
    private let message: MessageReference?
    private let lock = Mutex<(arguments: [DBusValue]?, body: [UInt8]?)>((nil, nil))

    /// Holds `message`, a received call, on the thread that dispatches it. libdbus swaps a
    /// message of the other byte order in place, header and body, the first time an iterator
    /// is made on it (`dbus_message_iter_init`): done here, before the handler can hand the
    /// invocation to another thread, since the dispatching thread goes on to read the
    /// message's header for the reply: the swap must not run while another thread reads it.
    init(message: OpaquePointer) {
        self.message = MessageReference(retaining: message)
        var iter = DBusMessageIter()
        _ = dbus_message_iter_init(message, &iter)
    }

    init(arguments: [DBusValue]) {
        message = nil
        lock.withLock { $0.arguments = arguments }
    }

    /// Holds `copy`, a copy of a received call, already in this machine's byte order.
    private init(copy: MessageReference) {
        self.message = copy
    }

    /// A body over its own copy of the message, or this one when there is no message or no
    /// memory for the copy.
    func detached() -> CallBody {
        guard let copy = message?.copy() else { return self }
        return CallBody(copy: copy)
    }

    /// See ``MethodInvocation/count(ofArrayArgument:)``.
    func count(ofArrayArgument index: Int) -> Int? {
        guard let message else { return lock.withLock { $0.arguments }.flatMap { CallBody.count($0, index) } }
        return lock.withLock { _ in
            var iter = DBusMessageIter()
            guard dbus_message_iter_init(message.raw, &iter) != 0 else { return nil }
            for _ in 0..<index {
                guard dbus_message_iter_next(&iter) != 0 else { return nil }
            }
            guard dbus_message_iter_get_arg_type(&iter) == CDBUS_TYPE_ARRAY else { return nil }
            return Int(dbus_message_iter_get_element_count(&iter))
        }
    }

    private static func count(_ arguments: [DBusValue], _ index: Int) -> Int? {
        guard index < arguments.count else { return nil }
        switch arguments[index] {
        case .array(_, let elements): return elements.count
        case .dictionary(_, _, let entries): return entries.count
        default: return nil
        }
    }

    var arguments: [DBusValue] {
        lock.withLock { state in
            if let a = state.arguments { return a }
            let a = message.map { Marshalling.read($0.raw) } ?? []
            state.arguments = a
            return a
        }
    }

    var body: [UInt8] {
        lock.withLock { state in
            if let b = state.body { return b }
            let b =
                message.map { CallBody.marshalledBody($0.raw) }
                ?? CallBody.marshalledBody(of: state.arguments ?? [])
            state.body = b
            return b
        }
    }

    /// See ``MethodInvocation/withMarshalledBody(_:)``: the bytes already kept, else those of a
    /// marshalled copy of the message, made under `lock` (marshalling locks the message, a
    /// write) and freed after `body` (an empty body when out of memory, as ``body``).
    func withBody<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        guard let message else { return try self.body.withUnsafeBytes(body) }
        // The buffer's address as an integer: a plain value out of the lock.
        let wire: (address: UInt, count: Int)? = lock.withLock { state in
            guard state.body == nil else { return nil }
            var buffer: UnsafeMutablePointer<CChar>?
            var length: Int32 = 0
            guard dbus_message_marshal(message.raw, &buffer, &length) != 0, let buffer else { return nil }
            return (UInt(bitPattern: buffer), Int(length))
        }
        guard let wire, let buffer = UnsafeMutableRawPointer(bitPattern: wire.address) else {
            return try self.body.withUnsafeBytes(body)
        }
        defer { dbus_free(buffer) }
        let bytes = UnsafeRawBufferPointer(start: buffer, count: wire.count)
        return try body(UnsafeRawBufferPointer(rebasing: bytes[MessageReference.bodyOffset(bytes)...]))
    }

    /// The body bytes of `message`: its wire form past the header. Empty when out of memory
    /// (libdbus's only failure here).
    static func marshalledBody(_ message: OpaquePointer) -> [UInt8] {
        MessageReference.withWire(message) { [UInt8]($0[MessageReference.bodyOffset($0)...]) } ?? []
    }

    /// The body bytes `arguments` marshal to in a method call of this machine's byte order.
    static func marshalledBody(of arguments: [DBusValue]) -> [UInt8] {
        let call = try? MessageReference.make(
            CDBUS_MESSAGE_TYPE_METHOD_CALL, path: ObjectPath(unchecked: "/"),
            interface: InterfaceName(unchecked: "org.example.Call"), member: MemberName(unchecked: "Call"),
            destination: nil, arguments: arguments)
        return call?.marshalled(serial: 1).map(MessageReference.body) ?? []
    }
}

/// An exported method: its name, argument types and handler.
public struct Method: Sendable {
    /// The handler's type. A thrown ``DBusError`` becomes the error reply; any other error
    /// becomes `org.freedesktop.DBus.Error.Failed` unless it is ``DBusErrorConvertible``.
    public typealias Handler = @Sendable (MethodInvocation) throws -> [DBusValue]

    /// The method name, a valid member name (checked by ``Connection/export(_:at:)``).
    public var name: String
    /// The input arguments; their concatenated signature is what callers must send.
    public var inputs: [Argument] { didSet { inputSignature = Method.signature(inputs) } }
    /// The output arguments; the handler's return value must match their signature.
    public var outputs: [Argument] { didSet { outputSignature = Method.signature(outputs) } }
    /// The concatenated signatures, kept rather than joined on every call.
    private(set) var inputSignature = ""
    private(set) var outputSignature = ""
    /// Runs on the connection's loop thread for every valid call.
    public var handler: Handler
    /// A handler that answers with a body marshalled beforehand (see ``PreparedValues``); when
    /// set, it is used instead of ``handler``.
    public var preparedHandler: PreparedHandler?

    /// The type of a handler answering with a prepared body.
    public typealias PreparedHandler = @Sendable (MethodInvocation) throws -> PreparedValues

    /// A handler that answers later through a ``PendingReply``; when set, it is used instead of
    /// ``handler`` and ``preparedHandler``.
    public var deferredHandler: DeferredHandler?

    /// The type of a handler that answers later: it runs on the loop thread, hands the work
    /// and the ``PendingReply`` to another thread and returns. An error it throws before
    /// answering is the reply. It hands on the arguments it read, or the invocation
    /// ``MethodInvocation/detached()``, not the invocation itself: an invocation kept holds the
    /// received message, and libdbus stops reading the connection while the received messages
    /// not yet freed pass its maximum received size.
    public typealias DeferredHandler = @Sendable (MethodInvocation, PendingReply) throws -> Void

    /// Creates a method.
    ///
    /// - Parameters:
    ///   - name: the member name, for example `GetAll`.
    ///   - inputs: the arguments callers send, in order.
    ///   - outputs: the values the handler returns, in order.
    ///   - handler: answers a call; runs on the loop thread, so it must not block for long.
    public init(
        _ name: String, inputs: [Argument] = [], outputs: [Argument] = [], handler: @escaping Handler
    ) {
        self.name = name
        self.inputs = inputs
        self.outputs = outputs
        self.handler = handler
        self.inputSignature = Method.signature(inputs)
        self.outputSignature = Method.signature(outputs)
    }

    /// Creates a method whose replies are prepared bodies, for answers that repeat: the body is
    /// marshalled once and each reply copies it.
    ///
    /// - Parameters:
    ///   - name: the member name.
    ///   - inputs: the arguments callers send, in order.
    ///   - outputs: the values the prepared bodies hold, in order.
    ///   - handler: answers a call with a prepared body; runs on the loop thread.
    public static func prepared(
        _ name: String, inputs: [Argument] = [], outputs: [Argument] = [], handler: @escaping PreparedHandler
    ) -> Method {
        var m = Method(name, inputs: inputs, outputs: outputs) { try handler($0).values }
        m.preparedHandler = handler
        return m
    }

    /// Creates a method whose handler answers later, from any thread, so that long work does
    /// not hold up the calls behind it (see ``PendingReply``).
    ///
    /// - Parameters:
    ///   - name: the member name.
    ///   - inputs: the arguments callers send, in order.
    ///   - outputs: the values the reply carries, in order.
    ///   - handler: takes the call and its pending reply; runs on the loop thread and must
    ///     return at once.
    public static func deferred(
        _ name: String, inputs: [Argument] = [], outputs: [Argument] = [], handler: @escaping DeferredHandler
    ) -> Method {
        var m = Method(name, inputs: inputs, outputs: outputs) { _ in
            throw DBusError(.failed, "method \(name) answers through a pending reply")
        }
        m.deferredHandler = handler
        return m
    }

    static func signature(_ arguments: [Argument]) -> String { arguments.map(\.signature.rawValue).joined() }
}

/// A signal an interface declares, for introspection.
public struct SignalDescription: Sendable, Equatable {
    /// The signal name, a valid member name.
    public var name: String
    /// The signal's arguments.
    public var arguments: [Argument]

    /// Creates a signal description.
    ///
    /// - Parameters:
    ///   - name: the member name, for example `NameOwnerChanged`.
    ///   - arguments: the values the signal carries, in order.
    public init(_ name: String, arguments: [Argument] = []) {
        self.name = name
        self.arguments = arguments
    }
}

/// An exported property, read and written through `org.freedesktop.DBus.Properties`.
public struct Property: Sendable {
    /// Whether callers may set the property (introspection `access` attribute).
    public enum Access: Sendable, Equatable {
        /// `access="read"`: `Set` fails with `PropertyReadOnly`.
        case read
        /// `access="readwrite"`.
        case readWrite
    }

    /// The setter's type; a thrown error becomes the reply to `Set`, as for methods.
    public typealias Setter = @Sendable (DBusValue) throws -> Void

    /// The type of a setter that answers `Set` later, as a deferred method does
    /// (``Method/deferred(_:inputs:outputs:handler:)``): it runs on the loop thread, hands the
    /// value and the ``PendingReply`` to another thread and returns; the reply it sends (no
    /// values, or an error) is the reply to `Set`. An error it throws before answering is the
    /// reply. Nothing emits `PropertiesChanged` for it: the setter does, when it should.
    public typealias DeferredSetter = @Sendable (DBusValue, PendingReply) throws -> Void

    /// The property name, a valid member name.
    public var name: String
    /// The property's single complete type.
    public var signature: Signature
    /// Whether `Set` is allowed.
    public var access: Access
    /// Whether changes are announced with `PropertiesChanged` (introspected as the
    /// `org.freedesktop.DBus.Property.EmitsChangedSignal` annotation when false).
    public var emitsChangedSignal: Bool
    /// Returns the current value; runs on the loop thread.
    public var get: @Sendable () -> DBusValue
    /// Stores a new value of type ``signature``; runs on the loop thread.
    public var set: Setter?
    /// Stores a new value of type ``signature`` and answers `Set` later; when given, it is used
    /// instead of ``set``.
    public var deferredSet: DeferredSetter?

    /// Creates a property.
    ///
    /// - Parameters:
    ///   - name: the member name, for example `Version`.
    ///   - signature: the value's single complete type.
    ///   - access: `.read` or `.readWrite`.
    ///   - emitsChangedSignal: whether a successful `Set` emits `PropertiesChanged`, and what
    ///     introspection advertises.
    ///   - get: returns the current value, of type `signature`.
    ///   - set: stores a value already checked to be of type `signature`; required for
    ///     `.readWrite`.
    public init(
        _ name: String, _ signature: Signature, access: Access = .read, emitsChangedSignal: Bool = true,
        get: @escaping @Sendable () -> DBusValue, set: Setter? = nil
    ) {
        self.name = name
        self.signature = signature
        self.access = access
        self.emitsChangedSignal = emitsChangedSignal
        self.get = get
        self.set = set
    }

    /// Creates a read-write property whose `Set` is answered later, by `set` through the
    /// ``PendingReply`` it is given.
    ///
    /// - Parameters:
    ///   - name: the member name, for example `Mode`.
    ///   - signature: the value's single complete type.
    ///   - emitsChangedSignal: what introspection advertises; the setter emits
    ///     `PropertiesChanged` itself when it is true.
    ///   - get: returns the current value, of type `signature`.
    ///   - set: takes a value already checked to be of type `signature`, and the reply to send
    ///     (no values, or an error) once it is stored.
    public init(
        _ name: String, _ signature: Signature, emitsChangedSignal: Bool = true,
        get: @escaping @Sendable () -> DBusValue, deferredSet set: @escaping DeferredSetter
    ) {
        self.init(name, signature, access: .readWrite, emitsChangedSignal: emitsChangedSignal, get: get)
        self.deferredSet = set
    }
}

/// One interface of an exported object: methods, signals and properties.
public struct Interface: Sendable {
    /// The interface name.
    public var name: InterfaceName
    /// The methods callers may invoke.
    public var methods: [Method]
    /// The signals the object emits (for introspection; emit with ``Connection/emitSignal``).
    public var signals: [SignalDescription]
    /// The properties reachable through `org.freedesktop.DBus.Properties`.
    public var properties: [Property]

    /// Creates an interface.
    ///
    /// - Parameters:
    ///   - name: the interface name, for example `org.example.Service1`.
    ///   - methods: its methods.
    ///   - signals: its signals.
    ///   - properties: its properties.
    public init(
        _ name: InterfaceName, methods: [Method] = [], signals: [SignalDescription] = [],
        properties: [Property] = []
    ) {
        self.name = name
        self.methods = methods
        self.signals = signals
        self.properties = properties
    }

    func method(named member: String) -> Method? { methods.first { $0.name == member } }
    func property(named member: String) -> Property? { properties.first { $0.name == member } }

    /// Checks names and signatures so that nothing invalid reaches libdbus or introspection.
    func validate() throws(DBusError) {
        var seen = Set<String>()
        for m in methods {
            try NameRules.checkMember(m.name)
            if !seen.insert("m" + m.name).inserted {
                throw .invalidArgs("interface \(name) declares method '\(m.name)' twice")
            }
            for a in m.inputs + m.outputs { try Interface.check(a, in: "method \(m.name)") }
        }
        for s in signals {
            try NameRules.checkMember(s.name)
            for a in s.arguments { try Interface.check(a, in: "signal \(s.name)") }
        }
        for p in properties {
            try NameRules.checkMember(p.name)
            if !seen.insert("p" + p.name).inserted {
                throw .invalidArgs("interface \(name) declares property '\(p.name)' twice")
            }
            if !p.signature.isSingleCompleteType {
                throw .invalidArgs("property \(p.name) has signature '\(p.signature)', not one complete type")
            }
            if p.access == .readWrite && p.set == nil && p.deferredSet == nil {
                throw .invalidArgs("read-write property \(p.name) has no setter")
            }
        }
    }

    private static func check(_ a: Argument, in owner: String) throws(DBusError) {
        if !a.signature.isSingleCompleteType {
            throw .invalidArgs(
                "argument '\(a.name)' of \(owner) has signature '\(a.signature)', not one complete type")
        }
        try NameRules.checkString(a.name, what: "argument name")
    }
}

/// Values marshalled once into a method-return body, to be sent as the reply to many calls:
/// each reply is a copy of a template message (`dbus_message_copy`) with its reply serial and
/// destination set, so the values are validated and encoded only once.
///
/// Safe to share between threads: the template is never sent or changed after init, and libdbus
/// (initialised for threads) only reads it when copying.
public final class PreparedValues: @unchecked Sendable {
    /// The values, as given.
    public let values: [DBusValue]
    /// Their concatenated signature.
    let signature: String
    private let template: MessageReference

    /// Validates and marshals `values`.
    /// - Throws: ``DBusError`` `InvalidArgs` for an invalid value; `NoMemory`.
    public init(_ values: [DBusValue]) throws(DBusError) {
        guard let message = dbus_message_new(CDBUS_MESSAGE_TYPE_METHOD_RETURN) else {
            throw DBusError(.noMemory, "cannot allocate a message")
        }
        let template = MessageReference(message)
        try Marshalling.append(values, to: message)
        self.values = values
        self.signature = values.map(\.signatureText).joined()
        self.template = template
    }

    /// A reply to the call at `caller` with this body, or nil when out of memory.
    func reply(to caller: ReplyAddress) -> MessageReference? {
        caller.address(dbus_message_copy(template.raw))
    }

    /// A reply to `call`, the method call at hand, with this body, or nil when out of memory.
    func reply(toCall call: OpaquePointer) -> MessageReference? {
        ReplyAddress.address(dbus_message_copy(template.raw), replyingTo: call)
    }
}
