import Foundation
import XCTest

/// `livery check`: offline, compiler-style diagnostics at exact positions.
final class CheckTests: EndToEndTestCase {
    /// One error of each kind: the line it is on, the text the caret points at, and words the
    /// message must contain.
    struct ExpectedError {
        var source: String
        var at: String
        var message: [String]
    }

    static let errors: [ExpectedError] = [
        ExpectedError(
            source: "Buton { tint-color: #ff0000; }", at: "Buton",
            message: ["unknown", "type", "'Buton'", "did you mean 'Button'"]),
        ExpectedError(
            source: "Button { tint-colour: #ff0000; }", at: "tint-colour",
            message: ["unknown property 'tint-colour'", "did you mean 'tint-color'"]),
        ExpectedError(source: "Switch { on-tint-color: @acent; }", at: "@acent", message: ["acent"]),
        ExpectedError(
            source: "Slider { minimum-track-tint-color: #zz; }", at: "#zz", message: ["#zz", "colour"]),
        ExpectedError(source: "TableView { row-height: 80ms; }", at: "80ms", message: ["length"]),
        ExpectedError(
            source: "Button:pressed { tint-color: #ff0000; }", at: ":pressed", message: ["state", "pressed"]),
        ExpectedError(source: "Label { text-color #ff0000; }", at: "#ff0000", message: ["':'"]),
        ExpectedError(
            source: "Button { background-image: url(\"../outside.png\"); }", at: "\"../outside.png\"",
            message: ["../outside.png", "outside"]),
    ]

    func check(_ arguments: [String]) throws -> RunResult {
        try run(Locations.livery, ["check", "--themes-dir", Locations.themes] + arguments)
    }

    func testCheckReportsEveryErrorAtItsLineAndColumnWithSourceAndCaret() throws {
        let themes = try makeDirectory("themes")
        try onePixelPNG.write(to: URL(fileURLWithPath: themes + "/outside.png"))
        var lines = [
            "/* one error of each kind */", "@define-color accent #112233;",
            "Window { tint-color: @accent; }",
        ]
        var positions: [(line: Int, column: Int)] = []
        for e in Self.errors {
            lines.append(e.source)
            lines.append("")
            let column =
                e.source.distance(from: e.source.startIndex, to: e.source.range(of: e.at)!.lowerBound) + 1
            positions.append((lines.count - 1, column))
        }
        let bundle = try writeBundle("faulty", in: themes, sheet: lines.joined(separator: "\n") + "\n")
        let file = bundle + "/theme.css"

        let r = try check([bundle])
        XCTAssertEqual(r.status, 1, "\(r)")
        let out = r.stderr.components(separatedBy: "\n")
        for (e, position) in zip(Self.errors, positions) {
            let prefix = "\(file):\(position.line):\(position.column): error: "
            guard let i = out.firstIndex(where: { $0.hasPrefix(prefix) }) else {
                XCTFail(
                    "no diagnostic at \(position.line):\(position.column) for `\(e.source)`:\n\(r.stderr)")
                continue
            }
            for word in e.message {
                XCTAssertTrue(out[i].contains(word), "'\(word)' missing in: \(out[i])")
            }
            XCTAssertEqual(out.count > i + 2 ? out[i + 1] : nil, e.source, "source line after \(out[i])")
            XCTAssertEqual(
                out.count > i + 2 ? out[i + 2] : nil,
                String(repeating: " ", count: position.column - 1) + "^",
                "caret line after \(out[i])")
        }
        XCTAssertEqual(out.filter { $0.contains(": error: ") }.count, Self.errors.count, r.stderr)
        XCTAssertTrue(r.stderr.contains("\(bundle): \(Self.errors.count) errors\n"), r.stderr)
    }

    /// The total counts the problems a file's "N more" line stands for, not the line.
    func testTheTotalCountsTheProblemsNotShown() throws {
        let themes = try makeDirectory("themes")
        // 150 lines of 10 '}': 1,500 errors, the first 100 shown.
        let bundle = try writeBundle(
            "braces", in: themes,
            sheet: String(repeating: String(repeating: "}", count: 10) + "\n", count: 150))
        let r = try livery("check", bundle)
        XCTAssertEqual(r.status, 1, "\(r)")
        XCTAssertTrue(
            r.stderr.contains(
                "/theme.css:10:10: error: 1400 more problems in this file not shown (the first 100 are)\n"),
            r.stderr)
        XCTAssertTrue(
            r.stderr.hasSuffix("\(bundle): 100 errors and 1400 more problems not shown\n"), r.stderr)
    }

    func testCleanBundlePasses() throws {
        let themes = try makeDirectory("themes")
        let bundle = try writeBundle(
            "clean", in: themes,
            sheet: """
                @theme { name: "Clean"; variant: dark; inherits: "default"; accent-color: @accent; }
                @define-color accent rgb(0 128 0);
                NavigationBar BarButtonItem { tint-color: alpha(@accent, 0.5); }
                Button:highlighted { background-image: url("images/back.png"); }
                TableView { row-height: 80px; }
                Overlay { transition-duration: 600ms; }
                @app "org.example.Mail" { Switch { on-tint-color: #ff8800; } }

                """,
            files: ["images/back.png": onePixelPNG])
        let r = try check([bundle])
        XCTAssertEqual(r.status, 0, "\(r)")
        XCTAssertEqual(r.stderr, "")
        XCTAssertTrue(r.stdout.hasPrefix("\(bundle): ok"), "\(r)")
    }

    func testEveryShippedBundlePasses() throws {
        let entries = try FileManager.default.contentsOfDirectory(atPath: Locations.themes).sorted()
        // `tinted/` is a folder of schemes, not a bundle.
        let bundles = entries.filter { $0 != "schema.json" && $0 != "tinted" && !$0.hasPrefix(".") }.map {
            Locations.themes + "/" + $0
        }
        XCTAssertGreaterThanOrEqual(bundles.count, 6, "\(entries)")
        let r = try check(bundles)
        XCTAssertEqual(r.status, 0, "\(r)")
        XCTAssertEqual(r.stderr, "")
        for bundle in bundles {
            XCTAssertTrue(r.stdout.contains("\(bundle): ok"), "\(bundle) not ok:\n\(r.stdout)")
        }
    }

    func testCheckNeedsNoDaemonAndFailsOnAMissingBundle() throws {
        let r = try check([root + "/nowhere"])
        XCTAssertEqual(r.status, 1, "\(r)")
        XCTAssertEqual(r.stderr, "\(root)/nowhere: error: no such file or directory\n")
    }

    func testCheckSuggestsAnInstalledParentForAMisspeltInherits() throws {
        let themes = try makeDirectory("themes")
        let bundle = try writeBundle("mine", in: themes, sheet: "@theme { inherits: \"defualt\"; }\n")
        let r = try check([bundle])
        XCTAssertEqual(r.status, 1, "\(r)")
        XCTAssertTrue(
            r.stderr.contains("error: 'mine' inherits unknown theme 'defualt' (did you mean 'default'?)"),
            r.stderr)
    }

    func testCheckWarnsOfADeclaredVariantThatIsNotInstalled() throws {
        let themes = try makeDirectory("themes")
        let sheet = "@theme { inherits: \"default\"; dark-variant: \"nonexistent\"; }\n"
        let bundle = try writeBundle("mine", in: themes, sheet: sheet)
        let column =
            sheet.distance(from: sheet.startIndex, to: sheet.range(of: "\"nonexistent\"")!.lowerBound) + 1
        let r = try check([bundle])
        XCTAssertEqual(r.status, 0, "\(r)")
        XCTAssertTrue(
            r.stderr.contains(
                "\(bundle)/theme.css:1:\(column): warning: 'dark-variant' names theme 'nonexistent', which is not installed"
            ),
            r.stderr)
        XCTAssertTrue(r.stdout.contains(", 1 warning)"), r.stdout)
    }

    func testCheckWarnsOfTwoBundlesWithOneIdInOneDirectory() throws {
        let themes = try makeDirectory("themes")
        try writeBundle("mine", in: themes, sheet: "@theme { inherits: \"default\"; }\n")
        try FileManager.default.copyItem(
            atPath: Locations.schemes + "/base16/dracula.yaml", toPath: themes + "/mine.yaml")
        let warning =
            "\(themes)/mine.yaml: warning: theme 'mine' is also provided by \(themes)/mine in the same directory; liveryd skips \(themes)/mine.yaml\n"
        for entry in ["mine", "mine.yaml"] {
            let r = try check([themes + "/" + entry])
            XCTAssertEqual(r.status, 0, "\(r)")
            XCTAssertTrue(r.stderr.contains(warning), "\(entry): \(r.stderr)")
        }
    }

    func testCheckIgnoresBrokenSiblingsAndRefusesInvalidIds() throws {
        let themes = try makeDirectory("themes")
        try writeBundle(
            "good", in: themes, sheet: "@theme { inherits: \"default\"; }\nButton { tint-color: red; }\n")
        try writeBundle(
            "bomb", in: themes,
            sheet: "Button { tint-color: " + String(repeating: "alpha(", count: 3000) + "red; }\n")
        try writeBundle("Upper", in: themes, sheet: "Button { tint-color: red; }\n")
        let good = try run(Locations.livery, ["check", themes + "/good"])
        XCTAssertEqual(good.status, 0, "\(good)")
        XCTAssertTrue(good.stdout.hasPrefix(themes + "/good: ok (theme 'good', native, "), good.stdout)
        let upper = try run(Locations.livery, ["check", themes + "/Upper"])
        XCTAssertEqual(upper.status, 1)
        XCTAssertEqual(
            upper.stderr,
            themes
                + "/Upper: error: 'Upper' is not a theme id (lower-case letters, digits and '-', not first); liveryd would skip it\n"
        )
        let bomb = try run(Locations.livery, ["check", themes + "/bomb"])
        XCTAssertEqual(bomb.status, 1)
        XCTAssertTrue(bomb.stderr.contains("theme.css:1:"), bomb.stderr)
        XCTAssertTrue(bomb.stderr.contains("error: functions nested more than 32 deep"), bomb.stderr)
    }
}
