import Foundation
import LiveryAPI
import LiveryCore
import LiveryDBus
import LiveryService

/// The interface as a listener of the service: `ThemeChanged` and `PropertiesChanged` for each
/// snapshot, `Changed` for each watched key whose values changed.
extension LiveryInterface: ServiceListener {
    static let themeChangedMember = LiverySignal.themeChanged.member

    /// Emits `ThemeChanged(s id, u serial)` and `PropertiesChanged` for `ActiveTheme`, `Serial`,
    /// `Variant` and `Problems` after a committed change; `PropertiesChanged` for `Problems`
    /// alone when only they changed.
    public func published(_ snapshot: ServiceSnapshot) {
        let problems = DBusValue.strings(snapshot.problems)
        do {
            if snapshot.changes.contains(.theme) {
                try connection.emitSignal(
                    path: path, interface: interfaceName, member: LiveryInterface.themeChangedMember,
                    arguments: ThemeChangedSignal(theme: snapshot.theme, serial: snapshot.serial).arguments)
                try connection.emitPropertiesChanged(
                    path: path, interface: interfaceName,
                    changed: LiveryProperty.changed([
                        .activeTheme: .string(snapshot.theme), .serial: .uint32(snapshot.serial),
                        .variant: .string(snapshot.variant), .problems: problems,
                    ]))
            } else if snapshot.changes.contains(.problems) {
                try connection.emitPropertiesChanged(
                    path: path, interface: interfaceName,
                    changed: LiveryProperty.changed([.problems: problems]))
            }
        } catch {
            service.log(.error, "cannot publish theme change: \(error)")
        }
    }

    /// Emits one `Changed(s path, s app, u serial, a{sv} values)` per key.
    public func watchedValuesChanged(
        _ changes: [(key: WatchRegistry.Key, changes: [String: Value])], serial: UInt32
    ) {
        for (key, values) in changes {
            do {
                try connection.emitSignal(
                    path: path, interface: interfaceName, member: LiveryInterface.changedMember,
                    arguments: ChangedSignal(
                        path: key.path, app: key.app ?? "", serial: serial,
                        values: PropertyValues(sorted: values)
                    ).arguments)
            } catch {
                service.log(.warning, "cannot send Changed for \(key.path): \(error)")
            }
        }
    }
}
