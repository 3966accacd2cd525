import LiveryAPI
import LiveryDBus

/// A failure of a Livery operation, carrying the D-Bus error a caller sees
/// (`org.livery.Livery1.Error.*`, as the README lists them) and a message that says what and where.
public struct ServiceError: Error, Sendable, Equatable, CustomStringConvertible, DBusErrorConvertible {
    /// The kinds of failure, one per error name of the bus API; new kinds may be added.
    public typealias Kind = LiveryErrorKind

    /// Which failure it is; it chooses the D-Bus error name.
    public var kind: Kind
    /// What failed and where, sent as the D-Bus error's message.
    public var message: String

    /// An error of `kind` saying `message`.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// `org.livery.Livery1.Error.<Kind>`.
    public var errorName: String { kind.errorName.rawValue }

    /// The error as sent on the bus: `errorName` with `message`.
    public var dbusError: DBusError { DBusError(kind.errorName, message) }

    /// `Kind: message`, for logs and the command line.
    public var description: String { "\(kind.rawValue): \(message)" }
}
