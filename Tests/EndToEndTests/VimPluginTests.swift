import Foundation
import XCTest

/// The shipped vim plugin set up as the README says (linked into `~/.config/livery/plugins`,
/// `set termguicolors` and `colorscheme livery` in `~/.vimrc` and `~/.config/nvim/init.vim`),
/// against Debian 12's neovim 0.7.2 and vim 9.0, the colours read from inside each editor: its
/// `Normal` background over neovim's RPC, or on the terminal it draws on. The expected colours
/// are the fixture schemes' slots, read from their files.
final class VimPluginTests: EndToEndTestCase {
    var home = ""
    let nvim = Locations.tool("nvim")
    let vim = Locations.tool("vim")

    override func setUpWithError() throws {
        try super.setUpWithError()
        for editor in [nvim, vim] {
            guard FileManager.default.isExecutableFile(atPath: editor) else {
                throw HarnessFailure("\(editor) is missing: it is a test package (make deps-test)")
            }
        }
        home = try makeDirectory("home")
        environment["HOME"] = home
        // Neovim writes its log to $NVIM_LOG_FILE, or else under ~/.cache, or else to .nvimlog in
        // its working directory: all three the test's own, never the repository.
        environment["NVIM_LOG_FILE"] = logs + "/nvim.log"
        workingDirectory = home
        environment["XDG_CONFIG_HOME"] = nil  // ~/.config, as most users have it
        // Neovim 0.7 makes its default server socket under $TMPDIR; the plugin's commands do not
        // get this variable.
        environment["TMPDIR"] = try makeDirectory("tmp")
        let plugins = home + "/.config/livery/plugins"
        try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: plugins + "/vim", withDestinationPath: Locations.repo + "/plugins/vim")
        let settings = "set termguicolors\ncolorscheme livery\n"
        try settings.write(toFile: home + "/.vimrc", atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(
            atPath: home + "/.config/nvim", withIntermediateDirectories: true)
        try settings.write(toFile: home + "/.config/nvim/init.vim", atomically: true, encoding: .utf8)
    }

    /// `#rrggbb` of a slot of a fixture base16 scheme, as its file writes it.
    func slot(_ name: String, of scheme: String) throws -> String {
        let text = try String(contentsOfFile: Locations.schemes + "/base16/\(scheme).yaml", encoding: .utf8)
        let line = try XCTUnwrap(text.split(separator: "\n").first { $0.contains("\(name): ") }, name)
        let value = line.split(separator: "\"")[1]
        return "#" + value.lowercased()
    }

    func read(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }

    /// Waits until Livery has written both colour files for `theme` (their first line names it).
    func waitForColourFiles(_ theme: String, file: StaticString = #filePath, line: UInt = #line) {
        for path in [home + "/.config/nvim/colors/livery.vim", home + "/.vim/colors/livery.vim"] {
            XCTAssertTrue(
                waitUntil { read(path)?.hasPrefix("\" Livery \(theme) ") == true },
                "\(path): \(read(path)?.prefix(200) ?? "none")\n\(daemon.stderr)", file: file, line: line)
        }
    }

    /// Starts a neovim as a user would (its init file read) that writes its server address to a
    /// file; returns the process and the address.
    func startNeovim(_ name: String, _ arguments: [String] = []) throws -> (Background, String) {
        let address = root + "/\(name).address"
        let editor = try background(
            nvim, ["--headless"] + arguments + ["-c", "call writefile([v:servername], '\(address)')"])
        XCTAssertTrue(waitUntil { read(address)?.hasSuffix("\n") == true }, "\(name): \(editor.stderr)")
        return (editor, (read(address) ?? "").trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// The `Normal` background (`#rrggbb`) the neovim at `address` has, asked over its RPC.
    func neovimBackground(_ address: String) throws -> String {
        let r = try run(
            nvim, ["--server", address, "--remote-expr", "synIDattr(hlID('Normal'), 'bg#', 'gui')"],
            timeout: 3)
        // Neovim 0.7 prints the result on standard error, later ones on standard output.
        return (r.stdout + r.stderr).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Every running neovim follows `livery set`, whatever its server address (0.7's default
    /// under `$TMPDIR`, a `--listen` path) and mode (on a terminal, waiting at a "Press ENTER"
    /// prompt). A stopped one (^Z) does not hold the plugin past its bound: its command ends
    /// within its 5 s and says which neovim it did not reach and why, the others are recoloured,
    /// and the stopped one is when it continues. A neovim started afterwards has the new colours.
    func testEveryRunningNeovimFollowsASwitchWhateverItsAddressOrMode() throws {
        let (nord, after) = (try slot("base00", of: "nord"), try slot("base00", of: "3024"))
        try startDaemon()
        try setTheme("nord")
        waitForColourFiles("nord")
        let (_, defaultAddress) = try startNeovim("default")
        let listened = try makeDirectory("sockets") + "/editor.sock"
        let (_, listenAddress) = try startNeovim("listen", ["--listen", listened])
        XCTAssertEqual(listenAddress, listened)
        let (stopped, stoppedAddress) = try startNeovim("stopped")
        let promptFile = root + "/prompt.address"
        let prompt = try TerminalProgram(
            nvim,
            ["-c", "call writefile([v:servername], '\(promptFile)')", "-c", "echo \"one\\ntwo\\nthree\""],
            environment: environment, workingDirectory: workingDirectory)
        defer { prompt.stop() }
        XCTAssertTrue(waitUntil { prompt.shows("Press ENTER") }, prompt.tail())
        XCTAssertTrue(prompt.showsBackground(nord), prompt.tail())
        let promptAddress = (read(promptFile) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        for address in [defaultAddress, listenAddress, stoppedAddress] {
            XCTAssertTrue(try waitUntil { try neovimBackground(address) == nord }, address)
        }
        kill(stopped.pid, SIGSTOP)
        defer { kill(stopped.pid, SIGCONT) }
        let mark = prompt.drawnCount

        try setTheme("3024")
        let reported = "reload-nvim) exited with status 1: 1 of 4 neovims not reached: \(stopped.pid) ("
        let ended = try waitUntil(timeout: 20) { try livery("status").stdout.contains(reported) }
        let problems = try livery("status").stdout
        XCTAssertTrue(ended, problems + "\n" + daemon.stderr)
        XCTAssertTrue(
            problems.contains("\(stoppedAddress)): stopped, the keys wait until it continues\n"), problems)
        for address in [defaultAddress, listenAddress, promptAddress] {
            let followed = try waitUntil { try neovimBackground(address) == after }
            let shown = try neovimBackground(address)
            XCTAssertTrue(followed, "\(address): \(shown)")
        }
        XCTAssertTrue(waitUntil { prompt.showsBackground(after, since: mark) }, prompt.tail())
        kill(stopped.pid, SIGCONT)
        XCTAssertTrue(try waitUntil { try neovimBackground(stoppedAddress) == after })
        let (_, newAddress) = try startNeovim("new")
        XCTAssertEqual(try neovimBackground(newAddress), after)
    }

    /// A running vim (on a terminal, as a user runs it) redraws in the new colours after
    /// `livery set`, and a vim started afterwards has them.
    func testRunningAndNewVimsFollowASwitch() throws {
        let (nord, after) = (try slot("base00", of: "nord"), try slot("base00", of: "3024"))
        try startDaemon()
        try setTheme("nord")
        waitForColourFiles("nord")
        let editor = try TerminalProgram(
            vim, [], environment: environment, workingDirectory: workingDirectory)
        defer { editor.stop() }
        XCTAssertTrue(waitUntil { editor.showsBackground(nord) }, editor.tail())
        let mark = editor.drawnCount
        try setTheme("3024")
        waitForColourFiles("3024")
        XCTAssertTrue(waitUntil { editor.showsBackground(after, since: mark) }, editor.tail())
        let out = root + "/vim-new.txt"
        let r = try run(
            vim,
            [
                "-es", "-u", home + "/.vimrc", "-i", "NONE", "-c",
                "call writefile([synIDattr(hlID('Normal'), 'bg#', 'gui'), v:errmsg], '\(out)')", "-c", "qa!",
            ])
        XCTAssertEqual(r.status, 0, "\(r)")
        XCTAssertEqual(read(out), after + "\n\n")
    }

    /// The colour scheme loads without a message in Debian's neovim 0.7.2 and vim 9.0 (no
    /// error, no "Press ENTER") for a base16 scheme, dark and light, a base24 scheme, a native
    /// theme and a terminal palette, and colours the groups from the slots as the base16 styling
    /// guide assigns them.
    func testTheColourSchemeLoadsWithoutMessagesInNeovimAndVim() throws {
        let template = Locations.repo + "/plugins/vim/livery.vim.mustache"
        let checks =
            "[v:errmsg, execute('messages'), &background] + map(['Normal', 'Comment', 'String', 'Function', 'Search'], "
            + "{_, g -> synIDattr(hlID(g), 'fg#', 'gui') . ' ' . synIDattr(hlID(g), 'bg#', 'gui')})"
            + " + [synIDattr(hlID('Comment'), 'fg', 'cterm'), synIDattr(hlID('Normal'), 'bg', 'cterm')]"
        let directories = standardThemesDirectories + [Locations.schemes + "/pywal/dark"]
        for theme in ["nord", "rose-pine-dawn", "catppuccin-mocha", "forest", "sexy-gotham"] {
            let runtime = try makeDirectory("runtime-\(theme)/colors")
            let export = try run(
                Locations.livery,
                ["export", theme, template] + directories.flatMap { ["--themes-dir", $0] })
            XCTAssertEqual(export.status, 0, "\(export)")
            try export.stdout.write(toFile: runtime + "/livery.vim", atomically: true, encoding: .utf8)
            let rtp = (runtime as NSString).deletingLastPathComponent
            for editor in [nvim, vim] {
                let out = root + "/\(theme)-\((editor as NSString).lastPathComponent).txt"
                let arguments =
                    editor == nvim
                    ? ["--headless", "-u", "NONE", "-i", "NONE"] : ["-N", "-u", "NONE", "-i", "NONE", "-es"]
                let r = try run(
                    editor,
                    arguments + [
                        "--cmd", "set rtp^=" + rtp, "-c", "colorscheme livery", "-c",
                        "call writefile(\(checks), '\(out)')", "-c", "qa!",
                    ])
                XCTAssertEqual(r.status, 0, "\(theme) in \(editor): \(r)")
                XCTAssertEqual(r.stderr + r.stdout, "", "\(theme) in \(editor)")
                let lines = (read(out) ?? "").split(separator: "\n", omittingEmptySubsequences: false).map(
                    String.init)
                XCTAssertEqual(lines.prefix(2), ["", ""], "\(theme) in \(editor): an error or a message")
                guard lines.count >= 10, theme == "nord" || theme == "rose-pine-dawn" else { continue }
                let s = { (name: String) in try self.slot(name, of: theme) }
                XCTAssertEqual(lines[2], theme == "nord" ? "dark" : "light", "\(theme) in \(editor)")
                XCTAssertEqual(
                    Array(lines[3...9]),
                    [
                        "\(try s("base05")) \(try s("base00"))", "\(try s("base03")) ", "\(try s("base0B")) ",
                        "\(try s("base0D")) ", "\(try s("base01")) \(try s("base0A"))",
                        // Without 'termguicolors': base03 is ANSI colour 8, and the terminal's
                        // own background stands for base00.
                        "8", "",
                    ], "\(theme) in \(editor)")
            }
        }
    }
}
