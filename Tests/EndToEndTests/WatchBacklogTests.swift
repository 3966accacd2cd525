import Foundation
import XCTest

/// The `Watch` calls waiting in liveryd: those of a client that left the bus are dropped, not
/// computed, and a new client's `Watch` waits for no other client's backlog. Driven with
/// python3-dbus clients that send large `Watch` calls without waiting for their replies.
final class WatchBacklogTests: EndToEndTestCase {
    /// Tab bars take the window's tint, the default theme's `@accent` (#007aff), opaque.
    let defaultTabBarTint = "#007affff"

    /// Clients that send several `Watch` calls of 1,024 new paths each and leave at once: the
    /// daemon drops what they left waiting, so it registers (and later releases) far fewer
    /// watches than they asked for, and a client that comes after them is answered.
    func testWaitingWatchCallsOfAClientThatLeftAreDropped() throws {
        try startDaemon(arguments: ["--log-level", "debug"])
        let (clients, calls) = (4, 8)
        let r = try python(
            """
            import sys, dbus, dbus.lowlevel
            address, clients, calls = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
            names = []
            for c in range(clients):
                conn = dbus.bus.BusConnection(address)
                names.append(str(conn.get_unique_name()))
                for i in range(calls):
                    m = dbus.lowlevel.MethodCallMessage(
                        "org.livery.Livery1", "/org/livery/Livery1", "org.livery.Livery1", "Watch")
                    m.append(["Window/View#c%di%dp%d/Button" % (c, i, j) for j in range(1024)], {},
                             signature="asa{sv}")
                    conn.send_message(m)
                conn.flush()
                conn.close()
            print("left", " ".join(names), flush=True)
            fresh = dbus.bus.BusConnection(address)
            livery = dbus.Interface(fresh.get_object("org.livery.Livery1", "/org/livery/Livery1"),
                                    "org.livery.Livery1")
            serial, values = livery.Watch(["Window/TabBar"], dbus.Dictionary({}, signature="sv"), timeout=300)
            print("fresh", values["Window/TabBar"]["tint-color"], flush=True)
            """, [String(clients), String(calls)], timeout: 300)
        let lines = r.stdout.split(separator: "\n")
        XCTAssertEqual(lines.count, 2, "\(r)")
        XCTAssertEqual(lines.last, "fresh \(defaultTabBarTint)", "\(r)")
        let names = lines.first?.split(separator: " ").dropFirst().map(String.init) ?? []
        XCTAssertEqual(names.count, clients, "\(r)")
        // Each departure is logged once the daemon has released what the client held.
        func released(by name: String) -> Int? {
            let log = daemon.stderr
            guard let range = log.range(of: "\(name) left the bus; released ") else { return nil }
            return Int(log[range.upperBound...].prefix { $0.isNumber })
        }
        XCTAssertTrue(
            waitUntil(timeout: 300) { names.allSatisfy { released(by: $0) != nil } },
            "departures not all handled:\n\(daemon.stderr.suffix(2000))")
        let asked = clients * calls * 1024
        let registered = names.compactMap(released(by:)).reduce(0, +)
        XCTAssertLessThan(
            registered, asked / 2,
            "the calls of clients that left were computed and registered:\n\(daemon.stderr.suffix(2000))")
        XCTAssertTrue(daemon.isRunning, daemon.stderr)
    }

    /// A client with `Watch` calls waiting, and then a new client's `Watch` of one path: the new
    /// one is answered before the first client's last call. Each of the first client's calls
    /// resolves 1,023 new paths and then fails on an unknown type, so that its reply is short and
    /// the replies arrive in the order liveryd sent them.
    func testANewClientsWatchIsNotQueuedBehindAnotherClientsCalls() throws {
        try startDaemon()
        let calls = 4
        let r = try python(
            """
            import sys, dbus, dbus.lowlevel
            from dbus.mainloop.glib import DBusGMainLoop
            from gi.repository import GLib
            DBusGMainLoop(set_as_default=True)
            address, calls = sys.argv[1], int(sys.argv[2])
            heavy, fresh = dbus.bus.BusConnection(address), dbus.bus.BusConnection(address)
            loop = GLib.MainLoop()
            order = []
            def watch(conn, paths):
                m = dbus.lowlevel.MethodCallMessage(
                    "org.livery.Livery1", "/org/livery/Livery1", "org.livery.Livery1", "Watch")
                m.append(paths, {}, signature="asa{sv}")
                return conn.send_message(m)
            # The replies are taken as they come, unread.
            def recorder(who, serials):
                def record(conn, message):
                    if message.get_reply_serial() not in serials:
                        return dbus.lowlevel.HANDLER_RESULT_NOT_YET_HANDLED
                    order.append("%s:%s" % (who, message.get_error_name() or "ok"))
                    if len(order) == calls + 1:
                        loop.quit()
                    return dbus.lowlevel.HANDLER_RESULT_HANDLED
                return record
            heavy_calls, fresh_calls = set(), set()
            heavy.add_message_filter(recorder("heavy", heavy_calls))
            fresh.add_message_filter(recorder("fresh", fresh_calls))
            for i in range(calls):
                paths = ["Window/View#h%dp%d/Button" % (i, j) for j in range(1023)] + ["Window/Unknown"]
                heavy_calls.add(watch(heavy, paths))
            # A Ping after them is answered once liveryd has taken every one of them.
            peer = dbus.Interface(heavy.get_object("org.livery.Livery1", "/org/livery/Livery1"),
                                  "org.freedesktop.DBus.Peer")
            peer.Ping(timeout=300)
            fresh_calls.add(watch(fresh, ["Window/TabBar"]))
            GLib.timeout_add_seconds(300, loop.quit)
            loop.run()
            print(" ".join(order), flush=True)
            """, [String(calls)], timeout: 300)
        let order = r.stdout.trimmingCharacters(in: .newlines).split(separator: " ")
        let failed = "heavy:org.livery.Livery1.Error.InvalidPath"
        XCTAssertEqual(order.count, calls + 1, "\(r)")
        XCTAssertEqual(order.filter { $0 == failed }.count, calls, "\(r)")
        XCTAssertEqual(order.filter { $0 == "fresh:ok" }.count, 1, "\(r)")
        XCTAssertEqual(
            order.last.map(String.init), failed, "the new client waited for every call of the other: \(r)")
        XCTAssertTrue(daemon.isRunning, daemon.stderr)
    }
}
