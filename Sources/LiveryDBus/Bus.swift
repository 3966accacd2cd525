/// Which bus to connect to: the one at an address, the system bus, or the session bus.
public enum Bus: Sendable, Equatable {
    /// The session bus (`DBUS_SESSION_BUS_ADDRESS`).
    case session
    /// The system bus.
    case system
    /// The bus at a server address such as `unix:path=/run/user/1000/bus`.
    case address(String)

    /// The bus a command line names: `address` when given, else the system bus when `system`,
    /// else the session bus.
    /// - Parameters:
    ///   - address: The value of an `--address` option, if any.
    ///   - system: Whether `--system` was given.
    public init(address: String?, system: Bool) {
        if let address {
            self = .address(address)
        } else {
            self = system ? .system : .session
        }
    }
}

extension Connection {
    /// Opens a private connection to `bus` and registers with it (`Hello`).
    /// - Parameter bus: The bus to connect to.
    /// - Returns: A connection registered with the bus.
    /// - Throws: ``DBusError`` as ``init(address:)``, ``session()`` and ``system()`` do.
    public static func open(_ bus: Bus) throws(DBusError) -> Connection {
        switch bus {
        case .address(let a): try Connection(address: a)
        case .system: try Connection.system()
        case .session: try Connection.session()
        }
    }
}

/// The arguments of the bus's `NameOwnerChanged(s name, s old_owner, s new_owner)` signal
/// (D-Bus specification, "Message Bus Messages").
public struct NameOwnerChange: Sendable, Equatable {
    /// The name whose owner changed.
    public var name: String
    /// The unique name that owned it; empty when none did.
    public var oldOwner: String
    /// The unique name that owns it now; empty when none does.
    public var newOwner: String

    /// Decodes a received signal's arguments.
    /// - Returns: nil unless there are three strings.
    public init?(decoding arguments: [DBusValue]) {
        guard arguments.count == 3, let name = arguments[0].string, let old = arguments[1].string,
            let new = arguments[2].string
        else { return nil }
        self.name = name
        oldOwner = old
        newOwner = new
    }
}
