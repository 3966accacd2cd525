/// A D-Bus error name such as `org.freedesktop.DBus.Error.Failed` (``ErrorNameRule``). Like
/// swift-system's `Errno`, it takes any text from the wire (`init(rawValue:)`) and offers the
/// standard names as constants; `init(_:)` validates a name before it goes out in a reply.
public typealias ErrorName = DBusName<ErrorNameRule>

extension DBusName: RawRepresentable where Rule == ErrorNameRule {
    /// Wraps a name as it arrived from the wire, without validating it.
    ///
    /// - Parameter rawValue: the error name from a received message.
    public init(rawValue: String) {
        self.init(unchecked: rawValue)
    }

    /// `org.freedesktop.DBus.Error.Failed`: a generic failure.
    public static var failed: ErrorName { ErrorName(rawValue: "org.freedesktop.DBus.Error.Failed") }
    /// `org.freedesktop.DBus.Error.NoMemory`: out of memory.
    public static var noMemory: ErrorName { ErrorName(rawValue: "org.freedesktop.DBus.Error.NoMemory") }
    /// `org.freedesktop.DBus.Error.ServiceUnknown`: no such name and no activatable service.
    public static var serviceUnknown: ErrorName {
        ErrorName(rawValue: "org.freedesktop.DBus.Error.ServiceUnknown")
    }
    /// `org.freedesktop.DBus.Error.NameHasNoOwner`: the bus name has no owner.
    public static var nameHasNoOwner: ErrorName {
        ErrorName(rawValue: "org.freedesktop.DBus.Error.NameHasNoOwner")
    }
    /// `org.freedesktop.DBus.Error.NoReply`: the peer did not reply in time.
    public static var noReply: ErrorName { ErrorName(rawValue: "org.freedesktop.DBus.Error.NoReply") }
    /// `org.freedesktop.DBus.Error.Timeout`: an operation timed out.
    public static var timeout: ErrorName { ErrorName(rawValue: "org.freedesktop.DBus.Error.Timeout") }
    /// `org.freedesktop.DBus.Error.AccessDenied`: the caller may not do this.
    public static var accessDenied: ErrorName {
        ErrorName(rawValue: "org.freedesktop.DBus.Error.AccessDenied")
    }
    /// `org.freedesktop.DBus.Error.InvalidArgs`: arguments of the wrong type or value.
    public static var invalidArgs: ErrorName { ErrorName(rawValue: "org.freedesktop.DBus.Error.InvalidArgs") }
    /// `org.freedesktop.DBus.Error.UnknownMethod`: no such method on the object.
    public static var unknownMethod: ErrorName {
        ErrorName(rawValue: "org.freedesktop.DBus.Error.UnknownMethod")
    }
    /// `org.freedesktop.DBus.Error.UnknownObject`: nothing is exported at the object path.
    public static var unknownObject: ErrorName {
        ErrorName(rawValue: "org.freedesktop.DBus.Error.UnknownObject")
    }
    /// `org.freedesktop.DBus.Error.UnknownInterface`: the object has no such interface.
    public static var unknownInterface: ErrorName {
        ErrorName(rawValue: "org.freedesktop.DBus.Error.UnknownInterface")
    }
    /// `org.freedesktop.DBus.Error.UnknownProperty`: the interface has no such property.
    public static var unknownProperty: ErrorName {
        ErrorName(rawValue: "org.freedesktop.DBus.Error.UnknownProperty")
    }
    /// `org.freedesktop.DBus.Error.PropertyReadOnly`: `Set` on a read-only property.
    public static var propertyReadOnly: ErrorName {
        ErrorName(rawValue: "org.freedesktop.DBus.Error.PropertyReadOnly")
    }
    /// `org.freedesktop.DBus.Error.LimitsExceeded`: a resource limit was hit.
    public static var limitsExceeded: ErrorName {
        ErrorName(rawValue: "org.freedesktop.DBus.Error.LimitsExceeded")
    }
    /// `org.freedesktop.DBus.Error.Disconnected`: the connection is closed.
    public static var disconnected: ErrorName {
        ErrorName(rawValue: "org.freedesktop.DBus.Error.Disconnected")
    }
    /// `org.freedesktop.DBus.Error.InvalidSignature`: a malformed type signature.
    public static var invalidSignature: ErrorName {
        ErrorName(rawValue: "org.freedesktop.DBus.Error.InvalidSignature")
    }
}

/// A D-Bus error: a dotted error name and a human-readable message.
///
/// Thrown by every fallible call in this module; thrown by a method handler, it becomes the
/// error reply that the caller receives (D-Bus specification, "Message Types: ERROR").
public struct DBusError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The error name, for example ``ErrorName/invalidArgs``.
    public var name: ErrorName
    /// The human-readable explanation sent as the error reply's first argument.
    public var message: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - name: the error name.
    ///   - message: what went wrong, for people.
    public init(_ name: ErrorName, _ message: String) {
        self.name = name
        self.message = message
    }

    /// Creates an error with labelled arguments.
    ///
    /// - Parameters:
    ///   - name: the error name.
    ///   - message: what went wrong, for people.
    public init(name: ErrorName, message: String) {
        self.init(name, message)
    }

    /// `name: message`.
    public var description: String { "\(name.rawValue): \(message)" }

    static func invalidArgs(_ message: String) -> DBusError {
        DBusError(.invalidArgs, message)
    }
}

/// An error that knows which D-Bus error it should become when a method handler throws it.
///
/// Errors thrown by handlers that neither are a ``DBusError`` nor conform to this protocol
/// become `org.freedesktop.DBus.Error.Failed` with their description as the message.
public protocol DBusErrorConvertible: Error {
    /// The D-Bus error sent to the caller in place of `self`.
    var dbusError: DBusError { get }
}

extension DBusError {
    /// Maps any error to the D-Bus error a caller should see.
    static func from(_ error: any Error) -> DBusError {
        if let e = error as? DBusError { return e }
        if let e = error as? any DBusErrorConvertible { return e.dbusError }
        return DBusError(.failed, String(describing: error))
    }
}
