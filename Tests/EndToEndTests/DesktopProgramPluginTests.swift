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

    /// A base16 fixture scheme's slots, `#rrggbb` lower-case by name (`base0D`), read from its file.
    func slots(_ scheme: String) throws -> [String: String] {
        let text = try String(contentsOfFile: Locations.schemes + "/base16/\(scheme).yaml", encoding: .utf8)
        var slots: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard parts.count == 2, parts[0].hasPrefix("base") else { continue }
            slots[parts[0]] =
                "#" + parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")).lowercased()
        }
        return slots
    }

    func tool(_ name: String) throws -> String {
        let path = Locations.tool(name)
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw HarnessFailure("\(name) is missing: it is a test package (make deps-test installs it)")
        }
        return path
    }

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
            let list = (try? JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]]) ?? []
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

    /// A headless sway (wlroots' headless backend, drawn with pixman), started in a user
    /// namespace of its own: sway refuses to start as root (the tests run as root), and in a
    /// namespace without a mapping its uid is the overflow uid while the files it makes are
    /// still the user's. Its IPC socket and Wayland socket are in the test's runtime directory.
    /// - Returns: the socket of its IPC.
    func startSway(config: String) throws -> String {
        let runtime = environment["XDG_RUNTIME_DIR"]!
        var env = environment
        env["WLR_BACKENDS"] = "headless"
        env["WLR_HEADLESS_OUTPUTS"] = "1"
        env["WLR_LIBINPUT_NO_DEVICES"] = "1"
        env["WLR_RENDERER"] = "pixman"
        let saved = environment
        environment = env
        defer { environment = saved }
        let sway = try background(try tool("unshare"), ["--user", try tool("sway"), "-c", config])
        var socket: String?
        let up = waitUntil(timeout: 20) {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: runtime)) ?? []
            socket = names.first { $0.hasPrefix("sway-ipc.") && $0.hasSuffix(".sock") }
            return (socket != nil && names.contains("wayland-1")) || !sway.isRunning
        }
        guard up, sway.isRunning, let socket else {
            throw HarnessFailure("sway did not start: \(sway.stderr.suffix(1500))")
        }
        return runtime + "/" + socket
    }

    /// A screenshot of sway's output: grim (wlr-screencopy) as a PPM image.
    func waylandScreenshot() throws -> Screenshot {
        let file = logs + "/grim-\(UUID().uuidString).ppm"
        defer { try? FileManager.default.removeItem(atPath: file) }
        let r = try run(try tool("grim"), ["-t", "ppm", file])
        guard r.status == 0 else { throw HarnessFailure("grim: \(r)") }
        return try Screenshot(ppm: Data(contentsOf: URL(fileURLWithPath: file)))
    }

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
        try write("@import \"livery.css\";\nwindow#waybar { background-color: @base0B; }\n", to: ".config/waybar/style.css")
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

        let socket = try startSway(config: config)
        environment["WAYLAND_DISPLAY"] = "wayland-1"
        let waybar = try background(try tool("waybar"), [])
        _ = try background(foot, ["sleep", "600"])
        let mako = try background(try tool("mako"), [])
        try waitForNotificationServer("mako")
        try notify("nord")
        func shows(_ s: [String: String]) -> (Screenshot) -> Bool {
            { shot in
                shot.count(of: PixelColor(s["base0D"]!)) >= 2000 && shot.count(of: PixelColor(s["base0B"]!)) >= 15000
                    && shot.count(of: PixelColor(s["base00"]!)) >= 8000
            }
        }
        let before = try screenshot(waylandScreenshot, until: shows(nord))
        XCTAssertTrue(
            shows(nord)(before),
            "nord: \(before.commonestColors(8))\nwaybar: \(waybar.stderr.suffix(500))\nmako: \(mako.stderr.suffix(500))")
        XCTAssertEqual(try barBackground(try tool("swaymsg"), socket: socket), nord["base01"])

        let other = try slots("3024")
        try switchTo("3024", until: ".config/sway/livery", has: "set $base0D \(other["base0D"]!)")
        let after = try screenshot(waylandScreenshot, until: shows(other))
        let listed = try livery("plugins").stdout
        XCTAssertTrue(
            shows(other)(after), "3024: \(after.commonestColors(8))\n\(listed)\nwaybar: \(waybar.stderr.suffix(500))")
        XCTAssertEqual(try barBackground(try tool("swaymsg"), socket: socket), other["base01"])
        try waitForResults(["sway", "waybar", "mako"])
    }
}
