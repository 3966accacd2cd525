import Foundation
import LiveryAPI
import LiveryCore
import LiveryDBus
import LiveryService
import Synchronization

/// `org.livery.Livery1` at `/org/livery/Livery1`: maps the bus's calls onto the `Service` and,
/// as one of its listeners, carries its snapshots and watched values out as signals. The
/// members are in files by facet: resolving (`+Resolving`), switching (`+Switching`), watching
/// (`+Watching`), publishing (`+Publishing`).
public final class LiveryInterface: Sendable {
    /// What the methods call into.
    public let service: Service
    /// Where `Watch` and `Unwatch` run, and where a client's watches are released when it
    /// leaves: away from the loop thread (a `Watch` of many paths resolves them all), a queue
    /// per client taking turns, so that a client's calls keep their order, a release comes
    /// after the watches it releases, and no client waits for another's backlog.
    let calls = WatchQueue(label: "org.livery.watch")
    /// Whether watches went since memory was last given back (`Service.releaseFreedMemory`),
    /// which the watch queue does when it is idle: once after a burst, not once per client
    /// that left.
    let freedMemory = Atomic<Bool>(false)
    let connection: Connection
    let path: ObjectPath
    let interfaceName: InterfaceName
    /// The clients of `Watch` and `Unwatch` followed, so that their leaving is heard.
    let watcher = OwnerWatch()
    /// `Resolve` replies of the current theme generation: a repeated call costs a lookup.
    let replies = ReplyCache()

    /// Maps `service` onto `connection`; nothing is exported until `export()`.
    /// - Parameters:
    ///   - service: The service to serve.
    ///   - connection: The bus connection to export on and emit signals from.
    /// - Throws: `DBusError` if the fixed names fail validation (they do not).
    public init(service: Service, connection: Connection) throws(DBusError) {
        self.service = service
        self.connection = connection
        self.path = LiveryBus.objectPath
        self.interfaceName = LiveryBus.interfaceName
        calls.whenIdle { [weak self] in
            guard let self, self.freedMemory.exchange(false, ordering: .acquiringAndReleasing) else { return }
            self.service.releaseFreedMemory()
        }
    }

    /// Exports the object with its interface at `/org/livery/Livery1`.
    /// - Throws: `DBusError` `org.freedesktop.DBus.Error.ObjectPathInUse` when something is
    ///   already exported there.
    public func export() throws(DBusError) {
        try connection.export([interface], at: path)
        // One match for every client that leaves the bus (its unique name loses its owner),
        // added before any Watch: a watcher's leaving is heard however soon after its call it
        // comes, with no call to the bus per watcher on the loop thread (each would block it and
        // make libdbus scan every message queued meanwhile).
        try connection.addMatch(OwnerWatch.departures) { [weak self] message in
            guard let self, let change = NameOwnerChange(decoding: message.arguments),
                change.newOwner.isEmpty,
                self.watcher.contains(change.name)
            else { return }
            self.release(change.name)
        }
    }

    /// The interface description: methods, signals and properties with their signatures (the
    /// interface file `org.livery.Livery1.xml` of LiveryAPI says the same, in the same order).
    var interface: Interface {
        Interface(
            interfaceName,
            methods: [
                listThemesMethod, setThemeMethod, resolveMethod, resolveManyMethod, explainMethod,
                toggleMethod, setVariantMethod,
                watchMethod, unwatchMethod, reloadMethod, listPluginsMethod,
            ],
            signals: LiveryInterface.signals, properties: properties)
    }

    /// `Changed` and `ThemeChanged`.
    static let signals = LiverySignal.all.map(\.description)

    /// `ActiveTheme`, `Serial`, `Variant`, `Version` and `Problems`.
    var properties: [Property] {
        let service = self.service
        let themes = service.themes
        return [
            Property(.activeTheme) { .string(themes.activeTheme) },
            Property(.serial) { .uint32(themes.serial) },
            Property(.variant) { .string(themes.activeVariant) },
            Property(.version) {
                .string(LiveryBus.version)
            },
            Property(.problems) { .strings(service.problems) },
        ]
    }

    /// `ListPlugins() → a(ssa{sv})`: every plugin, darkman script and built-in format.
    var listPluginsMethod: Method {
        let service = self.service
        return Method(.listPlugins) { _ in
            [
                .array(
                    element: PluginListing.signature,
                    service.listPlugins().map {
                        PluginListing(
                            name: $0.name, kind: $0.kind, origin: $0.origin, path: $0.path,
                            enabled: $0.enabled,
                            errors: $0.errors, lastRun: $0.lastRun.map { Int64($0.timeIntervalSince1970) },
                            serial: $0.serial, result: $0.result
                        ).dbusValue
                    })
            ]
        }
    }

    /// Stops taking switches, because another instance took `org.livery.Livery1` over
    /// (`liveryd --replace`; the README's "Replacing a running liveryd" and `Handover` give
    /// the protocol): every switch, variant change and reload that has not started yet is
    /// refused (`AccessDenied`, nothing changed); the one under way finishes, saved before it
    /// is answered; then `done` runs, once the plugins have rendered the last change. Call it
    /// on the loop thread, where `NameLost` arrives after every call the bus routed here before
    /// the name moved.
    /// - Parameter done: What to do then: leave the bus.
    public func retire(then done: @escaping @Sendable () -> Void) {
        let refusal = ServiceError(
            .accessDenied,
            "this liveryd (\(connection.uniqueName)) was replaced by another instance and starts no more switches; "
                + "call \(LiveryBus.name) again")
        service.retire(refusing: refusal, then: done)
    }

    /// Reads the `app` option (`s`) of an `a{sv}` options dictionary.
    /// - Throws: `InvalidArgs` when `app` is not a string.
    static func app(_ options: DBusValue) throws(DBusError) -> String? {
        guard let dict = options.stringVariantDictionary, let app = dict["app"] else { return nil }
        guard let s = app.variantValue.string else {
            throw DBusError(.invalidArgs, "option 'app' must be a string (s)")
        }
        return s.isEmpty ? nil : s
    }
}
