import Foundation
import XCTest

@testable import LiveryCore

/// `explain` lists every matching declaration in cascade order, the winner last; seed cases 5, 6,
/// 7 and 10 pinned exactly.
final class ExplainTests: XCTestCase {
    /// "line:col selector value layer specificity won/reason" per candidate.
    func lines(_ c: Cascade, _ path: String, _ property: String, app: String? = nil) throws -> [String] {
        let e = try c.explain(ComponentPath(path, schema: c.theme.schema), property: property, app: app)
        return e.candidates.map {
            "\($0.location.line):\($0.location.column) \($0.selector) \($0.value) \($0.layer) \($0.specificity) "
                + ($0.won ? "wins" : $0.reason)
        }
    }

    func origin(_ c: Cascade, _ path: String, _ property: String) throws -> Cascade.Origin {
        try c.explain(ComponentPath(path, schema: c.theme.schema), property: property).origin
    }

    func testDirectMatchListedAloneContainerRuleNotACandidate() throws {
        let c = try compileSheet(
            "Window NavigationBar { tint-color: #008000; }\nBarButtonItem { tint-color: #0000ff; }")
        XCTAssertEqual(
            try lines(c, "Window/NavigationBar/BarButtonItem", "tint-color"),
            ["2:17 BarButtonItem #0000ffff theme (0,0,1) wins"])
        XCTAssertEqual(
            try lines(c, "Window/NavigationBar", "tint-color"),
            ["1:24 Window NavigationBar #008000ff theme (0,0,2) wins"])
    }

    func testInheritedValueSaysFromWhichContainer() throws {
        let c = try compileSheet("NavigationBar { tint-color: #008000; }")
        XCTAssertEqual(try lines(c, "Window/NavigationBar/BarButtonItem", "tint-color"), [])
        XCTAssertEqual(
            try origin(c, "Window/NavigationBar/BarButtonItem", "tint-color"),
            .inherited(from: "Window/NavigationBar"))
        XCTAssertEqual(
            try origin(c, "Window/ToolBar/BarButtonItem", "tint-color"), .inherited(from: "Window/ToolBar"))
        XCTAssertEqual(try origin(c, "Window", "tint-color"), .initial)
    }

    func testDescendantLabelRuleBeatsTypeRuleBySpecificity() throws {
        let c = try compileSheet("Label { text-color: #ff0000; }\nButton Label { text-color: #0000ff; }")
        XCTAssertEqual(
            try lines(c, "Window/Button/Label#title", "text-color"),
            [
                "1:9 Label #ff0000ff theme (0,0,1) lower specificity ((0,0,1) < (0,0,2))",
                "2:16 Button Label #0000ffff theme (0,0,2) wins",
            ])
        XCTAssertEqual(try lines(c, "Window/Label", "text-color"), ["1:9 Label #ff0000ff theme (0,0,1) wins"])
    }

    func testMoreDerivedTypeWinsWhateverTheOrder() throws {
        let c = try compileSheet("Button { background-color: #ffff00; }\nView { background-color: #ffffff; }")
        XCTAssertEqual(
            try lines(c, "Window/Button", "background-color"),
            [
                "2:8 View #ffffffff theme (0,0,1) less derived subject type",
                "1:10 Button #ffff00ff theme (0,0,1) wins",
            ])
        XCTAssertEqual(
            try lines(c, "Window/Switch", "background-color"), ["2:8 View #ffffffff theme (0,0,1) wins"])
    }

    func testHigherLayerWinsAndTheLoserIsShown() throws {
        let c = try compileSheet(
            "Window Button.destructive:highlighted { tint-color: #111111; }",
            overrides: "Button { tint-color: #333333; }")
        XCTAssertEqual(
            try lines(c, "Window/Button.destructive:highlighted", "tint-color"),
            [
                "1:41 Window Button.destructive:highlighted #111111ff theme (0,2,2) lower layer (theme < user)",
                "1:10 Button #333333ff user (0,0,1) wins",
            ])
        let app = try compileSheet(
            "@app \"org.example.Mail\" { Switch { on-tint-color: #ff8800; } }\nSwitch { on-tint-color: #00ff00; }"
        )
        XCTAssertEqual(
            try lines(app, "Window/Switch", "on-tint-color", app: "org.example.Mail"),
            [
                "2:10 Switch #00ff00ff theme (0,0,1) lower layer (theme < app)",
                "1:36 Switch #ff8800ff app (0,0,1) wins",
            ])
        XCTAssertEqual(
            try lines(app, "Window/Switch", "on-tint-color"), ["2:10 Switch #00ff00ff theme (0,0,1) wins"])
    }

    func testLaterDeclarationWinsIsExplainedAsSourceOrder() throws {
        let c = try compileSheet("Button { tint-color: #111111; }\nButton { tint-color: #222222; }")
        XCTAssertEqual(
            try lines(c, "Window/Button", "tint-color"),
            [
                "1:10 Button #111111ff theme (0,0,1) earlier in source order",
                "2:10 Button #222222ff theme (0,0,1) wins",
            ])
    }

    /// The reference matcher (used by `explain`) tries each (compound, node) pair at most once:
    /// `Label View × 7 Button` against `Window`, 28 `View`s and a `Button` fails after at most
    /// 9 × 30 compound tests, where a search that forgets failures takes over a million (and a
    /// sheet with a few more compounds would hold the daemon for hours).
    func testReferenceMatcherTriesEachCompoundAtNodeOnce() throws {
        var calls = 0
        let noChild = { (_: Int) in false }
        let matched = Cascade.matchRightToLeft(last: 8, subject: 29, isChild: noChild) { ci, k in
            calls += 1
            return ci == 0 ? false : ci == 8 ? k == 29 : true
        }
        XCTAssertFalse(matched)
        XCTAssertLessThanOrEqual(calls, 9 * 30)
        XCTAssertGreaterThan(calls, 8 * 20, "the search must still try every container")
        let views = Array(repeating: "View", count: 7).joined(separator: " ")
        let c = try compileSheet("Window \(views) Button { tint-color: #123456; }")
        let deep = Array(repeating: "View", count: 28).joined(separator: "/")
        XCTAssertEqual(
            try lines(c, "Window/\(deep)/Button", "tint-color"),
            ["1:52 Window \(views) Button #123456ff theme (0,0,9) wins"])
        XCTAssertEqual(try lines(c, "Label/\(deep)/Button", "tint-color"), [])
        XCTAssertEqual(
            try c.resolve(
                ComponentPath("Window/\(deep)/Button", schema: c.theme.schema), properties: ["tint-color"]
            )
            .map(\.value.description), ["#123456ff"])
    }

    /// `-0` is read as 0, so `resolve` and `explain` print the same value whichever the value
    /// table met first (a newcomer trial saw `0.0` from one and `-0.0` from the other).
    func testNegativeZeroIsZero() throws {
        let c = try compileSheet(
            "Button { alpha: -0; corner-radius: 0; transition-duration: -1e-322ms; }\n"
                + "Label { alpha: 0; corner-radius: -0.0; transition-duration: 0s; }")
        for path in ["Window/Button", "Window/Label"] {
            let p = try ComponentPath(path, schema: c.theme.schema)
            let values = try c.resolve(p, properties: ["alpha", "corner-radius"]).map(\.value.description)
            XCTAssertEqual(values, ["0", "0"], path)
            // Published as a D-Bus double: the sign of zero shows there.
            for v in try c.resolve(p, properties: ["alpha", "corner-radius", "transition-duration"]).map(
                \.value)
            {
                XCTAssertEqual((v.jsonObject as? Double)?.sign, .plus, "\(path) resolve")
            }
            for property in ["alpha", "corner-radius", "transition-duration"] {
                let winner = try XCTUnwrap(c.explain(p, property: property).candidates.last)
                XCTAssertEqual(
                    (winner.value.jsonObject as? Double)?.sign, .plus, "\(path) explain \(property)")
            }
        }
    }
}
