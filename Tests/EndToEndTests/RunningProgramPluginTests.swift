import Foundation
import XCTest

/// The shipped kitty and tmux plugins, set up as the README says, reach the programs a user
/// runs: the colours are read from inside the real program (kitty's remote control, a process
/// in a kitty tab asking the terminal, tmux's options), for running instances, their new tabs
/// and instances started after the switch. The expected colours come from the scheme files.
final class RunningProgramPluginTests: EndToEndTestCase {
    var pluginsDirectory: String { configHome + "/livery/plugins" }

    /// Links the shipped plugin `name` into the user's plugin directory, as the README says.
    func enable(_ name: String) throws {
        try FileManager.default.createDirectory(atPath: pluginsDirectory, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: pluginsDirectory + "/" + name, withDestinationPath: Locations.repo + "/plugins/" + name)
    }

    // MARK: kitty

    /// kitty's colours as `kitty @ get-colors` prints them, by name (`background`: `#rrggbb`).
    func kittyColors(_ kitty: Background, match: String? = nil) throws -> [String: String] {
        let r = try run(
            try tool("kitty"),
            ["@", "--to", "unix:@livery-kitty-\(kitty.pid)", "get-colors"]
                + (match.map { ["--match", $0] } ?? []))
        guard r.status == 0 else { return [:] }
        var colors: [String: String] = [:]
        for line in r.stdout.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.count == 2 { colors[String(fields[0])] = String(fields[1]) }
        }
        return colors
    }

    /// Starts kitty with the test's kitty.conf and waits until its remote control socket
    /// (`@livery-kitty-PID`, as kitty names a `listen_on` of kitty.conf) answers.
    func startKitty() throws -> Background {
        let kitty = try background(try tool("kitty"), [])
        let up = try waitUntil { try !kittyColors(kitty).isEmpty || !kitty.isRunning }
        guard up, kitty.isRunning else {
            throw HarnessFailure("kitty did not answer on @livery-kitty-\(kitty.pid): \(kitty.stderr)")
        }
        return kitty
    }

    /// The colours kitty.mustache gives a base16 scheme's slots (README: the terminal colours
    /// of a base16 scheme, and kitty's tab bar, borders and URL colour from the slots).
    func kittyExpectation(_ s: [String: String]) -> [String: String] {
        [
            "background": s["base00"]!, "foreground": s["base05"]!, "cursor": s["base05"]!,
            "selection_background": s["base02"]!, "selection_foreground": s["base05"]!,
            "url_color": s["base04"]!, "active_border_color": s["base03"]!,
            "inactive_border_color": s["base01"]!, "active_tab_background": s["base00"]!,
            "active_tab_foreground": s["base05"]!, "inactive_tab_background": s["base01"]!,
            "inactive_tab_foreground": s["base04"]!, "tab_bar_background": s["base01"]!,
            "color1": s["base08"]!, "color4": s["base0D"]!,
        ]
    }

    func differences(_ shown: [String: String], _ expected: [String: String]) -> [String] {
        expected.keys.sorted().compactMap { key in
            shown[key] == expected[key] ? nil : "\(key): \(shown[key] ?? "none"), not \(expected[key]!)"
        }
    }

    /// The kitty plugin as the README's "Five minutes" sets it up: a running kitty, its new
    /// tab (asked from inside by OSC 10/11/4 queries too) and a kitty started after the switch
    /// all show the new theme, tab bar, borders and selection included.
    func testKittyFollowsASwitchInRunningWindowsNewTabsAndNewKitties() throws {
        let home = try makeDirectory("home")
        environment["HOME"] = home
        environment["LIBGL_ALWAYS_SOFTWARE"] = "1"  // Mesa's renderer: Xvfb has no GPU
        let kittyConf = configHome + "/kitty/kitty.conf"
        try FileManager.default.createDirectory(
            atPath: configHome + "/kitty", withIntermediateDirectories: true)
        try
            "include ~/.config/kitty/livery.conf\nallow_remote_control socket-only\nlisten_on unix:@livery-kitty\n"
            .write(toFile: kittyConf, atomically: true, encoding: .utf8)
        try enable("kitty")
        _ = try startDisplay()
        try startDaemon()
        try setTheme("nord")
        let nord = kittyExpectation(try slots("nord"))
        let conf = home + "/.config/kitty/livery.conf"
        XCTAssertTrue(
            waitUntil {
                (try? String(contentsOfFile: conf, encoding: .utf8))?.contains(
                    "background " + nord["background"]!)
                    == true
            })
        let first = try startKitty()
        XCTAssertEqual(differences(try kittyColors(first), nord), [], "a kitty started under nord")

        try setTheme("3024")
        let theme = kittyExpectation(try slots("3024"))
        var shown: [String: String] = [:]
        let followed = try waitUntil {
            shown = try kittyColors(first)
            return differences(shown, theme).isEmpty
        }
        let problems = try livery("status").stdout
        XCTAssertTrue(
            followed, "the running kitty: \(differences(shown, theme))\n\(problems)\n\(daemon.stderr)")

        // A new tab of the running kitty: its colours, and what the terminal answers a process
        // in it that asks for the background (11), foreground (10) and colour 1 (4;1).
        let answers = root + "/answers"
        let ask = root + "/ask.py"
        try """
        import os, select, sys, termios, tty
        fd = os.open("/dev/tty", os.O_RDWR)
        tty.setraw(fd)
        os.write(fd, b"\\x1b]11;?\\x1b\\\\\\x1b]10;?\\x1b\\\\\\x1b]4;1;?\\x1b\\\\")
        got = b""
        while got.count(b"rgb:") < 3 or not (got.endswith(b"\\x1b\\\\") or got.endswith(b"\\x07")):
            if not select.select([fd], [], [], 5)[0]:
                break
            got += os.read(fd, 1024)
        with open(sys.argv[1] + ".part", "wb") as f:
            f.write(got)
        os.rename(sys.argv[1] + ".part", sys.argv[1])
        select.select([fd], [], [])  # the tab stays open until kitty stops
        """.write(toFile: ask, atomically: true, encoding: .utf8)
        let launch = try run(
            try tool("kitty"),
            [
                "@", "--to", "unix:@livery-kitty-\(first.pid)", "launch", "--type=tab", Locations.python, ask,
                answers,
            ])
        XCTAssertEqual(launch.status, 0, "\(launch)")
        let window = launch.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertTrue(
            waitUntil { FileManager.default.fileExists(atPath: answers) }, "no answers from the new tab")
        let replies = String(
            decoding: (try? Data(contentsOf: URL(fileURLWithPath: answers))) ?? Data(), as: UTF8.self)
        // X11's rgb:rrrr/gggg/bbbb, 16 bits a channel: an 8-bit colour #rrggbb is rgb:rrrr/gggg/bbbb.
        func x11(_ hex: String) -> String {
            let h = hex.dropFirst()
            return [h.prefix(2), h.dropFirst(2).prefix(2), h.suffix(2)].map { String($0 + $0) }.joined(
                separator: "/")
        }
        for (code, key) in [("11", "background"), ("10", "foreground"), ("4;1", "color1")] {
            XCTAssertTrue(
                replies.contains("]\(code);rgb:\(x11(theme[key]!))"),
                "OSC \(code): \(replies.debugDescription)")
        }
        XCTAssertEqual(differences(try kittyColors(first, match: "id:" + window), theme), [], "the new tab")

        let second = try startKitty()
        XCTAssertEqual(differences(try kittyColors(second), theme), [], "a kitty started after the switch")
        XCTAssertFalse(try livery("status").stdout.contains("plugin 'kitty'"))
    }

    /// A socket named as a kitty's that does not answer as kitty (a process of the user that
    /// accepts and hangs up) is a failure of the plugin whose problem names that socket.
    func testAKittySocketThatDoesNotAnswerIsReportedByName() throws {
        let home = try makeDirectory("home")
        environment["HOME"] = home
        try enable("kitty")
        let impostor = try startKittyImpostor()
        try startDaemon()
        try setTheme("forest")
        let name = "kitty at unix:@livery-kitty-\(impostor.pid): "
        let reported = try waitUntil { try livery("status").stdout.contains(name) }
        let shown = try livery("status").stdout
        XCTAssertTrue(reported, shown)
    }

    /// Python statements for `startKittyImpostor(serving:)`: read a request up to its end
    /// (`ESC \`), as kitty does.
    let readRequest = #"""
        request = b""
        while not request.endswith(b"\x1b\\"):
            chunk = connection.recv(65536)
            if not chunk:
                break
            request += chunk
        """#

    /// The kitty plugin set up as the README says, two running kitties and a socket named as a
    /// kitty's whose process accepts and never answers: both kitties show the new theme, and
    /// the plugin's problem names the silent socket and why.
    func testEveryRunningKittyFollowsAndOneThatNeverAnswersIsReported() throws {
        let home = try makeDirectory("home")
        environment["HOME"] = home
        environment["LIBGL_ALWAYS_SOFTWARE"] = "1"  // Mesa's renderer: Xvfb has no GPU
        try FileManager.default.createDirectory(
            atPath: configHome + "/kitty", withIntermediateDirectories: true)
        try
            "include ~/.config/kitty/livery.conf\nallow_remote_control socket-only\nlisten_on unix:@livery-kitty\n"
            .write(toFile: configHome + "/kitty/kitty.conf", atomically: true, encoding: .utf8)
        try enable("kitty")
        _ = try startDisplay()
        try startDaemon()
        try setTheme("nord")
        let kitties = [try startKitty(), try startKitty()]
        let silent = try startKittyImpostor(serving: "pass  # holds the connection, never reads or answers")

        try setTheme("3024")
        let theme = kittyExpectation(try slots("3024"))
        for (n, kitty) in kitties.enumerated() {
            var shown: [String: String] = [:]
            let followed = try waitUntil {
                shown = try kittyColors(kitty)
                return differences(shown, theme).isEmpty
            }
            let problems = try livery("status").stdout
            XCTAssertTrue(followed, "kitty \(n + 1): \(differences(shown, theme))\n\(problems)")
        }
        let name = "kitty at unix:@livery-kitty-\(silent.pid): no answer"
        var shown = ""
        let reported = try waitUntil(timeout: 20) {
            shown = try livery("status").stdout
            return shown.contains(name)
        }
        XCTAssertTrue(reported, shown)
    }

    /// A kitty that refuses the request (an answer `{"ok": false, "error": ...}`, kitty's
    /// framing) is a problem of the plugin with that socket and kitty's message.
    func testAKittysErrorIsReportedWithItsMessage() throws {
        let home = try makeDirectory("home")
        environment["HOME"] = home
        try enable("kitty")
        let refusing = try startKittyImpostor(
            serving: readRequest + "\n"
                + #"connection.sendall(b'\x1bP@kitty-cmd{"ok": false, "error": "No matching windows"}\x1b\\')"#
                + "\nconnection.close()"
        )
        try startDaemon()
        try setTheme("forest")
        let name = "kitty at unix:@livery-kitty-\(refusing.pid): No matching windows"
        var shown = ""
        let reported = try waitUntil {
            shown = try livery("status").stdout
            return shown.contains(name)
        }
        XCTAssertTrue(reported, shown)
    }

    /// A kitty that quits while it is told (its socket stops listening, the connection closes
    /// with no answer) has no colours left to change: the plugin's run succeeds. The same close
    /// from a kitty whose socket still listens is a failure that says so.
    func testAKittyThatQuitsDuringTheSwitchIsNoFailure() throws {
        let home = try makeDirectory("home")
        environment["HOME"] = home
        let colours = root + "/colours.conf"
        try "background #102030\n".write(toFile: colours, atomically: true, encoding: .utf8)
        let recolour = Locations.repo + "/plugins/kitty/recolour"
        let quitting = try startKittyImpostor(serving: readRequest + "\ns.close()\nconnection.close()\nbreak")
        let gone = try run(recolour, [colours, "unix:@livery-kitty-\(quitting.pid)"])
        XCTAssertEqual(gone.status, 0, "\(gone)")
        XCTAssertEqual(gone.stderr, "")
        let closing = try startKittyImpostor(serving: readRequest + "\nconnection.close()")
        let address = "unix:@livery-kitty-\(closing.pid)"
        let failed = try run(recolour, [colours, address])
        XCTAssertEqual(failed.status, 1, "\(failed)")
        XCTAssertTrue(
            failed.stderr.contains("kitty at \(address): closed the connection without an answer"),
            failed.stderr)
    }

    /// The plugin's request is the one kitty's own client (`kitty @ set-colors --all
    /// --configured FILE`) sends for the same file, compared as JSON: for the file Livery writes
    /// and for one with the rest of kitty's colour syntax (short and long hex, `rgb:`, `none`,
    /// `background`, comments, other options, a later line winning).
    func testKittyPluginSendsTheRequestOfKittysOwnClient() throws {
        let home = try makeDirectory("home")
        environment["HOME"] = home
        try enable("kitty")
        try startDaemon()
        try setTheme("nord")
        let written = home + "/.config/kitty/livery.conf"
        XCTAssertTrue(waitUntil { FileManager.default.fileExists(atPath: written) })
        // The switch's own run must have ended before the recorder listens: it looks for every
        // kitty's socket, and a recorder it found got its nord request as one of the test's
        // (the file exists before the run sends).
        let serial = try serial()
        var row: [String: Any] = [:]
        XCTAssertTrue(
            try waitUntil(timeout: 20) {
                let r = try livery("plugins", "--json")
                let rows = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]]
                row = rows?.first { $0["name"] as? String == "kitty" } ?? [:]
                return row["serial"] as? Int == Int(serial) && row["result"] as? String == "ok"
            }, "\(row)")
        let requests = try makeDirectory("requests")
        environment["REQUESTS"] = requests
        let recorder = try startKittyImpostor(
            serving: readRequest + "\n"
                + #"""
                with open(os.environ["REQUESTS"] + "/%d" % len(held), "wb") as f:
                    f.write(request)
                connection.sendall(b'\x1bP@kitty-cmd{"ok": true}\x1b\\')
                connection.close()
                """#)
        let syntax = root + "/syntax.conf"
        try """
        # a comment
        background #112233
        foreground #abc
        selection_background none
        selection_foreground NONE
        cursor #aaabbbccc
        cursor_text_color background
        url_color rgb:a/bb/ccc
        font_size 12
          color1   #ABCDEF
        color4 #000000
        color4 #ffffff
        color200 #fedcba
        tab_bar_margin_color #123456789abc
        tab_bar_background none

        """.write(toFile: syntax, atomically: true, encoding: .utf8)
        let address = "unix:@livery-kitty-\(recorder.pid)"
        var count = 0
        func request(_ program: String, _ arguments: [String]) throws -> NSDictionary {
            let r = try run(program, arguments)
            XCTAssertEqual(r.status, 0, "\(r)")
            count += 1
            let data = try Data(contentsOf: URL(fileURLWithPath: requests + "/\(count)"))
            let prefix = Data("\u{1b}P@kitty-cmd".utf8)
            let suffix = Data("\u{1b}\\".utf8)
            guard data.starts(with: prefix), data.suffix(2) == suffix else {
                throw HarnessFailure(
                    "not a kitty request: \(String(decoding: data, as: UTF8.self).debugDescription)")
            }
            let body = data.dropFirst(prefix.count).dropLast(suffix.count)
            return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(body)) as? NSDictionary)
        }
        let recolour = Locations.repo + "/plugins/kitty/recolour"
        for file in [written, syntax] {
            let kittys = try request(
                try tool("kitty"), ["@", "--to", address, "set-colors", "--all", "--configured", file])
            let ours = try request(recolour, [file, address])
            XCTAssertEqual(ours, kittys, file)
        }
    }

    // MARK: tmux

    /// `tmux -L NAME show-options -gv OPTION`'s value.
    func tmuxOption(_ server: String, _ option: String) throws -> String {
        let r = try run(try tool("tmux"), ["-L", server, "show-options", "-gv", option])
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Starts a tmux server named `name` in the test's `TMUX_TMPDIR`, in the foreground (`-D`:
    /// a daemon would keep the descriptor by which the test sees its client exit), and a
    /// detached session in it; tearDown stops the server.
    func startTmux(_ name: String) throws {
        let tmux = try tool("tmux")
        let server = try background(tmux, ["-D", "-L", name])
        let socket = environment["TMUX_TMPDIR"]! + "/tmux-\(getuid())/" + name
        XCTAssertTrue(
            waitUntil { FileManager.default.fileExists(atPath: socket) || !server.isRunning }, server.stderr)
        let r = try run(tmux, ["-L", name, "new-session", "-d"])
        XCTAssertEqual(r.status, 0, "\(r)")
    }

    /// The tmux plugin as the README sets it up: two running servers re-source the colours on
    /// `livery set`, and a server started after it reads them from tmux.conf.
    func testTmuxFollowsASwitchInEveryServerAndNewOnes() throws {
        let home = try makeDirectory("home")
        environment["HOME"] = home
        // The test's own servers, not the user's: tmux and the plugin both look there.
        environment["TMUX_TMPDIR"] = try makeDirectory("tmux")
        try "source-file -q ~/.config/tmux/livery.conf\n".write(
            toFile: home + "/.tmux.conf", atomically: true, encoding: .utf8)
        try enable("tmux")
        try startDaemon()
        try setTheme("nord")
        let conf = home + "/.config/tmux/livery.conf"
        XCTAssertTrue(waitUntil { FileManager.default.fileExists(atPath: conf) })
        func expected(_ s: [String: String]) -> [String: String] {
            [
                "status-style": "fg=\(s["base04"]!),bg=\(s["base01"]!)",
                "pane-border-style": "fg=\(s["base01"]!)", "pane-active-border-style": "fg=\(s["base02"]!)",
                "mode-style": "fg=\(s["base04"]!),bg=\(s["base02"]!)",
                "message-style": "fg=\(s["base05"]!),bg=\(s["base01"]!)",
            ]
        }
        func shown(_ server: String) throws -> [String: String] {
            var options: [String: String] = [:]
            for option in [
                "status-style", "pane-border-style", "pane-active-border-style", "mode-style",
                "message-style",
            ] {
                options[option] = try tmuxOption(server, option)
            }
            return options
        }
        try startTmux("first")
        try startTmux("second")
        XCTAssertEqual(try shown("first"), expected(try slots("nord")))
        try setTheme("3024")
        let theme = expected(try slots("3024"))
        let followed = try waitUntil { try shown("first") == theme && shown("second") == theme }
        let (first, second, problems) = (try shown("first"), try shown("second"), try livery("status").stdout)
        XCTAssertTrue(followed, "first: \(first)\nsecond: \(second)\n\(problems)")
        try startTmux("third")
        XCTAssertEqual(try shown("third"), theme, "a server started after the switch")
    }

    /// The xresources plugin as the README enables it: after each `livery set`, the X server's
    /// resource database (what `xrdb -query` reads back, and X programs started afterwards
    /// read) holds the new theme's colours: a base16 scheme's base00, base05 and base08, read
    /// from the scheme file here.
    func testXResourcesFollowEachSwitch() throws {
        let home = try makeDirectory("home")
        environment["HOME"] = home
        try enable("xresources")
        _ = try startDisplay()
        try startDaemon()
        let xrdb = try tool("xrdb")
        for scheme in ["nord", "3024"] {
            try setTheme(scheme)
            let s = try slots(scheme)
            let want = [
                "*.background:\t" + s["base00"]!, "*.foreground:\t" + s["base05"]!,
                "*.color1:\t" + s["base08"]!,
            ]
            var shown = ""
            let followed = try waitUntil {
                shown = try run(xrdb, ["-query"]).stdout
                let lines = Set(shown.split(separator: "\n").map(String.init))
                return want.allSatisfy(lines.contains)
            }
            let problems = try livery("status").stdout + (try livery("plugins").stdout)
            XCTAssertTrue(followed, "\(scheme): xrdb -query gives\n\(shown)\n\(problems)\n\(daemon.stderr)")
        }
    }
}

extension EndToEndTestCase {
    /// A process of the user's listening on an abstract socket named as a kitty's
    /// (`@livery-kitty-PID`) that hangs up on every connection: a kitty that does not answer.
    /// tearDown stops it.
    func startKittyImpostor() throws -> Background {
        try startKittyImpostor(serving: "connection.close()")
    }

    /// A process of the user's listening on an abstract socket named as a kitty's
    /// (`@livery-kitty-PID`) that runs the Python statements `serving` on each connection it
    /// accepts (`connection`, a socket). tearDown stops it.
    func startKittyImpostor(serving: String) throws -> Background {
        let indented = serving.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n")
        let impostor = try background(
            Locations.python,
            [
                "-c",
                """
                import os, socket
                s = socket.socket(socket.AF_UNIX)
                s.bind("\\0livery-kitty-%d" % os.getpid())
                s.listen()
                print("listening", flush=True)
                held = []
                while True:
                    connection = s.accept()[0]
                    held.append(connection)
                \(indented)
                """,
            ])
        guard waitUntil({ impostor.stdout.contains("listening") || !impostor.isRunning }), impostor.isRunning
        else {
            throw HarnessFailure("the socket of a kitty that does not answer: \(impostor.stderr)")
        }
        return impostor
    }
}
