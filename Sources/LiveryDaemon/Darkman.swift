import Foundation
import LiveryCore
import LiveryDBus
import LiveryService
import Synchronization

/// darkman's D-Bus interface, so that tools written for darkman work with Livery:
/// `nl.whynothugo.darkman` at `/nl/whynothugo/darkman` under the bus name
/// `nl.whynothugo.darkman` (taken by `Daemon` with its other names): a running darkman keeps
/// it, Livery waits in the bus's queue for it (and gets it when darkman leaves), `liveryd
/// --replace` takes it from the Livery it replaces at once, and a darkman started later may
/// take it over (`AllowReplacement`).
///
/// - property `Mode` (`s`, read-write): the active variant, `dark` or `light`; setting it
///   switches Livery's variant as `SetVariant` does (anything else is `InvalidArgs`). The
///   switch runs on Livery's switch queue and `Set` is answered when it is done: an error
///   reply (`UnknownTheme`, `InvalidTheme`, with what was tried) when no usable theme of that
///   variant is found, which also stays in `Problems` until a switch succeeds. Until the switch
///   is done `Mode` reads as the mode set, as darkman's does.
/// - signal `ModeChanged(s NewMode)`: after each published change of the variant, with
///   `PropertiesChanged` for `Mode`.
public final class DarkmanCompatibility: Sendable {
    /// darkman's bus name.
    public static let busName = "nl.whynothugo.darkman"
    /// darkman's object path.
    public static let path = "/nl/whynothugo/darkman"
    /// darkman's interface.
    public static let interface = "nl.whynothugo.darkman"

    let service: Service
    let connection: Connection
    let objectPath: ObjectPath
    let interfaceName: InterfaceName
    /// Modes set and not switched to yet, the newest last.
    private let requested = Requested()

    /// The modes set and not switched to yet.
    final class Requested: Sendable {
        private let modes = Mutex<[String]>([])
        func push(_ mode: String) { modes.withLock { $0.append(mode) } }
        func pop() { modes.withLock { _ = $0.removeFirst() } }
        var newest: String? { modes.withLock { $0.last } }
    }

    /// darkman's interface over `service`, exported on `connection`; nothing is exported until
    /// `start`.
    public init(service: Service, connection: Connection) throws(DBusError) {
        self.service = service
        self.connection = connection
        self.objectPath = try ObjectPath(DarkmanCompatibility.path)
        self.interfaceName = try InterfaceName(DarkmanCompatibility.interface)
    }

    /// Exports the object; the daemon asks for the name (`Daemon`, with its other names).
    /// - Throws: `DBusError` when the object cannot be exported.
    public func start() throws(DBusError) {
        let service = self.service
        let requested = self.requested
        let iface = Interface(
            interfaceName,
            signals: [SignalDescription("ModeChanged", arguments: [Argument("NewMode", "s")])],
            properties: [
                Property(
                    "Mode", "s", emitsChangedSignal: false,
                    get: { .string(requested.newest ?? service.themes.activeVariant) },
                    deferredSet: { value, reply in
                        let mode = value.string ?? ""
                        guard mode == "dark" || mode == "light" else {
                            throw DBusError(.invalidArgs, "Mode '\(mode)': expected 'dark' or 'light'")
                        }
                        requested.push(mode)
                        service.setVariant(mode, logsFailure: true) { result in
                            requested.pop()
                            switch result {
                            case .success: reply.succeed([])
                            case .failure(let failure): reply.fail(failure)
                            }
                        }
                    })
            ])
        try connection.export([iface], at: objectPath)
    }

}

extension DarkmanCompatibility: ServiceListener {
    /// Emits `ModeChanged` and `PropertiesChanged` for `Mode` when the variant changed.
    public func published(_ snapshot: ServiceSnapshot) {
        guard snapshot.changes.contains(.variant) else { return }
        let now = snapshot.variant
        do {
            try connection.emitSignal(
                path: objectPath, interface: interfaceName, member: try MemberName("ModeChanged"),
                arguments: [.string(now)])
            try connection.emitPropertiesChanged(
                path: objectPath, interface: interfaceName, changed: ["Mode": .string(now)])
        } catch {
            service.log(.warning, "cannot emit darkman's ModeChanged: \(error)")
        }
    }
}
