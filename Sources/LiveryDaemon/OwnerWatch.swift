import Synchronization

/// The unique names whose `NameOwnerChanged` the daemon follows.
final class OwnerWatch: Sendable {
    private let names = Mutex<Set<String>>([])

    /// - Returns: true when the name was not watched yet.
    func insert(_ name: String) -> Bool { names.withLock { $0.insert(name).inserted } }
    /// Whether the name is followed.
    func contains(_ name: String) -> Bool { names.withLock { $0.contains(name) } }
    /// - Returns: true when the name was watched.
    func remove(_ name: String) -> Bool { names.withLock { $0.remove(name) != nil } }

    /// Every unique name that loses its owner: a client leaving the bus.
    static let departures =
        "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',"
        + "path='/org/freedesktop/DBus',arg2=''"
}
