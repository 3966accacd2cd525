import LiveryCore
import XCTest

final class PluginManifestTests: XCTestCase {
    func parse(_ text: String) -> Result<PluginManifest, PluginManifest.Errors> {
        PluginManifest.parse(text, file: "plugin.yaml")
    }

    func errors(_ text: String) -> [String] {
        guard case .failure(let e) = parse(text) else { return [] }
        return e.diagnostics.map(\.description)
    }

    func testExportsAndHooksWithDefaults() throws {
        let m = try parse(
            """
            description: kitty
            exports:
              - template: kitty.mustache
                output: ~/.config/kitty/livery.conf
                run: ["kitty", "@", "set-colors"]
                timeout: 5
              - template: b.mustache
                output: /tmp/b
            hooks:
              - run: [notify-send, Livery]
            """
        ).get()
        XCTAssertEqual(m.description, "kitty")
        XCTAssertEqual(m.exports.map(\.template), ["kitty.mustache", "b.mustache"])
        XCTAssertEqual(m.exports[0].output, "~/.config/kitty/livery.conf")
        XCTAssertEqual(m.exports[0].run, ["kitty", "@", "set-colors"])
        XCTAssertEqual(m.exports[0].timeout, 5)
        XCTAssertEqual(m.exports[0].templateLocation.line, 3)
        XCTAssertEqual(m.exports[0].templateLocation.column, 15)
        XCTAssertEqual(m.exports[1].run, [])
        XCTAssertEqual(m.exports[1].timeout, 10)
        XCTAssertEqual(m.hooks.map(\.run), [["notify-send", "Livery"]])
        XCTAssertEqual(m.hooks.map(\.timeout), [10])
    }

    func testUnknownKeyIsReportedAtItsPlaceWithASuggestion() {
        XCTAssertEqual(
            errors("exports:\n  - template: t.mustache\n    outptu: /x\n"),
            [
                "plugin.yaml:3:5: error: unknown key 'outptu' (did you mean 'output'?)",
                "plugin.yaml:2:5: error: an export needs an 'output' file",
            ])
        XCTAssertEqual(
            errors("hookz: []\n"), ["plugin.yaml:1:1: error: unknown key 'hookz' (did you mean 'hooks'?)"])
        XCTAssertEqual(errors("colours: []\n"), ["plugin.yaml:1:1: error: unknown key 'colours'"])
    }

    /// YAML's line breaks are LF, CR, CR LF, NEL, LS and PS; libyaml numbers lines by them, so
    /// the caret line shown is the line libyaml means, whichever break a file uses. (Found by
    /// the manifest fuzz target: a file of lone CRs got line numbers past its LF count and no
    /// source line.)
    func testTheSourceLineIsTheLineYAMLCountsWhateverTheLineBreaks() {
        for br in ["\r", "\r\n", "\u{85}", "\u{2028}", "\u{2029}"] {
            let text = "exports:" + br + "  - template: t.mustache" + br + "    outptu: /x" + br
            guard case .failure(let e) = PluginManifest.parse(text, file: "plugin.yaml") else {
                return XCTFail("accepted with \(br.unicodeScalars.map(\.value))")
            }
            XCTAssertEqual(
                e.diagnostics.map { "\($0.location.line):\($0.location.column) \($0.sourceLine)" },
                ["3:5     outptu: /x", "2:5   - template: t.mustache"], "\(br.unicodeScalars.map(\.value))")
        }
    }

    func testBadValues() {
        XCTAssertEqual(
            errors("hooks:\n  - run: \"sh -c x\"\n"),
            [
                "plugin.yaml:2:10: error: 'run' must be a non-empty list of strings, the program first (no shell)"
            ])
        XCTAssertEqual(
            errors("hooks:\n  - run: [x]\n    timeout: -1\n"),
            ["plugin.yaml:3:14: error: 'timeout' must be a number of seconds above 0 and at most 3600"])
        XCTAssertEqual(
            errors("exports:\n  - template: t\n    output: relative/file\n"),
            [
                "plugin.yaml:2:5: error: 'output' must be an absolute path or start with '~/', '$XDG_CONFIG_HOME/', '$XDG_DATA_HOME/', '$XDG_CACHE_HOME/' or '$XDG_STATE_HOME/'"
            ])
        XCTAssertEqual(errors("exports:\n  - template: t\n    output: $XDG_DATA_HOME/themes/x\n"), [])
        XCTAssertEqual(errors("exports:\n  - template: t\n    output: $HOME/x\n").count, 1)
        XCTAssertEqual(
            errors("- a\n"),
            ["plugin.yaml:1:1: error: a plugin manifest is a mapping of 'exports', 'hooks' and 'formats'"])
        XCTAssertTrue(
            errors("hooks: [\n").first?.hasPrefix("plugin.yaml:2:1: error: YAML:") == true,
            "\(errors("hooks: [\n"))")
        XCTAssertEqual(
            errors("formats:\n  - match: ['*.gpl']\n"),
            ["plugin.yaml:2:5: error: a format needs 'run': the importer's argv"])
        XCTAssertEqual(
            errors("formats:\n  - match: ['themes/*.gpl']\n    run: [x]\n"),
            ["plugin.yaml:2:13: error: each pattern of 'match' must be a file name pattern, without '/'"])
        XCTAssertEqual(
            errors("formats:\n  - match: '*.gpl'\n    run: [x]\n"),
            [
                "plugin.yaml:2:12: error: 'match' must be a non-empty list of file-name patterns such as \"*.gpl\""
            ])
        XCTAssertEqual(
            errors("exports:\n  - output: ~/x\n"),
            ["plugin.yaml:2:5: error: an export needs a 'template' (or a 'repository')"])
    }

    /// A list longer than `maximumEntries` is refused whole.
    func testTooManyEntries() {
        let hooks = "hooks:\n" + String(repeating: "  - run: [x]\n", count: PluginManifest.maximumEntries + 1)
        XCTAssertEqual(
            errors(hooks), ["plugin.yaml:2:3: error: 'hooks' has 257 entries; a plugin may have at most 256"])
    }

    /// Outside formats and repository exports as the README's "Plugins" example writes them.
    func testFormatsAndRepositoryExports() throws {
        let m = try parse(
            """
            exports:
              - repository: tinted-vim
                template: tinted-vim
                output: ~/.config/nvim/colors/livery.vim
              - repository: ~/src/tinted-shell
                output: /tmp/x.sh
            formats:
              - match: ["*.gpl", "*.GPL"]
                run: ["gpl-to-livery", "--sheet"]
                timeout: 2.5
            """
        ).get()
        XCTAssertEqual(m.exports.map(\.repository), ["tinted-vim", "~/src/tinted-shell"])
        XCTAssertEqual(m.exports.map(\.template), ["tinted-vim", ""])
        XCTAssertEqual(m.exports.map(\.output), ["~/.config/nvim/colors/livery.vim", "/tmp/x.sh"])
        XCTAssertEqual(
            m.formats,
            [
                PluginManifest.Format(
                    match: ["*.gpl", "*.GPL"], run: ["gpl-to-livery", "--sheet"], timeout: 2.5)
            ])
    }

    /// `when-running` on an export's command or a hook: one name or a list of names.
    func testWhenRunningTakesANameOrAListOnExportsAndHooks() throws {
        let m = try parse(
            """
            exports:
              - template: t.mustache
                output: ~/x
                run: [reload]
                when-running: waybar
            hooks:
              - run: [reload]
                when-running: [sway, i3]
              - run: [always]
            """
        ).get()
        XCTAssertEqual(m.exports[0].whenRunning, ["waybar"])
        XCTAssertEqual(m.hooks.map(\.whenRunning), [["sway", "i3"], []])
    }

    func testWhenRunningErrors() {
        XCTAssertEqual(
            errors("hooks:\n  - run: [x]\n    when-running: []\n"),
            [
                "plugin.yaml:3:19: error: 'when-running' is a program name or a list of them: waybar, [sway, i3]"
            ])
        XCTAssertEqual(
            errors("hooks:\n  - run: [x]\n    when-running: [/usr/bin/waybar]\n"),
            [
                "plugin.yaml:3:20: error: each name of 'when-running' is a program's name as /proc/PID/comm gives it (no '/'): waybar"
            ])
        XCTAssertEqual(
            errors("exports:\n  - template: t\n    output: ~/x\n    when-running: waybar\n"),
            ["plugin.yaml:2:5: error: 'when-running' needs a 'run' command to skip"])
    }

    func testEmptyManifestDoesNothing() throws {
        XCTAssertEqual(try parse("").get(), PluginManifest(description: "", exports: [], hooks: []))
    }
}
