import LiveryAPI
import LiveryDBus
import LiveryService

extension ServiceError: DBusErrorConvertible {
    /// The error as sent on the bus: `org.livery.Livery1.Error.<Kind>` with the message;
    /// `Failed` is D-Bus's own `org.freedesktop.DBus.Error.Failed`.
    public var dbusError: DBusError {
        switch kind {
        case .unknownTheme: DBusError(LiveryErrorKind.unknownTheme.errorName, message)
        case .invalidTheme: DBusError(LiveryErrorKind.invalidTheme.errorName, message)
        case .invalidPath: DBusError(LiveryErrorKind.invalidPath.errorName, message)
        case .unknownProperty: DBusError(LiveryErrorKind.unknownProperty.errorName, message)
        case .limitExceeded: DBusError(LiveryErrorKind.limitExceeded.errorName, message)
        case .accessDenied: DBusError(LiveryErrorKind.accessDenied.errorName, message)
        case .failed: DBusError(.failed, message)
        }
    }
}
