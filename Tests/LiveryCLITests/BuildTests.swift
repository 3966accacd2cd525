import Foundation
import LiveryCore
import Mustache
import XCTest

@testable import LiveryCLI

/// `livery build` of the two real tinted-theming template repositories in
/// `Tests/Fixtures/tinted/`, against the scheme snapshot they were built from: every committed
/// output compared byte for byte.
final class BuildTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Fixtures/tinted")

    /// Committed files that are not what the snapshot builds, each with its reason.
    static let exceptions: [String: String] = {
        var e: [String: String] = [:]
        let edited = "deep-oceanic-next was edited upstream (author and colours) after this output was built"
        let stale = "stale: its scheme is not in the snapshot"
        for f in [
            "tinted-shell/scripts/base16-deep-oceanic-next.sh",
            "tinted-shell/scripts/base24-deep-oceanic-next.sh",
            "tinted-fzf/sh/base16-deep-oceanic-next.sh", "tinted-fzf/sh/base24-deep-oceanic-next.sh",
            "tinted-fzf/fish/base16-deep-oceanic-next.fish", "tinted-fzf/fish/base24-deep-oceanic-next.fish",
        ] { e[f] = edited }
        for f in [
            "tinted-shell/scripts/base16-catppuccin.sh", "tinted-shell/scripts/base16-harmonic-dark.sh",
            "tinted-shell/scripts/base16-harmonic-light.sh", "tinted-shell/scripts/base24-ayu-dark.sh",
            "tinted-shell/scripts/base24-tokyo-night-dark.sh", "tinted-fzf/fish/base16-catppuccin.fish",
            "tinted-fzf/fish/base16-harmonic-dark.fish", "tinted-fzf/fish/base16-harmonic-light.fish",
        ] { e[f] = stale }
        return e
    }()

    func run(_ args: [String]) -> (Int32, String, String) {
        final class Box: @unchecked Sendable {  // written by one thread: runClient is synchronous
            var out = ""
            var err = ""
        }
        let box = Box()
        let status = runClient(
            arguments: args, output: Output(out: { box.out += $0 }, err: { box.err += $0 }, isTerminal: false)
        )
        return (status, box.out, box.err)
    }

    func scratch() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "livery-build-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        return dir
    }

    func testBothFixtureRepositoriesBuildToTheirCommittedFiles() throws {
        let out = try scratch()
        var compared = 0
        var matched = 0
        var excepted = 0
        for repo in ["tinted-shell", "tinted-fzf"] {
            let (status, _, err) = run([
                "build", BuildTests.fixtures.appendingPathComponent(repo).path, "--themes-dir",
                BuildTests.fixtures.appendingPathComponent("schemes").path, "--out",
                out.appendingPathComponent(repo).path,
            ])
            XCTAssertEqual(status, 0, err)
            let root = BuildTests.fixtures.appendingPathComponent(repo)
            let walker = try XCTUnwrap(FileManager.default.enumerator(atPath: root.path))
            while let relative = walker.nextObject() as? String {
                var isDir: ObjCBool = false
                let committed = root.appendingPathComponent(relative)
                guard FileManager.default.fileExists(atPath: committed.path, isDirectory: &isDir),
                    !isDir.boolValue,
                    !relative.hasPrefix("templates/"), !relative.hasPrefix("LICENSE")
                else { continue }
                compared += 1
                let built = FileManager.default.contents(
                    atPath: out.appendingPathComponent(repo + "/" + relative).path)
                let same = built == FileManager.default.contents(atPath: committed.path)
                if let reason = BuildTests.exceptions[repo + "/" + relative] {
                    excepted += 1
                    XCTAssertFalse(
                        same, "\(repo)/\(relative) is listed as an exception (\(reason)) but matches")
                    XCTAssertEqual(built == nil, reason.hasPrefix("stale"), "\(repo)/\(relative): \(reason)")
                } else if same {
                    matched += 1
                } else {
                    XCTFail(
                        "\(repo)/\(relative): "
                            + (built == nil ? "not built" : "differs from the committed file"))
                }
            }
        }
        print("livery build fixtures: \(compared) files compared, \(matched) matched, \(excepted) excepted")
        XCTAssertEqual(compared, 869)
        XCTAssertEqual(matched + excepted, compared)
        XCTAssertEqual(excepted, BuildTests.exceptions.count)
    }

    /// Several repositories in one `livery build`: each into `--out/NAME`, the same files as one
    /// build each; a repository that does not compile stops all of them before anything is
    /// written, and two repositories of one name are refused.
    func testSeveralRepositoriesBuildInOneProcessAsOneAtATime() throws {
        let out = try scratch()
        let repos = ["tinted-shell", "tinted-fzf"].map { BuildTests.fixtures.appendingPathComponent($0).path }
        let schemes = BuildTests.fixtures.appendingPathComponent("schemes").path
        let (status, stdout, err) = run(
            ["build"] + repos + ["--themes-dir", schemes, "--out", out.appendingPathComponent("both").path])
        XCTAssertEqual(status, 0, err)
        XCTAssertEqual(stdout.split(separator: "\n").count, 2, stdout)
        var files = 0
        for (repo, name) in zip(repos, ["tinted-shell", "tinted-fzf"]) {
            let single = out.appendingPathComponent("one/" + name)
            XCTAssertEqual(run(["build", repo, "--themes-dir", schemes, "--out", single.path]).0, 0)
            let walker = try XCTUnwrap(FileManager.default.enumerator(atPath: single.path))
            while let relative = walker.nextObject() as? String {
                var isDir: ObjCBool = false
                guard
                    FileManager.default.fileExists(atPath: single.path + "/" + relative, isDirectory: &isDir),
                    !isDir.boolValue
                else { continue }
                files += 1
                XCTAssertEqual(
                    FileManager.default.contents(atPath: out.path + "/both/" + name + "/" + relative),
                    FileManager.default.contents(atPath: single.path + "/" + relative), relative)
            }
        }
        XCTAssertEqual(files, 1418)

        let broken = try scratch().appendingPathComponent("broken")
        try FileManager.default.createDirectory(
            at: broken.appendingPathComponent("templates"), withIntermediateDirectories: true)
        try "t:\n  filename: \"{{ scheme-slug }}.txt\"\n".write(
            to: broken.appendingPathComponent("templates/config.yaml"), atomically: true, encoding: .utf8)
        try "{{#a}}\n".write(
            to: broken.appendingPathComponent("templates/t.mustache"), atomically: true, encoding: .utf8)
        let stopped = out.appendingPathComponent("stopped")
        let (bad, _, badErr) = run(
            ["build", repos[0], broken.path, "--themes-dir", schemes, "--out", stopped.path])
        XCTAssertEqual(bad, 1)
        XCTAssertTrue(badErr.contains("t.mustache:1:1: error: unclosed section 'a'"), badErr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: stopped.path))
        let (twice, _, twiceErr) = run([
            "build", repos[0], repos[0], "--themes-dir", schemes, "--out", stopped.path,
        ])
        XCTAssertEqual(twice, 1)
        XCTAssertTrue(twiceErr.contains("two repositories are named 'tinted-shell'"), twiceErr)
    }

    /// Two entries that name the same file: an error, and nothing written.
    func testTwoOutputsSharingAFileIsAnError() throws {
        let repo = try scratch()
        let templates = repo.appendingPathComponent("templates")
        try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
        try
            "a:\n  filename: \"out/{{ scheme-slug }}.txt\"\nb:\n  extension: .txt\n  output: out\n  supported-systems: [base16]\nc:\n  filename: out/{{scheme-slug}}.txt\n"
            .write(to: templates.appendingPathComponent("config.yaml"), atomically: true, encoding: .utf8)
        for n in ["a", "b", "c"] {
            try "{{scheme-name}}".write(
                to: templates.appendingPathComponent(n + ".mustache"), atomically: true, encoding: .utf8)
        }
        let schemes = BuildTests.fixtures.appendingPathComponent("schemes/base16")
        let (status, _, err) = run(["build", repo.path, "--themes-dir", schemes.path])
        XCTAssertEqual(status, 1)
        XCTAssertTrue(
            err.contains("entries 'a' (scheme '3024') and 'c' (scheme '3024') would both write out/3024.txt"),
            err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: repo.appendingPathComponent("out").path))
    }

    /// A repository's configuration is outside input: a `..` in a filename (or a legacy
    /// `output`) is refused before anything is written, and two spellings of one file
    /// (`./x`, `d//x`) collide as the file they name.
    func testOutputsOutsideTheOutputDirectoryAndRespelledCollisionsAreErrors() throws {
        let schemes = BuildTests.fixtures.appendingPathComponent("schemes/base16")
        func repository(_ config: String, _ names: [String]) throws -> URL {
            let repo = try scratch()
            let templates = repo.appendingPathComponent("templates")
            try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
            try config.write(
                to: templates.appendingPathComponent("config.yaml"), atomically: true, encoding: .utf8)
            for n in names {
                try "{{scheme-name}}".write(
                    to: templates.appendingPathComponent(n + ".mustache"), atomically: true, encoding: .utf8)
            }
            return repo
        }
        for config in [
            "a:\n  filename: \"../escaped-{{ scheme-slug }}.txt\"\n",
            "a:\n  extension: .sh\n  output: ../../outside\n",
        ] {
            let repo = try repository(config, ["a"])
            let out = repo.appendingPathComponent("out/deeper")
            let (status, _, err) = run(["build", repo.path, "--themes-dir", schemes.path, "--out", out.path])
            XCTAssertEqual(status, 1, config)
            XCTAssertTrue(err.contains("outside the output directory"), err)
            let left = try FileManager.default.subpathsOfDirectory(atPath: repo.path).filter {
                !$0.hasPrefix("templates")
            }
            XCTAssertEqual(left, [], "nothing written: \(left)")
        }
        let repo = try repository(
            "a:\n  filename: \"x/{{ scheme-slug }}.txt\"\nb:\n  filename: \"./x//{{ scheme-slug }}.txt\"\n",
            ["a", "b"])
        let (status, _, err) = run(["build", repo.path, "--themes-dir", schemes.path])
        XCTAssertEqual(status, 1)
        XCTAssertTrue(err.contains("would both write x/3024.txt"), err)
    }

    /// A repository with one entry, `filename: "scripts/{{ scheme-system }}-{{ scheme-slug }}.sh"`
    /// rendering the scheme's name, and a schemes directory holding two fixture schemes: 3024
    /// and nord (names "3024" and "Nord").
    func shellRepository() throws -> (repo: URL, schemes: URL) {
        let dir = try scratch()
        let repo = dir.appendingPathComponent("repo")
        let templates = repo.appendingPathComponent("templates")
        try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
        try "a:\n  filename: \"scripts/{{ scheme-system }}-{{ scheme-slug }}.sh\"\n".write(
            to: templates.appendingPathComponent("config.yaml"), atomically: true, encoding: .utf8)
        try "{{scheme-name}}\n".write(
            to: templates.appendingPathComponent("a.mustache"), atomically: true, encoding: .utf8)
        let schemes = dir.appendingPathComponent("schemes")
        try FileManager.default.createDirectory(at: schemes, withIntermediateDirectories: true)
        for name in ["3024.yaml", "nord.yaml"] {
            try FileManager.default.copyItem(
                at: BuildTests.fixtures.appendingPathComponent("schemes/base16/" + name),
                to: schemes.appendingPathComponent(name))
        }
        return (repo, schemes)
    }

    /// Several repositories under `--out DIR` go into `DIR/NAME`, beneath DIR like any output:
    /// a link at `DIR/NAME` is refused, naming it, and what it leads to is untouched.
    func testALinkAtARepositorysDirectoryUnderOutIsNotWrittenThrough() throws {
        let (repo, schemes) = try shellRepository()
        let out = try scratch()
        let elsewhere = try scratch()
        try FileManager.default.createSymbolicLink(
            atPath: out.appendingPathComponent(repo.lastPathComponent).path,
            withDestinationPath: elsewhere.path)
        let fzf = BuildTests.fixtures.appendingPathComponent("tinted-fzf").path
        let (status, _, err) = run(["build", repo.path, fzf, "--themes-dir", schemes.path, "--out", out.path])
        XCTAssertEqual(status, 1, err)
        XCTAssertTrue(err.contains(repo.lastPathComponent + " is a symbolic link"), err)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path), [])
        XCTAssertTrue(
            FileManager.default.fileExists(
                atPath: out.appendingPathComponent("tinted-fzf/sh/base16-nord.sh").path))
    }

    /// A directory of the repository committed as a link to another directory is not written
    /// through: the build fails naming the link, and the directory it leads to is untouched.
    func testALinkedDirectoryInTheRepositoryIsNotWrittenThrough() throws {
        let (repo, schemes) = try shellRepository()
        let elsewhere = repo.deletingLastPathComponent().appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        try "kept\n".write(
            to: elsewhere.appendingPathComponent("kept.txt"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            atPath: repo.appendingPathComponent("scripts").path, withDestinationPath: elsewhere.path)
        let (status, _, err) = run(["build", repo.path, "--themes-dir", schemes.path])
        XCTAssertEqual(status, 1, err)
        XCTAssertTrue(err.contains(repo.path + "/scripts is a symbolic link"), err)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path), ["kept.txt"])
        XCTAssertEqual(
            try FileManager.default.destinationOfSymbolicLink(
                atPath: repo.appendingPathComponent("scripts").path),
            elsewhere.path)
    }

    /// An output committed as a link to a file outside the repository (a `~/.bashrc`) is not
    /// written through: that output fails naming it, the file it leads to keeps its bytes, and
    /// the other outputs are written.
    func testALinkedFileInTheRepositoryIsNotWrittenThrough() throws {
        let (repo, schemes) = try shellRepository()
        let bashrc = repo.deletingLastPathComponent().appendingPathComponent("bashrc")
        try "export KEEP=1\n".write(to: bashrc, atomically: true, encoding: .utf8)
        let scripts = repo.appendingPathComponent("scripts")
        try FileManager.default.createDirectory(at: scripts, withIntermediateDirectories: true)
        let linked = scripts.appendingPathComponent("base16-3024.sh").path
        try FileManager.default.createSymbolicLink(atPath: linked, withDestinationPath: bashrc.path)
        let (status, _, err) = run(["build", repo.path, "--themes-dir", schemes.path])
        XCTAssertEqual(status, 1, err)
        XCTAssertTrue(err.contains(linked + " is a symbolic link"), err)
        XCTAssertEqual(try String(contentsOf: bashrc, encoding: .utf8), "export KEEP=1\n")
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: linked), bashrc.path)
        XCTAssertEqual(
            try String(contentsOf: scripts.appendingPathComponent("base16-nord.sh"), encoding: .utf8),
            "Nord\n")
    }

    /// A named pipe where an output goes is neither written to nor replaced: that output fails
    /// naming it. (The test holds the pipe's reading end, so that a write would not block.)
    func testAPipeAtAnOutputPathIsLeftAlone() throws {
        let (repo, schemes) = try shellRepository()
        let scripts = repo.appendingPathComponent("scripts")
        try FileManager.default.createDirectory(at: scripts, withIntermediateDirectories: true)
        let pipe = scripts.appendingPathComponent("base16-3024.sh").path
        XCTAssertEqual(mkfifo(pipe, 0o644), 0)
        let reader = open(pipe, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        XCTAssertGreaterThanOrEqual(reader, 0)
        defer { close(reader) }
        let (status, _, err) = run(["build", repo.path, "--themes-dir", schemes.path])
        XCTAssertEqual(status, 1, err)
        XCTAssertTrue(err.contains(pipe + " is not a regular file"), err)
        var st = stat()
        XCTAssertEqual(lstat(pipe, &st), 0)
        XCTAssertEqual(st.st_mode & S_IFMT, S_IFIFO, "still the pipe")
        var buffer = [UInt8](repeating: 0, count: 64)
        // No writer has it open any more: a read ends at once, with nothing in the pipe.
        XCTAssertEqual(read(reader, &buffer, buffer.count), 0, "nothing was written into the pipe")
        XCTAssertEqual(
            try String(contentsOf: scripts.appendingPathComponent("base16-nord.sh"), encoding: .utf8),
            "Nord\n")
    }

    /// A link to a parent directory among the schemes is entered once, not followed forever.
    func testALinkToAParentAmongTheSchemesIsEnteredOnce() throws {
        let dir = try scratch()
        let s = dir.appendingPathComponent("s")
        try FileManager.default.createDirectory(at: s, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: BuildTests.fixtures.appendingPathComponent("schemes/base16/nord.yaml"),
            to: s.appendingPathComponent("nord.yaml"))
        try FileManager.default.createSymbolicLink(
            atPath: s.appendingPathComponent("up").path, withDestinationPath: "..")
        XCTAssertEqual(
            TintedScheme.files(in: [s.path]).map { URL(fileURLWithPath: $0).lastPathComponent }, ["nord.yaml"]
        )
    }

    /// The `filename` form, `supported-systems` and a bad template.
    func testFilenameFormAndSupportedSystems() throws {
        let repo = try scratch()
        let templates = repo.appendingPathComponent("templates")
        try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
        try "t:\n  filename: \"{{ scheme-system }}/{{ scheme-slug }}.conf\"\n  supported-systems: [base24]\n"
            .write(
                to: templates.appendingPathComponent("config.yaml"), atomically: true, encoding: .utf8)
        try "{{scheme-name}} {{base17-hex}}{{#scheme-is-dark-variant}} dark{{/scheme-is-dark-variant}}\n"
            .write(
                to: templates.appendingPathComponent("t.mustache"), atomically: true, encoding: .utf8)
        let (status, _, err) = run([
            "build", repo.path, "--themes-dir", BuildTests.fixtures.appendingPathComponent("schemes").path,
        ])
        XCTAssertEqual(status, 0, err)
        let dracula = try String(
            contentsOf: repo.appendingPathComponent("base24/dracula.conf"), encoding: .utf8)
        // base24/dracula.yaml: name "Dracula", base17 "f5a3d2", variant dark.
        XCTAssertEqual(dracula, "Dracula f5a3d2 dark\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: repo.appendingPathComponent("base16").path))
        try "{{#a}}\n".write(
            to: templates.appendingPathComponent("t.mustache"), atomically: true, encoding: .utf8)
        let (bad, _, badErr) = run([
            "build", repo.path, "--themes-dir", BuildTests.fixtures.path + "/schemes",
        ])
        XCTAssertEqual(bad, 1)
        XCTAssertTrue(badErr.contains("t.mustache:1:1: error: unclosed section 'a'"), badErr)
    }

    /// A repository laid out as tinted-shell's current head (a `tinted8` entry beside base16
    /// and base24, as `config.yaml:11:23` of it lists) builds its base16 and base24 entries, and
    /// says of the tinted8 one that it was skipped, with exit status 0; an entry listing base16
    /// and tinted8 builds its base16 part.
    func testEntriesOfSystemsLiveryDoesNotBuildAreSkippedByName() throws {
        let repo = try scratch()
        let templates = repo.appendingPathComponent("templates")
        try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
        try """
        base16:
          filename: "scripts/{{ scheme-system }}-{{ scheme-slug }}.sh"
          supported-systems: [base16]

        base24:
          filename: "scripts/{{ scheme-system }}-{{ scheme-slug }}.sh"
          supported-systems: [base24]

        tinted8:
          filename: "scripts/{{ scheme-system }}-{{ scheme-slug }}.sh"
          supported-systems: [tinted8]

        mixed:
          filename: "mixed/{{ scheme-system }}-{{ scheme-slug }}.txt"
          supported-systems: [base16, tinted8]

        """.write(to: templates.appendingPathComponent("config.yaml"), atomically: true, encoding: .utf8)
        for name in ["base16", "base24", "mixed"] {
            try "\(name) {{scheme-slug}} {{base00-hex}}\n".write(
                to: templates.appendingPathComponent(name + ".mustache"), atomically: true, encoding: .utf8)
        }
        // No tinted8.mustache: a skipped entry's template is never read.
        let (status, out, err) = run([
            "build", repo.path, "--out", repo.path + "/out", "--themes-dir",
            BuildTests.fixtures.appendingPathComponent("schemes").path,
        ])
        XCTAssertEqual(status, 0, err)
        XCTAssertEqual(
            err, "livery: \(repo.path): skipped entry 'tinted8': system 'tinted8' is not supported\n")
        XCTAssertTrue(out.hasPrefix("built "), out)
        func read(_ path: String) -> String? {
            try? String(contentsOfFile: repo.path + "/out/" + path, encoding: .utf8)
        }
        // base16/apathy.yaml: base00 031a16; base24/dracula.yaml: base00 282a36.
        XCTAssertEqual(read("scripts/base16-apathy.sh"), "base16 apathy 031a16\n")
        XCTAssertEqual(read("scripts/base24-dracula.sh"), "base24 dracula 282a36\n")
        XCTAssertEqual(read("mixed/base16-apathy.txt"), "mixed apathy 031a16\n")
        XCTAssertNil(read("mixed/base24-dracula.txt"))
    }

    /// `livery export ID TEMPLATE`: one template, one installed scheme, to standard output.
    func testExportRendersOneTemplateForOneTheme() throws {
        let dir = try scratch()
        let template = dir.appendingPathComponent("t.mustache")
        try "{{scheme-slug}} #{{base08-hex}} {{base08-rgb16-r}} {{base08-dec-b}} {{scheme-author}}\n".write(
            to: template, atomically: true, encoding: .utf8)
        let schemes = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/schemes/base16")
        let (status, out, err) = run(["export", "3024", template.path, "--themes-dir", schemes.path])
        XCTAssertEqual(status, 0, err)
        // 3024's base08 is db2d20: 0xdb × 257 = 56283, 0x20 / 255 = 0.12549019…
        XCTAssertEqual(out, "3024 #db2d20 56283 0.12549020 Example Author\n")
        let (missing, _, missingErr) = run(["export", "no-such-theme", template.path])
        XCTAssertEqual(missing, 1)
        XCTAssertTrue(missingErr.contains("no theme 'no-such-theme'"), missingErr)
    }

    /// A native theme is exported by the `base00`…`base0F` of its palette, its name and variant;
    /// one without them is refused with a message that says so.
    func testExportOfANativeThemeUsesItsPaletteSlots() throws {
        let dir = try scratch()
        let bundle = dir.appendingPathComponent("themes/mine")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        // base0N is #N0N0N0 for N = 0…F: base0A is #a0a0a0 (160 × 257 = 41120).
        let colours = (0..<16).map { String(format: "@define-color base0%X #%X0%X0%X0;\n", $0, $0, $0, $0) }
        try ("@theme { name: \"Mine Theme\"; variant: light; inherits: \"default\"; }\n" + colours.joined())
            .write(
                to: bundle.appendingPathComponent("theme.css"), atomically: true, encoding: .utf8)
        let template = dir.appendingPathComponent("t.mustache")
        try
            "{{scheme-name}}|{{scheme-slug}}|{{scheme-variant}}|{{base0A-hex}}|{{base0A-rgb16-g}}|{{base00-hex}}\n"
            .write(to: template, atomically: true, encoding: .utf8)
        let themes = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("themes")
        let (status, out, err) = run([
            "export", "mine", template.path, "--themes-dir", dir.appendingPathComponent("themes").path,
            "--themes-dir", themes.path,
        ])
        XCTAssertEqual(status, 0, err)
        XCTAssertEqual(out, "Mine Theme|mine|light|a0a0a0|41120|000000\n")
    }

    /// A native theme with no `base00`… of its own is exported by the base16 slots derived from
    /// its resolved values (the README, "Base16 slots of every theme"): forest's base0B is its
    /// `Window/Switch` on-tint-color, `rgb(0 128 0)`, and base08 the destructive `Button`'s tint,
    /// default's `#ff3b30`. Palette colours are there by name and components by dotted name, a
    /// class written after a dot.
    func testExportOfANativeThemeWithoutSlotsDerivesThem() throws {
        let dir = try scratch()
        let template = dir.appendingPathComponent("t.mustache")
        try
            "{{scheme-slug}} {{scheme-variant}} {{base0B-hex}} {{base08-hex}} {{accent}} {{Window/NavigationBar.tint-color}} {{Window/Button.destructive.tint-color}} [{{Window/NoSuchType.tint-color}}] [{{Window/Button.no-such-property}}]\n"
            .write(to: template, atomically: true, encoding: .utf8)
        let themes = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("themes")
        let (status, out, err) = run(["export", "forest", template.path, "--themes-dir", themes.path])
        XCTAssertEqual(status, 0, err)
        XCTAssertEqual(out, "forest light 008000 ff3b30 #008000ff #008000ff #ff3b30ff [] []\n")
    }

    /// Inside a section over a component, the names of the enclosing context are still found
    /// (Mustache: the context stack is searched from the top); only the component's properties
    /// are its own names there. Found by a newcomer's trial: every outer name came out empty.
    func testASectionOverAComponentKeepsTheOuterNames() throws {
        let dir = try scratch()
        let template = dir.appendingPathComponent("t.mustache")
        try
            "{{#Window/NavigationBar}}[{{livery-theme}}][{{scheme-name}}][{{tint-color}}][{{accent}}]{{/Window/NavigationBar}}\n"
            .write(to: template, atomically: true, encoding: .utf8)
        let themes = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("themes")
        let (status, out, err) = run(["export", "forest", template.path, "--themes-dir", themes.path])
        XCTAssertEqual(status, 0, err)
        XCTAssertEqual(out, "[forest][Forest][#008000ff][#008000ff]\n")
    }

    /// `livery export` finds a theme by its alias as `palette` does: `base16-3024` is the
    /// base16 scheme `3024`.
    func testExportFindsAnAlias() throws {
        let dir = try scratch()
        let template = dir.appendingPathComponent("t.mustache")
        try "{{scheme-system}} {{scheme-slug}} {{base08-hex}}\n".write(
            to: template, atomically: true, encoding: .utf8)
        let schemes = BuildTests.fixtures.appendingPathComponent("schemes/base16")
        let (status, out, err) = run(["export", "base16-3024", template.path, "--themes-dir", schemes.path])
        XCTAssertEqual(status, 0, err)
        XCTAssertEqual(out, "base16 3024 db2d20\n")
    }
}
