import CDBus

/// What a reply to a method call needs of the call: its serial and its sender (D-Bus
/// specification, "Message Format: Header Fields": `REPLY_SERIAL` and `DESTINATION`).
///
/// A call answered later keeps this instead of the call itself: libdbus stops reading a
/// connection while the messages it received and has not freed pass the connection's maximum
/// received size (`dbus_connection_set_max_received_size`, 63 MiB by default), so large calls
/// held until their answer would stop every other call, `Peer.Ping` included, from being read.
struct ReplyAddress: Sendable {
    /// The call's serial, the reply's `REPLY_SERIAL`.
    let serial: UInt32
    /// The caller's unique name, the reply's `DESTINATION`; nil on a peer-to-peer connection.
    let sender: String?

    /// The address of `call`, a received method call.
    init(call: OpaquePointer) {
        serial = dbus_message_get_serial(call)
        sender = dbus_message_get_sender(call).map { String(cString: $0) }
    }

    /// A method return with an empty body, as `dbus_message_new_method_return` makes it; nil
    /// when out of memory.
    func methodReturn() -> MessageReference? {
        address(dbus_message_new(CDBUS_MESSAGE_TYPE_METHOD_RETURN))
    }

    /// An error reply, as `dbus_message_new_error` makes it: the error's name and its message
    /// as the one `s` argument; nil when out of memory.
    /// - Parameter error: a valid error name and a message without NUL
    ///   (``DBusError/sanitizedForWire``), which libdbus would abort on otherwise.
    func error(_ error: DBusError) -> MessageReference? {
        guard let message = address(dbus_message_new(CDBUS_MESSAGE_TYPE_ERROR)) else { return nil }
        guard dbus_message_set_error_name(message.raw, error.name.rawValue) != 0,
            (try? Marshalling.append([.string(error.message)], to: message.raw)) != nil
        else { return nil }
        return message
    }

    /// Takes over `message`, a new reply whose reference the caller owned, and sets its reply
    /// serial, destination and no-reply flag (a reply expects none); nil (the message released)
    /// when out of memory.
    func address(_ message: OpaquePointer?) -> MessageReference? {
        guard let sender else { return ReplyAddress.address(message, serial: serial, sender: nil) }
        return sender.withCString { ReplyAddress.address(message, serial: serial, sender: $0) }
    }

    /// ``address(_:)`` for the call at hand: its serial and sender read from `call`, the
    /// sender never made a String.
    static func address(_ message: OpaquePointer?, replyingTo call: OpaquePointer) -> MessageReference? {
        address(message, serial: dbus_message_get_serial(call), sender: dbus_message_get_sender(call))
    }

    private static func address(_ message: OpaquePointer?, serial: UInt32, sender: UnsafePointer<CChar>?)
        -> MessageReference?
    {
        guard let message else { return nil }
        let reply = MessageReference(message)
        dbus_message_set_no_reply(message, 1)
        guard dbus_message_set_reply_serial(message, serial) != 0,
            sender.map({ dbus_message_set_destination(message, $0) != 0 }) ?? true
        else { return nil }
        return reply
    }
}
