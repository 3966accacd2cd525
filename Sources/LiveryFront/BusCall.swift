import CDBus

/// The bus a command line names: the one at an address, the system bus, or the session bus
/// (`DBUS_SESSION_BUS_ADDRESS`).
public enum FrontBus: Equatable, Sendable {
    /// The session bus.
    case session
    /// The system bus.
    case system
    /// The bus at a server address such as `unix:path=/run/user/1000/bus`.
    case address(String)
}

/// A failed connection or call: the D-Bus error name and message, as libdbus or the peer gave
/// them.
public struct BusFailure: Error, Equatable, Sendable {
    /// The error name, such as `org.freedesktop.DBus.Error.ServiceUnknown`.
    public var name: String
    /// The human-readable message.
    public var message: String
}

/// One private connection to a bus for one method call, without Foundation: the libdbus calls
/// LiveryDBus's `Connection` makes for a client's blocking call, in the same order with the same
/// fallbacks, so that every failure carries the same name and message. (Every other `dbus_*`
/// call of Livery goes through LiveryDBus, which needs Foundation; this file is the front's
/// only one, and knows nothing of themes.)
struct BusCall {
    private let raw: OpaquePointer

    /// Connects to `bus` and registers with it (`Hello`), as `Connection.open` does.
    /// - Throws: `BusFailure` from libdbus when there is no such bus, nothing listens, the
    ///   authentication or `Hello` fails.
    init(_ bus: FrontBus) throws(BusFailure) {
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        switch bus {
        case .address(let address):
            guard let raw = dbus_connection_open_private(address, &error) else {
                throw Self.take(&error, fallback: "cannot connect to \(address)")
            }
            dbus_connection_set_exit_on_disconnect(raw, 0)
            if dbus_bus_register(raw, &error) == 0 {
                dbus_connection_close(raw)
                dbus_connection_unref(raw)
                throw Self.take(&error, fallback: "cannot register with the bus at \(address)")
            }
            self.raw = raw
        case .session, .system:
            let label = bus == .system ? "system" : "session"
            guard let raw = dbus_bus_get_private(bus == .system ? DBUS_BUS_SYSTEM : DBUS_BUS_SESSION, &error)
            else {
                throw Self.take(&error, fallback: "cannot connect to the \(label) bus")
            }
            dbus_connection_set_exit_on_disconnect(raw, 0)
            self.raw = raw
        }
    }

    /// Calls a method whose arguments are strings and waits up to `timeout` seconds for the
    /// reply (`dbus_connection_send_with_reply_and_block`).
    /// - Returns: The reply's first value read through variants when it is a string (`s`), else
    ///   empty: what LiveryDBus's `DBusValue.string` gives the full client.
    /// - Throws: `BusFailure`: the peer's error reply, `NoReply` after the timeout,
    ///   `Disconnected` when the bus has closed the connection.
    func call(
        destination: String, path: String, interface: String, member: String, arguments: [String],
        timeout: Double
    ) throws(BusFailure) -> String {
        guard let message = dbus_message_new(CDBUS_MESSAGE_TYPE_METHOD_CALL) else {
            throw BusFailure(name: BusFailure.noMemory, message: "cannot allocate a message")
        }
        defer { dbus_message_unref(message) }
        var iter = DBusMessageIter()
        dbus_message_iter_init_append(message, &iter)
        for argument in arguments {
            let appended = argument.withCString { text in
                var pointer: UnsafePointer<CChar>? = text
                return dbus_message_iter_append_basic(&iter, CDBUS_TYPE_STRING, &pointer)
            }
            guard appended != 0 else {
                throw BusFailure(name: BusFailure.noMemory, message: "out of memory while building a message")
            }
        }
        guard dbus_message_set_path(message, path) != 0, dbus_message_set_interface(message, interface) != 0,
            dbus_message_set_member(message, member) != 0,
            dbus_message_set_destination(message, destination) != 0
        else { throw BusFailure(name: BusFailure.noMemory, message: "cannot set a message's header") }
        guard dbus_connection_get_is_connected(raw) != 0 else {
            throw BusFailure(
                name: "org.freedesktop.DBus.Error.Disconnected", message: "the connection is closed")
        }
        // The milliseconds LiveryDBus's `sendAndWait` computes from the same seconds.
        let milliseconds = Int32(clamping: Int64(min(timeout * 1000, Double(Int32.max - 1)).rounded()))
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        guard let reply = dbus_connection_send_with_reply_and_block(raw, message, milliseconds, &error) else {
            throw Self.take(&error, fallback: "\(interface).\(member) failed")
        }
        defer { dbus_message_unref(reply) }
        return Self.firstString(of: reply)
    }

    /// The first value of `reply`, read through any variants, when it is a string; else empty.
    private static func firstString(of reply: OpaquePointer) -> String {
        var iter = DBusMessageIter()
        guard dbus_message_iter_init(reply, &iter) != 0 else { return "" }
        while dbus_message_iter_get_arg_type(&iter) == CDBUS_TYPE_VARIANT {
            var inner = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &inner)
            iter = inner
        }
        guard dbus_message_iter_get_arg_type(&iter) == CDBUS_TYPE_STRING else { return "" }
        var text: UnsafePointer<CChar>?
        dbus_message_iter_get_basic(&iter, &text)
        return text.map { String(cString: $0) } ?? ""
    }

    /// The failure libdbus reported in `error` (freed), or `Failed` with `fallback` when it
    /// reported none: LiveryDBus's `DBusError.take`.
    private static func take(_ error: inout CDBus.DBusError, fallback: String) -> BusFailure {
        defer { dbus_error_free(&error) }
        guard dbus_error_is_set(&error) != 0 else {
            return BusFailure(name: BusFailure.failed, message: fallback)
        }
        return BusFailure(
            name: error.name.map { String(cString: $0) } ?? BusFailure.failed,
            message: error.message.map { String(cString: $0) } ?? fallback)
    }
}

extension BusFailure {
    /// `org.freedesktop.DBus.Error.Failed`.
    static let failed = "org.freedesktop.DBus.Error.Failed"
    /// `org.freedesktop.DBus.Error.NoMemory`.
    static let noMemory = "org.freedesktop.DBus.Error.NoMemory"
}
