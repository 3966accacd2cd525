import LiveryDBus

/// The kinds of failure of `org.livery.Livery1`, each an error name
/// `org.livery.Livery1.Error.<Kind>` sent with a human-readable message; new kinds may be added.
public struct LiveryErrorKind: Hashable, Sendable, RawRepresentable {
    /// The last element of the D-Bus error name, e.g. `UnknownTheme`.
    public let rawValue: String
    /// A kind whose error name ends in `rawValue`, which must be a valid error name element.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// What every Livery error name starts with.
    public static let prefix = "org.livery.Livery1.Error."

    /// The kind of a Livery error name.
    /// - Parameter name: An error name from the wire.
    /// - Returns: nil when `name` is not one of Livery's (does not start with `prefix`).
    public init?(errorName name: ErrorName) {
        guard name.rawValue.hasPrefix(LiveryErrorKind.prefix) else { return nil }
        self.init(rawValue: String(name.rawValue.dropFirst(LiveryErrorKind.prefix.count)))
    }

    /// `org.livery.Livery1.Error.<rawValue>`.
    public var errorName: ErrorName { ErrorName(rawValue: LiveryErrorKind.prefix + rawValue) }

    /// No installed theme has that id.
    public static let unknownTheme = LiveryErrorKind(rawValue: "UnknownTheme")
    /// The theme has errors and cannot be activated.
    public static let invalidTheme = LiveryErrorKind(rawValue: "InvalidTheme")
    /// The component path cannot be parsed or names unknown types or states.
    public static let invalidPath = LiveryErrorKind(rawValue: "InvalidPath")
    /// The schema has no such property.
    public static let unknownProperty = LiveryErrorKind(rawValue: "UnknownProperty")
    /// A request is larger than the limits the README states.
    public static let limitExceeded = LiveryErrorKind(rawValue: "LimitExceeded")
    /// The caller may not do that.
    public static let accessDenied = LiveryErrorKind(rawValue: "AccessDenied")
}
