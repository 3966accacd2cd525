import LiveryDBus

/// A failure of a Livery operation, carrying the D-Bus error a caller sees
/// (`org.livery.Livery1.Error.*`, DESIGN §5) and a message that says what and where.
public struct ServiceError: Error, Sendable, Equatable, CustomStringConvertible, DBusErrorConvertible {
    /// The kinds of failure; new kinds may be added.
    public struct Kind: Hashable, Sendable, RawRepresentable {
        /// The last element of the D-Bus error name, e.g. `UnknownTheme`.
        public let rawValue: String
        /// A kind whose error name ends in `rawValue`, which must be a valid error name element.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// No installed theme has that id.
        public static let unknownTheme = Kind(rawValue: "UnknownTheme")
        /// The theme has errors and cannot be activated.
        public static let invalidTheme = Kind(rawValue: "InvalidTheme")
        /// The component path cannot be parsed or names unknown types or states.
        public static let invalidPath = Kind(rawValue: "InvalidPath")
        /// The schema has no such property.
        public static let unknownProperty = Kind(rawValue: "UnknownProperty")
        /// A request is larger than the limits of DESIGN §5.
        public static let limitExceeded = Kind(rawValue: "LimitExceeded")
        /// The caller may not touch that object (another client's subscription).
        public static let accessDenied = Kind(rawValue: "AccessDenied")
        /// No live subscription has that id.
        public static let unknownSubscription = Kind(rawValue: "UnknownSubscription")
    }

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
    public var errorName: String { "org.livery.Livery1.Error." + kind.rawValue }

    /// The error as sent on the bus: `errorName` with `message`.
    public var dbusError: DBusError { DBusError(ErrorName(rawValue: errorName), message) }

    /// `Kind: message`, for logs and the command line.
    public var description: String { "\(kind.rawValue): \(message)" }
}
