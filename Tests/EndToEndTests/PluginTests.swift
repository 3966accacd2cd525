import Foundation
import XCTest

/// Exporter and hook plugins, and darkman's scripts, run by liveryd on a private bus: real
/// manifests, real files, real processes.
final class PluginTests: EndToEndTestCase {
    var pluginsDirectory: String { configHome + "/livery/plugins" }

    /// Writes `<config>/livery/plugins/<name>/plugin.yaml` and the other files given.
    func writePlugin(_ name: String, manifest: String, files: [String: String] = [:]) throws {
        let dir = pluginsDirectory + "/" + name
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try manifest.write(toFile: dir + "/plugin.yaml", atomically: true, encoding: .utf8)
        for (file, text) in files {
            try text.write(toFile: dir + "/" + file, atomically: true, encoding: .utf8)
        }
    }

    func read(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }

    func status() throws -> String { try livery("status").stdout }

    /// `livery plugins --json`'s object for `name`.
    func pluginRow(_ name: String) throws -> [String: Any]? {
        let r = try livery("plugins", "--json")
        guard r.status == 0,
            let rows = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]]
        else { return nil }
        return rows.first { $0["name"] as? String == name }
    }

    /// A native theme whose `Window` background and label text are given: its base00 and base05
    /// come from those (the README's rule 3), not from a palette.
    func writeNativeTheme() throws -> String {
        let dir = try makeDirectory("themes")
        try writeBundle(
            "plain", in: dir,
            sheet: """
                @theme { name: "Plain"; inherits: "default"; variant: light; }
                Window { background-color: #fafbfc; }
                Label { text-color: #123456; }
                """)
        return dir
    }

    static let template = "bg={{base00-hex}} fg={{base05-hex}} red={{base08-rgb-r}} name={{scheme-name}}\n"

    func testExporterRewritesItsOutputOnSetForABase16SchemeAndANativeTheme() throws {
        let output = root + "/out/not-yet/colors.txt"  // its directory does not exist yet
        try writePlugin(
            "colors",
            manifest: """
                exports:
                  - template: colors.mustache
                    output: \(output)
                """, files: ["colors.mustache": PluginTests.template])
        let themes = try writeNativeTheme()
        try startDaemon(extraThemesDirectories: [themes])
        try setTheme("nord")
        // nord.yaml: base00 2E3440, base05 E5E9F0, base08 BF616A (0xBF = 191), name "Nord".
        let nord = "bg=2e3440 fg=e5e9f0 red=191 name=Nord\n"
        XCTAssertTrue(
            waitUntil { read(output) == nord }, "output: \(read(output) ?? "none")\n\(daemon.stderr)")
        try setTheme("plain")
        // Rule 3: base00 is Window's background-color, base05 Window/Label's text-color.
        XCTAssertTrue(
            waitUntil {
                read(output)?.hasPrefix("bg=fafbfc fg=123456 ") == true
                    && read(output)!.hasSuffix("name=Plain\n")
            },
            "output: \(read(output) ?? "none")")
        // No temporary files are left beside it.
        let left = try FileManager.default.contentsOfDirectory(atPath: root + "/out/not-yet")
        XCTAssertEqual(left, ["colors.txt"])
    }

    /// A palette colour that no rule names but a template reads: editing it on disk re-renders
    /// the export, as any other edit of the active theme does (the palette is part of what a
    /// switch publishes).
    func testAnEditOfAColourOnlyATemplateReadsIsExported() throws {
        let output = root + "/note.txt"
        try writePlugin(
            "note",
            manifest: """
                exports:
                  - template: note.mustache
                    output: \(output)
                """, files: ["note.mustache": "{{note}}\n"])
        let themes = try makeDirectory("themes")
        func write(_ colour: String) throws {
            try writeBundle(
                "noted", in: themes,
                sheet: """
                    @theme { name: "Noted"; inherits: "default"; variant: light; }
                    @define-color note \(colour);
                    Window { background-color: #fafbfc; }
                    """)
        }
        try write("#112233")
        try startDaemon(extraThemesDirectories: [themes])
        try setTheme("noted")
        XCTAssertTrue(waitUntil { read(output) == "#112233ff\n" }, "output: \(read(output) ?? "none")")
        try write("#445566")
        XCTAssertTrue(
            waitUntil { read(output) == "#445566ff\n" },
            "output after the edit: \(read(output) ?? "none")\n\(daemon.stderr.suffix(1500))")
    }

    /// The temporary file a writer killed during an export (`kill -9`) left beside the output is
    /// removed when the next daemon starts, before its first export; one that a living writer
    /// holds (locked) is kept, and so is one of another file.
    func testTemporariesOfKilledWritersAreRemovedAtStartUp() throws {
        let dir = try makeDirectory("out")
        let output = dir + "/colors.conf"
        try writePlugin(
            "colors",
            manifest: """
                exports:
                  - template: colors.mustache
                    output: \(output)
                """, files: ["colors.mustache": PluginTests.template])
        let abandoned = dir + "/.colors.conf.livery-Ab12Cd"
        try Data(repeating: 0x41, count: 230 << 10).write(to: URL(fileURLWithPath: abandoned))
        let held = dir + "/.colors.conf.livery-Xy34Zw"
        try Data("half written".utf8).write(to: URL(fileURLWithPath: held))
        let writer = open(held, O_RDONLY | O_CLOEXEC)
        XCTAssertEqual(flock(writer, LOCK_EX), 0)
        defer { close(writer) }
        let another = dir + "/.notes.livery-Ab12Cd"
        try Data("another file's".utf8).write(to: URL(fileURLWithPath: another))
        try startDaemon()
        try setTheme("nord")
        // The export is written on the queue the sweep ran on first.
        XCTAssertTrue(
            waitUntil { read(output) == "bg=2e3440 fg=e5e9f0 red=191 name=Nord\n" },
            "output: \(read(output) ?? "none")\n\(daemon.stderr)")
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: dir).sorted(),
            [".colors.conf.livery-Xy34Zw", ".notes.livery-Ab12Cd", "colors.conf"])
    }

    /// An output under `$XDG_CONFIG_HOME/` or `$XDG_DATA_HOME/` lands in the daemon's own
    /// directories (the test's, not under `$HOME`), where programs that follow the XDG Base
    /// Directory specification look.
    func testOutputsUnderXDGDirectoriesFollowTheUsersOwn() throws {
        environment["HOME"] = root + "/home"
        try writePlugin(
            "xdg",
            manifest: """
                exports:
                  - template: t.mustache
                    output: $XDG_CONFIG_HOME/prog/colors
                  - template: t.mustache
                    output: $XDG_DATA_HOME/prog/colors
                """, files: ["t.mustache": "{{scheme-slug}}\n"])
        try startDaemon()
        try setTheme("nord")
        XCTAssertTrue(
            waitUntil {
                read(configHome + "/prog/colors") == "nord\n" && read(dataHome + "/prog/colors") == "nord\n"
            })
        XCTAssertFalse(FileManager.default.fileExists(atPath: root + "/home/.config/prog/colors"))
    }

    /// An export from a tinted-theming template repository (the fixture tinted-fzf, as its
    /// authors committed it) writes, on `livery set`, byte for byte the file tinted-theming's
    /// builder committed for that scheme. With no `template` named, the export takes the
    /// repository's entry for the theme's system: base24 for a base24 scheme, base16 for a base16.
    func testRepositoryExportWritesWhatTheTintedBuilderWrote() throws {
        let fzf = Locations.fixtures + "/tinted/tinted-fzf"
        let fish = root + "/out/fzf.fish"
        let sh = root + "/out/fzf.sh"
        // A repository of the two `.sh` entries alone, so that the first for each system is known.
        let repo = try makeDirectory("fzf-sh/templates")
        try
            "base16-default:\n  extension: .sh\n  output: sh\nbase24-default:\n  extension: .sh\n  output: sh\n  supported-systems: [base24]\n"
            .write(toFile: repo + "/config.yaml", atomically: true, encoding: .utf8)
        for entry in ["base16-default", "base24-default"] {
            try FileManager.default.copyItem(
                atPath: fzf + "/templates/\(entry).mustache", toPath: repo + "/\(entry).mustache")
        }
        try writePlugin(
            "fzf",
            manifest: """
                exports:
                  - repository: \(fzf)
                    template: base16-fish
                    output: \(fish)
                  - repository: \((repo as NSString).deletingLastPathComponent)
                    output: \(sh)
                """)
        let tinted = Locations.fixtures + "/tinted/schemes"
        try startDaemon(extraThemesDirectories: [tinted + "/base16", tinted + "/base24"])
        XCTAssertEqual(try pluginRow("fzf")?["errors"] as? [String], [])
        try setTheme("apathy")
        let apathyFish = try String(contentsOfFile: fzf + "/fish/base16-apathy.fish", encoding: .utf8)
        let apathySh = try String(contentsOfFile: fzf + "/sh/base16-apathy.sh", encoding: .utf8)
        XCTAssertTrue(waitUntil { read(fish) == apathyFish && read(sh) == apathySh }, "\(daemon.stderr)")
        try setTheme("base24-brogrammer")
        let brogrammerSh = try String(contentsOfFile: fzf + "/sh/base24-brogrammer.sh", encoding: .utf8)
        XCTAssertTrue(waitUntil { read(sh) == brogrammerSh }, "sh: \(read(sh)?.prefix(300) ?? "none")")
    }

    /// A repository that is not there, or an entry it does not have, is a manifest error naming
    /// the place, and the plugin does not run.
    func testMissingRepositoryOrEntryIsReported() throws {
        let output = root + "/out/never.txt"
        try writePlugin(
            "gone",
            manifest: """
                exports:
                  - repository: ~/no-such-repository
                    output: \(output)
                """)
        try writePlugin(
            "typo",
            manifest: """
                exports:
                  - repository: \(Locations.fixtures)/tinted/tinted-fzf
                    template: base16-fsh
                    output: \(output)
                """)
        try startDaemon()
        let gone = try XCTUnwrap(try pluginRow("gone")?["errors"] as? [String])
        XCTAssertEqual(gone.count, 1)
        XCTAssertTrue(
            gone[0].contains("plugin.yaml:2:17: error: repository '~/no-such-repository' not found"),
            "\(gone)")
        let typo = try XCTUnwrap(try pluginRow("typo")?["errors"] as? [String])
        XCTAssertEqual(typo.count, 1)
        XCTAssertTrue(
            typo[0].contains("has no template 'base16-fsh' (did you mean 'base16-fish'?)"), "\(typo)")
        try setTheme("nord")
        XCTAssertTrue(try waitUntil { try status().contains("plugin 'typo' does not run") })
        XCTAssertNil(read(output))
    }

    /// The shipped shell plugin, enabled as the README says (a link in the user's plugin
    /// directory), writes its escape sequences to the user's pseudo-terminals on `livery set`:
    /// they arrive on one the test opens (read from its master side), with nord's colours
    /// (nord.yaml: base08 BF616A is colour 1, base00 2E3440 the background). Like pywal, the
    /// plugin writes to every terminal of the user, so other open terminals get them too.
    func testShellPluginsSequencesArriveOnAPseudoTerminal() throws {
        let master = sysOpenPT(O_RDWR | O_NOCTTY)
        XCTAssertGreaterThanOrEqual(master, 0, "posix_openpt: \(String(cString: strerror(errno)))")
        defer { close(master) }
        XCTAssertEqual(sysGrantPT(master), 0)
        XCTAssertEqual(sysUnlockPT(master), 0)
        var name = [CChar](repeating: 0, count: 128)
        XCTAssertEqual(sysPTSName(master, &name, name.count), 0)
        let terminal = String(cString: name)
        _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
        // Outputs under a home of the test's, not the real one.
        let home = try makeDirectory("home")
        environment["HOME"] = home
        try FileManager.default.createDirectory(atPath: pluginsDirectory, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: pluginsDirectory + "/shell", withDestinationPath: Locations.repo + "/plugins/shell")
        try startDaemon()
        try setTheme("nord")
        var received: [UInt8] = []
        let colour1 = Array("\u{1B}]4;1;#bf616a\u{1B}\\".utf8)
        let background = Array("\u{1B}]11;#2e3440\u{1B}\\".utf8)
        func has(_ needle: [UInt8]) -> Bool {
            received.count >= needle.count
                && (0...(received.count - needle.count)).contains {
                    Array(received[$0..<$0 + needle.count]) == needle
                }
        }
        let arrived = waitUntil(timeout: 10) {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = Glibc.read(master, &buffer, buffer.count)
            if n > 0 { received += buffer[0..<n] }
            return has(colour1) && has(background)
        }
        let problems = try status()
        XCTAssertTrue(
            arrived,
            "on \(terminal): \(String(decoding: received, as: UTF8.self).debugDescription)\n\(problems)\n\(daemon.stderr)"
        )
        XCTAssertTrue(FileManager.default.fileExists(atPath: home + "/.cache/livery/sequences"))
    }

    /// A plugin that was removed takes its last failures with it: `status` stops listing them
    /// at the next change. Found by a newcomer's trial: they stayed forever.
    func testARemovedPluginsFailuresGoWithIt() throws {
        try writePlugin("failing", manifest: "hooks:\n  - run: [\"false\"]\n")
        try startDaemon()
        try setTheme("forest")
        XCTAssertTrue(
            try waitUntil { try status().contains("plugin 'failing': hook (false) exited with status 1") })
        try FileManager.default.removeItem(atPath: pluginsDirectory + "/failing")
        try setTheme("crimson")
        let gone = try waitUntil { try !status().contains("plugin 'failing'") }
        let shown = try status()
        XCTAssertTrue(gone, shown)
    }

    /// A shipped plugin enabled by a link, as the README says, then unlinked: it is listed again
    /// as shipped and not enabled, and its last failure leaves `Problems` at the next switch.
    func testAnUnlinkedShippedPluginsFailuresGoWithIt() throws {
        environment["HOME"] = root
        try FileManager.default.createDirectory(atPath: pluginsDirectory, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: pluginsDirectory + "/kitty", withDestinationPath: Locations.repo + "/plugins/kitty")
        // A kitty's socket that does not answer: the plugin fails.
        _ = try startKittyImpostor()
        try startDaemon()
        try setTheme("forest")
        let failed = try waitUntil { try status().contains("plugin 'kitty'") }
        let shownFirst = try status()
        XCTAssertTrue(failed, shownFirst)
        try FileManager.default.removeItem(atPath: pluginsDirectory + "/kitty")
        try setTheme("crimson")
        XCTAssertTrue(try waitUntil { try pluginRow("kitty")?["enabled"] as? Bool == false })
        let gone = try waitUntil { try !status().contains("plugin 'kitty'") }
        let shown = try status()
        XCTAssertTrue(gone, shown)
    }

    /// A hook reaches the daemon's own bus, even a private one (`--address`): `livery get` in a
    /// hook prints the theme just switched to.
    func testAHookCanCallTheDaemonOnItsBus() throws {
        let out = root + "/hook-get.txt"
        try writePlugin(
            "asker",
            manifest: "hooks:\n  - run: [\"sh\", \"-c\", \"\(Locations.livery) get > \(out)\"]\n")
        try startDaemon()
        try setTheme("forest")
        XCTAssertTrue(waitUntil { read(out) == "forest\n" }, "\(read(out) ?? "none")\n\(daemon.stderr)")
    }

    /// The shipped GNOME plugin linked as the README says, dconf-service on the test's bus with
    /// GNOME's schemas on XDG_DATA_DIRS, as on a desktop; returns a themes directory holding
    /// `nocturne`, a dark theme that names the GTK theme Adwaita-dark.
    func enableGnomePlugin() throws -> String {
        let runtime = try makeDirectory("runtime")
        chmod(runtime, 0o700)
        environment["XDG_RUNTIME_DIR"] = runtime
        // GNOME's schemas are found on XDG_DATA_DIRS, as on a desktop.
        environment["XDG_DATA_DIRS"] = dataDirs + ":/usr/local/share:/usr/share"
        let dconf = try background("/usr/libexec/dconf-service", [])
        XCTAssertTrue(dconf.isRunning, dconf.stderr)
        try FileManager.default.createDirectory(atPath: pluginsDirectory, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: pluginsDirectory + "/gnome", withDestinationPath: Locations.repo + "/plugins/gnome")
        let themes = try makeDirectory("gtk-themes")
        try writeBundle(
            "nocturne", in: themes,
            sheet: "@theme { inherits: \"default-dark\"; variant: dark; gtk-theme: \"Adwaita-dark\"; }\n")
        return themes
    }

    /// The shipped GNOME plugin, enabled as the README says, sets
    /// `org.gnome.desktop.interface color-scheme` through Debian's gsettings (the dconf backend,
    /// with dconf-service on the test's bus): `prefer-dark` for a dark theme, `default` for a
    /// light one, read back with gsettings.
    func testGnomePluginSetsTheColorScheme() throws {
        let themes = try enableGnomePlugin()
        try startDaemon(extraThemesDirectories: [themes])
        func scheme() throws -> String {
            try run(Locations.tool("gsettings"), ["get", "org.gnome.desktop.interface", "color-scheme"])
                .stdout
        }
        try setTheme("default-dark")
        let dark = try waitUntil { try scheme() == "'prefer-dark'\n" }
        let (darkShown, darkStatus) = (try scheme(), try status())
        XCTAssertTrue(dark, "\(darkShown) \(darkStatus)\n\(daemon.stderr)")
        try setTheme("forest")
        let light = try waitUntil { try scheme() == "'default'\n" }
        let (lightShown, lightStatus) = (try scheme(), try status())
        XCTAssertTrue(light, "\(lightShown) \(lightStatus)")
        // A theme that names its GTK theme sets gtk-theme too.
        try setTheme("nocturne")
        let gtk = try waitUntil {
            try run(Locations.tool("gsettings"), ["get", "org.gnome.desktop.interface", "gtk-theme"]).stdout
                == "'Adwaita-dark'\n"
        }
        let gtkStatus = try status()
        XCTAssertTrue(gtk, gtkStatus)
    }

    /// The GNOME plugin gives `gtk-theme` back: the user's own value (set with gsettings before
    /// Livery changed it) returns when a theme that names a GTK theme is followed by one that
    /// names none, and a value the user chooses while a theme names none is left alone on the
    /// next switch.
    func testGnomePluginRestoresTheUsersOwnGtkTheme() throws {
        let themes = try enableGnomePlugin()
        func gtkTheme() throws -> String {
            try run(Locations.tool("gsettings"), ["get", "org.gnome.desktop.interface", "gtk-theme"]).stdout
        }
        func setGtkTheme(_ name: String) throws {
            let r = try run(
                Locations.tool("gsettings"), ["set", "org.gnome.desktop.interface", "gtk-theme", name])
            XCTAssertEqual(r.status, 0, "\(r)")
        }
        /// Waits until gsettings shows `value` (as `gsettings get` prints it).
        func expectGtkTheme(_ value: String, file: StaticString = #filePath, line: UInt = #line) throws {
            let shown = try waitUntil { try gtkTheme() == value + "\n" }
            let (last, problems) = (try gtkTheme(), try status())
            XCTAssertTrue(shown, "gtk-theme \(last)\(problems)", file: file, line: line)
        }
        /// Waits until the gnome plugin's hook of the active serial has ended.
        func waitForTheHook(file: StaticString = #filePath, line: UInt = #line) throws {
            let serial = try serial()
            let ended = try waitUntil {
                let row = try pluginRow("gnome")
                return row?["serial"] as? Int == Int(serial) && row?["result"] as? String == "ok"
            }
            let problems = try status()
            XCTAssertTrue(ended, problems, file: file, line: line)
        }
        try setGtkTheme("Arc's own")
        try startDaemon(extraThemesDirectories: [themes])
        try setTheme("nocturne")
        try expectGtkTheme("'Adwaita-dark'")
        try setTheme("forest")
        try expectGtkTheme("\"Arc's own\"")
        // The user's next choice is theirs: a theme naming none leaves it.
        try setGtkTheme("Yaru")
        try setTheme("crimson")
        try waitForTheHook()
        XCTAssertEqual(try gtkTheme(), "'Yaru'\n")
        // A choice made while a theme names one is kept when the next names none, and is the
        // one given back after the next theme that names one.
        try setTheme("nocturne")
        try expectGtkTheme("'Adwaita-dark'")
        try setGtkTheme("HighContrast")
        try setTheme("forest")
        try waitForTheHook()
        XCTAssertEqual(try gtkTheme(), "'HighContrast'\n")
        try setTheme("nocturne")
        try expectGtkTheme("'Adwaita-dark'")
        try setTheme("crimson")
        try expectGtkTheme("'HighContrast'")
    }

    func testHookGetsTheThemeAsJSONOnStandardInputAndTheEnvironment() throws {
        let json = root + "/hook.json"
        let env = root + "/hook.env"
        try writePlugin(
            "notify",
            manifest: """
                hooks:
                  - run: ["/bin/sh", "-c", "cat > \(json); env > \(env)"]
                    timeout: 5
                """)
        environment["LIVERY_TEST_PRIVATE"] = "must-not-reach-hooks"
        try startDaemon()
        try setTheme("nord")
        let serial = try serial()
        XCTAssertTrue(waitUntil { read(env)?.contains("LIVERY_SERIAL=") == true }, daemon.stderr)
        let object = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data((read(json) ?? "").utf8)) as? [String: Any])
        XCTAssertEqual(object["id"] as? String, "nord")
        XCTAssertEqual(object["name"] as? String, "Nord")
        XCTAssertEqual(object["variant"] as? String, "dark")
        XCTAssertEqual(object["serial"] as? Int, Int(serial))
        let base16 = try XCTUnwrap(object["base16"] as? [String: String])
        XCTAssertEqual(base16["base00"], "#2e3440")
        XCTAssertEqual(base16["base0D"], "#81a1c1")
        let palette = try XCTUnwrap(object["palette"] as? [String: String])
        XCTAssertEqual(palette["base08"], "#bf616aff")
        // The terminal colours: nord.yaml's base08 BF616A is color1 and color9, base03 4C566A
        // color8 (the base16 mapping).
        let terminal = try XCTUnwrap(object["terminal"] as? [String: String])
        XCTAssertEqual(terminal["color1"], "#bf616a")
        XCTAssertEqual(terminal["color9"], "#bf616a")
        XCTAssertEqual(terminal["color8"], "#4c566a")
        XCTAssertEqual(terminal["background"], "#2e3440")
        XCTAssertEqual(terminal.count, 22)
        let lines = Set((read(env) ?? "").split(separator: "\n").map(String.init))
        XCTAssertTrue(lines.contains("LIVERY_THEME=nord"), "\(lines)")
        XCTAssertTrue(lines.contains("LIVERY_VARIANT=dark"))
        XCTAssertTrue(lines.contains("LIVERY_SERIAL=\(serial)"))
        XCTAssertTrue(lines.contains("XDG_CONFIG_HOME=\(configHome)"))
        XCTAssertFalse(
            lines.contains { $0.hasPrefix("LIVERY_TEST_PRIVATE=") }, "the environment is not clean")
        XCTAssertTrue(waitUntil { (try? pluginRow("notify"))??["result"] as? String == "ok" })
    }

    func testHookPastItsTimeoutIsKilledAndReportedWhileResolveIsAnswered() throws {
        let pidFile = root + "/slow.pid"
        try writePlugin(
            "slow",
            manifest: """
                hooks:
                  - run: ["/bin/sh", "-c", "echo $$ > \(pidFile); exec sleep 60"]
                    timeout: 1
                """)
        try startDaemon()
        try setTheme("crimson")
        XCTAssertTrue(waitUntil { read(pidFile) != nil })
        // While the hook sleeps, the daemon answers with the new theme.
        for _ in 0..<5 { XCTAssertEqual(try resolve("Window/TabBar", "tint-color"), "#800000ff\n") }
        XCTAssertTrue(waitUntil { (try? status())?.contains("plugin 'slow': hook") == true })
        let text = try status()
        XCTAssertTrue(text.contains("timed out after 1 s and was killed"), text)
        let pid = try XCTUnwrap(Int32((read(pidFile) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)))
        XCTAssertTrue(waitUntil { kill(pid, 0) != 0 }, "the hook still runs")
        // A later success clears the problem.
        try writePlugin("slow", manifest: "hooks:\n  - run: [\"/bin/true\"]\n")
        try setTheme("forest")
        let cleared = waitUntil { (try? status())?.contains("plugin 'slow'") == false }
        let now = try status()
        XCTAssertTrue(cleared, now)
    }

    /// A command that fails says why: `status` and `plugins` give the first line of its standard
    /// error that is not blank after its exit status, and the log has all of its output.
    func testAFailedCommandsFirstErrorLineFollowsItsExitStatus() throws {
        try writePlugin(
            "loud",
            manifest: """
                hooks:
                  - run: ["/bin/sh", "-c", "echo progress; echo >&2; echo 'no display: cannot connect' >&2; echo more >&2; exit 3"]
                """)
        try startDaemon()
        try setTheme("forest")
        let expected = "exited with status 3: no display: cannot connect"
        let shown = try waitUntil { try status().contains(expected) }
        let problems = try status()
        XCTAssertTrue(shown, problems)
        XCTAssertTrue(problems.contains(expected + "\n"), "only the first line: \(problems)")
        let result = try XCTUnwrap(try pluginRow("loud")?["result"] as? String)
        XCTAssertTrue(result.hasSuffix(expected), result)
        XCTAssertTrue(waitUntil { daemon.stderr.contains("progress") && daemon.stderr.contains("more") })
    }

    /// VmRSS of a process in KiB.
    func residentKiB(_ pid: pid_t) -> Int {
        let text = read("/proc/\(pid)/status") ?? ""
        let line = text.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    func testHookWritingMegabytesDoesNotGrowTheDaemon() throws {
        try writePlugin(
            "flood",
            manifest: """
                hooks:
                  - run: ["/bin/sh", "-c", "head -c 50000000 /dev/zero | tr '\\\\0' x; head -c 20000000 /dev/zero >&2"]
                    timeout: 30
                """)
        try startDaemon()
        try setTheme("forest")
        XCTAssertTrue(waitUntil { (try? pluginRow("flood"))??["result"] as? String == "ok" })
        let before = residentKiB(daemon.pid)
        try setTheme("crimson")
        XCTAssertTrue(
            waitUntil(timeout: 60) {
                (try? pluginRow("flood")).flatMap { $0?["result"] as? String } == "ok"
                    && (try? pluginRow("flood"))??["serial"] as? Int == Int((try? serial()) ?? 0)
            })
        let after = residentKiB(daemon.pid)
        XCTAssertLessThan(after - before, 16 << 10, "liveryd grew from \(before) KiB to \(after) KiB")
        // 70 MB were written; the log keeps at most 64 KiB of each stream a run.
        let logged = daemon.stderr.utf8.count
        XCTAssertLessThan(logged, 1 << 20, "the log holds \(logged) bytes")
        XCTAssertTrue(
            daemon.stderr.contains("; output (first 65536 of 50000000 bytes):"),
            String(daemon.stderr.prefix(2000)))
        XCTAssertTrue(
            daemon.stderr.contains("; standard error (first 65536 of 20000000 bytes):"),
            String(daemon.stderr.prefix(2000)))
    }

    func testTwoQuickSwitchesLeaveOutputsAtTheSecondTheme() throws {
        var exports = "exports:\n"
        for i in 0..<10 {
            exports += "  - template: t.mustache\n    output: \(root)/out/\(i).txt\n"
        }
        try writePlugin("many", manifest: exports, files: ["t.mustache": "{{scheme-slug}} {{base00-hex}}\n"])
        try startDaemon()
        try setTheme("nord")
        try setTheme("dracula")
        let last = try serial()
        // dracula.yaml: base00 282936.
        let want = "dracula \(String(try XCTUnwrap(readBase00("dracula"))))\n"
        XCTAssertTrue(
            waitUntil {
                (0..<10).allSatisfy { read("\(root)/out/\($0).txt") == want }
                    && (try? pluginRow("many"))??["serial"] as? Int == Int(last)
            }, (0..<10).map { read("\(root)/out/\($0).txt") ?? "none" }.joined())
        // The runner renders one change at a time, in order: with the last serial recorded, no
        // older rendering is left to come after it.
    }

    /// A daemon killed in the middle of a switch leaves outputs of two themes: at the next
    /// start every export whose file is not the active theme's is written again and its command
    /// run, and one that already is the active theme's is left alone, its command not run.
    func testStartUpPutsRightTheOutputsACrashLeftAtAnotherTheme() throws {
        for name in ["fresh", "stale"] {
            try writePlugin(
                name,
                manifest: """
                    exports:
                      - template: t.mustache
                        output: \(root)/out/\(name).txt
                        run: ["sh", "-c", "echo ran >> \(root)/\(name).log"]
                    """, files: ["t.mustache": "{{scheme-slug}} {{base00-hex}}\n"])
        }
        try startDaemon()
        try setTheme("nord")
        let nord = "nord \(try XCTUnwrap(readBase00("nord")))\n"
        let serial = try serial()
        // Both ran for nord (and maybe for the theme the daemon started with before it).
        func ranForNord(_ name: String) -> Bool {
            guard let row = try? pluginRow(name) else { return false }
            return read(root + "/out/\(name).txt") == nord && row["serial"] as? Int == Int(serial)
                && row["result"] as? String == "ok"
        }
        XCTAssertTrue(waitUntil { ranForNord("fresh") && ranForNord("stale") })
        let freshRuns = read(root + "/fresh.log") ?? ""
        let staleRuns = read(root + "/stale.log") ?? ""
        daemon.kill9()
        // What a kill between the two exports of a switch away from dracula leaves.
        let dracula = "dracula \(try XCTUnwrap(readBase00("dracula")))\n"
        try dracula.write(toFile: root + "/out/stale.txt", atomically: true, encoding: .utf8)
        try startDaemon()
        XCTAssertEqual(try activeTheme(), "nord\n")
        XCTAssertTrue(
            waitUntil {
                read(root + "/out/stale.txt") == nord && read(root + "/stale.log") == staleRuns + "ran\n"
            },
            "\(read(root + "/out/stale.txt") ?? "none") \(read(root + "/stale.log") ?? "none")")
        // The pass records every plugin it ran at once: 'stale' is recorded, 'fresh' is not.
        XCTAssertEqual(try pluginRow("stale")?["result"] as? String, "ok")
        XCTAssertEqual(try pluginRow("fresh")?["result"] as? String, "not run yet")
        XCTAssertEqual(read(root + "/fresh.log"), freshRuns)
        XCTAssertEqual(read(root + "/out/fresh.txt"), nord)
    }

    /// base00 of a fixture scheme, read from its YAML by hand (lower-case).
    func readBase00(_ id: String) -> String? {
        let text = read(Locations.schemes + "/base16/\(id).yaml") ?? ""
        let line = text.split(separator: "\n").first { $0.contains("base00:") } ?? ""
        return line.split(separator: "\"").dropFirst().first.map { $0.lowercased() }
    }

    func testManifestWithAnUnknownKeyIsReportedAndThePluginDoesNotRun() throws {
        let marker = root + "/ran"
        try writePlugin(
            "typo",
            manifest: """
                exports:
                  - template: t.mustache
                    outptu: \(root)/typo.txt
                hooks:
                  - run: ["/usr/bin/touch", "\(marker)"]
                """, files: ["t.mustache": "x\n"])
        // A valid plugin beside it: the runner records the runs of one switch together, before
        // their commands start, so once the witness's run for the switch is over, the typo
        // plugin's would have been recorded too, had it run.
        try writePlugin("witness", manifest: "hooks:\n  - run: [\"true\"]\n")
        try startDaemon()
        let manifest = pluginsDirectory + "/typo/plugin.yaml"
        let text = try status()
        XCTAssertTrue(
            text.contains("\(manifest):3:5: error: unknown key 'outptu' (did you mean 'output'?)"), text)
        try setTheme("forest")
        let switched = Int(try serial())
        let witnessed = try waitUntil {
            let witness = try pluginRow("witness")
            return witness?["serial"] as? Int == switched && witness?["result"] as? String == "ok"
        }
        let witness = try pluginRow("witness") ?? [:]
        XCTAssertTrue(witnessed, "\(witness)")
        let row = try XCTUnwrap(try pluginRow("typo"))
        XCTAssertEqual(row["result"] as? String, "not run: the manifest has errors")
        XCTAssertEqual(
            row["kind"] as? String, "invalid", "a plugin whose manifest cannot be read is of no kind")
        XCTAssertEqual(row["serial"] as? Int, 0, "a plugin with errors ran: \(row)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: marker), "a plugin with errors ran")
        XCTAssertTrue(try status().contains("plugin 'typo' does not run: \(manifest):3:5"))
    }

    func testDarkmanScriptsRunWhenTheVariantChanges() throws {
        for variant in ["dark", "light"] {
            let dir = try makeDirectory("data/\(variant)-mode.d")
            let script = dir + "/mark"
            try "#!/bin/sh\necho \"$LIVERY_THEME\" >> \(root)/\(variant).log\n".write(
                toFile: script, atomically: true, encoding: .utf8)
            chmod(script, 0o755)
        }
        try startDaemon()
        try setTheme("default")  // light
        try setTheme("forest")  // light too: no script
        try setTheme("default-dark")  // light → dark
        XCTAssertTrue(waitUntil { read(root + "/dark.log") == "default-dark\n" }, daemon.stderr)
        try setTheme("default")  // dark → light
        XCTAssertTrue(waitUntil { read(root + "/light.log")?.hasSuffix("default\n") == true })
        XCTAssertEqual(read(root + "/dark.log"), "default-dark\n")
        let row = try XCTUnwrap(try pluginRow("dark-mode.d/mark"))
        XCTAssertEqual(row["kind"] as? String, "darkman")
        XCTAssertEqual(row["origin"] as? String, "user")
    }

    /// A switch superseded before its scripts start does not swallow the change of variant:
    /// from a light theme, two switches to dark themes one right after the other run
    /// `dark-mode.d/*` once, and `livery plugins` reports that run. An exporter of many outputs
    /// keeps the first switch rendering when the second is published.
    func testDarkmanScriptsRunOnceWhenASwitchToTheirVariantIsSuperseded() throws {
        var exports = "exports:\n"
        for i in 0..<50 { exports += "  - template: t.mustache\n    output: \(root)/out/\(i).txt\n" }
        try writePlugin("many", manifest: exports, files: ["t.mustache": "{{scheme-slug}}\n"])
        for variant in ["dark", "light"] {
            let dir = try makeDirectory("data/\(variant)-mode.d")
            let script = dir + "/mark"
            try "#!/bin/sh\necho \"$LIVERY_THEME $LIVERY_SERIAL\" >> \(root)/\(variant).log\n".write(
                toFile: script, atomically: true, encoding: .utf8)
            chmod(script, 0o755)
        }
        try startDaemon()
        func lines(_ variant: String) -> [String] {
            (read(root + "/\(variant).log") ?? "").split(separator: "\n").map(String.init)
        }
        for round in 1...3 {
            let both = try python(
                """
                import sys, dbus
                bus = dbus.bus.BusConnection(sys.argv[1])
                for theme in ("default-dark", "dracula"):
                    bus.call_blocking("org.livery.Livery1", "/org/livery/Livery1", "org.livery.Livery1", "SetTheme", "s", (theme,))
                """)
            XCTAssertEqual(both.status, 0, "\(both)")
            let serial = try serial()
            XCTAssertTrue(
                waitUntil { lines("dark").count == round }, "round \(round): dark.log \(lines("dark"))")
            // For the first switch when its run was not superseded, else for the second.
            let ran = lines("dark").last ?? ""
            XCTAssertTrue(
                ["default-dark \(serial - 1)", "dracula \(serial)"].contains(ran), "round \(round): \(ran)")
            let row = try XCTUnwrap(try pluginRow("dark-mode.d/mark"))
            XCTAssertEqual(
                row["serial"] as? Int, Int(ran.split(separator: " ").last ?? ""), "round \(round): \(row)")
            // Back to light: its script's run shows the dark one ran only once.
            try setTheme("default")
            XCTAssertTrue(
                waitUntil { lines("light").count == round }, "round \(round): light.log \(lines("light"))")
            XCTAssertEqual(lines("dark").count, round, "round \(round): \(lines("dark"))")
        }
    }

    /// A command with `when-running` is skipped, not failed, while no process of the user has
    /// that name, and `livery plugins` says so; once such a process runs, the next switch runs
    /// it. The program is a copy of `sleep` under a name of this test's own, which no other
    /// test runs.
    func testACommandWhenRunningIsSkippedWhileItsProgramDoesNotRun() throws {
        let name = "lvy-\(getpid())"
        let ran = root + "/ran"
        try writePlugin(
            "reloader",
            manifest: """
                exports:
                  - template: t.mustache
                    output: \(root)/out.txt
                    run: ["sh", "-c", "echo $LIVERY_THEME >> \(ran)"]
                    when-running: \(name)
                """,
            files: ["t.mustache": "{{livery-theme}}\n"])
        try startDaemon()
        try setTheme("forest")
        var row: [String: Any]?
        let skipped = try waitUntil {
            row = try pluginRow("reloader")
            return row?["serial"] as? Int == Int(try serial()) && row?["result"] as? String != "running"
        }
        XCTAssertTrue(skipped, "\(row ?? [:])")
        XCTAssertEqual(row?["result"] as? String, "skipped: \(name) not running")
        XCTAssertEqual(read(root + "/out.txt"), "forest\n", "the output is written all the same")
        XCTAssertNil(read(ran))
        XCTAssertFalse(try status().contains("reloader"))

        let program = try makeDirectory("bin") + "/" + name
        try FileManager.default.copyItem(atPath: "/bin/sleep", toPath: program)
        let sleeper = try background(program, ["60"])
        XCTAssertTrue(
            waitUntil {
                (try? String(contentsOfFile: "/proc/\(sleeper.pid)/comm", encoding: .utf8)) == name + "\n"
            })
        try setTheme("crimson")
        XCTAssertTrue(waitUntil { read(ran) == "crimson\n" }, "\(read(ran) ?? "none")\n\(daemon.stderr)")
        XCTAssertTrue(try waitUntil { try pluginRow("reloader")?["result"] as? String == "ok" })
    }

    /// A command that finds for itself that its program does not run exits with status 77 (the
    /// skip status of automake's test harness) and says why on its first line of standard
    /// error: `livery plugins` shows it as a skip (`skipped: REASON`, or `ok; skipped: REASON`
    /// beside a command that ran), not a failure, and nothing is added to the problems. The
    /// work it did before, and the output, stay.
    func testACommandExitingWithTheSkipStatusIsSkippedNotFailed() throws {
        let copied = root + "/copied"
        try writePlugin(
            "self-skipping",
            manifest: """
                exports:
                  - template: t.mustache
                    output: \(root)/out.txt
                    run: ["sh", "-c", "cp \(root)/out.txt \(copied); echo 'foo not running' >&2; exit 77"]
                """,
            files: ["t.mustache": "{{livery-theme}}\n"])
        try writePlugin(
            "one-of-two",
            manifest: """
                exports:
                  - template: t.mustache
                    output: \(root)/second.txt
                    run: ["true"]
                hooks:
                  - run: ["sh", "-c", "echo 'on standard output'; exit 77"]
                """,
            files: ["t.mustache": "{{livery-theme}}\n"])
        try startDaemon()
        try setTheme("forest")
        let serial = Int(try serial())
        var rows: [String: [String: Any]] = [:]
        let finished = try waitUntil {
            for name in ["self-skipping", "one-of-two"] { rows[name] = try pluginRow(name) }
            return rows.values.allSatisfy {
                $0["serial"] as? Int == serial && $0["result"] as? String != "running"
            }
        }
        XCTAssertTrue(finished, "\(rows)")
        XCTAssertEqual(rows["self-skipping"]?["result"] as? String, "skipped: foo not running")
        XCTAssertEqual(read(copied), "forest\n", "what the command did before it skipped stays")
        // Without a line on standard error (standard output is no reason), the program's name.
        XCTAssertEqual(rows["one-of-two"]?["result"] as? String, "ok; skipped: sh skipped itself")
        let problems = try status()
        XCTAssertFalse(problems.contains("self-skipping") || problems.contains("one-of-two"), problems)
    }

    func testPluginsListsBuiltInFormatsAndShippedPluginsNotEnabled() throws {
        try startDaemon()
        let r = try livery("plugins", "--json")
        XCTAssertEqual(r.status, 0, "\(r)")
        let rows = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
        let base16 = try XCTUnwrap(rows.first { $0["name"] as? String == "base16" })
        XCTAssertEqual(base16["kind"] as? String, "format")
        XCTAssertEqual(base16["origin"] as? String, "built in")
        let kitty = try XCTUnwrap(rows.first { $0["name"] as? String == "kitty" }, "\(rows)")
        XCTAssertEqual(kitty["origin"] as? String, "shipped")
        XCTAssertEqual(kitty["enabled"] as? Bool, false)
        XCTAssertEqual(kitty["errors"] as? [String], [])
    }

    /// The shipped pywal plugin, enabled as the README says (a link in the user's plugin
    /// directory), writes a colors.json that pywal's own reader (`pywal.theme.file`, pywal from
    /// PyPI, `make test` installs it) loads with the scheme's colours.
    func testThePywalPluginsColorsJSONLoadsWithPywalsOwnReader() throws {
        let home = try makeDirectory("home")
        environment["HOME"] = home
        try FileManager.default.createDirectory(atPath: pluginsDirectory, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: pluginsDirectory + "/pywal", withDestinationPath: Locations.repo + "/plugins/pywal")
        try startDaemon()
        try setTheme("nord")
        let output = home + "/.cache/wal/colors.json"
        // nord.yaml: base00 2E3440 (background, color0), base08 BF616A (color1), base05 E5E9F0.
        XCTAssertTrue(
            waitUntil { read(output)?.contains("#bf616a") == true },
            "\(read(output) ?? "none")\n\(daemon.stderr)")
        let pywal = try run(
            Locations.repo + "/.build/test-venv/bin/python",
            [
                "-c",
                "import sys, pywal.theme; t = pywal.theme.file(sys.argv[1]); "
                    + "print(t['special']['background'], t['special']['foreground'], t['colors']['color1'], len(t['colors']))",
                output,
            ])
        XCTAssertEqual(pywal.status, 0, "\(pywal)")
        XCTAssertEqual(pywal.stdout, "#2e3440 #e5e9f0 #bf616a 16\n", "\(pywal)")
    }

    /// The pywal plugin, enabled as the README says, with pywal installed: `livery set` writes
    /// colors.json with the wallpaper, checksum and alpha pywal last wrote there kept, and pywal's
    /// own files follow (`wal --theme` renders colors.sh from it): read back with a shell.
    func testThePywalPluginKeepsTheWallpaperAndPywalsDerivedFilesFollow() throws {
        let home = try makeDirectory("home")
        environment["HOME"] = home
        environment["PATH"] =
            Locations.repo + "/.build/test-venv/bin:" + (environment["PATH"] ?? "/usr/bin:/bin")
        let cache = home + "/.cache/wal"
        try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
        // What `wal -i '/pictures/sea 1.jpg'` leaves (pywal 3.8.15's colors.json), shortened. (pywal
        // writes a path with a quote unescaped, so its next read of the file fails.)
        try """
        {"checksum": "0f343b0931126a20f133d67c2b018a3b", "wallpaper": "/pictures/sea 1.jpg",
         "alpha": "90", "special": {"background": "#101010", "foreground": "#e0e0e0",
         "cursor": "#e0e0e0"}, "colors": {\((0..<16).map { "\"color\($0)\": \"#10101\($0 % 10)\"" }.joined(separator: ", "))}}
        """.write(toFile: cache + "/colors.json", atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: pluginsDirectory, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: pluginsDirectory + "/pywal", withDestinationPath: Locations.repo + "/plugins/pywal")
        try startDaemon()
        try setTheme("nord")
        // nord.yaml: base00 2E3440 (background, color0), base08 BF616A (color1), base05 E5E9F0.
        let shell = Locations.tool("sh")
        var last: RunResult?
        XCTAssertTrue(
            try waitUntil(timeout: 20) {
                let r = try run(
                    shell, ["-c", ". \"$0/colors.sh\"; echo \"$color1 $background $wallpaper\"", cache])
                last = r
                return r.stdout == "#bf616a #2e3440 /pictures/sea 1.jpg\n"
            }, "\(last.map { "\($0)" } ?? "none")\n\(daemon.stderr)")
        let pywal = try run(
            Locations.repo + "/.build/test-venv/bin/python",
            [
                "-c",
                "import sys, pywal.theme; t = pywal.theme.file(sys.argv[1]); "
                    + "print(t['checksum'], t['wallpaper'], t['alpha'], t['colors']['color1'])",
                cache + "/colors.json",
            ])
        XCTAssertEqual(
            pywal.stdout, "0f343b0931126a20f133d67c2b018a3b /pictures/sea 1.jpg 90 #bf616a\n", "\(pywal)")
        XCTAssertEqual(try pluginRow("pywal")?["result"] as? String, "ok")
    }

    /// pywal's scheme installed as a theme, as the README suggests (`wal.json →
    /// ~/.cache/wal/colors.json`), is never written by the pywal plugin, byte for byte: while it
    /// is the active theme there is nothing to write, and while another is, writing it is
    /// refused as the plugin's failure.
    func testAThemeLinkedToPywalsCacheIsNeverOverwritten() throws {
        let home = try makeDirectory("home")
        environment["HOME"] = home
        let cache = home + "/.cache/wal"
        try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
        let scheme = """
            {"checksum": "None", "wallpaper": "/pictures/sea.jpg", "alpha": "100",
             "special": {"background": "#101010", "foreground": "#e0e0e0", "cursor": "#e0e0e0"},
             "colors": {\((0..<16).map { "\"color\($0)\": \"#2020\($0 + 10)\"" }.joined(separator: ", "))}}

            """
        try scheme.write(toFile: cache + "/colors.json", atomically: true, encoding: .utf8)
        let themes = try makeDirectory("themes")
        try FileManager.default.createSymbolicLink(
            atPath: themes + "/wal.json", withDestinationPath: cache + "/colors.json")
        try FileManager.default.createDirectory(atPath: pluginsDirectory, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: pluginsDirectory + "/pywal", withDestinationPath: Locations.repo + "/plugins/pywal")
        try startDaemon(extraThemesDirectories: [themes])
        func pluginRan(_ expected: (String) -> Bool) throws -> Bool {
            let serial = try serial()
            var last: [String: Any]?
            return try waitUntil {
                last = try pluginRow("pywal")
                guard let row = last, let s = row["serial"] as? Int, s == Int(serial),
                    let result = row["result"] as? String
                else { return false }
                return expected(result)
            }
        }
        for theme in ["nord", "wal", "nord", "wal"] {
            try setTheme(theme)
            if theme == "wal" {
                XCTAssertTrue(try pluginRan { $0 == "ok" }, "after livery set \(theme)")
            } else {
                XCTAssertTrue(
                    try pluginRan {
                        $0.contains("refused to write \(cache)/colors.json: it is an installed theme's file")
                    }, "after livery set \(theme)")
            }
            XCTAssertEqual(read(cache + "/colors.json"), scheme, "after livery set \(theme)")
        }
        XCTAssertEqual(try activeTheme().trimmingCharacters(in: .whitespacesAndNewlines), "wal")
    }

    /// A repository export from a repository with a `tinted8` entry (as tinted-shell's current
    /// head) renders its base16 entry; an export naming the tinted8 entry is a manifest error
    /// that says why.
    func testRepositoryExportSkipsATinted8Entry() throws {
        let repo = try makeDirectory("shell/templates")
        try """
        tinted8:
          filename: "scripts/{{ scheme-system }}-{{ scheme-slug }}.sh"
          supported-systems: [tinted8]
        base16:
          filename: "scripts/{{ scheme-system }}-{{ scheme-slug }}.sh"
          supported-systems: [base16]

        """.write(toFile: repo + "/config.yaml", atomically: true, encoding: .utf8)
        try "bg={{base00-hex}}\n".write(toFile: repo + "/base16.mustache", atomically: true, encoding: .utf8)
        let output = root + "/out/shell.sh"
        let root = (repo as NSString).deletingLastPathComponent
        try writePlugin("shell16", manifest: "exports:\n  - repository: \(root)\n    output: \(output)\n")
        try writePlugin(
            "shell8",
            manifest: "exports:\n  - repository: \(root)\n    template: tinted8\n    output: \(output)8\n")
        try startDaemon()
        XCTAssertEqual(try pluginRow("shell16")?["errors"] as? [String], [])
        let errors = try XCTUnwrap(try pluginRow("shell8")?["errors"] as? [String])
        XCTAssertTrue(
            errors.count == 1
                && errors[0].contains("skipped entry 'tinted8': system 'tinted8' is not supported"),
            "\(errors)")
        try setTheme("nord")
        // nord.yaml: base00 2E3440.
        XCTAssertTrue(
            waitUntil { read(output) == "bg=2e3440\n" }, "\(read(output) ?? "none")\n\(daemon.stderr)")
    }
}
