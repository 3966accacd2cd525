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

/// Owns one reference to a libdbus message and releases it.
final class MessageReference {
    let raw: OpaquePointer
    init(_ raw: OpaquePointer) { self.raw = raw }
    deinit { dbus_message_unref(raw) }
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
