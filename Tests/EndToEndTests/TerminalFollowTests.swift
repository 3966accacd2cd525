import Foundation
import XCTest

/// The shipped terminal plugins, set up as the README says, with the real terminals Debian 12
/// ships (alacritty 0.11 under Xvfb, foot 1.13 under weston): a program running inside the
/// terminal asks it for its colours (OSC 11 background, OSC 10 foreground, OSC 4 colour 1) and
/// records the answers, so what is checked is what the terminal shows, in running windows, new
/// windows and new instances, after `livery set`.
final class TerminalFollowTests: EndToEndTestCase {
    /// The colours a terminal answered, `#rrggbb` (the top 8 bits of each of its 16-bit channels).
    struct Answer: Equatable, CustomStringConvertible {
        var background = ""
        var foreground = ""
        var colour1 = ""
        var description: String { "bg \(background) fg \(foreground) color1 \(colour1)" }
    }

    /// A base16 fixture scheme's terminal colours as tinted-theming maps them (background base00,
    /// foreground base05, colour 1 base08), read from the scheme file by hand, lower-case.
    func expected(_ id: String) throws -> Answer {
        let text = try String(contentsOfFile: Locations.schemes + "/base16/\(id).yaml", encoding: .utf8)
        func slot(_ name: String) -> String {
            let line = text.split(separator: "\n").first { $0.contains(name + ":") } ?? ""
            return "#" + (line.split(separator: "\"").dropFirst().first.map { $0.lowercased() } ?? "?")
        }
        return Answer(background: slot("base00"), foreground: slot("base05"), colour1: slot("base08"))
    }

    /// The program run inside a terminal: it puts its terminal in raw mode (no echo, answers
    /// read byte by byte), asks for the background, foreground and colour 1 every 0.2 s, and
    /// replaces the file named by its argument with the raw answers each time.
    static let query = """
        import os, select, sys, time, tty
        fd = os.open("/dev/tty", os.O_RDWR)
        tty.setraw(fd)
        while True:
            os.write(fd, b"\\x1b]11;?\\x07\\x1b]10;?\\x07\\x1b]4;1;?\\x07")
            answer, deadline = b"", time.time() + 1
            while answer.count(b"\\x07") + answer.count(b"\\x1b\\\\") < 3 and time.time() < deadline:
                if select.select([fd], [], [], 0.2)[0]:
                    answer += os.read(fd, 1024)
            with open(sys.argv[1] + ".new", "wb") as f:
                f.write(answer)
            os.rename(sys.argv[1] + ".new", sys.argv[1])
            time.sleep(0.2)
        """

    /// Writes the query program and returns the argv that runs it, recording to `file`.
    func queryCommand(_ file: String) throws -> [String] {
        let script = root + "/query.py"
        if !FileManager.default.fileExists(atPath: script) {
            try Self.query.write(toFile: script, atomically: true, encoding: .utf8)
        }
        return [Locations.python, script, file]
    }

    /// The last answers recorded in `file` (`ESC ] 11 ; rgb:rrrr/gggg/bbbb BEL` …), nil before
    /// the first.
    func answer(_ file: String) -> Answer? {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return nil }
        func colour(_ prefix: String) -> String {
            guard let range = text.range(of: "\u{1B}]" + prefix + "rgb:") else { return "" }
            let channels = text[range.upperBound...].prefix(14).split(separator: "/").prefix(3)
            return "#" + channels.map { String($0.prefix(2)).lowercased() }.joined()
        }
        return Answer(background: colour("11;"), foreground: colour("10;"), colour1: colour("4;1;"))
    }

    /// Waits until `file`'s answers are `want`; fails with what was last answered.
    func assertAnswers(
        _ file: String, _ want: Answer, _ what: String, _ terminals: [Background],
        file source: StaticString = #filePath, line: UInt = #line
    ) throws {
        let ok = waitUntil(timeout: 10) { answer(file) == want }
        guard !ok else { return }
        let logs = terminals.map { "\($0.name) (running \($0.isRunning)): \($0.stderr.suffix(600))" }
        XCTFail(
            "\(what): answered \(answer(file).map(\.description) ?? "nothing"), want \(want)\n"
                + logs.joined(separator: "\n") + "\n" + (try livery("status").stdout),
            file: source, line: line)
    }

    /// A home of the test's with the shipped plugin `name` linked as the README says.
    func enablePlugin(_ name: String) throws -> String {
        let home = try makeDirectory("home")
        environment["HOME"] = home
        let plugins = configHome + "/livery/plugins"
        try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: plugins + "/" + name, withDestinationPath: Locations.repo + "/plugins/" + name)
        return home
    }

    /// alacritty 0.11 (Debian 12's) with the README's line for it, `import:` of
    /// `~/.config/alacritty/livery.yml` in alacritty.yml: a running window follows `livery set`
    /// (alacritty watches imported files), and so do a new window of the running instance
    /// (`alacritty msg create-window`) and a new instance.
    func testAlacrittyWindowsFollowLiverySet() throws {
        let alacritty = try tool("alacritty")
        _ = try startDisplay()
        environment["LIBGL_ALWAYS_SOFTWARE"] = "1"
        let runtime = try makeDirectory("runtime")
        chmod(runtime, 0o700)
        environment["XDG_RUNTIME_DIR"] = runtime
        let home = try enablePlugin("alacritty")
        try FileManager.default.createDirectory(
            atPath: home + "/.config/alacritty", withIntermediateDirectories: true)
        try "import:\n  - ~/.config/alacritty/livery.yml\n".write(
            toFile: home + "/.config/alacritty/alacritty.yml", atomically: true, encoding: .utf8)
        try startDaemon()
        // The terminals look for their configuration where the user has it.
        environment["XDG_CONFIG_HOME"] = home + "/.config"
        try setTheme("gruvbox-dark-hard")
        // liveryd writes the default theme's file at start: wait for gruvbox's.
        let firstBackground = try expected("gruvbox-dark-hard").background
        XCTAssertTrue(
            waitUntil {
                (try? String(contentsOfFile: home + "/.config/alacritty/livery.yml", encoding: .utf8))?
                    .contains("background: \"\(firstBackground)\"") == true
            }, "livery.yml never written for gruvbox: \(daemon.stderr.suffix(800))")
        let running = root + "/running"
        let window = try background(alacritty, ["-e"] + queryCommand(running))
        try assertAnswers(
            running, try expected("gruvbox-dark-hard"), "a window opened under gruvbox", [window])
        try setTheme("rose-pine-dawn")
        let want = try expected("rose-pine-dawn")
        try assertAnswers(running, want, "the running window after livery set rose-pine-dawn", [window])
        let socket = try XCTUnwrap(
            try FileManager.default.contentsOfDirectory(atPath: runtime).first { $0.hasPrefix("Alacritty-") },
            "alacritty's socket in \(runtime)")
        let newWindow = root + "/new-window"
        let created = try run(
            alacritty,
            ["msg", "--socket", runtime + "/" + socket, "create-window", "-e"] + queryCommand(newWindow))
        XCTAssertEqual(created.status, 0, "\(created)")
        try assertAnswers(newWindow, want, "a new window of the running alacritty", [window])
        let newInstance = root + "/new-instance"
        let second = try background(alacritty, ["-e"] + queryCommand(newInstance))
        try assertAnswers(newInstance, want, "a new alacritty", [second])
    }

    /// xterm (Debian 12's 379) with the xresources plugin enabled as the README says: after each
    /// `livery set`, an xterm started afterwards reads the merged resources and answers the new
    /// theme's background, foreground and colour 1.
    func testANewXtermTakesEachSwitchsXResources() throws {
        let xterm = try tool("xterm")
        let xrdb = try tool("xrdb")
        _ = try startDisplay()
        _ = try enablePlugin("xresources")
        try startDaemon()
        for (n, id) in ["gruvbox-dark-hard", "rose-pine-dawn"].enumerated() {
            try setTheme(id)
            let want = try expected(id)
            let merged = try waitUntil {
                try run(xrdb, ["-query"]).stdout.contains("*.background:\t" + want.background)
            }
            let status = try livery("status").stdout
            XCTAssertTrue(merged, "xrdb never had \(id)'s background: \(status)")
            let file = root + "/xterm-\(n)"
            let terminal = try background(xterm, ["-e"] + queryCommand(file))
            try assertAnswers(file, want, "an xterm started after livery set \(id)", [terminal])
            terminal.stop()
        }
    }

    /// The shell plugin, set up as the README says (enabled, and `cat ~/.cache/livery/sequences`
    /// in the shell's rc file), with xterm (Debian 12's 379) as the terminal: a running xterm
    /// follows `livery set` (the plugin writes the sequences to the user's terminals), and a new
    /// xterm's shell replays them, so it answers the theme's colours too.
    func testShellSequencesReachRunningAndNewTerminals() throws {
        let xterm = try tool("xterm")
        let bash = try tool("bash")
        _ = try startDisplay()
        let home = try enablePlugin("shell")
        try "cat ~/.cache/livery/sequences\n".write(
            toFile: home + "/.bashrc", atomically: true, encoding: .utf8)
        try startDaemon()
        try setTheme("gruvbox-dark-hard")
        func shell(_ file: String) throws -> [String] {
            ["-e", bash, "-i", "-c", "exec " + (try queryCommand(file)).joined(separator: " ")]
        }
        let running = root + "/running"
        let window = try background(xterm, try shell(running))
        try assertAnswers(
            running, try expected("gruvbox-dark-hard"), "an xterm opened under gruvbox", [window])
        try setTheme("rose-pine-dawn")
        let want = try expected("rose-pine-dawn")
        try assertAnswers(running, want, "the running xterm after livery set rose-pine-dawn", [window])
        let newWindow = root + "/new"
        let second = try background(xterm, try shell(newWindow))
        try assertAnswers(newWindow, want, "an xterm started after the switch", [second])
    }

    /// foot 1.13 (Debian 12's) under weston (its X11 backend in Xvfb: the headless backend of
    /// weston 10 has no seat, which foot requires), with the README's lines for it: `include` of
    /// livery.ini in foot.ini, and the shell's rc file replaying the plugin's escape sequences in
    /// foot's windows. A running `foot` window and a running footclient window of `foot --server`
    /// follow `livery set`, and so do a new footclient window of that server and a new `foot`.
    func testFootWindowsFollowLiverySet() throws {
        let foot = try tool("foot")
        let footclient = try tool("footclient")
        let weston = try tool("weston")
        let bash = try tool("bash")
        _ = try startDisplay()
        let runtime = try makeDirectory("runtime")
        chmod(runtime, 0o700)
        environment["XDG_RUNTIME_DIR"] = runtime
        let compositor = try background(
            weston, ["--backend=x11-backend.so", "--use-pixman", "--socket=livery-wl", "--idle-time=0"])
        XCTAssertTrue(
            waitUntil { FileManager.default.fileExists(atPath: runtime + "/livery-wl") },
            "weston made no socket: \(compositor.stderr.suffix(800))")
        environment["WAYLAND_DISPLAY"] = "livery-wl"
        let home = try enablePlugin("foot")
        try FileManager.default.createDirectory(
            atPath: home + "/.config/foot", withIntermediateDirectories: true)
        try "include=~/.config/foot/livery.ini\n".write(
            toFile: home + "/.config/foot/foot.ini", atomically: true, encoding: .utf8)
        try "[ \"$(cat /proc/$PPID/comm)\" = foot ] && cat ~/.cache/livery/foot-sequences\n".write(
            toFile: home + "/.bashrc", atomically: true, encoding: .utf8)
        try startDaemon()
        // The terminals look for their configuration where the user has it.
        environment["XDG_CONFIG_HOME"] = home + "/.config"
        try setTheme("gruvbox-dark-hard")
        // liveryd writes the default theme's files at start: wait for gruvbox's.
        let firstBackground = try expected("gruvbox-dark-hard").background.dropFirst()
        XCTAssertTrue(
            waitUntil {
                (try? String(contentsOfFile: home + "/.config/foot/livery.ini", encoding: .utf8))?
                    .contains("background=\(firstBackground)") == true
            }, "livery.ini never written for gruvbox: \(daemon.stderr.suffix(800))")
        // Each window runs an interactive shell, as a user's does, which runs the query program.
        func shell(_ file: String) throws -> [String] {
            [bash, "-i", "-c", "exec " + (try queryCommand(file)).joined(separator: " ")]
        }
        let server = try background(foot, ["--server"])
        let runningClient = root + "/running-client"
        let running = root + "/running"
        let window = try background(foot, try shell(running))
        XCTAssertTrue(
            waitUntil { FileManager.default.fileExists(atPath: runtime + "/foot-livery-wl.sock") },
            "foot --server made no socket: \(server.stderr.suffix(800))")
        let client = try background(footclient, try shell(runningClient))
        let gruvbox = try expected("gruvbox-dark-hard")
        try assertAnswers(running, gruvbox, "a foot window opened under gruvbox", [window])
        try assertAnswers(
            runningClient, gruvbox, "a footclient window opened under gruvbox", [server, client])
        try setTheme("rose-pine-dawn")
        let want = try expected("rose-pine-dawn")
        try assertAnswers(running, want, "the running foot window after livery set rose-pine-dawn", [window])
        try assertAnswers(runningClient, want, "the running footclient window", [server, client])
        let newClient = root + "/new-client"
        let second = try background(footclient, try shell(newClient))
        try assertAnswers(newClient, want, "a new footclient window of the running server", [server, second])
        let newInstance = root + "/new-instance"
        let third = try background(foot, try shell(newInstance))
        try assertAnswers(newInstance, want, "a new foot", [third])
    }
}
