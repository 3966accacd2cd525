import LiveryCore

/// Something that carries what the service publishes out to the world: the bus object, the
/// desktop portal's backend, darkman's interface, the plugin runner. Each is registered once
/// with `Service.add(_:)`; adding one is a type conforming to this and that line.
public protocol ServiceListener: AnyObject, Sendable {
    /// A published snapshot: after every committed change (`changes` has `.theme`) and every
    /// change of the problems alone. Called on the switch queue (or, for problems alone, on the
    /// thread that found them changed), one listener after the other in the order they were
    /// added; committed changes come in serial order.
    func published(_ snapshot: ServiceSnapshot)

    /// The watched (path, app) whose values changed with the change of `serial`, each with its
    /// changed properties: one call per batch, on the publication queue, in serial order; a
    /// newer change may supersede an unfinished one, whose remaining keys then come with it.
    func watchedValuesChanged(_ changes: [(key: WatchRegistry.Key, changes: [String: Value])], serial: UInt32)
}

extension ServiceListener {
    /// Watches are not followed: nothing to do.
    public func watchedValuesChanged(
        _ changes: [(key: WatchRegistry.Key, changes: [String: Value])], serial: UInt32
    ) {}
}

/// The active state as a listener is told it: the active theme, its variant, the serial and the
/// problems, read together, with what changed since the snapshot published before.
public struct ServiceSnapshot: Sendable {
    /// What changed since the snapshot published before.
    public struct Changes: OptionSet, Sendable {
        /// The set's bits.
        public let rawValue: Int
        /// Creates a set from its bits.
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// A committed change: a new serial, the active theme switched or reloaded.
        public static let theme = Changes(rawValue: 1)
        /// The active theme's variant.
        public static let variant = Changes(rawValue: 2)
        /// The problems.
        public static let problems = Changes(rawValue: 4)
    }

    /// The active theme's id.
    public var theme: String
    /// The active compiled theme and its index.
    public var cascade: Cascade
    /// The serial of the change that made it active.
    public var serial: UInt32
    /// Every problem the user should see: the themes', `config.yaml`'s and the plugins'.
    public var problems: [String]
    /// What changed since the snapshot before.
    public var changes: Changes
    /// The metadata of the theme active at the snapshot before, for listeners that announce
    /// changes of single settings (the portal's `SettingChanged`).
    public var previousMetadata: ThemeMetadata
    /// Images (absolute paths) whose files changed under an unchanged path with this change.
    public var editedImages: Set<String> = []

    /// The active theme's metadata.
    public var metadata: ThemeMetadata { cascade.theme.metadata }
    /// The active theme's variant, `light` or `dark`.
    public var variant: String { metadata.variant }
}
