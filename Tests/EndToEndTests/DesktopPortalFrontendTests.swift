import Foundation
import XCTest

/// The real xdg-desktop-portal (Debian's) in front of Livery's Settings backend: found through
/// the shipped `systemd/livery.portal`, read through `org.freedesktop.portal.Settings` on
/// `org.freedesktop.portal.Desktop`, and forwarding `SettingChanged` when the theme's variant
/// changes.
final class DesktopPortalFrontendTests: EndToEndTestCase {
    func testXdgDesktopPortalServesLiveryAppearanceAndForwardsChanges() throws {
        try startDaemon()
        try setTheme("default")
        let portal = try startDesktopPortal()
        let all = try readAllPortalSettings()
        XCTAssertEqual(all.status, 0, "\(all)\nportal: \(portal.stderr)")
        // default: light, accent #007aff.
        XCTAssertTrue(all.stdout.contains("'color-scheme': <uint32 2>"), all.stdout)
        XCTAssertTrue(all.stdout.contains("'accent-color': <(0.0, 0.47843137254901963, 1.0)>"), all.stdout)
        XCTAssertTrue(all.stdout.contains("'contrast': <uint32 0>"), all.stdout)

        let listener = try startMonitor(
            "type='signal',interface='org.freedesktop.portal.Settings',member='SettingChanged'")
        try setTheme("default-dark")
        XCTAssertTrue(
            waitUntil {
                listener.stdout.contains("interface=org.freedesktop.portal.Settings; member=SettingChanged")
            },
            "no SettingChanged from the portal frontend: \(listener.stdout)\nportal: \(portal.stderr)")
        let frontendSignals = listener.stdout.components(separatedBy: "signal time=").filter {
            $0.contains("path=/org/freedesktop/portal/desktop; interface=org.freedesktop.portal.Settings")
        }
        XCTAssertTrue(
            waitUntil {
                listener.stdout.contains("string \"color-scheme\"\n   variant       uint32 1\n")
            }, listener.stdout)
        XCTAssertFalse(frontendSignals.isEmpty)
        // The frontend's sender is xdg-desktop-portal, not liveryd: the change went through it.
        let after = try readAllPortalSettings()
        XCTAssertTrue(after.stdout.contains("'color-scheme': <uint32 1>"), after.stdout)
    }
}
