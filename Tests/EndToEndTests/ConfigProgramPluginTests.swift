import Foundation
import XCTest

/// The shipped plugins whose programs read Livery's file when they start (or are told through
/// a channel of the test's own), set up as the README says, with the programs Debian 12 ships:
/// each reads the file with its own parser, and where it can run headless shows the colours.
/// They reach no process but the test's own, so they run beside the others. The expected
/// colours come from the scheme files.
final class ConfigProgramPluginTests: ProgramPluginTestCase {
    /// The `--color=` pairs of an FZF_DEFAULT_OPTS value (`bg:#2e3440` …) by name; a later
    /// pair wins, as fzf reads them.
    func fzfColors(_ options: String) -> [String: String] {
        var colors: [String: String] = [:]
        for word in options.split(whereSeparator: \.isWhitespace) where word.hasPrefix("--color=") {
            for pair in word.dropFirst("--color=".count).split(separator: ",") {
                let parts = pair.split(separator: ":", maxSplits: 1).map(String.init)
                if parts.count == 2 { colors[parts[0]] = parts[1] }
            }
        }
        return colors
    }

    /// fzf 0.38 (Debian 12's) with the README's line in the shell's rc file: a shell sourcing
    /// livery.sh gives fzf options it accepts (`fzf --filter` exits 0; a colour it cannot read
    /// is an error), with the colours tinted-fzf's own build gives the scheme, and an fzf
    /// started from a new shell after each switch draws with them (read from the screen tmux
    /// keeps for it).
    func testFzfTakesTheColoursInEveryShellStartedAfterASwitch() throws {
        let fzf = try tool("fzf")
        let tmux = try tool("tmux")
        let sh = try tool("sh")
        try enable("fzf")
        try write(". ~/.config/fzf/livery.sh\n", to: ".shrc")
        environment["ENV"] = home + "/.shrc"  // what an interactive sh sources
        environment["TMUX_TMPDIR"] = try makeDirectory("tmux")
        // A tmux server in the foreground (tearDown stops it), as RunningProgramPluginTests starts one.
        let server = try background(tmux, ["-D", "-f", "/dev/null", "-L", "fzf"])
        let socket = environment["TMUX_TMPDIR"]! + "/tmux-\(getuid())/fzf"
        XCTAssertTrue(
            waitUntil { FileManager.default.fileExists(atPath: socket) || !server.isRunning }, server.stderr)
        try startDaemon()
        for id in ["nord", "3024"] {
            try setTheme(id)
            let s = try slots(id)
            XCTAssertTrue(
                waitUntil { contents(".config/fzf/livery.sh")?.contains("bg:" + s["base00"]!) == true },
                "livery.sh never written for \(id): \(daemon.stderr.suffix(800))")
            let options = try run(sh, ["-i", "-c", "printf %s \"$FZF_DEFAULT_OPTS\""])
            let tinted = try run(
                sh,
                [
                    "-c",
                    ". \(Locations.fixtures)/tinted/tinted-fzf/sh/base16-\(id).sh; printf %s \"$FZF_DEFAULT_OPTS\"",
                ])
            XCTAssertEqual(fzfColors(options.stdout), fzfColors(tinted.stdout), "\(id): \(options)")
            XCTAssertEqual(fzfColors(options.stdout)["bg"], s["base00"])
            let filtered = try run(sh, ["-i", "-c", "printf 'alpha\\nbeta\\n' | \(fzf) --filter bet"])
            XCTAssertEqual(filtered.status, 0, "\(filtered)")
            XCTAssertEqual(filtered.stdout, "beta\n")

            // A new shell in a terminal (a session of tmux's), running fzf: its screen holds the
            // background and prompt colours as 24-bit SGR codes.
            let started = try run(
                tmux,
                [
                    "-L", "fzf", "new-session", "-d", "-s", "under-" + id, "-x", "60", "-y", "10",
                    "\(sh) -i -c \"printf 'alpha\\\\nbeta\\\\n' | \(fzf)\"",
                ])
            XCTAssertEqual(started.status, 0, "\(started)")
            func sgr(_ hex: String, _ layer: Int) -> String {
                let v = Int(hex.dropFirst(), radix: 16)!
                return "\u{1b}[\(layer);2;\(v >> 16);\(v >> 8 & 0xff);\(v & 0xff)m"
            }
            var screen = ""
            let drawn = try waitUntil {
                screen = try run(tmux, ["-L", "fzf", "capture-pane", "-e", "-p", "-t", "under-" + id]).stdout
                return screen.contains(sgr(s["base00"]!, 48)) && screen.contains(sgr(s["base0A"]!, 38))
                    && screen.contains("alpha")
            }
            XCTAssertTrue(drawn, "fzf under \(id): \(screen.debugDescription)")
        }
    }

    /// zathura 0.5.2 (Debian 12's) under Xvfb with `include livery` in its zathurarc: it reads
    /// every line of the file without a warning and draws the theme's background; after
    /// `livery set`, the running zathura (told `source` over the test's session bus) draws the
    /// new one.
    func testZathuraReadsTheColoursAndARunningOneSourcesThemAgain() throws {
        let zathura = try tool("zathura")
        let display = try startDisplay()
        try enable("zathura")
        try write("include livery\n", to: configHome + "/zathura/zathurarc")
        environment["NO_AT_BRIDGE"] = "1"  // no accessibility bus, no gvfs: nothing but zathura
        environment["GIO_USE_VFS"] = "local"
        try startDaemon()
        try setTheme("nord")
        let nord = try slots("nord")
        XCTAssertTrue(
            waitUntil { contents(configHome + "/zathura/livery")?.contains(nord["base00"]!) == true },
            "livery never written for nord: \(daemon.stderr.suffix(800))")
        let viewer = try background(zathura, [])
        func shows(_ color: String) throws -> Bool {
            try display.screenshot().count(of: PixelColor(color)) > display.width * display.height / 2
        }
        let drawn = try waitUntil { try shows(nord["base00"]!) }
        let seen = try display.screenshot().commonestColors()
        XCTAssertTrue(drawn, "zathura under nord: \(seen)\n\(viewer.stderr)")
        try switchTheme("3024", plugin: "zathura")
        let followed = try waitUntil { try shows(try slots("3024")["base00"]!) }
        let now = try display.screenshot().commonestColors()
        XCTAssertTrue(followed, "the running zathura after livery set 3024: \(now)")
        let warnings = viewer.stderr.split(separator: "\n").filter {
            $0.contains("livery") || $0.contains("warning")
        }
        XCTAssertEqual(warnings, [], viewer.stderr)
    }

    /// The settings of a Hyprland configuration file by Hyprland's documented syntax (its wiki's
    /// "Configuring Hyprland", "Variables" and "Sourcing"): blank lines and `#` comments,
    /// `$NAME = VALUE` variables (used as `$NAME` afterwards), `CATEGORY {` … `}` blocks, and
    /// `KEY = VALUE` settings, returned as `category:key` to the value with variables expanded.
    /// Anything else is an error naming its line.
    func hyprlandSettings(_ text: String) throws -> [String: String] {
        var variables: [String: String] = [:]
        var categories: [String] = []
        var settings: [String: String] = [:]
        for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line == "}" {
                guard categories.popLast() != nil else {
                    throw HarnessFailure("line \(n + 1): } closes nothing")
                }
                continue
            }
            if line.hasSuffix("{") {
                let name = line.dropLast().trimmingCharacters(in: .whitespaces)
                guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
                    throw HarnessFailure("line \(n + 1): not a category: \(line)")
                }
                categories.append(name)
                continue
            }
            let parts = line.split(separator: "=", maxSplits: 1).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard parts.count == 2, !parts[0].isEmpty else { throw HarnessFailure("line \(n + 1): \(line)") }
            var value = parts[1]
            for (name, v) in variables.sorted(by: { $0.key.count > $1.key.count }) {
                value = value.replacingOccurrences(of: "$" + name, with: v)
            }
            if parts[0].hasPrefix("$") {
                variables[String(parts[0].dropFirst())] = value
            } else {
                settings[(categories + [parts[0]]).joined(separator: ":")] = value
            }
        }
        guard categories.isEmpty else { throw HarnessFailure("unclosed category \(categories)") }
        return settings
    }

    /// Hyprland is not in Debian 12: the plugin's file is checked against Hyprland's documented
    /// syntax and options (the border, group border and background colours, `rgb(rrggbb)`),
    /// with the scheme's colours; and `reload-hyprland` runs `hyprctl reload` once for each
    /// running instance's socket of the user (a stand-in hyprctl records it), skipping a socket
    /// no Hyprland answers on.
    func testHyprlandColoursFollowTheDocumentedSyntaxAndEachInstanceIsReloaded() throws {
        try enable("hyprland")
        let runtime = try makeDirectory("runtime")
        chmod(runtime, 0o700)
        environment["XDG_RUNTIME_DIR"] = runtime
        // Two instances' sockets: one that answers and one left by a crash.
        for signature in ["live", "crashed"] {
            let path = try makeDirectory("runtime/hypr/" + signature) + "/.socket.sock"
            let made = try run(
                Locations.python,
                ["-c", "import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])", path])
            XCTAssertEqual(made.status, 0, "\(made)")
        }
        let calls = root + "/calls"
        let bin = try makeDirectory("bin")
        try write(
            """
            #!/bin/sh
            [ "$HYPRLAND_INSTANCE_SIGNATURE" = crashed ] && { echo "Couldn't connect to $HYPRLAND_INSTANCE_SIGNATURE"; exit 1; }
            echo "$HYPRLAND_INSTANCE_SIGNATURE $*" >> \(calls)
            echo ok

            """, to: bin + "/hyprctl")
        chmod(bin + "/hyprctl", 0o755)
        try FileManager.default.copyItem(atPath: try tool("sleep"), toPath: bin + "/Hyprland")
        environment["PATH"] = bin + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        _ = try background(bin + "/Hyprland", ["60"])
        try startDaemon()
        // The start-up pass writes the default theme's file and reloads: that run first.
        XCTAssertEqual(try finishedRun("hyprland"), "ok")
        try FileManager.default.removeItem(atPath: calls)
        try switchTheme("nord", plugin: "hyprland")
        XCTAssertEqual(contents(calls), "live reload\n")
        let s = try slots("nord")
        let settings = try hyprlandSettings(try XCTUnwrap(contents(".config/hypr/livery.conf")))
        func rgb(_ slot: String) -> String { "rgb(\(s[slot]!.dropFirst()))" }
        XCTAssertEqual(
            settings,
            [
                "general:col.active_border": rgb("base0D"), "general:col.inactive_border": rgb("base03"),
                "group:col.border_active": rgb("base0D"), "group:col.border_inactive": rgb("base03"),
                "misc:background_color": rgb("base00"),
            ])
    }

    /// KDE Plasma 5.27's plasma-apply-colorscheme (Debian 12's plasma-workspace, without a
    /// Plasma session: an Xvfb display and the test's bus) takes the plugin's scheme: after
    /// each switch kdeglobals, read with KDE's own kreadconfig5, has the theme's colours (as
    /// `r,g,b`) and the other of the two scheme names, LiveryA and LiveryB, so that each switch
    /// is a change of scheme.
    func testPlasmaAppliesTheSchemeUnderTheOtherNameAtEachSwitch() throws {
        _ = try tool("plasma-apply-colorscheme")
        let read = try tool("kreadconfig5")
        try enable("plasma-colors")
        let runtime = try makeDirectory("runtime")
        chmod(runtime, 0o700)
        environment["XDG_RUNTIME_DIR"] = runtime
        _ = try startDisplay()  // liveryd's commands get DISPLAY, not QT_QPA_PLATFORM
        try startDaemon()
        func kdeglobals(_ group: String, _ key: String) throws -> String {
            try run(read, ["--file", "kdeglobals", "--group", group, "--key", key]).stdout
                .trimmingCharacters(in: .newlines)
        }
        func decimal(_ hex: String) -> String {
            let v = Int(hex.dropFirst(), radix: 16)!
            return "\(v >> 16),\(v >> 8 & 0xff),\(v & 0xff)"
        }
        var names: [String] = []
        for id in ["nord", "3024", "nord"] {
            try switchTheme(id, plugin: "plasma-colors")
            let s = try slots(id)
            XCTAssertEqual(try kdeglobals("Colors:Window", "BackgroundNormal"), decimal(s["base00"]!), id)
            XCTAssertEqual(try kdeglobals("Colors:View", "ForegroundNormal"), decimal(s["base05"]!), id)
            XCTAssertEqual(try kdeglobals("Colors:Selection", "BackgroundNormal"), decimal(s["base0D"]!), id)
            names.append(try kdeglobals("General", "ColorScheme"))
        }
        XCTAssertTrue(["LiveryA", "LiveryB"].contains(names[0]), "\(names)")
        XCTAssertEqual(names[1], names[0] == "LiveryA" ? "LiveryB" : "LiveryA")
        XCTAssertEqual(names[2], names[0])
    }

    /// bspwm 0.9.10 (Debian 12's) on an Xvfb display, its bspwmrc running the plugin's file as
    /// the README says: the running bspwm reports (bspc config) the theme's border colours after
    /// each switch, and a bspwm started afterwards has them from the start.
    func testBspwmTakesTheBorderColoursLiveAndAtStart() throws {
        let bspwm = try tool("bspwm")
        let bspc = try tool("bspc")
        _ = try startDisplay()
        try enable("bspwm")
        let rc = home + "/.config/bspwm/bspwmrc"
        try write("#!/bin/sh\n. ~/.cache/livery/bspwm-colors\n", to: rc)
        chmod(rc, 0o755)
        // bspwm and bspc find each other by DISPLAY (/tmp/bspwm_N_0-socket): the test's own.
        try startDaemon()
        environment["XDG_CONFIG_HOME"] = home + "/.config"  // where bspwm looks for bspwmrc
        func shown() throws -> [String] {
            try [
                "normal_border_color", "active_border_color", "focused_border_color", "presel_feedback_color",
            ].map {
                try run(bspc, ["config", $0]).stdout.trimmingCharacters(in: .newlines)
            }
        }
        func expected(_ id: String) throws -> [String] {
            let s = try slots(id)
            return [s["base01"]!, s["base03"]!, s["base0D"]!, s["base0E"]!]
        }
        try setTheme("nord")
        XCTAssertTrue(
            waitUntil { contents(".cache/livery/bspwm-colors")?.contains(try! expected("nord")[2]) == true },
            "bspwm-colors never written for nord: \(daemon.stderr.suffix(800))")
        let wm = try background(bspwm, [])
        var last: [String] = []
        let started = try waitUntil {
            last = try shown()
            return last == (try expected("nord"))
        }
        XCTAssertTrue(started, "bspwm started under nord: \(last)\n\(wm.stderr)")
        // bspwm's own liveryd sees it running from now on: the switch runs the commands live.
        try switchTheme("3024", plugin: "bspwm")
        let followed = try waitUntil {
            last = try shown()
            return last == (try expected("3024"))
        }
        XCTAssertTrue(followed, "the running bspwm after livery set 3024: \(last)")
    }
}
