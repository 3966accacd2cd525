import Foundation
import XCTest

/// Text a theme file gives (name, author, description) writes no line a template's author did
/// not write, in any shipped template, either fixture template repository, or a live export
/// (the README, "Template variables": control characters become spaces). The themes are
/// `Tests/Fixtures/hostile/`: `evil-*` carry line feeds, carriage returns, vertical tabs, form
/// feeds, NEL, U+2028, U+2029, an escape sequence and `*/` in each text field; `plain-*` have the
/// same colours and plain words.
final class ThemeTextTests: EndToEndTestCase {
    static let hostile = Locations.fixtures + "/hostile"

    /// The characters a program may take as the end of a line.
    static let lineBreaks: Set<Unicode.Scalar> = [
        "\n", "\r", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}",
    ]

    /// Checks that `evil` is `plain` with only the theme's own words changed: as many lines,
    /// the same control characters, and every line that differs keeping the text the template
    /// wrote before and after the plain theme's words (its name, author, description, slug: each
    /// holds `plain`, any case).
    func assertSameLines(
        _ evil: String, _ plain: String, _ what: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        func breaks(_ s: String) -> Int {
            s.unicodeScalars.filter { ThemeTextTests.lineBreaks.contains($0) }.count
        }
        func controls(_ s: String) -> [UInt32: Int] {
            var counts: [UInt32: Int] = [:]
            for c in s.unicodeScalars where c.value < 0x20 || (0x7F...0x9F).contains(c.value) {
                counts[c.value, default: 0] += 1
            }
            return counts
        }
        XCTAssertEqual(breaks(evil), breaks(plain), "\(what): line breaks\n\(evil)", file: file, line: line)
        XCTAssertEqual(controls(evil), controls(plain), "\(what): control characters", file: file, line: line)
        let evilLines = evil.split(separator: "\n", omittingEmptySubsequences: false)
        let plainLines = plain.split(separator: "\n", omittingEmptySubsequences: false)
        guard evilLines.count == plainLines.count else { return }
        for (e, p) in zip(evilLines, plainLines) where e != p {
            guard let first = p.range(of: "plain", options: .caseInsensitive),
                let last = p.range(of: "plain", options: [.caseInsensitive, .backwards])
            else {
                XCTFail(
                    "\(what): a line the theme's words are not in changed:\n\(p)\n\(e)", file: file,
                    line: line)
                continue
            }
            let prefix = p[..<first.lowerBound]
            let suffix = p[last.upperBound...]
            XCTAssertTrue(
                e.hasPrefix(prefix) && e.hasSuffix(suffix),
                "\(what): the template's own text around the theme's words changed:\n\(p)\n\(e)", file: file,
                line: line)
        }
        if what.hasSuffix(".css") || what.hasSuffix("Xresources") {
            // CSS has only block comments, and xrdb runs its file through cpp: the theme's words
            // must neither open nor end one.
            for mark in ["/*", "*/"] {
                XCTAssertEqual(
                    evil.components(separatedBy: mark).count, plain.components(separatedBy: mark).count,
                    "\(what): comments\n\(evil)", file: file, line: line)
            }
        }
    }

    /// Every shipped plugin's template, through `livery export`, for a base16, a base24 and a
    /// native theme.
    func testEveryShippedTemplateKeepsItsLinesForAHostileName() throws {
        let plugins = Locations.repo + "/plugins"
        var templates: [String] = []
        for plugin in try FileManager.default.contentsOfDirectory(atPath: plugins).sorted() {
            for file in try FileManager.default.contentsOfDirectory(atPath: plugins + "/" + plugin).sorted()
            where file.hasSuffix(".mustache") {
                templates.append(plugins + "/" + plugin + "/" + file)
            }
        }
        XCTAssertGreaterThanOrEqual(templates.count, 8)
        for kind in ["base16", "base24", "native"] {
            for template in templates {
                let evil = try run(
                    Locations.livery,
                    [
                        "export", "evil-" + kind, template, "--themes-dir", Locations.themes, "--themes-dir",
                        ThemeTextTests.hostile,
                    ])
                let plain = try run(
                    Locations.livery,
                    [
                        "export", "plain-" + kind, template, "--themes-dir", Locations.themes, "--themes-dir",
                        ThemeTextTests.hostile,
                    ])
                XCTAssertEqual(evil.status, 0, "\(evil)")
                XCTAssertEqual(plain.status, 0, "\(plain)")
                let name = URL(fileURLWithPath: template).lastPathComponent.replacingOccurrences(
                    of: ".mustache", with: "")
                assertSameLines(
                    evil.stdout, plain.stdout, "\(kind) \(name)" + (template.contains("/gtk/") ? ".css" : ""))
            }
        }
    }

    /// Both fixture template repositories built for the hostile schemes: every file the plain
    /// scheme gets, the hostile one gets with the same lines.
    func testBothFixtureRepositoriesKeepTheirLinesForAHostileName() throws {
        for repo in ["tinted-shell", "tinted-fzf"] {
            let out = root + "/build-" + repo
            let r = try run(
                Locations.livery,
                [
                    "build", Locations.fixtures + "/tinted/" + repo, "--themes-dir", ThemeTextTests.hostile,
                    "--out", out,
                ], timeout: 60)
            XCTAssertEqual(r.status, 0, "\(r)")
            let files = try XCTUnwrap(FileManager.default.subpathsOfDirectory(atPath: out)).sorted()
            let plainFiles = files.filter { URL(fileURLWithPath: $0).lastPathComponent.contains("plain") }
            XCTAssertGreaterThanOrEqual(plainFiles.count, 2, "\(repo): \(files)")
            // Each scheme's files differ only in the slug: the plain one's is `plain`, the
            // hostile one's starts with `evil`.
            for plainFile in plainFiles {
                let evilFile = try XCTUnwrap(
                    files.first {
                        $0.replacingOccurrences(
                            of: "evil[a-z0-9-]*", with: "plain", options: .regularExpression)
                            == plainFile && $0 != plainFile
                    }, "\(repo): no hostile twin of \(plainFile) in \(files)")
                let plain = try String(contentsOfFile: out + "/" + plainFile, encoding: .utf8)
                let evil = try String(contentsOfFile: out + "/" + evilFile, encoding: .utf8)
                assertSameLines(evil, plain, repo + "/" + plainFile)
            }
        }
    }

    /// The issue's own scenario: the alacritty plugin enabled as the README says, `livery set` of
    /// a scheme whose name holds a TOML table: alacritty's file has exactly the plain scheme's
    /// tables and keys, read by Python's TOML parser.
    func testAlacrittyExportOfAHostileNameHasOnlyTheTemplatesTables() throws {
        let home = root + "/home"
        try FileManager.default.createDirectory(
            atPath: configHome + "/livery/plugins", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: configHome + "/livery/plugins/alacritty",
            withDestinationPath: Locations.repo + "/plugins/alacritty")
        environment["HOME"] = home
        try startDaemon(extraThemesDirectories: [ThemeTextTests.hostile])
        let output = home + "/.config/alacritty/livery.toml"
        var texts: [String: String] = [:]
        for id in ["plain-base16", "evil-base16"] {
            try setTheme(id)
            let word = id.hasPrefix("plain") ? "Plain" : "Evil"
            XCTAssertTrue(
                waitUntil(timeout: 20) {
                    (try? String(contentsOfFile: output, encoding: .utf8))?.contains(word) == true
                }, "alacritty's export never ran for \(id): \(daemon.stderr)")
            texts[id] = try String(contentsOfFile: output, encoding: .utf8)
        }
        let keys = """
            import sys, tomllib
            def keys(t, prefix=""):
                out = []
                for k, v in t.items():
                    out.append(prefix + k)
                    if isinstance(v, dict): out += keys(v, prefix + k + ".")
                return out
            print(sorted(keys(tomllib.loads(open(sys.argv[2]).read()))))
            """
        var parsed: [String: String] = [:]
        for (id, text) in texts {
            let file = root + "/" + id + ".toml"
            try text.write(toFile: file, atomically: true, encoding: .utf8)
            let r = try python(keys, [file])
            XCTAssertEqual(r.status, 0, "\(r)")
            parsed[id] = r.stdout
        }
        XCTAssertEqual(parsed["evil-base16"], parsed["plain-base16"], texts["evil-base16"] ?? "")
        XCTAssertFalse(parsed["evil-base16"]?.contains("terminal") ?? true)
        assertSameLines(texts["evil-base16"] ?? "", texts["plain-base16"] ?? "", "alacritty live export")
    }
}
