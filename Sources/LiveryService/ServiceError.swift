/// A failure of a Livery operation: which kind, and a message that says what and where. The bus
/// adapter names each kind in its protocol (`org.livery.Livery1.Error.*`, as the README lists
/// them); the service knows nothing of that.
public struct ServiceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kinds of failure; new kinds may be added.
    public enum Kind: String, Sendable, CaseIterable {
        /// No installed theme has that id.
        case unknownTheme = "UnknownTheme"
        /// The theme has errors and cannot be activated.
        case invalidTheme = "InvalidTheme"
        /// The component path cannot be parsed or names unknown types or states.
        case invalidPath = "InvalidPath"
        /// The schema has no such property.
        case unknownProperty = "UnknownProperty"
        /// A request is larger than the limits the README states.
        case limitExceeded = "LimitExceeded"
        /// The caller may not do that (this instance was replaced, say).
        case accessDenied = "AccessDenied"
        /// Anything else: the request may succeed when tried again.
        case failed = "Failed"
    }

    /// Which failure it is.
    public var kind: Kind
    /// What failed and where.
    public var message: String

    /// An error of `kind` saying `message`.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// `Kind: message`, for logs and the command line.
    public var description: String { "\(kind.rawValue): \(message)" }
}
