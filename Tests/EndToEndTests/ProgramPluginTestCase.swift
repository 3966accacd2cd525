import Foundation
import XCTest

/// What the tests of the shipped program plugins share: a home of the test's own with plugins
/// linked as the README says, the programs (test packages, a missing one a failure), a base16
/// fixture scheme's slots read from its file, and waiting for a plugin's run of the last switch.
class ProgramPluginTestCase: EndToEndTestCase {
    /// The test's home, made by `enable`.
    var home = ""

    /// Makes the test's home (`HOME`) and links each shipped plugin of `names` into the user's
    /// plugin directory, as the README says.
    @discardableResult
    func enable(_ names: String...) throws -> String {
        if home.isEmpty {
            home = try makeDirectory("home")
            environment["HOME"] = home
        }
        let plugins = configHome + "/livery/plugins"
        try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: true)
        for name in names {
            try FileManager.default.createSymbolicLink(
                atPath: plugins + "/" + name, withDestinationPath: Locations.repo + "/plugins/" + name)
        }
        return home
    }

    /// Writes `text` to `path` (under the test's home when relative), making its directory.
    func write(_ text: String, to path: String) throws {
        let full = path.hasPrefix("/") ? path : home + "/" + path
        try FileManager.default.createDirectory(
            atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: full, atomically: true, encoding: .utf8)
    }

    /// The text of `path` (under the test's home when relative), nil when it cannot be read.
    func contents(_ path: String) -> String? {
        try? String(contentsOfFile: path.hasPrefix("/") ? path : home + "/" + path, encoding: .utf8)
    }

    /// Waits until plugin `name` has run for the active serial and finished; returns its result
    /// as `livery plugins --json` gives it (`ok`, `skipped: …`, a failure), nil when it never did.
    func finishedRun(_ name: String, timeout: TimeInterval = 20) throws -> String? {
        let serial = try serial()
        var result: String?
        _ = try waitUntil(timeout: timeout) {
            let r = try livery("plugins", "--json")
            guard r.status == 0,
                let rows = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]],
                let row = rows.first(where: { $0["name"] as? String == name }),
                row["serial"] as? Int == Int(serial), let shown = row["result"] as? String,
                shown != "running"
            else { return false }
            result = shown
            return true
        }
        return result
    }

    /// `livery set ID`, then waits until plugin `plugin` has finished its run for it and asserts
    /// that run's result is `expecting` (`ok`, or a skip when its program does not run).
    func switchTheme(
        _ id: String, plugin: String, expecting: String = "ok", file: StaticString = #filePath,
        line: UInt = #line
    ) throws {
        try setTheme(id, file: file, line: line)
        let result = try finishedRun(plugin)
        XCTAssertEqual(
            result, expecting, "plugin \(plugin) for \(id)\n\(daemon.stderr.suffix(1500))", file: file,
            line: line)
    }

    /// Starts sway 1.7 (Debian 12's) on wlroots' headless backend with its pixman renderer and
    /// one output of `width` × `height`, for programs that draw on wlr-layer-shell (weston has
    /// none), and sets `WAYLAND_DISPLAY` (and a runtime directory) in `environment`. sway refuses
    /// to run as root, so as root it runs as `nobody` (setpriv) in a runtime directory of
    /// nobody's, whose socket root's programs reach; `XDG_DATA_DIRS` gets the system's. tearDown
    /// stops it.
    /// - Returns: a function taking a screenshot of the output with grim (wlr-screencopy).
    func startSway(width: Int = 640, height: Int = 480) throws -> () throws -> Screenshot {
        let sway = try tool("sway")
        let grim = try tool("grim")
        let runtime = try makeDirectory("runtime")
        let config = root + "/sway-config"
        try "output HEADLESS-1 resolution \(width)x\(height)\nxwayland disable\n".write(
            toFile: config, atomically: true, encoding: .utf8)
        if getuid() == 0 { chown(runtime, 65534, 65534) }
        chmod(runtime, 0o700)
        environment["XDG_RUNTIME_DIR"] = runtime
        // The system's data directories, as on a desktop: GTK's gdk-pixbuf tells an icon's format
        // by shared-mime-info's database (/usr/share/mime), and GTK programs abort without it.
        environment["XDG_DATA_DIRS"] = dataDirs + ":/usr/local/share:/usr/share"
        environment["DISPLAY"] = nil
        environment["WAYLAND_DISPLAY"] = nil
        var swayEnvironment = environment
        swayEnvironment["WLR_BACKENDS"] = "headless"
        swayEnvironment["WLR_RENDERER"] = "pixman"
        swayEnvironment["WLR_LIBINPUT_NO_DEVICES"] = "1"
        let saved = environment
        environment = swayEnvironment
        let compositor =
            getuid() == 0
            ? try background(
                try tool("setpriv"), ["--reuid=65534", "--regid=65534", "--clear-groups", sway, "-c", config])
            : try background(sway, ["-c", config])
        environment = saved
        var socket: String?
        let up = waitUntil {
            socket = ((try? FileManager.default.contentsOfDirectory(atPath: runtime)) ?? []).first {
                $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock")
            }
            return socket != nil || !compositor.isRunning
        }
        guard up, let socket else {
            throw HarnessFailure("sway made no socket: \(compositor.stderr.suffix(800))")
        }
        environment["WAYLAND_DISPLAY"] = socket
        let shot = root + "/shot.ppm"
        return {
            let r = try self.run(grim, ["-t", "ppm", shot])
            guard r.status == 0 else { throw HarnessFailure("grim: \(r)") }
            return try Screenshot(ppm: Data(contentsOf: URL(fileURLWithPath: shot)))
        }
    }

    /// dconf-service on the test's bus, with the system's schemas on `XDG_DATA_DIRS` (GNOME's,
    /// GNOME Terminal's), as on a desktop, and a runtime directory of the test's own.
    func startDconf() throws {
        let runtime = try makeDirectory("runtime")
        chmod(runtime, 0o700)
        environment["XDG_RUNTIME_DIR"] = runtime
        environment["XDG_DATA_DIRS"] = dataDirs + ":/usr/local/share:/usr/share"
        let dconf = try background("/usr/libexec/dconf-service", [])
        XCTAssertTrue(dconf.isRunning, dconf.stderr)
    }

    /// The base16 terminal colours of a scheme's slots, as tinted-theming maps them (README:
    /// "Terminal colours of every theme"): `#rrggbb` for color0 … color15.
    func terminalPalette(_ s: [String: String]) -> [String] {
        [
            "base00", "base08", "base0B", "base0A", "base0D", "base0E", "base0C", "base05", "base03",
            "base08", "base0B",
            "base0A", "base0D", "base0E", "base0C", "base07",
        ].map { s[$0]! }
    }

    /// Writes the program that runs in a terminal, asks it for its background (OSC 11),
    /// foreground (OSC 10) and colour 1 (OSC 4) every 0.2 s and replaces `file` with the
    /// answers (TerminalFollowTests.query); returns its argv.
    func queryCommand(_ file: String) throws -> [String] {
        let script = root + "/query.py"
        if !FileManager.default.fileExists(atPath: script) {
            try TerminalFollowTests.query.write(toFile: script, atomically: true, encoding: .utf8)
        }
        return [Locations.python, script, file]
    }

    /// The last answers `queryCommand` recorded in `file` as `#rrggbb` (the top 8 bits of each
    /// 16-bit channel): background, foreground, colour 1; nil before the first.
    func terminalAnswer(_ file: String) -> [String]? {
        guard let text = contents(file) else { return nil }
        return ["11;", "10;", "4;1;"].map { prefix in
            guard let range = text.range(of: "\u{1B}]" + prefix + "rgb:") else { return "" }
            let channels = text[range.upperBound...].prefix(14).split(separator: "/").prefix(3)
            return "#" + channels.map { String($0.prefix(2)).lowercased() }.joined()
        }
    }
}
