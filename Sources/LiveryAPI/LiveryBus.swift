import LiveryDBus

/// The names of Livery's bus API, shared by `liveryd` and `livery`; its members are in
/// `Members.swift` (`LiveryMethod`, `LiverySignal`, `LiveryProperty`), and the interface is
/// described in `org.livery.Livery1.xml` beside this file.
public enum LiveryBus {
    /// The well-known bus name the daemon owns.
    public static let name = "org.livery.Livery1"
    /// The object path of the one exported object.
    public static let path = "/org/livery/Livery1"
    /// The interface name.
    public static let interface = "org.livery.Livery1"
    /// The daemon's version, published as the `Version` property.
    public static let version = "0.1.0"

    /// `name` as a validated bus name.
    public static let busName = try! BusName(name)
    /// `path` as a validated object path.
    public static let objectPath = try! ObjectPath(path)
    /// `interface` as a validated interface name.
    public static let interfaceName = try! InterfaceName(interface)

    /// The match rule for one of the interface's signals from the daemon.
    /// - Parameter member: The signal's name, e.g. `ThemeChanged` or `Changed`.
    /// - Returns: A match rule (D-Bus specification, "Match Rules").
    public static func signalRule(_ member: String) -> String {
        "type='signal',sender='\(name)',interface='\(interface)',member='\(member)',path='\(path)'"
    }

    /// `value` for a single-quoted value of a match rule: an apostrophe as `'\''` (D-Bus
    /// specification, "Match Rules": no escapes inside quotes).
    public static func quoted(_ value: String) -> String {
        value.replacingOccurrences(of: "'", with: "'\\''")
    }

    /// The longest match rule dbus-daemon accepts, in bytes (`DBUS_MAXIMUM_MATCH_RULE_LENGTH`).
    public static let maximumMatchRuleLength = 1024

    /// The match rule for `NameOwnerChanged` of the daemon's bus name: who owns it, and when.
    public static let ownerRule =
        "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',"
        + "member='NameOwnerChanged',arg0='\(name)'"
}
