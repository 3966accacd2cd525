/// The limits the README's "D-Bus API" states; a request past any of them fails with `LimitExceeded`, never a crash.
public enum Limits {
    /// Bytes of UTF-8 in one component path.
    public static let pathBytes = 1024
    /// Segments in one component path.
    public static let pathSegments = 32
    /// Property names in one `Resolve` call or one `ResolveMany` item.
    public static let propertiesPerCall = 256
    /// Items in one `ResolveMany` call.
    public static let resolveManyItems = 1024
    /// Bytes of a theme id, an application id or a property name.
    public static let identifierBytes = 256
}
