import Foundation
import XCTest

/// The shipped plugins of desktop programs, each enabled and included as the README says, with
/// Debian 12's programs: every file the plugins write is read by its program's own parser, and
/// the running programs show a switch, on screenshots or from inside (a Qt application's
/// `QPalette`). The expected colours are the fixture schemes' slots as their files write them,
/// placed as the README's table says.
final class DesktopProgramPluginTests: EndToEndTestCase {
    var home: String { root + "/home" }
    var userConfig: String { home + "/.config" }

    /// The user's home and configuration as a desktop has them: `HOME`, and `XDG_CONFIG_HOME` its
    /// `.config`, where liveryd finds the plugins and the programs their configuration; the
    /// shipped plugins `names` linked there as the README says.
    func setUpHome(enabling names: [String]) throws {
        environment["HOME"] = home
        environment["XDG_CONFIG_HOME"] = userConfig
        try FileManager.default.createDirectory(
            atPath: userConfig + "/livery/plugins", withIntermediateDirectories: true)
        for name in names {
            try FileManager.default.createSymbolicLink(
                atPath: userConfig + "/livery/plugins/" + name,
                withDestinationPath: Locations.repo + "/plugins/" + name)
        }
    }

    /// Writes `text` to `path` under the home, making its directory.
    func write(_ text: String, to relative: String) throws {
        let path = home + "/" + relative
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    func read(_ relative: String) -> String {
        (try? String(contentsOfFile: home + "/" + relative, encoding: .utf8)) ?? ""
    }

    /// `livery set ID`, then waits until `file` (under the home) has `line`: the plugins ran.
    func switchTo(_ id: String, until file: String, has line: String) throws {
        try setTheme(id)
        XCTAssertTrue(
            waitUntil { read(file).split(separator: "\n").contains(Substring(line)) },
            "\(file) never had \(line): \(read(file))\n\(daemon.stderr.suffix(1000))")
    }

    /// Waits until every plugin of `names` has ended its run of the active serial with `result`.
    func waitForResults(_ names: [String], _ result: String = "ok") throws {
        var rows: [String: String] = [:]
        let done = try waitUntil(timeout: 20) {
            let r = try livery("plugins", "--json")
            let list =
                (try? JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]]) ?? []
            for row in list {
                if let name = row["name"] as? String, names.contains(name) {
                    rows[name] = row["result"] as? String
                }
            }
            return names.allSatisfy { rows[$0] == result }
        }
        let status = try livery("status").stdout
        XCTAssertTrue(done, "results: \(rows)\n\(status)")
    }

    /// Polls screenshots until `satisfied` holds for one (at most 20 s); returns the last.
    func screenshot(
        _ take: () throws -> Screenshot, until satisfied: (Screenshot) -> Bool
    ) throws -> Screenshot {
        var last = try take()
        let deadline = Date().addingTimeInterval(20)
        while !satisfied(last) && Date() < deadline {
            usleep(100_000)
            last = try take()
        }
        return last
    }

    // MARK: sway, waybar and mako

    /// A bar's background as `swaymsg -t get_bar_config` or `i3-msg -t get_bar_config` gives it,
    /// `#rrggbb` lower-case (sway adds the alpha, `ff`).
    func barBackground(_ client: String, socket: String) throws -> String {
        let r = try run(client, ["-s", socket, "-t", "get_bar_config", "bar-0"])
        let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        let colour = ((json?["colors"] as? [String: Any])?["background"] as? String ?? "?").lowercased()
        return String(colour.prefix(7))
    }

    /// Waits until the notification server on the test's bus is `name` (`GetServerInformation`),
    /// asked only once the name has an owner: a call to a name without one would start a
    /// notification daemon through D-Bus activation.
    func waitForNotificationServer(_ name: String) throws {
        let owned = try waitUntil(timeout: 20) {
            let r = try busctl([
                "call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                "NameHasOwner", "s", "org.freedesktop.Notifications",
            ])
            guard r.stdout.hasPrefix("b true") else { return false }
            let info = try busctl([
                "call", "org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                "org.freedesktop.Notifications", "GetServerInformation",
            ])
            return info.stdout.hasPrefix("ssss \"\(name)\"")
        }
        XCTAssertTrue(owned, "\(name) never served org.freedesktop.Notifications")
    }

    /// Sends a notification of normal urgency that stays until dismissed.
    func notify(_ summary: String) throws {
        let r = try run(
            try tool("gdbus"),
            [
                "call", "--session", "--dest", "org.freedesktop.Notifications", "--object-path",
                "/org/freedesktop/Notifications", "--method", "org.freedesktop.Notifications.Notify",
                "livery-test", "0", "", summary, "a notification", "[]", "{}", "0",
            ])
        XCTAssertEqual(r.status, 0, "\(r)")
    }

    /// sway, waybar and mako, set up as the README says, on a headless sway (a focused window with
    /// its title bar, waybar, a mako notification): the files pass `sway -C`, and after a switch
    /// the screenshot shows the new theme's focused title bar (client.focused's background,
    /// base0D), waybar's background (style.css's `@base0B`) and the notification's background
    /// (base00), and swaybar's colours (`$base01` in the config's bar block) are the new ones.
    func testSwayWaybarAndMakoFollowASwitch() throws {
        _ = try tool("grim")
        let foot = try tool("foot")
        try setUpHome(enabling: ["sway", "waybar", "mako"])
        let runtime = try makeDirectory("runtime")
        chmod(runtime, 0o700)
        environment["XDG_RUNTIME_DIR"] = runtime
        let config = userConfig + "/sway/config"
        try write(
            """
            include ~/.config/sway/livery
            xwayland disable
            output HEADLESS-1 resolution 640x480 bg #000000 solid_color
            default_border normal 2
            font pango:DejaVu Sans 10
            bar {
                position bottom
                colors {
                    background $base01
                }
            }

            """, to: ".config/sway/config")
        try write(
            "@import \"livery.css\";\nwindow#waybar { background-color: @base0B; }\n",
            to: ".config/waybar/style.css")
        try write(
            #"{ "layer": "top", "position": "top", "height": 30, "modules-left": [], "modules-right": [] }"#,
            to: ".config/waybar/config")
        try write(
            "# livery colours begin\n# livery colours end\ndefault-timeout=0\nanchor=bottom-right\nwidth=300\nheight=100\n",
            to: ".config/mako/config")
        try startDaemon()
        let nord = try slots("nord")
        try switchTo("nord", until: ".config/sway/livery", has: "set $base0D \(nord["base0D"]!)")
        XCTAssertTrue(
            waitUntil { read(".config/mako/config").contains("background-color=\(nord["base00"]!)") },
            "mako's config: \(read(".config/mako/config"))")
        // sway's own parser on the user's config with the include.
        var check = environment
        check["WLR_BACKENDS"] = "headless"
        check["WLR_RENDERER"] = "pixman"
        check["WLR_LIBINPUT_NO_DEVICES"] = "1"
        let saved = environment
        environment = check
        let parsed = try run(try tool("unshare"), ["--user", try tool("sway"), "-C", "-c", config])
        environment = saved
        XCTAssertEqual(parsed.status, 0, "sway -C: \(parsed)")

        let sway = try startSway(as: .user, config: config)
        let socket = sway.socket
        let waybar = try background(try tool("waybar"), [])
        _ = try background(foot, ["sleep", "600"])
        let mako = try background(try tool("mako"), [])
        try waitForNotificationServer("mako")
        try notify("nord")
        func shows(_ s: [String: String]) -> (Screenshot) -> Bool {
            { shot in
                shot.count(of: PixelColor(s["base0D"]!)) >= 2000
                    && shot.count(of: PixelColor(s["base0B"]!)) >= 15000
                    && shot.count(of: PixelColor(s["base00"]!)) >= 8000
            }
        }
        let before = try screenshot(sway.screenshot, until: shows(nord))
        XCTAssertTrue(
            shows(nord)(before),
            "nord: \(before.commonestColors(8))\nwaybar: \(waybar.stderr.suffix(500))\nmako: \(mako.stderr.suffix(500))"
        )
        XCTAssertEqual(try barBackground(try tool("swaymsg"), socket: socket), nord["base01"])
        // waybar logs a stylesheet GTK cannot parse as an error (`[error] livery.css:1:25 …`);
        // mako a configuration it cannot read.
        XCTAssertFalse(waybar.stderr.contains("[error]"), "waybar: \(waybar.stderr)")
        XCTAssertFalse(mako.stderr.lowercased().contains("config"), "mako: \(mako.stderr)")

        let other = try slots("3024")
        try switchTo("3024", until: ".config/sway/livery", has: "set $base0D \(other["base0D"]!)")
        let after = try screenshot(sway.screenshot, until: shows(other))
        let listed = try livery("plugins").stdout
        XCTAssertTrue(
            shows(other)(after),
            "3024: \(after.commonestColors(8))\n\(listed)\nwaybar: \(waybar.stderr.suffix(500))")
        XCTAssertEqual(try barBackground(try tool("swaymsg"), socket: socket), other["base01"])
        try waitForResults(["sway", "waybar", "mako"])

        // A run that changes nothing in mako's config (`livery reload`) leaves no temporary file
        // beside it: `exec makoctl` skipped the EXIT trap that removes it. `last-run` is in whole
        // seconds: the reload starts in a later second than the switch's run, so a new value
        // says the reload's run has ended.
        func makoRow() throws -> [String: Any] {
            let rows =
                try JSONSerialization.jsonObject(with: Data(try livery("plugins", "--json").stdout.utf8))
                as? [[String: Any]]
            return rows?.first { $0["name"] as? String == "mako" } ?? [:]
        }
        let ran = try makoRow()["last-run"] as? Int
        usleep(1_100_000)
        XCTAssertEqual(try livery("reload").status, 0)
        var row: [String: Any] = [:]
        XCTAssertTrue(
            try waitUntil(timeout: 20) {
                row = try makoRow()
                return row["last-run"] as? Int != ran && row["result"] as? String == "ok"
            }, "\(row)")
        let left = try FileManager.default.contentsOfDirectory(atPath: home + "/.config/mako").filter {
            $0.hasPrefix(".config.livery-")
        }
        XCTAssertEqual(left, [])
    }

    /// mako's plugin with no notification server on the session bus (mako 1.7.1's markers in its
    /// config, as the README says): the colours are copied between the markers all the same, so
    /// that a mako started later reads them, and `livery plugins` says the reload was skipped,
    /// as for a `when-running` program that does not run.
    func testMakosColoursAreCopiedAndItsReloadSkippedWhileNoMakoRuns() throws {
        try setUpHome(enabling: ["mako"])
        try write(
            "# livery colours begin\n# livery colours end\ndefault-timeout=0\n[urgency=high]\nborder-color=#ff0000\n",
            to: ".config/mako/config")
        try startDaemon()
        let nord = try slots("nord")
        try setTheme("nord")
        try waitForResults(["mako"], "skipped: mako not running")
        XCTAssertEqual(
            read(".config/mako/config"),
            """
            # livery colours begin
            background-color=\(nord["base00"]!)
            text-color=\(nord["base05"]!)
            border-color=\(nord["base0D"]!)
            progress-color=over \(nord["base02"]!)
            # livery colours end
            default-timeout=0
            [urgency=high]
            border-color=#ff0000

            """)
        XCTAssertFalse(try livery("status").stdout.contains("mako"))
    }

    /// sway's config as the README says, with a bar whose background is `$base01`; the daemon
    /// started and switched to nord, whose slots it returns with the config's path.
    func startDaemonWithSwaysConfigOnNord() throws -> (config: String, nord: [String: String]) {
        let config = userConfig + "/sway/config"
        try write(
            "include ~/.config/sway/livery\nxwayland disable\nbar {\n    colors {\n        background $base01\n    }\n}\n",
            to: ".config/sway/config")
        try startDaemon()
        let nord = try slots("nord")
        try switchTo("nord", until: ".config/sway/livery", has: "set $base01 \(nord["base01"]!)")
        return (config, nord)
    }

    /// A sway started with a `SWAYSOCK` another sway left behind (a shell or tmux keeps it)
    /// listens on that path, not on `sway-ipc.UID.PID.sock` of its own pid: the plugin takes
    /// each running sway's socket from its environment, so that sway reloads too, rather than
    /// being passed over with the run reported `ok`.
    func testASwayListeningOnAnInheritedSocketIsReloaded() throws {
        try setUpHome(enabling: ["sway"])
        let runtime = try makeDirectory("runtime")
        chmod(runtime, 0o700)
        environment["XDG_RUNTIME_DIR"] = runtime
        // The name an earlier sway of pid 1 would have had: pid 1 is no sway.
        environment["SWAYSOCK"] = runtime + "/sway-ipc.0.1.sock"
        let (config, nord) = try startDaemonWithSwaysConfigOnNord()
        let socket = try startSway(as: .user, config: config).socket
        XCTAssertEqual(socket, runtime + "/sway-ipc.0.1.sock")
        XCTAssertEqual(try barBackground(try tool("swaymsg"), socket: socket), nord["base01"])
        let other = try slots("3024")
        try switchTo("3024", until: ".config/sway/livery", has: "set $base01 \(other["base01"]!)")
        try waitForResults(["sway"])
        XCTAssertEqual(try barBackground(try tool("swaymsg"), socket: socket), other["base01"])
    }

    /// Processes named sway that are no compositor are passed over: a sway that has exited and
    /// not been waited for (a zombie, whose environment cannot be read) and a configuration check
    /// (`sway -C`) still running. The running sway is reloaded and the plugin's result is `ok`
    /// (the newcomer's report: `sway -C` just before a switch failed it, "no IPC socket of yours").
    func testAnExitedSwayAndASwayConfigCheckArePassedOver() throws {
        try setUpHome(enabling: ["sway"])
        let (config, nord) = try startDaemonWithSwaysConfigOnNord()
        let socket = try startSway(as: .user, config: config).socket
        // A real `sway -C` that exits at once under a parent that never waits for it.
        let zombieParent = try background(
            "/bin/sh",
            ["-c", "\"$0\" -C -c \"$1\" >/dev/null 2>&1 & exec sleep 60", try tool("sway"), config])
        // A configuration check still running: a copy of sh named sway (its comm) with `-C` among
        // its arguments, waiting in a read of a FIFO nobody opens (a builtin: no child to leave).
        let checker = try makeDirectory("checker")
        let sh = URL(fileURLWithPath: "/bin/sh").resolvingSymlinksInPath().path
        try FileManager.default.copyItem(atPath: sh, toPath: checker + "/sway")
        mkfifo(checker + "/fifo", 0o600)
        _ = try background(checker + "/sway", ["-c", "read line < \"$1\"", "-C", checker + "/fifo"])
        XCTAssertTrue(
            waitUntil { self.processes(named: "sway").contains { $0.state == "Z" } },
            "no exited sway under \(zombieParent.process.processIdentifier)")
        XCTAssertTrue(
            waitUntil {
                self.processes(named: "sway").contains { $0.arguments.contains("-C") && $0.state != "Z" }
            },
            "the configuration check never ran")
        let other = try slots("3024")
        try switchTo("3024", until: ".config/sway/livery", has: "set $base01 \(other["base01"]!)")
        try waitForResults(["sway"])
        XCTAssertEqual(try barBackground(try tool("swaymsg"), socket: socket), other["base01"])
    }

    /// The processes of this user whose comm is `name`: state (`/proc/PID/stat`'s third field)
    /// and arguments.
    func processes(named name: String) -> [(state: String, arguments: [String])] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { pid -> (String, [String])? in
            guard Int(pid) != nil,
                let comm = try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8),
                comm.trimmingCharacters(in: .newlines) == name,
                let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return nil }
            let state = stat[stat.index(close, offsetBy: 2)...].prefix(1)
            let cmdline = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))) ?? Data()
            let arguments = cmdline.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            return (String(state), arguments)
        }
    }

    // MARK: i3, rofi and dunst

    /// The pid of the notification server's connection on the test's bus.
    func notificationServerPID() throws -> pid_t? {
        let r = try busctl([
            "call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
            "GetConnectionUnixProcessID", "s", "org.freedesktop.Notifications",
        ])
        let words = r.stdout.split(separator: " ")
        return words.count == 2 && words[0] == "u"
            ? pid_t(words[1].trimmingCharacters(in: .whitespacesAndNewlines)) : nil
    }

    /// i3, rofi and dunst, set up as the README says, under Xvfb (a focused xterm with its title
    /// bar, a dunst notification): i3's config passes `i3 -C`, rofi's `-dump-theme` gives the
    /// theme's colours, and dunst reads the drop-in without a complaint. After a switch, the
    /// screenshot shows the new theme's focused title bar (base0D), the restarted dunst's
    /// notification of normal urgency (base02, base16-dunst's) and a rofi opened afterwards
    /// (its window's background, base00).
    func testI3RofiAndDunstFollowASwitch() throws {
        let i3 = try tool("i3")
        let rofi = try tool("rofi")
        try setUpHome(enabling: ["i3", "rofi", "dunst"])
        let runtime = try makeDirectory("runtime")
        chmod(runtime, 0o700)
        environment["XDG_RUNTIME_DIR"] = runtime
        let config = userConfig + "/i3/config"
        try write(
            "include ~/.config/i3/livery\nfont pango:DejaVu Sans 10\ndefault_border normal 2\n",
            to: ".config/i3/config")
        try write("@theme \"livery\"\n", to: ".config/rofi/config.rasi")
        try write("", to: ".config/dunst/dunstrc")
        let display = try startDisplay()
        try startDaemon()
        let nord = try slots("nord")
        try switchTo("nord", until: ".config/i3/livery", has: "set $base0D \(nord["base0D"]!)")
        let parsed = try run(i3, ["-C", "-c", config])
        XCTAssertEqual(parsed.status, 0, "i3 -C: \(parsed)")
        XCTAssertFalse(parsed.stdout.contains("ERROR") || parsed.stderr.contains("ERROR"), "i3 -C: \(parsed)")
        // rofi's own reading of the theme config.rasi names: its colours as rofi writes them.
        func rgba(_ hex: String) -> String {
            let c = PixelColor(hex)
            return "rgba ( \(c.red), \(c.green), \(c.blue), 100 % );"
        }
        XCTAssertTrue(
            waitUntil {
                (try? String(contentsOfFile: dataHome + "/rofi/themes/livery.rasi", encoding: .utf8))?
                    .contains(nord["base00"]!) == true
            })
        // rofi 1.7.3 writes some lengths as bytes that are not UTF-8 (a GLib format it misuses):
        // the dump is read from a file, decoded with replacement characters.
        let dump = root + "/rofi-theme.rasi"
        let dumping = try run("/bin/sh", ["-c", "exec \"$0\" -dump-theme > \"$1\"", rofi, dump])
        XCTAssertEqual(dumping.status, 0, "\(dumping)")
        XCTAssertFalse(dumping.stderr.contains("Failed to parse"), "\(dumping)")
        let dumped = String(
            decoding: (try? Data(contentsOf: URL(fileURLWithPath: dump))) ?? Data(), as: UTF8.self)
        for (name, slot) in [
            ("background", "base00"), ("foreground", "base05"), ("red", "base08"), ("lightbg", "base01"),
        ] {
            XCTAssertTrue(
                dumped.split(separator: "\n").contains {
                    $0.hasPrefix("    \(name):") && $0.hasSuffix(rgba(nord[slot]!))
                },
                "rofi -dump-theme: \(name) is not \(nord[slot]!): \(dumped)")
        }

        let wm = try background(i3, ["-c", config])
        XCTAssertTrue(
            waitUntil {
                ((try? FileManager.default.contentsOfDirectory(atPath: runtime + "/i3")) ?? []).contains {
                    $0.hasPrefix("ipc-socket.")
                }
            },
            "i3 made no IPC socket: \(wm.stderr.suffix(1000))")
        _ = try background(try tool("xterm"), ["-e", "sleep", "600"])
        let dunst = try background(try tool("dunst"), [])
        try waitForNotificationServer("dunst")
        try notify("nord")
        func shows(_ s: [String: String], rofi: Bool = false) -> (Screenshot) -> Bool {
            { shot in
                shot.count(of: PixelColor(s["base0D"]!)) >= 2000
                    && shot.count(of: PixelColor(s["base02"]!)) >= 4000
                    && (!rofi || shot.count(of: PixelColor(s["base00"]!)) >= 10000)
            }
        }
        let before = try screenshot(display.screenshot, until: shows(nord))
        XCTAssertTrue(
            shows(nord)(before), "nord: \(before.commonestColors(8))\ndunst: \(dunst.stderr.suffix(500))")
        XCTAssertFalse(dunst.stderr.contains("WARNING: Setting"), "dunst: \(dunst.stderr)")

        let other = try slots("3024")
        try switchTo("3024", until: ".config/i3/livery", has: "set $base0D \(other["base0D"]!)")
        // dunst 1.9 cannot read its configuration again: the plugin restarts it.
        XCTAssertTrue(dunst.waitForExit(timeout: 10), "the running dunst was not restarted")
        try waitForNotificationServer("dunst")
        let restarted = try XCTUnwrap(try notificationServerPID())
        addTeardownBlock { kill(restarted, SIGTERM) }
        XCTAssertNotEqual(restarted, dunst.pid)
        try notify("3024")
        _ = try background(rofi, ["-show", "run"])
        let after = try screenshot(display.screenshot, until: shows(other, rofi: true))
        let listed = try livery("plugins").stdout
        XCTAssertTrue(shows(other, rofi: true)(after), "3024: \(after.commonestColors(8))\n\(listed)")
        try waitForResults(["i3", "rofi", "dunst"])
    }

    // MARK: Qt through qt5ct and qt6ct

    /// A Qt application (PyQt5 with `argv[1]` 5, PyQt6 with 6) that shows a window and prints
    /// `roles N` (QPalette's NColorRoles), then the application's palette, `palette ROLE=#rrggbb
    /// … disabled-Text=#rrggbb`, at start and whenever it changes.
    static let qtClient = """
        import sys
        if sys.argv[1] == "5":
            from PyQt5.QtCore import QTimer
            from PyQt5.QtGui import QPalette
            from PyQt5.QtWidgets import QApplication, QWidget
            Role, Group, count = QPalette, QPalette, QPalette.NColorRoles
        else:
            from PyQt6.QtCore import QTimer
            from PyQt6.QtGui import QPalette
            from PyQt6.QtWidgets import QApplication, QWidget
            Role, Group = QPalette.ColorRole, QPalette.ColorGroup
            count = Role.NColorRoles.value
        names = ["WindowText", "Button", "Light", "Midlight", "Dark", "Mid", "Text", "BrightText",
                 "ButtonText", "Base", "Window", "Shadow", "Highlight", "HighlightedText", "Link",
                 "LinkVisited", "AlternateBase", "ToolTipBase", "ToolTipText", "PlaceholderText"]
        app = QApplication(sys.argv)
        window = QWidget()
        window.resize(200, 100)
        window.show()
        print("roles", count, flush=True)
        last = None
        def report():
            global last
            p = app.palette()
            now = " ".join(n + "=" + p.color(Group.Active, getattr(Role, n)).name() for n in names)
            now += " disabled-Text=" + p.color(Group.Disabled, Role.Text).name()
            if now != last:
                print("palette", now, flush=True)
                last = now
        timer = QTimer()
        timer.timeout.connect(report)
        timer.start(50)
        app.exec()
        """

    /// The palette the README's table gives a base16 scheme's slots, as the client prints it.
    func qtPalette(_ s: [String: String]) -> String {
        let active: [(String, String)] = [
            ("WindowText", "05"), ("Button", "01"), ("Light", "02"), ("Midlight", "02"), ("Dark", "03"),
            ("Mid", "03"), ("Text", "05"), ("BrightText", "07"), ("ButtonText", "05"), ("Base", "00"),
            ("Window", "00"), ("Shadow", "00"), ("Highlight", "0D"), ("HighlightedText", "00"),
            ("Link", "0D"), ("LinkVisited", "0E"), ("AlternateBase", "01"), ("ToolTipBase", "01"),
            ("ToolTipText", "05"), ("PlaceholderText", "04"),
        ]
        return "palette " + active.map { "\($0.0)=\(s["base" + $0.1]!)" }.joined(separator: " ")
            + " disabled-Text=\(s["base03"]!)"
    }

    /// The last palette a client printed.
    func lastPalette(_ client: Background) -> String {
        client.stdout.split(separator: "\n").last { $0.hasPrefix("palette ") }.map(String.init) ?? ""
    }

    /// The qt plugin as the README says: qt5ct.conf and qt6ct.conf choose the custom palette
    /// `livery`; a Qt 5 application started with QT_QPA_PLATFORMTHEME=qt5ct and a Qt 6 one with
    /// qt6ct show the scheme's palette (so the scheme has the right number of colours for
    /// each: qt5ct and qt6ct fall back to the style's palette otherwise), and both take the new
    /// theme's palette while they run.
    func testQtApplicationsTakeTheSchemeThroughQt5ctAndQt6ct() throws {
        for module in ["PyQt5", "PyQt6"] {
            let found = try run(Locations.python, ["-c", "import \(module).QtWidgets"])
            XCTAssertEqual(found.status, 0, "\(module) is a test package (make deps-test): \(found)")
        }
        for plugin in ["qt5ct", "qt6ct"] {
            let directory = plugin == "qt5ct" ? "qt5" : "qt6"
            XCTAssertTrue(
                FileManager.default.fileExists(
                    atPath: "/usr/lib/x86_64-linux-gnu/\(directory)/plugins/platformthemes/lib\(plugin).so"),
                "\(plugin)'s platform theme is a test package (make deps-test)")
        }
        try setUpHome(enabling: ["qt"])
        for version in ["5", "6"] {
            try write(
                "[Appearance]\ncustom_palette=true\ncolor_scheme_path=\(userConfig)/qt\(version)ct/colors/livery.conf\nstyle=Fusion\n",
                to: ".config/qt\(version)ct/qt\(version)ct.conf")
        }
        _ = try startDisplay()
        environment["XDG_RUNTIME_DIR"] = try makeDirectory("runtime")
        chmod(environment["XDG_RUNTIME_DIR"]!, 0o700)
        try startDaemon()
        let nord = try slots("nord")
        try setTheme("nord")
        // LinkVisited's colour, base0E, is nord's in no other role.
        let written = "#ff" + nord["base0E"]!.dropFirst()
        XCTAssertTrue(
            waitUntil {
                ["5", "6"].allSatisfy { read(".config/qt\($0)ct/colors/livery.conf").contains(written) }
            })
        let script = root + "/qt-client.py"
        try Self.qtClient.write(toFile: script, atomically: true, encoding: .utf8)
        var clients: [(name: String, process: Background)] = []
        for version in ["5", "6"] {
            environment["QT_QPA_PLATFORMTHEME"] = "qt\(version)ct"
            clients.append(("Qt \(version)", try background(Locations.python, [script, version])))
        }
        for (name, client) in clients {
            XCTAssertTrue(
                waitUntil(timeout: 20) { lastPalette(client) == qtPalette(nord) },
                "\(name) under nord: \(lastPalette(client))\n\(client.stderr.suffix(800))")
            // The scheme has exactly NColorRoles colours in each group (qt5ct 1.5 and qt6ct 0.7
            // read no other count).
            let roles = client.stdout.split(separator: "\n").first { $0.hasPrefix("roles ") }
            let scheme = read(".config/qt\(name.suffix(1))ct/colors/livery.conf")
            let active = scheme.split(separator: "\n").first { $0.hasPrefix("active_colors=") } ?? ""
            XCTAssertEqual(roles, "roles \(active.split(separator: ",").count)", name)
        }

        let other = try slots("3024")
        try setTheme("3024")
        for (name, client) in clients {
            // qt5ct and qt6ct read their settings 3 s after the touch.
            let followed = waitUntil(timeout: 20) { lastPalette(client) == qtPalette(other) }
            let listed = try livery("plugins").stdout
            XCTAssertTrue(followed, "\(name) after the switch: \(lastPalette(client))\n\(listed)")
        }
        try waitForResults(["qt"])
    }
}
