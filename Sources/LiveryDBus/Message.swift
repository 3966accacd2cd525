import CDBus

/// A received D-Bus message, copied out of libdbus into a value.
///
/// Header fields follow the D-Bus specification, "Message Format: Header Fields".
public struct Message: Sendable, Equatable {
    /// The four kinds of message (D-Bus specification, "Message Types").
    public enum MessageType: Sendable, Equatable {
        /// `METHOD_CALL`
        case methodCall
        /// `METHOD_RETURN`
        case methodReturn
        /// `ERROR`
        case error
        /// `SIGNAL`
        case signal
    }

    /// What kind of message this is.
    public var type: MessageType
    /// The sender's serial number for this message.
    public var serial: UInt32
    /// For replies and errors, the serial of the call answered; 0 otherwise.
    public var replySerial: UInt32
    /// The sender's unique name (`:1.42`); nil on a peer-to-peer connection.
    public var sender: String?
    /// The destination bus name; nil for broadcast signals.
    public var destination: String?
    /// The object path of a call or signal.
    public var path: String?
    /// The interface of a call or signal; may be nil on a method call.
    public var interface: String?
    /// The method or signal name.
    public var member: String?
    /// The error name of an `ERROR` message.
    public var errorName: String?
    /// The signature of the body, for example `sa{sv}as`.
    public var signature: String
    /// The body, one value per complete type of ``signature``.
    public var arguments: [DBusValue]

    /// Creates a message value by hand, as tests and in-memory bus fakes need.
    ///
    /// - Parameters: the header fields and body described on each property.
    public init(
        type: MessageType, serial: UInt32 = 0, replySerial: UInt32 = 0, sender: String? = nil,
        destination: String? = nil, path: String? = nil, interface: String? = nil, member: String? = nil,
        errorName: String? = nil, arguments: [DBusValue] = []
    ) {
        self.type = type
        self.serial = serial
        self.replySerial = replySerial
        self.sender = sender
        self.destination = destination
        self.path = path
        self.interface = interface
        self.member = member
        self.errorName = errorName
        self.signature = arguments.map(\.signatureText).joined()
        self.arguments = arguments
    }

    /// Copies header and body out of a libdbus message.
    init(_ raw: OpaquePointer) {
        func text(_ p: UnsafePointer<CChar>?) -> String? { p.map { String(cString: $0) } }
        switch dbus_message_get_type(raw) {
        case CDBUS_MESSAGE_TYPE_METHOD_CALL: type = .methodCall
        case CDBUS_MESSAGE_TYPE_METHOD_RETURN: type = .methodReturn
        case CDBUS_MESSAGE_TYPE_ERROR: type = .error
        default: type = .signal
        }
        serial = dbus_message_get_serial(raw)
        replySerial = dbus_message_get_reply_serial(raw)
        sender = text(dbus_message_get_sender(raw))
        destination = text(dbus_message_get_destination(raw))
        path = text(dbus_message_get_path(raw))
        interface = text(dbus_message_get_interface(raw))
        member = text(dbus_message_get_member(raw))
        // Only error messages carry an error name.
        errorName = type == .error ? text(dbus_message_get_error_name(raw)) : nil
        signature = text(dbus_message_get_signature(raw)) ?? ""
        arguments = Marshalling.read(raw)
    }
}

/// One signal sent to many destinations whose messages differ only in the destination and the
/// first argument, a `u` (such as a subscription id): one signal unicast to many recipients.
///
/// The signal is built and marshalled once (`dbus_message_marshal`); each message is those bytes
/// with the first 4 bytes of the body replaced, read back by `dbus_message_demarshal` (which
/// validates it again) and copied (`dbus_message_copy`: unlocked, serial 0, so the connection
/// numbers it), with its destination set, rather than built with `DBusMessageIter`, which
/// rewrites the header's `SIGNATURE` field once per top-level argument.
///
/// Safe to share between threads (`@unchecked Sendable`): its stored properties are `let`s set
/// in `init` and never changed; each message is made from a copy of `bytes` and belongs to the
/// call that made it.
public final class FanOutSignal: @unchecked Sendable {
    private let bytes: [UInt8]
    /// Where the body starts in `bytes`.
    private let bodyOffset: Int
    private let littleEndian: Bool

    /// Builds and marshals the signal.
    /// - Parameters:
    ///   - path, interface, member: the signal's object path, interface and member.
    ///   - arguments: its arguments; the first must be a `u` (its value here is a placeholder).
    /// - Throws: ``DBusError`` `InvalidArgs` for an invalid value or a first argument that is
    ///   not a `u`; `NoMemory`.
    public init(
        path: ObjectPath, interface: InterfaceName, member: MemberName, arguments: [DBusValue]
    ) throws(DBusError) {
        guard case .uint32 = arguments.first else {
            throw .invalidArgs("a fan-out signal's first argument must be a u")
        }
        let signal = try MessageReference.make(
            CDBUS_MESSAGE_TYPE_SIGNAL, path: path, interface: interface, member: member, destination: nil,
            arguments: arguments)
        // A message on the wire has a serial; each copy sent gets its own (see below).
        guard let wire = signal.marshalled(serial: 1) else {
            throw DBusError(.noMemory, "cannot marshal a signal")
        }
        bytes = wire
        littleEndian = bytes[0] == UInt8(ascii: "l")
        bodyOffset = wire.withUnsafeBytes(MessageReference.bodyOffset)
    }

    /// A new message with `first` as its first argument, addressed to `destination`.
    func message(first: UInt32, destination: BusName) throws(DBusError) -> MessageReference {
        var copy = bytes
        let v = littleEndian ? first.littleEndian : first.bigEndian
        withUnsafeBytes(of: v) { b in
            for k in 0..<4 { copy[bodyOffset + k] = b[k] }
        }
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        let made = copy.withUnsafeBufferPointer { b in
            b.withMemoryRebound(to: CChar.self) {
                dbus_message_demarshal($0.baseAddress, Int32($0.count), &error)
            }
        }
        guard let made else { throw DBusError.take(&error, fallback: "cannot read back a marshalled signal") }
        // The copy is unlocked and has serial 0, so the connection gives it the next serial.
        guard let copied = MessageReference.copy(releasing: made) else {
            throw DBusError(.noMemory, "cannot copy a signal")
        }
        guard dbus_message_set_destination(copied.raw, destination.rawValue) != 0 else {
            throw DBusError(.noMemory, "cannot set a destination")
        }
        return copied
    }
}

/// A method call built and marshalled once, to be sent many times with
/// ``Connection/call(_:timeout:)``: each call sends a copy (`dbus_message_copy`).
public final class PreparedCall: @unchecked Sendable {
    // Safe to share: the call is never sent or changed after init; copying only reads it.
    let call: MessageReference

    /// Builds the call.
    /// - Throws: ``DBusError`` `InvalidArgs` for an invalid argument; `NoMemory`.
    public init(
        destination: BusName, path: ObjectPath, interface: InterfaceName, member: MemberName,
        arguments: [DBusValue] = []
    ) throws(DBusError) {
        call = try MessageReference.make(
            CDBUS_MESSAGE_TYPE_METHOD_CALL, path: path, interface: interface, member: member,
            destination: destination, arguments: arguments)
    }
}

/// Owns one reference to a libdbus message and releases it: the one type that calls
/// `dbus_message_unref`. Every other holder of a message it must release (a received call kept
/// for its arguments, a prepared reply body, a reply built on one thread and sent from the loop
/// thread) holds a `MessageReference`.
///
/// Use the message through the methods below, or through `raw` while the reference is held:
/// `MessageReference(m).raw` passed on may be released (and the message freed) before use.
///
/// Safe to share between threads (`@unchecked Sendable`): libdbus, initialised for threads
/// (`dbus_threads_init_default`, run before any connection opens), counts a message's
/// references atomically, so the last release may run on any thread. The message itself is not
/// locked, so a holder that shares it changes it only before handing it on (a reply built on
/// the answering thread and then only sent from the loop thread, a prepared template only
/// copied) or under a lock of its own (``CallBody``).
final class MessageReference: @unchecked Sendable {
    let raw: OpaquePointer

    /// Takes over the reference `raw` came with (from `dbus_message_new`, `dbus_message_copy`
    /// or a reply received).
    init(_ raw: OpaquePointer) { self.raw = raw }

    /// Takes a reference of its own to `raw`, a message borrowed from libdbus.
    init(retaining raw: OpaquePointer) { self.raw = dbus_message_ref(raw) }

    deinit { dbus_message_unref(raw) }

    /// A copy of `message` (`dbus_message_copy`: unlocked, serial 0), or nil when out of memory;
    /// releases `message`, whose reference the caller owned, either way.
    static func copy(releasing message: OpaquePointer) -> MessageReference? {
        defer { dbus_message_unref(message) }
        return dbus_message_copy(message).map { MessageReference($0) }
    }

    /// A copy of the message (`dbus_message_copy`: unlocked, serial 0), or nil when out of
    /// memory.
    func copy() -> MessageReference? { dbus_message_copy(raw).map { MessageReference($0) } }

    /// A new method call or signal with `arguments` appended before its header fields are set:
    /// libdbus rewrites the header's `SIGNATURE` field once per top-level argument, which costs
    /// least while the header holds nothing else.
    /// - Throws: ``DBusError`` `InvalidArgs` for an invalid argument; `NoMemory`.
    static func make(
        _ type: Int32, path: ObjectPath, interface: InterfaceName, member: MemberName, destination: BusName?,
        arguments: [DBusValue]
    ) throws(DBusError) -> MessageReference {
        guard let message = dbus_message_new(type) else {
            throw DBusError(.noMemory, "cannot allocate a message")
        }
        let owner = MessageReference(message)
        try Marshalling.append(arguments, to: message)
        guard dbus_message_set_path(message, path.rawValue) != 0,
            dbus_message_set_interface(message, interface.rawValue) != 0,
            dbus_message_set_member(message, member.rawValue) != 0,
            destination.map({ dbus_message_set_destination(message, $0.rawValue) != 0 }) ?? true
        else { throw DBusError(.noMemory, "cannot set a message's header") }
        // As dbus_message_new_signal does: no reply is expected to a signal.
        if type == CDBUS_MESSAGE_TYPE_SIGNAL { dbus_message_set_no_reply(message, 1) }
        return owner
    }

    /// The message's wire bytes (`dbus_message_marshal`) with serial `serial`, or nil when out
    /// of memory.
    func marshalled(serial: UInt32) -> [UInt8]? {
        dbus_message_set_serial(raw, serial)
        return MessageReference.wire(raw)
    }

    /// The wire bytes of `message` as it stands (`dbus_message_marshal`), or nil when out of
    /// memory.
    static func wire(_ message: OpaquePointer) -> [UInt8]? { withWire(message) { [UInt8]($0) } }

    /// `body` applied to the wire bytes of `message` as it stands (`dbus_message_marshal`),
    /// valid only during the call; nil when out of memory.
    static func withWire<R>(_ message: OpaquePointer, _ body: (UnsafeRawBufferPointer) -> R) -> R? {
        var buffer: UnsafeMutablePointer<CChar>?
        var length: Int32 = 0
        guard dbus_message_marshal(message, &buffer, &length) != 0, let buffer else { return nil }
        defer { dbus_free(buffer) }
        return body(UnsafeRawBufferPointer(start: buffer, count: Int(length)))
    }

    /// The body of wire bytes `wire` (from `bodyOffset` on).
    static func body(of wire: [UInt8]) -> [UInt8] {
        Array(wire[wire.withUnsafeBytes(bodyOffset)...])
    }

    /// Where the body starts in a message's wire bytes (`dbus_message_marshal`). Message Format:
    /// byte 0 is the byte order, bytes 4 ..< 8 the body's length in it; the body ends the
    /// message, after a header padded to 8. The whole length for fewer than 16 bytes (no body).
    static func bodyOffset(_ wire: UnsafeRawBufferPointer) -> Int {
        guard wire.count >= 16 else { return wire.count }
        let word = UInt32(wire[4]) | UInt32(wire[5]) << 8 | UInt32(wire[6]) << 16 | UInt32(wire[7]) << 24
        return wire.count - Int(wire[0] == UInt8(ascii: "l") ? word : word.byteSwapped)
    }

    /// The message read into a ``Message``.
    var message: Message { Message(raw) }

    /// Queues the message on `connection` (`dbus_connection_send`).
    /// - Returns: false when libdbus is out of memory.
    @discardableResult
    func send(on connection: OpaquePointer) -> Bool { dbus_connection_send(connection, raw, nil) != 0 }
}

extension DBusError {
    /// Takes the contents of a set libdbus error and frees it.
    static func take(_ error: inout CDBus.DBusError, fallback: String) -> DBusError {
        defer { dbus_error_free(&error) }
        guard dbus_error_is_set(&error) != 0 else { return DBusError(.failed, fallback) }
        let name = error.name.map { String(cString: $0) } ?? ErrorName.failed.rawValue
        let message = error.message.map { String(cString: $0) } ?? fallback
        return DBusError(ErrorName(rawValue: name), message)
    }

    /// A copy safe to hand to dbus_message_new_error: a valid error name (else `Failed`)
    /// and a message without NUL.
    var sanitizedForWire: DBusError {
        var copy = self
        if (try? ErrorName(name.rawValue)) == nil {
            copy = DBusError(.failed, "\(name.rawValue): \(message)")
        }
        copy.message = String(copy.message.unicodeScalars.filter { $0 != "\0" }.map(Character.init))
        return copy
    }
}
