import Foundation
import XCTest

@testable import LiveryCore

final class LintTests: XCTestCase {
    func warnings(_ css: String) -> [String] {
        let source = ThemeSource(
            id: "t", format: "native", path: "t", sheet: SheetParser().parse(css, file: "t.css"))
        return Lint.warnings(chain: [source]).map {
            "\($0.location.line):\($0.location.column): \($0.message)"
        }
    }

    func testRuleShadowedForEveryPropertyCanNeverWin() {
        XCTAssertEqual(
            warnings(
                "Button { tint-color: #111; }\nSwitch { tint-color: #222; }\nButton { tint-color: #333; text-color: #444; }"
            ),
            [
                "1:1: rule 'Button' can never win: every property it sets is set again by a later rule with the same selector (3:10)"
            ])
    }

    /// A selector listed twice in one rule: the first never wins, and the warning says so
    /// there (it used to warn on the second, the one that wins, citing its own declaration;
    /// found by a newcomer trial).
    func testSelectorListedTwiceInOneRule() {
        XCTAssertEqual(
            warnings("Switch { tint-color: #000; }\nButton, Button { tint-color: #ff0000; }"),
            ["2:1: rule 'Button' can never win: the same selector is listed again later in this rule"])
        // Listed twice and set again later too: the later rule is cited, not its own
        // declaration (found in review).
        XCTAssertEqual(
            warnings("Button, Button { tint-color: #f00; row-height: 3; }\nButton { tint-color: #000; }"),
            [
                "1:1: rule 'Button' can never win: every property it sets is set again by a later rule with the same selector (2:10)"
            ])
    }

    func testPartlyShadowedRuleAndOtherLayersAreNotReported() {
        XCTAssertEqual(
            warnings("Button { tint-color: #111; text-color: #000; }\nButton { tint-color: #333; }"), [])
        XCTAssertEqual(
            warnings("Button { tint-color: #111; }\n@app \"x\" { Button { tint-color: #333; } }"), [])
        XCTAssertEqual(warnings("Button { tint-color: #111; }\nWindow Button { tint-color: #333; }"), [])
    }

    func testPropertySetTwiceInOneRule() {
        XCTAssertEqual(
            warnings("Button { tint-color: #111; tint-color: #222; }"),
            ["1:10: 'tint-color' is set again later in the same rule; this one never wins"])
    }

    func testUnusedPaletteNames() {
        XCTAssertEqual(
            warnings(
                "@define-color a #111;\n@define-color b #222;\n@define-color c alpha(@b, 0.5);\nButton { tint-color: @c; }"
            ),
            ["1:15: palette colour '@a' is never used"])
    }

    /// A base16 or base24 scheme's palette is its data, and the mapping theme defines every
    /// slot for schemes to override: which slots show is the mapping's choice, so neither warns
    /// of a slot nothing uses (every shipped scheme warned of `@base07`). A native theme does.
    func testSchemeSlotsAreNotReportedUnused() throws {
        let scheme = Base16Format().read(
            repositoryRoot.appendingPathComponent("themes/tinted/base16/monokai.yaml"), id: "monokai")
        XCTAssertEqual(scheme.format, "base16")
        XCTAssertFalse(scheme.sheet.palette.isEmpty)
        let mapping = ThemeSource(
            id: Base16Format.mappingTheme, format: "native", path: "m",
            sheet: SheetParser().parse(
                "@define-color base07 #f8f8f8;\n@define-color extra #111;", file: "m.css"))
        XCTAssertEqual(Lint.warnings(chain: [mapping, scheme]).map(\.message), [])
        XCTAssertEqual(
            Lint.warnings(chain: [mapping]).map(\.message), ["palette colour '@extra' is never used"])
        XCTAssertEqual(
            warnings("@define-color base07 #f8f8f8;"), ["1:15: palette colour '@base07' is never used"])
    }
}
