import Foundation
import XCTest

/// The shipped plugins that reload a running program (by a signal, its own client or its bus),
/// set up as the README says, with the programs Debian 12 ships: each reads the file Livery
/// writes with its own parser, and a running one shows the new colours after `livery set`. They
/// reach every such program of the user, so they run one at a time (scripts/test.sh). The
/// expected colours come from the scheme files.
final class LiveProgramPluginTests: ProgramPluginTestCase {
    /// polybar 3.6 (Debian 12's) under Xvfb with config.ini including the plugin's colours file:
    /// its own parser resolves `${colors.…}` to the theme's colours (`polybar --dump`), a
    /// running bar draws the theme's background, and after `livery set` (SIGUSR1: polybar
    /// restarts in place, the same process) the new one.
    func testPolybarReadsTheColoursAndARunningBarRestartsWithEachSwitch() throws {
        let polybar = try tool("polybar")
        let display = try startDisplay()
        try enable("polybar")
        let config = home + "/.config/polybar/config.ini"
        try write(
            """
            include-file = ~/.config/polybar/livery.ini

            [bar/livery]
            width = 100%
            height = 40
            background = ${colors.background}
            foreground = ${colors.foreground}
            border-bottom-color = ${colors.alert}
            line-color = ${colors.primary}
            modules-left = text
            font-0 = DejaVu Sans:size=10

            [module/text]
            type = custom/text
            content = livery

            """, to: config)
        try startDaemon()
        try setTheme("nord")
        let nord = try slots("nord")
        XCTAssertTrue(
            waitUntil {
                contents(".config/polybar/livery.ini")?.contains("background = " + nord["base00"]!) == true
            },
            "livery.ini never written for nord: \(daemon.stderr.suffix(800))")
        for (key, slot) in [
            ("background", "base00"), ("foreground", "base05"), ("border-bottom-color", "base08"),
            ("line-color", "base0A"),
        ] {
            let dumped = try run(polybar, ["--config=" + config, "--dump=" + key, "livery"])
            XCTAssertEqual(dumped.stdout, nord[slot]! + "\n", "\(key): \(dumped)")
        }
        let bar = try background(polybar, ["--config=" + config, "livery"])
        let strip = PixelRect(x: 0, y: 0, width: display.width, height: 40)
        func shows(_ color: String) throws -> Bool {
            // The bar is the theme's background but for its text, "livery" at the left.
            try display.screenshot().count(of: PixelColor(color), in: strip) > display.width * 30
        }
        let drawn = try waitUntil { try shows(nord["base00"]!) }
        let seen = try display.screenshot().commonestColors()
        XCTAssertTrue(drawn, "no bar in nord's background: \(seen)\n\(bar.stderr)")
        try switchTheme("3024", plugin: "polybar")
        let theme = try slots("3024")
        var shown = ""
        let followed = try waitUntil {
            let shot = try display.screenshot()
            shown = shot.commonestColors()
            return shot.count(of: PixelColor(theme["base00"]!), in: strip) > display.width * 30
        }
        XCTAssertTrue(followed, "the running bar after livery set 3024: \(shown)\n\(bar.stderr.suffix(800))")
        XCTAssertTrue(bar.isRunning, "polybar restarts in place on SIGUSR1")
    }

    /// A tmux server of the test's own in the foreground (tearDown stops it), named `name`, in
    /// which programs run on a terminal whose screen the test reads.
    func startTmuxServer(_ name: String) throws -> String {
        let tmux = try tool("tmux")
        environment["TMUX_TMPDIR"] = try makeDirectory("tmux")
        let server = try background(tmux, ["-D", "-f", "/dev/null", "-L", name])
        let socket = environment["TMUX_TMPDIR"]! + "/tmux-\(getuid())/" + name
        XCTAssertTrue(
            waitUntil { FileManager.default.fileExists(atPath: socket) || !server.isRunning }, server.stderr)
        return tmux
    }

    /// The SGR code of a 24-bit colour `#rrggbb` as a foreground (38) or background (48).
    func sgr(_ hex: String, _ layer: Int) -> String {
        let v = Int(hex.dropFirst(), radix: 16)!
        return "\u{1b}[\(layer);2;\(v >> 16);\(v >> 8 & 0xff);\(v & 0xff)m"
    }

    /// btop 1.2.13 (Debian 12's) with btop.conf naming the plugin's theme, on a terminal (a tmux
    /// session): its theme reader takes the file (the background and the boxes' colours are on
    /// the screen), the switch leaves a running 1.2.13 alone (SIGUSR2 would end it: it has no
    /// handler, /proc says), a btop started after it shows the new theme, and a program named
    /// btop that catches SIGUSR2, as 1.3.1 and later do, gets it.
    func testBtopTakesTheThemeAndOnlyABtopThatCatchesSIGUSR2GetsIt() throws {
        let btop = try tool("btop")
        try enable("btop")
        try write(
            "color_theme = \"livery\"\ntheme_background = True\ntruecolor = True\n",
            to: ".config/btop/btop.conf")
        try startDaemon()
        // btop, and so the terminal it runs on, look for btop.conf where the user has it.
        environment["XDG_CONFIG_HOME"] = home + "/.config"
        let tmux = try startTmuxServer("btop")
        func shows(_ session: String, _ id: String) throws -> Bool {
            let s = try slots(id)
            var screen = ""
            let drawn = try waitUntil {
                screen = try run(tmux, ["-L", "btop", "capture-pane", "-e", "-p", "-t", session]).stdout
                return screen.contains(sgr(s["base00"]!, 48)) && screen.contains(sgr(s["base0E"]!, 38))
                    && screen.contains(sgr(s["base0B"]!, 38))
            }
            XCTAssertTrue(drawn, "\(session) under \(id): \(screen.prefix(1500).debugDescription)")
            return drawn
        }
        func start(_ session: String) throws {
            let r = try run(
                tmux, ["-L", "btop", "new-session", "-d", "-s", session, "-x", "100", "-y", "30", btop])
            XCTAssertEqual(r.status, 0, "\(r)")
        }
        try setTheme("nord")
        XCTAssertTrue(
            waitUntil {
                contents(".config/btop/themes/livery.theme")?.contains(try! slots("nord")["base00"]!) == true
            })
        try start("first")
        _ = try shows("first", "nord")

        let log = root + "/usr2"
        let standIn = try makeDirectory("bin") + "/btop"
        try FileManager.default.copyItem(atPath: try tool("bash"), toPath: standIn)
        let catching = try background(
            standIn, ["-c", "trap 'echo usr2 >> \(log)' USR2; echo ready; while :; do sleep 0.1; done"])
        XCTAssertTrue(waitUntil { catching.stdout.contains("ready") })
        try switchTheme("3024", plugin: "btop")
        XCTAssertTrue(
            waitUntil { contents(log) == "usr2\n" },
            "the btop that catches SIGUSR2: \(contents(log) ?? "nothing")")
        let first = try run(
            tmux, ["-L", "btop", "list-panes", "-t", "first", "-F", "#{pane_dead} #{pane_current_command}"])
        XCTAssertEqual(first.stdout, "0 btop\n", "btop 1.2.13 runs on after the switch")
        try start("second")
        _ = try shows("second", "3024")
    }

    /// GNOME Terminal 3.46 (Debian 12's) on dconf under Xvfb: gsettings takes every key the
    /// plugin sets on the default profile (it checks them against GNOME Terminal's schema) with
    /// the scheme's terminal colours, and a running terminal (its own server on the test's
    /// bus) answers a program inside it with each switch's background, foreground and colour 1.
    func testGnomeTerminalsDefaultProfileTakesEachSwitchAndRunningTerminalsFollow() throws {
        let terminal = try tool("gnome-terminal")
        let gsettings = try tool("gsettings")
        try startDconf()
        _ = try startDisplay()
        environment["NO_AT_BRIDGE"] = "1"
        environment["GIO_USE_VFS"] = "local"
        try enable("gnome-terminal")
        try startDaemon()
        let profile =
            "org.gnome.Terminal.Legacy.Profile:/org/gnome/terminal/legacy/profiles:/:b1dcc9dd-5262-4d8d-a863-c897e6d979b9/"
        func get(_ key: String) throws -> String {
            try run(gsettings, ["get", profile, key]).stdout.trimmingCharacters(in: .newlines)
        }
        try switchTheme("nord", plugin: "gnome-terminal")
        let nord = try slots("nord")
        XCTAssertEqual(try get("use-theme-colors"), "false")
        XCTAssertEqual(try get("background-color"), "'\(nord["base00"]!)'")
        XCTAssertEqual(try get("foreground-color"), "'\(nord["base05"]!)'")
        XCTAssertEqual(
            try get("palette"), "[" + terminalPalette(nord).map { "'\($0)'" }.joined(separator: ", ") + "]")
        XCTAssertEqual(try get("highlight-background-color"), "'\(nord["base02"]!)'")

        let appID = "org.livery.TestTerminal"
        environment["LANG"] = "C.UTF-8"  // GNOME Terminal refuses other encodings
        let terminalServer = try background("/usr/libexec/gnome-terminal-server", ["--app-id", appID])
        let named = try waitUntil {
            try run(
                Locations.tool("gdbus"),
                [
                    "call", "--address", address, "--dest", "org.freedesktop.DBus", "--object-path",
                    "/org/freedesktop/DBus", "--method", "org.freedesktop.DBus.NameHasOwner", appID,
                ]
            ).stdout.contains("true")
        }
        XCTAssertTrue(named, "gnome-terminal-server never owned \(appID): \(terminalServer.stderr)")
        let answers = root + "/answers"
        let opened = try run(terminal, ["--app-id", appID, "--"] + (try queryCommand(answers)))
        XCTAssertEqual(opened.stderr, "", "\(opened)")
        for id in ["nord", "3024"] {
            if id != "nord" { try switchTheme(id, plugin: "gnome-terminal") }
            let s = try slots(id)
            let want = [s["base00"]!, s["base05"]!, s["base08"]!]
            let followed = waitUntil { terminalAnswer(answers) == want }
            XCTAssertTrue(
                followed,
                "\(id): answered \(terminalAnswer(answers) ?? []), want \(want)\n\(terminalServer.stderr.suffix(800))"
            )
        }
    }

    /// Konsole 22.12 (Debian 12's) under Xvfb with a profile naming the plugin's scheme: a
    /// konsole started with it answers a program inside it with the scheme's background and
    /// foreground (Konsole read the file), after `livery set` the running konsole answers the
    /// new background, foreground and colour 1 (the sequences), and a konsole started after
    /// the switch the new background and foreground.
    func testKonsoleReadsTheSchemeAndRunningWindowsFollow() throws {
        let konsole = try tool("konsole")
        try enable("konsole")
        try write(
            "[Appearance]\nColorScheme=Livery\n\n[General]\nName=Test\nParent=FALLBACK/\n",
            to: ".local/share/konsole/Test.profile")
        _ = try startDisplay()
        let runtime = try makeDirectory("runtime")
        chmod(runtime, 0o700)
        environment["XDG_RUNTIME_DIR"] = runtime
        environment["NO_AT_BRIDGE"] = "1"
        try startDaemon()
        // Konsole looks for profiles and schemes where the user has them.
        environment["XDG_DATA_HOME"] = home + "/.local/share"
        environment["XDG_CONFIG_HOME"] = home + "/.config"
        // No konsole runs yet: the scheme is written, the sequences' command skipped.
        try switchTheme("nord", plugin: "konsole", expecting: "skipped: konsole not running")
        let nord = try slots("nord")
        let running = root + "/running"
        let first = try background(konsole, ["--profile", "Test", "-e"] + (try queryCommand(running)))
        var shown: [String]?
        let read = waitUntil(timeout: 20) {
            shown = terminalAnswer(running)
            return shown?.prefix(2) == [nord["base00"]!, nord["base05"]!]
        }
        XCTAssertTrue(
            read, "a konsole started under nord answered \(shown ?? [])\n\(first.stderr.suffix(800))")
        try switchTheme("3024", plugin: "konsole")
        let theme = try slots("3024")
        let want = [theme["base00"]!, theme["base05"]!, theme["base08"]!]
        let followed = waitUntil {
            shown = terminalAnswer(running)
            return shown == want
        }
        XCTAssertTrue(followed, "the running konsole answered \(shown ?? []), want \(want)")
        let later = root + "/later"
        let second = try background(konsole, ["--profile", "Test", "-e"] + (try queryCommand(later)))
        let fresh = waitUntil(timeout: 20) {
            shown = terminalAnswer(later)
            return shown?.prefix(2) == want.prefix(2)
        }
        XCTAssertTrue(
            fresh, "a konsole started after the switch answered \(shown ?? [])\n\(second.stderr.suffix(800))")
    }

    /// cava 0.7.4 (Debian 12's) in an xterm under Xvfb, started with the plugin's merged file:
    /// it keeps the user's own settings (here its input, a FIFO fed a tone, and output) but not
    /// their colours, cava draws its background and bars in the theme's base00 and base0D, and
    /// after `livery set` the running cava (SIGUSR2) the new ones.
    func testCavaTakesTheMergedConfigurationAndReloadsItsColours() throws {
        let cava = try tool("cava")
        let xterm = try tool("xterm")
        let display = try startDisplay()
        try enable("cava")
        let fifo = root + "/fifo"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        try write(
            "[input]\nmethod = fifo\nsource = \(fifo)\n\n[output]\nmethod = noncurses\n\n[color]\nforeground = red\n",
            to: configHome + "/cava/config")
        try startDaemon()
        try switchTheme("nord", plugin: "cava")
        let merged = try XCTUnwrap(contents(configHome + "/cava/livery.conf"))
        XCTAssertTrue(merged.contains("source = \(fifo)") && !merged.contains("red"), merged)
        let feed = root + "/feed.py"
        try write(
            """
            import math, struct, sys, time
            out, t = open(sys.argv[1], "wb"), 0
            while True:
                s = [int(12000 * (math.sin(2 * math.pi * 220 * (t + i) / 44100) + math.sin(2 * math.pi * 2000 * (t + i) / 44100))) for i in range(441)]
                out.write(b"".join(struct.pack("<hh", v, v) for v in s))
                out.flush()
                t += 441
                time.sleep(0.01)

            """, to: feed)
        _ = try background(Locations.python, [feed, fifo])
        let window = try background(
            xterm,
            [
                "-tn", "xterm-256color", "-geometry", "60x15+0+0", "-e", cava, "-p",
                configHome + "/cava/livery.conf",
            ])
        for id in ["nord", "3024"] {
            if id != "nord" { try switchTheme(id, plugin: "cava") }
            let s = try slots(id)
            var seen = ""
            let drawn = waitUntil {
                guard let shot = try? display.screenshot() else { return false }
                seen = shot.commonestColors()
                // cava gives the terminal each colour on curses' 0–1000 scale: a channel may come
                // back 1 off.
                return shot.count(of: PixelColor(s["base00"]!), tolerance: 2) > 20_000
                    && shot.count(of: PixelColor(s["base0D"]!), tolerance: 2) > 500
            }
            XCTAssertTrue(drawn, "cava under \(id): \(seen)\n\(window.stderr.suffix(800))")
        }
    }
}
