import Foundation
import XCTest

/// Watching components (dconf's model: match first, then read): a client adds a match rule for
/// its paths, then calls `Watch` and gets every property at one serial; each published change
/// is broadcast once per watched (path, app), whatever the number of watchers. Driven with
/// python3-dbus, `livery watch`, `gdbus monitor` and `dbus-monitor`.
final class WatchTests: EndToEndTestCase {
    /// A client written from the README: a match rule per path (arg0), then `Watch`; it applies
    /// each `Changed` above the serial read and prints its values after each, until told how
    /// many changes to expect.
    static let watcherScript = """
        import sys, dbus
        from dbus.mainloop.glib import DBusGMainLoop
        from gi.repository import GLib

        DBusGMainLoop(set_as_default=True)
        conn = dbus.bus.BusConnection(sys.argv[1])
        livery = dbus.Interface(conn.get_object("org.livery.Livery1", "/org/livery/Livery1"), "org.livery.Livery1")
        paths, wanted = sys.argv[2].split(","), int(sys.argv[3])
        loop = GLib.MainLoop()
        state = {"serial": None, "early": [], "values": {}, "seen": 0}

        def show(serial, path, values):
            print("%d %s %s" % (serial, path, " ".join("%s=%s" % kv for kv in sorted(values.items()))), flush=True)

        def apply(path, app, serial, values):
            if serial <= state["serial"]:
                return
            state["values"][str(path)].update(values)
            state["seen"] += 1
            show(serial, path, {str(k): str(v) for k, v in values.items()})
            if state["seen"] == wanted:
                loop.quit()

        def changed(path, app, serial, values):
            if state["serial"] is None:
                state["early"].append((path, app, serial, values))
            else:
                apply(path, app, serial, values)

        for p in paths:
            conn.add_signal_receiver(changed, signal_name="Changed", dbus_interface="org.livery.Livery1",
                                     path="/org/livery/Livery1", arg0=p)
        serial, values = livery.Watch(dbus.Array(paths, signature="s"), dbus.Dictionary({}, signature="sv"))
        state["serial"] = int(serial)
        for p in paths:
            state["values"][p] = {str(k): str(v) for k, v in values[p].items()}
            print("watch %s %s" % (p, " ".join("%s=%s" % kv for kv in sorted(state["values"][p].items()) if kv[0] == "tint-color")), flush=True)
        for e in state["early"]:
            apply(*e)
        print("READY", flush=True)
        if wanted == 0:
            sys.exit(0)
        GLib.timeout_add_seconds(30, loop.quit)
        loop.run()
        """

    func startWatcher(_ paths: [String], changes: Int) throws -> Background {
        let script = root + "/watcher.py"
        if !FileManager.default.fileExists(atPath: script) {
            try Self.watcherScript.write(toFile: script, atomically: true, encoding: .utf8)
        }
        let watcher = try background(
            Locations.python, [script, address, paths.joined(separator: ","), String(changes)])
        XCTAssertTrue(waitUntil { watcher.stdout.contains("READY\n") || !watcher.isRunning }, watcher.stderr)
        return watcher
    }

    /// Two clients and `livery watch` watching one path get every change from one broadcast:
    /// dbus-monitor sees one `Changed` for the path per switch, with no destination.
    func testTwoWatchersOfAPathGetEachChangeFromOneBroadcast() throws {
        try startDaemon()
        try setTheme("forest")
        let monitor = try startMonitor(
            "type='signal',interface='org.livery.Livery1',member='Changed'",
            "type='signal',sender='org.freedesktop.DBus',member='NameLost'")
        let cli = try background(
            Locations.livery, ["--address", address, "watch", "Window/TabBar", "--property", "tint-color"])
        let first = try startWatcher(["Window/TabBar", "Window/Label"], changes: 4)
        let second = try startWatcher(["Window/TabBar"], changes: 2)
        XCTAssertTrue(first.stdout.hasPrefix("watch Window/TabBar tint-color=#008000ff\n"), first.stdout)
        let n = try serial()
        try setTheme("crimson")
        try setTheme("forest")
        for w in [first, second] {
            XCTAssertTrue(w.waitForExit(timeout: 15), "watcher: \(w.stdout)\(w.stderr)")
            // Crimson's tab bar is #800000, forest's #008000.
            XCTAssertTrue(w.stdout.contains("\(n + 1) Window/TabBar tint-color=#800000ff\n"), w.stdout)
            XCTAssertTrue(w.stdout.contains("\(n + 2) Window/TabBar tint-color=#008000ff\n"), w.stdout)
        }
        // The label inherits the accent as its tint: the first watcher heard it too.
        XCTAssertTrue(first.stdout.contains("\(n + 1) Window/Label tint-color=#800000ff\n"), first.stdout)
        XCTAssertFalse(
            second.stdout.contains("Window/Label"), "the second does not watch it: \(second.stdout)")
        XCTAssertTrue(waitUntil { cli.stdout.components(separatedBy: "\n").count >= 3 }, cli.stderr)
        XCTAssertEqual(
            cli.stdout,
            "\(n + 1) Window/TabBar tint-color #800000ff\n\(n + 2) Window/TabBar tint-color #008000ff\n",
            cli.stderr)
        // dbus-monitor prints a signal's header line, then its arguments, the path first.
        func broadcasts(of path: String) -> [String] {
            let lines = monitor.stdout.components(separatedBy: "\n")
            return zip(lines, lines.dropFirst()).filter {
                $0.0.contains("member=Changed")
                    && $0.1.trimmingCharacters(in: .whitespaces) == "string \"\(path)\""
            }.map(\.0)
        }
        XCTAssertTrue(waitUntil { broadcasts(of: "Window/Label").count == 2 }, monitor.stdout)
        XCTAssertEqual(
            broadcasts(of: "Window/TabBar").count, 2,
            "one broadcast per switch for three watchers:\n\(monitor.stdout)")
        XCTAssertTrue(
            broadcasts(of: "Window/TabBar").allSatisfy { $0.contains("destination=(null destination)") },
            monitor.stdout)
    }

    /// `gdbus monitor`, a client nobody here wrote, sees the broadcast `Changed` of a watched
    /// path with its four arguments.
    func testGdbusMonitorSeesTheBroadcast() throws {
        try startDaemon()
        let monitor = try background(
            Locations.tool("gdbus"), ["monitor", "--address", address, "--dest", "org.livery.Livery1"])
        let watcher = try startWatcher(["Window/TabBar"], changes: 1)
        // gdbus prints the owner of the name once it has it, after its match for the signals:
        // the bus has both, so nothing sent afterwards is missed.
        XCTAssertTrue(
            waitUntil { monitor.stdout.contains("The name org.livery.Livery1 is owned by ") },
            monitor.stdout + monitor.stderr)
        let n = try serial()
        try setTheme("forest")
        XCTAssertTrue(watcher.waitForExit(timeout: 15), watcher.stdout + watcher.stderr)
        XCTAssertTrue(
            waitUntil {
                monitor.stdout.contains(
                    "org.livery.Livery1.Changed ('Window/TabBar', '', uint32 \(n + 1), {'tint-color': <'#008000ff'>"
                )
            }, monitor.stdout)
    }

    /// Watches belong to their client: another client's `Unwatch` does not remove them, and they
    /// go when the client leaves (no more `Changed` for the path once nobody watches it).
    func testWatchesBelongToTheirClientAndGoWithIt() throws {
        // The debug log says when a client that left has been released, and how many watched
        // keys each publication recomputed.
        try startDaemon(arguments: ["--log-level", "debug"])
        let keeper = try startWatcher(["Window/Switch"], changes: 1000)
        // A client of another path that stays: every switch's publication recomputes its key.
        _ = try startWatcher(["Window/TabBar"], changes: 1000)
        let other = try python(
            """
            import sys, dbus
            conn = dbus.bus.BusConnection(sys.argv[1])
            livery = dbus.Interface(conn.get_object("org.livery.Livery1", "/org/livery/Livery1"), "org.livery.Livery1")
            livery.Unwatch(["Window/Switch"], dbus.Dictionary({}, signature="sv"))
            print("ok")
            """)
        XCTAssertEqual(other.stdout, "ok\n", "\(other)")
        let monitor = try startMonitor(
            "type='signal',interface='org.livery.Livery1',member='Changed'",
            "type='signal',sender='org.freedesktop.DBus',member='NameLost'")
        // dbus-monitor prints a signal's header line, then its arguments, the path first.
        func broadcasts(of path: String) -> [String] {
            let lines = monitor.stdout.components(separatedBy: "\n")
            return zip(lines, lines.dropFirst()).filter {
                $0.0.contains("member=Changed")
                    && $0.1.trimmingCharacters(in: .whitespaces) == "string \"\(path)\""
            }.map(\.0)
        }
        let n = try serial()
        try setTheme("forest")
        XCTAssertTrue(waitUntil { keeper.stdout.contains("\(n + 1) Window/Switch") }, keeper.stdout)
        keeper.stop()
        // The daemon has heard the keeper leave once it logs the release of its one watch.
        XCTAssertTrue(
            waitUntil { self.daemon.stderr.contains(" left the bus; released 1 watch(es)") }, daemon.stderr)
        try setTheme("crimson")
        try setTheme("default")
        // The last switch's publication has run, and recomputed the other client's key alone.
        XCTAssertTrue(
            waitUntil { self.daemon.stderr.contains("serial \(n + 3)'s first batch of 1 keys") },
            daemon.stderr)
        XCTAssertTrue(waitUntil { !broadcasts(of: "Window/Switch").isEmpty }, monitor.stdout)
        XCTAssertEqual(
            broadcasts(of: "Window/Switch").count, 1,
            "only the switch while the keeper watched:\n\(monitor.stdout)")
        XCTAssertTrue(daemon.isRunning, daemon.stderr)
    }

    func testWatchLimits() throws {
        try startDaemon()
        let r = try python(
            """
            import sys, dbus
            conn = dbus.bus.BusConnection(sys.argv[1])
            livery = dbus.Interface(conn.get_object("org.livery.Livery1", "/org/livery/Livery1"), "org.livery.Livery1")
            options = dbus.Dictionary({}, signature="sv")
            def watch(paths, app=None):
                o = dbus.Dictionary({"app": app} if app else {}, signature="sv")
                try:
                    serial, values = livery.Watch(dbus.Array(paths, signature="s"), o)
                    return "ok %d" % len(values)
                except dbus.exceptions.DBusException as e:
                    return e.get_dbus_name()
            print("1025 paths:", watch(["Window/Button"] * 1025))
            print("bad path:", watch(["Window/Buton"]))
            print("long path:", watch(["Window/" + "View/" * 300 + "Button"]))
            print("bad app:", watch(["Window/Button"], app=dbus.UInt32(3)))
            print("16 x 1024:", all(watch(["Window/View#n%d" % (i * 1024 + j) for j in range(1024)]) == "ok 1024" for i in range(16)))
            print("one more:", watch(["Window/Button"]))
            livery.Unwatch(dbus.Array(["Window/View#n0"], signature="s"), options)
            print("after unwatch:", watch(["Window/Button"]))
            """, timeout: 120)
        XCTAssertEqual(
            r.stdout,
            """
            1025 paths: org.livery.Livery1.Error.LimitExceeded
            bad path: org.livery.Livery1.Error.InvalidPath
            long path: org.livery.Livery1.Error.LimitExceeded
            bad app: org.freedesktop.DBus.Error.InvalidArgs
            16 x 1024: True
            one more: org.livery.Livery1.Error.LimitExceeded
            after unwatch: ok 1

            """, "\(r)")
        XCTAssertTrue(daemon.isRunning, daemon.stderr)
    }

    /// Clients that start watching in the middle of a storm of switches end with the values of
    /// the last theme: the match before the read loses nothing, and the serial drops the old.
    func testAClientThatMatchesFirstLosesNoChangeUnderASwitchStorm() throws {
        try startDaemon()
        // Watchers started while a background storm runs.
        let script = root + "/storm.py"
        try """
        import sys, dbus
        conn = dbus.bus.BusConnection(sys.argv[1])
        livery = dbus.Interface(conn.get_object("org.livery.Livery1", "/org/livery/Livery1"), "org.livery.Livery1")
        for i in range(60):
            livery.SetTheme(["crimson", "forest"][i % 2])
        livery.SetTheme("crimson")
        print("done", flush=True)
        """.write(toFile: script, atomically: true, encoding: .utf8)
        let switching = try background(Locations.python, [script, address])
        var watchers: [Background] = []
        for _ in 0..<4 {
            watchers.append(try startWatcherLive(["Window/TabBar", "Window/NavigationBar"]))
        }
        XCTAssertTrue(switching.waitForExit(timeout: 60), switching.stderr)
        XCTAssertEqual(switching.stdout, "done\n", switching.stderr)
        // After the storm, each watcher's values are crimson's (#800000 for both bars).
        for w in watchers {
            XCTAssertTrue(
                waitUntil {
                    w.stdout.hasSuffix("final Window/NavigationBar=#800000ff Window/TabBar=#800000ff\n")
                },
                "watcher: \(w.stdout.suffix(600))\(w.stderr)")
        }
    }

    /// A watcher that prints its tint colours after every change it applies (serials only
    /// going up), as `final …`.
    func startWatcherLive(_ paths: [String]) throws -> Background {
        let script = root + "/live.py"
        if !FileManager.default.fileExists(atPath: script) {
            try """
            import sys, dbus
            from dbus.mainloop.glib import DBusGMainLoop
            from gi.repository import GLib
            DBusGMainLoop(set_as_default=True)
            conn = dbus.bus.BusConnection(sys.argv[1])
            livery = dbus.Interface(conn.get_object("org.livery.Livery1", "/org/livery/Livery1"), "org.livery.Livery1")
            paths = sys.argv[2].split(",")
            state = {"serial": None, "early": [], "values": {}, "last": {}}
            def show():
                print("final " + " ".join("%s=%s" % (p, state["values"][p]) for p in sorted(paths)), flush=True)
            def apply(path, serial, values):
                if serial <= state["serial"] or "tint-color" not in values:
                    return
                if serial <= state["last"].get(path, 0):
                    print("OUT OF ORDER %s %d" % (path, serial), flush=True)
                state["last"][path] = serial
                state["values"][str(path)] = str(values["tint-color"])
                show()
            def changed(path, app, serial, values):
                if state["serial"] is None:
                    state["early"].append((path, serial, values))
                else:
                    apply(path, serial, values)
            for p in paths:
                conn.add_signal_receiver(changed, signal_name="Changed", dbus_interface="org.livery.Livery1",
                                         path="/org/livery/Livery1", arg0=p)
            serial, values = livery.Watch(dbus.Array(paths, signature="s"), dbus.Dictionary({}, signature="sv"))
            state["serial"] = int(serial)
            for p in paths:
                state["values"][p] = str(values[p]["tint-color"])
            for e in state["early"]:
                apply(*e)
            show()
            GLib.timeout_add_seconds(60, GLib.MainLoop().quit)
            GLib.MainLoop().run()
            """.write(toFile: script, atomically: true, encoding: .utf8)
        }
        return try background(Locations.python, [script, address, paths.joined(separator: ",")])
    }

    /// While the largest watch set one client may hold (16,384 paths, each near the path limit
    /// and 32 segments deep) is recomputed for a switch, `Peer.Ping` is answered: its reply
    /// arrives before the switch's last `Changed` does. Correctness, not timing; the benchmark
    /// (`bench/fanout/`) times the 65,536 paths of all clients in a release build (four times
    /// this, which would make the debug test suite two minutes longer).
    func testPingIsAnsweredWhileAMaximalWatchSetIsRecomputed() throws {
        try startDaemon()
        let r = try python(
            """
            import sys, time, threading, dbus
            from dbus.mainloop.glib import DBusGMainLoop
            from gi.repository import GLib
            DBusGMainLoop(set_as_default=True)
            address = sys.argv[1]
            # 32 segments and close to the 1 KiB limit, a distinct name in the first.
            tail = "/".join(["View#a-segment-of-a-long-path-%02d" % i for i in range(29)])
            def path(n):
                return ("Window/View#n%05d/" % n) + tail + "/Button"
            assert 975 <= len(path(0)) <= 1024 and path(0).count("/") == 31, len(path(0))
            conns = [dbus.bus.BusConnection(address)]
            received = {"changed": 0, "last": 0.0}
            def changed(*args):
                received["changed"] += 1
                received["last"] = time.monotonic()
            for c in conns:
                c.add_signal_receiver(changed, signal_name="Changed", dbus_interface="org.livery.Livery1")
            for k, c in enumerate(conns):
                livery = dbus.Interface(c.get_object("org.livery.Livery1", "/org/livery/Livery1"), "org.livery.Livery1")
                for i in range(16):
                    base = k * 16384 + i * 1024
                    livery.Watch(dbus.Array([path(base + j) for j in range(1024)], signature="s"),
                                 dbus.Dictionary({}, signature="sv"), timeout=120)
            print("watching", flush=True)
            pinger = dbus.bus.BusConnection(address)
            peer = dbus.Interface(pinger.get_object("org.livery.Livery1", "/org/livery/Livery1"), "org.freedesktop.DBus.Peer")
            control = dbus.Interface(pinger.get_object("org.livery.Livery1", "/org/livery/Livery1"), "org.livery.Livery1")
            control.SetTheme("forest", timeout=120)
            pinged = time.monotonic()
            peer.Ping(timeout=30)
            answered = time.monotonic()
            loop = GLib.MainLoop()
            def check():
                if received["changed"] >= 16384:
                    loop.quit()
                    return False
                return True
            GLib.timeout_add(50, check)
            GLib.timeout_add_seconds(300, loop.quit)
            loop.run()
            print("changes", received["changed"])
            print("ping answered before the last Changed:", answered < received["last"])
            """, timeout: 400)
        XCTAssertEqual(
            r.stdout,
            "watching\nchanges 16384\nping answered before the last Changed: True\n", "\(r)")
        XCTAssertTrue(daemon.isRunning, daemon.stderr)
    }
}
