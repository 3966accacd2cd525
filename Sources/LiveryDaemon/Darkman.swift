import Foundation
import LiveryCore
import LiveryDBus
import Synchronization

/// darkman's D-Bus interface, so that tools written for darkman work with Livery (DESIGN §10):
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

    let interfaceObject: LiveryInterface
    let objectPath: ObjectPath
    let interfaceName: InterfaceName
    /// The mode last announced, to signal changes only.
    private let last: Mutex<String>
    /// Modes set and not switched to yet, the newest last.
    private let requested = Requested()

    /// The modes set and not switched to yet.
    final class Requested: Sendable {
        private let modes = Mutex<[String]>([])
        func push(_ mode: String) { modes.withLock { $0.append(mode) } }
        func pop() { modes.withLock { _ = $0.removeFirst() } }
        var newest: String? { modes.withLock { $0.last } }
    }

    /// darkman's interface over `interface`'s service; nothing is exported until `start`.
    public init(_ interface: LiveryInterface) throws(DBusError) {
        self.interfaceObject = interface
        self.objectPath = try ObjectPath(DarkmanCompatibility.path)
        self.interfaceName = try InterfaceName(DarkmanCompatibility.interface)
        self.last = Mutex(interface.service.activeVariant)
    }

    /// Exports the object; the daemon asks for the name (`Daemon`, with its other names).
    /// - Throws: `DBusError` when the object cannot be exported.
    public func start() throws(DBusError) {
        let livery = interfaceObject
        let requested = self.requested
        let iface = Interface(
            interfaceName,
            signals: [SignalDescription("ModeChanged", arguments: [Argument("NewMode", "s")])],
            properties: [
                Property(
                    "Mode", "s", emitsChangedSignal: false,
                    get: { .string(requested.newest ?? livery.service.activeVariant) },
                    deferredSet: { value, reply in
                        let mode = value.string ?? ""
                        guard mode == "dark" || mode == "light" else {
                            throw DBusError(.invalidArgs, "Mode '\(mode)': expected 'dark' or 'light'")
                        }
                        requested.push(mode)
                        livery.switchVariantLater(mode) { failure in
                            requested.pop()
                            if let failure { reply.fail(failure) } else { reply.succeed([]) }
                        }
                    })
            ])
        let connection = livery.connection
        try connection.export([iface], at: objectPath)
    }

    /// Emits `ModeChanged` and `PropertiesChanged` for `Mode` when the variant changed since
    /// the last call.
    public func publish() {
        let now = interfaceObject.service.activeVariant
        let before = last.withLock { last in
            defer { last = now }
            return last
        }
        guard before != now else { return }
        let connection = interfaceObject.connection
        do {
            try connection.emitSignal(
                path: objectPath, interface: interfaceName, member: try MemberName("ModeChanged"),
                arguments: [.string(now)])
            try connection.emitPropertiesChanged(
                path: objectPath, interface: interfaceName, changed: ["Mode": .string(now)])
        } catch {
            interfaceObject.service.log(.warning, "cannot emit darkman's ModeChanged: \(error)")
        }
    }
}
