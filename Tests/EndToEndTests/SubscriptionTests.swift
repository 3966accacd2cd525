import Foundation
import XCTest

/// Subscriptions (the README's "D-Bus API", seed case 2): a subscriber gets its current values atomically, then
/// a unicast `Changed` carrying only what changed; subscriptions belong to their client.
final class SubscriptionTests: EndToEndTestCase {
    static let subscriberScript = """
        import sys, dbus
        from dbus.mainloop.glib import DBusGMainLoop
        from gi.repository import GLib

        DBusGMainLoop(set_as_default=True)
        conn = dbus.bus.BusConnection(sys.argv[1])
        livery = dbus.Interface(conn.get_object("org.livery.Livery1", "/org/livery/Livery1"), "org.livery.Livery1")
        loop = GLib.MainLoop()
        names = {}
        seen = []

        def fmt(values):
            return " ".join("%s:%s=%s" % (p, k, v) for p in sorted(values) for k, v in sorted(values[p].items()))

        def changed(sid, serial, changes):
            name = names.get(int(sid), "unknown-%d" % sid)
            print("Changed %s %d %s %s" % (name, serial, type(serial).__name__, fmt(changes)), flush=True)
            seen.append(name)
            if seen.count("tabbar") == 2:
                loop.quit()

        conn.add_signal_receiver(changed, signal_name="Changed", dbus_interface="org.livery.Livery1",
                                 path="/org/livery/Livery1")
        options = dbus.Dictionary({}, signature="sv")
        for name, path, props in [("tabbar", "Window/TabBar", ["tint-color", "bar-tint-color"]),
                                  ("label", "Window/Label", ["text-color"])]:
            sid, current = livery.Subscribe(dbus.Array([path], signature="s"), dbus.Array(props, signature="s"), options)
            names[int(sid)] = name
            print("Subscribed %s %s" % (name, fmt(current)), flush=True)
        print("READY", flush=True)
        GLib.timeout_add_seconds(15, loop.quit)
        loop.run()
        """

    func testSubscriberGetsCurrentValuesThenOnlyItsChanges() throws {
        try startDaemon()
        try setTheme("forest")
        let bar = try resolve("Window/TabBar", "bar-tint-color").dropLast()
        let text = try resolve("Window/Label", "text-color").dropLast()

        let monitor = try startMonitor(
            "type='method_call',interface='org.livery.Livery1',member='Subscribe'",
            // A signal rule too: with method-call rules alone, dbus-monitor does not always
            // print the NameLost that says it has become a monitor.
            "type='signal',sender='org.freedesktop.DBus',member='NameLost'")
        let watch = try background(
            Locations.livery, ["--address", address, "watch", "Window/TabBar", "--property", "tint-color"])
        XCTAssertTrue(
            waitUntil { monitor.stdout.contains("member=Subscribe") || !watch.isRunning },
            "watch: \(watch.stderr)")

        let script = root + "/subscriber.py"
        try Self.subscriberScript.write(toFile: script, atomically: true, encoding: .utf8)
        let subscriber = try background(Locations.python, [script, address])
        XCTAssertTrue(
            waitUntil { subscriber.stdout.contains("READY\n") || !subscriber.isRunning }, subscriber.stderr)

        let n = try serial()
        try setTheme("crimson")
        try setTheme("forest")
        XCTAssertTrue(
            subscriber.waitForExit(timeout: 10), "subscriber: \(subscriber.stdout)\(subscriber.stderr)")
        XCTAssertEqual(
            subscriber.stdout,
            """
            Subscribed tabbar Window/TabBar:bar-tint-color=\(bar) Window/TabBar:tint-color=#008000ff
            Subscribed label Window/Label:text-color=\(text)
            READY
            Changed tabbar \(n + 1) UInt32 Window/TabBar:tint-color=#800000ff
            Changed tabbar \(n + 2) UInt32 Window/TabBar:tint-color=#008000ff

            """, subscriber.stderr)

        XCTAssertTrue(
            waitUntil { watch.stdout.components(separatedBy: "\n").count >= 3 },
            "watch: \(watch.stdout)\(watch.stderr)")
        XCTAssertEqual(
            watch.stdout,
            "\(n + 1) Window/TabBar tint-color #800000ff\n\(n + 2) Window/TabBar tint-color #008000ff\n",
            watch.stderr)
    }

    func testSubscriptionsBelongToTheirClientAndVanishWithIt() throws {
        try startDaemon()
        let keeperScript = root + "/keeper.py"
        try """
        import sys, time, dbus
        conn = dbus.bus.BusConnection(sys.argv[1])
        livery = dbus.Interface(conn.get_object("org.livery.Livery1", "/org/livery/Livery1"), "org.livery.Livery1")
        sid, current = livery.Subscribe(["Window/Switch"], ["on-tint-color"], dbus.Dictionary({}, signature="sv"))
        print(int(sid), flush=True)
        time.sleep(60)
        """.write(toFile: keeperScript, atomically: true, encoding: .utf8)
        let keeper = try background(Locations.python, [keeperScript, address])
        XCTAssertTrue(waitUntil { keeper.stdout.contains("\n") || !keeper.isRunning }, keeper.stderr)
        let sid = keeper.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertNotNil(UInt32(sid), keeper.stdout + keeper.stderr)

        let unsubscribe = """
            import sys, time, dbus
            conn = dbus.bus.BusConnection(sys.argv[1])
            livery = dbus.Interface(conn.get_object("org.livery.Livery1", "/org/livery/Livery1"), "org.livery.Livery1")
            wanted = sys.argv[3] if len(sys.argv) > 3 else None
            deadline = time.time() + 10
            while True:
                try:
                    livery.Unsubscribe(dbus.UInt32(int(sys.argv[2])))
                    result = "ok"
                except dbus.exceptions.DBusException as e:
                    result = e.get_dbus_name()
                if wanted is None or result == wanted or time.time() > deadline:
                    break
                time.sleep(0.02)
            print(result)
            """
        // Another client may not drop it.
        let foreign = try python(unsubscribe, [sid])
        XCTAssertEqual(foreign.stdout, "org.livery.Livery1.Error.AccessDenied\n", "\(foreign)")

        // When the keeper leaves the bus, the daemon forgets its subscription.
        keeper.stop()
        let gone = try python(unsubscribe, [sid, "org.livery.Livery1.Error.UnknownSubscription"])
        XCTAssertEqual(gone.stdout, "org.livery.Livery1.Error.UnknownSubscription\n", "\(gone)")
        XCTAssertTrue(daemon.isRunning, daemon.stderr)
    }

    func testSubscriptionLimits() throws {
        try startDaemon()
        let r = try python(
            """
            import sys, dbus
            conn = dbus.bus.BusConnection(sys.argv[1])
            livery = dbus.Interface(conn.get_object("org.livery.Livery1", "/org/livery/Livery1"), "org.livery.Livery1")
            options = dbus.Dictionary({}, signature="sv")
            def subscribe(paths, props=["tint-color"]):
                try:
                    sid, current = livery.Subscribe(dbus.Array(paths, signature="s"), dbus.Array(props, signature="s"), options)
                    return int(sid)
                except dbus.exceptions.DBusException as e:
                    return e.get_dbus_name()
            print("1025 paths:", subscribe(["Window/Button"] * 1025))
            print("257 properties:", subscribe(["Window/Button"], ["tint-color"] * 257))
            print("bad path:", subscribe(["Window/Buton"]))
            ids = [subscribe(["Window/Button"] * 1024)]
            print("1024 paths:", isinstance(ids[0], int))
            ids += [subscribe(["Window/Button"]) for _ in range(63)]
            print("64 subscriptions:", all(isinstance(i, int) for i in ids), len(set(ids)))
            print("65th:", subscribe(["Window/Button"]))
            livery.Unsubscribe(dbus.UInt32(ids[0]))
            print("after unsubscribe:", isinstance(subscribe(["Window/Button"]), int))
            """)
        XCTAssertEqual(
            r.stdout,
            """
            1025 paths: org.livery.Livery1.Error.LimitExceeded
            257 properties: org.livery.Livery1.Error.LimitExceeded
            bad path: org.livery.Livery1.Error.InvalidPath
            1024 paths: True
            64 subscriptions: True 64
            65th: org.livery.Livery1.Error.LimitExceeded
            after unsubscribe: True

            """, "\(r)")
        XCTAssertTrue(daemon.isRunning, daemon.stderr)
    }
}
