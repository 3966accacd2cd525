import Foundation
import XCTest

/// The standard interfaces, as generic D-Bus tools see them.
final class IntrospectionTests: EndToEndTestCase {
    func testIntrospectListsTheWholeInterface() throws {
        try startDaemon()
        let r = try run(
            Locations.tool("gdbus"),
            [
                "introspect", "--address", address, "--dest", Locations.busName, "--object-path",
                Locations.objectPath,
            ])
        XCTAssertEqual(r.status, 0, "\(r)")
        for expected in [
            "interface org.livery.Livery1 {",
            "ListThemes(out a(ssa{sv}) themes);",
            "SetTheme(in  s id);",
            "Resolve(in  s path,",
            "ResolveMany(in  a(sas) requests,",
            "out aa{sv} values);",
            "Reload();",
            "Explain(in  s path,",
            "Watch(in  as paths,",
            "out (ua{sa{sv}}) reading);",
            "Unwatch(in  as paths,",
            "Changed(s path,",
            "ThemeChanged(s id,",
            "u serial);",
            "readonly s ActiveTheme = 'default';",
            "readonly u Serial = 0;",
            "readonly s Version = '0.1.0';",
            "interface org.freedesktop.DBus.Introspectable {",
            "interface org.freedesktop.DBus.Properties {",
            "interface org.freedesktop.DBus.Peer {",
        ] {
            XCTAssertTrue(r.stdout.contains(expected), "missing '\(expected)' in\n\(r.stdout)")
        }
    }

    func testPeerPingAndGetAllAnswer() throws {
        try startDaemon()
        let ping = try dbusSend("org.freedesktop.DBus.Peer.Ping", [])
        XCTAssertEqual(ping.status, 0, "\(ping)")
        XCTAssertTrue(ping.stdout.hasPrefix("method return "), "\(ping)")

        let all = try gdbusCall("org.freedesktop.DBus.Properties.GetAll", ["org.livery.Livery1"])
        XCTAssertEqual(all.status, 0, "\(all)")
        XCTAssertTrue(all.stdout.contains("'Version': <'0.1.0'>"), "\(all)")
        XCTAssertTrue(all.stdout.contains("'ActiveTheme': <'default'>"), "\(all)")
        XCTAssertTrue(all.stdout.contains("'Serial': <uint32 0>"), "\(all)")

        let version = try busctl([
            "get-property", Locations.busName, Locations.objectPath, Locations.interface, "Version",
        ])
        XCTAssertEqual(version.stdout, "s \"0.1.0\"\n", "\(version)")
    }

    func testPropertiesChangedFollowsASwitch() throws {
        try startDaemon()
        let monitor = try startMonitor(
            "type='signal',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged'")
        try setTheme("forest")
        XCTAssertTrue(waitUntil { monitor.stdout.contains("uint32 1") }, monitor.stdout)
        XCTAssertTrue(monitor.stdout.contains("path=/org/livery/Livery1;"), monitor.stdout)
        XCTAssertTrue(monitor.stdout.contains("string \"org.livery.Livery1\""), monitor.stdout)
        XCTAssertTrue(
            monitor.stdout.contains("string \"ActiveTheme\"\n         variant             string \"forest\""),
            monitor.stdout)
    }
}
