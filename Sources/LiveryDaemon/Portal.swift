import Foundation
import LiveryCore
import LiveryDBus
import LiveryService
import Synchronization

/// The `org.freedesktop.impl.portal.Settings` backend (xdg-desktop-portal's Settings backend
/// interface, "doc-org.freedesktop.impl.portal.Settings"), serving the `org.freedesktop.appearance`
/// namespace from the active theme, under the bus name
/// `org.freedesktop.impl.portal.desktop.livery` at `/org/freedesktop/portal/desktop`.
public final class PortalBackend: Sendable {
    /// The bus name xdg-desktop-portal finds through `livery.portal`.
    public static let busName = "org.freedesktop.impl.portal.desktop.livery"
    /// The object path xdg-desktop-portal calls backends at.
    public static let path = "/org/freedesktop/portal/desktop"
    /// The backend interface xdg-desktop-portal's Settings portal calls.
    public static let interface = "org.freedesktop.impl.portal.Settings"
    /// The namespace holding the standard appearance keys.
    public static let namespace = "org.freedesktop.appearance"
    /// The interface version advertised in the `version` property.
    public static let version: UInt32 = 2
    static let notFound = ErrorName(rawValue: "org.freedesktop.portal.Error.NotFound")

    let service: Service
    let connection: Connection
    let objectPath: ObjectPath
    let interfaceName: InterfaceName

    /// A backend for `service`'s active theme; nothing is exported until `start`.
    /// - Parameters:
    ///   - service: The service whose active theme's metadata is served.
    ///   - connection: The bus connection to export on; it also owns `org.livery.Livery1`.
    /// - Throws: `DBusError` if the fixed names fail validation (they do not).
    public init(service: Service, connection: Connection) throws(DBusError) {
        self.service = service
        self.connection = connection
        self.objectPath = try ObjectPath(PortalBackend.path)
        self.interfaceName = try InterfaceName(PortalBackend.interface)
    }

    /// `org.freedesktop.appearance` from theme metadata: `color-scheme` (u: 1 dark, 2 light),
    /// `accent-color` ((ddd) sRGB 0–1, or −1s for none: out of range means unset), `contrast`
    /// (u), `reduced-motion` (u).
    /// - Parameter meta: The active theme's metadata.
    /// - Returns: The four keys and their values, the `a{sv}` of the namespace.
    public static func settings(of meta: ThemeMetadata) -> [String: DBusValue] {
        let accent: [Double] = meta.accentColor.map { [$0.red, $0.green, $0.blue] } ?? [-1, -1, -1]
        return [
            "color-scheme": .uint32(meta.variant == "dark" ? 1 : 2),
            "accent-color": .structure(accent.map { DBusValue.double($0) }),
            "contrast": .uint32(meta.contrast),
            "reduced-motion": .uint32(meta.reducedMotion),
        ]
    }

    /// Whether a `ReadAll` namespace pattern selects `namespace`: empty matches all, a trailing
    /// `*` matches by prefix, anything else exactly.
    static func selects(_ patterns: [String], _ namespace: String) -> Bool {
        patterns.isEmpty
            || patterns.contains { p in
                p.isEmpty || p == namespace || (p.hasSuffix("*") && namespace.hasPrefix(p.dropLast()))
            }
    }

    /// Exports the object; the daemon takes the bus name (`Daemon`, with its other names).
    /// - Throws: `DBusError` when the object cannot be exported.
    public func start() throws(DBusError) {
        let themes = self.service.themes
        let iface = Interface(
            interfaceName,
            methods: [
                Method(
                    "Read", inputs: [Argument("namespace", "s"), Argument("key", "s")],
                    outputs: [Argument("value", "v")]
                ) { call in
                    let ns = call.arguments[0].string ?? ""
                    let key = call.arguments[1].string ?? ""
                    let settings = PortalBackend.settings(of: themes.activeMetadata)
                    guard ns == PortalBackend.namespace, let v = settings[key] else {
                        throw DBusError(PortalBackend.notFound, "Requested setting \(ns) \(key) not found")
                    }
                    return [.variant(v)]
                },
                Method(
                    "ReadAll", inputs: [Argument("namespaces", "as")],
                    outputs: [Argument("value", "a{sa{sv}}")]
                ) { call in
                    let patterns = call.arguments[0].stringArray ?? []
                    var entries: [DBusDictEntry] = []
                    if PortalBackend.selects(patterns, PortalBackend.namespace) {
                        let settings = PortalBackend.settings(of: themes.activeMetadata)
                        entries.append(
                            DBusDictEntry(key: .string(PortalBackend.namespace), value: .dict(settings)))
                    }
                    return [.dictionary(key: "s", value: "a{sv}", entries)]
                },
            ],
            signals: [
                SignalDescription(
                    "SettingChanged",
                    arguments: [Argument("namespace", "s"), Argument("key", "s"), Argument("value", "v")])
            ],
            properties: [
                Property("version", "u", emitsChangedSignal: false) { .uint32(PortalBackend.version) }
            ])
        try connection.export([iface], at: objectPath)
    }

}

extension PortalBackend: ServiceListener {
    /// Emits `SettingChanged(s namespace, s key, v value)` for every key a committed change
    /// changed.
    public func published(_ snapshot: ServiceSnapshot) {
        guard snapshot.changes.contains(.theme) else { return }
        let now = PortalBackend.settings(of: snapshot.metadata)
        let before = PortalBackend.settings(of: snapshot.previousMetadata)
        for key in now.keys.sorted() where before[key] != now[key] {
            do {
                try connection.emitSignal(
                    path: objectPath, interface: interfaceName, member: try MemberName("SettingChanged"),
                    arguments: [.string(PortalBackend.namespace), .string(key), .variant(now[key]!)])
            } catch {
                service.log(.warning, "cannot emit SettingChanged: \(error)")
            }
        }
    }
}
