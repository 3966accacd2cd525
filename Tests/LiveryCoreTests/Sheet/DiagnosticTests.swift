import Foundation
import XCTest

@testable import LiveryCore

/// Compiler-style diagnostics: every error of a sheet in one pass, each at its line and column.
final class DiagnosticTests: XCTestCase {
    func testOnePassReportsEveryKindOfErrorAtItsPosition() throws {
        let css = """
            @define-color accent rgb(0 128 0);
            NavigationBar { tint-colour: @accent; }
            Buton { tint-color: #00f; }
            Switch { on-tint-color: @acent; }
            TableView { row-height: 80ms; }
            Slider { minimum-track-tint-color: #12345; }
            Button:hovered { tint-color: red; }
            ToolBar { tint-color: ; bar-style: blak; }
            Label { text-color: #fff }
            Window > > Label { text-color: #000; }
            @them { name: "x"; }
            Button { background-image: url("missing.png"); }
            """
        let d = try diagnostics(of: css)
        let got = d.map { "\($0.location.line):\($0.location.column): \($0.message)" }
        XCTAssertEqual(
            got,
            [
                "2:17: unknown property 'tint-colour' (did you mean 'tint-color'?)",
                "3:1: unknown component type 'Buton' (did you mean 'Button'?)",
                "4:25: unknown palette colour '@acent' (did you mean '@accent'?)",
                "5:25: expected a length (px or no unit)",
                "6:36: '#12345' is not a colour: use #rgb, #rgba, #rrggbb or #rrggbbaa",
                "7:7: unknown state ':hovered'",
                "8:23: expected a value for 'tint-color'",
                "8:36: 'bar-style' takes one of default, black (did you mean 'black'?)",
                "10:10: expected a selector before '>'",
                "11:1: unknown at-rule '@them' (did you mean 'theme'?)",
                "12:32: 'missing.png' does not exist in the bundle",
            ])
    }

    func testRenderedDiagnosticShowsLineAndCaret() throws {
        let d = try diagnostics(of: "Button {\n  tint-colour: #fff;\n}\n")
        XCTAssertEqual(d.count, 1)
        let lines = d[0].rendered.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        XCTAssertTrue(
            lines[0].hasSuffix(
                "theme.css:2:3: error: unknown property 'tint-colour' (did you mean 'tint-color'?)"), lines[0]
        )
        XCTAssertEqual(lines[1], "  tint-colour: #fff;")
        XCTAssertEqual(lines[2], "  ^")
    }

    /// A `.` or `:` without a name after it, and an unexpected token in a selector, are quoted
    /// once, as every token is.
    func testMissingClassOrStateNameIsQuotedOnce() throws {
        for (css, token) in [("Button: { alpha: 1; }\n", ":"), ("Button. { alpha: 1; }\n", ".")] {
            let d = try diagnostics(of: css)
            XCTAssertTrue(
                d.contains { $0.message == "expected a name after '\(token)'" }, "\(d.map(\.message))")
        }
        // An unexpected token in a selector likewise.
        let d = try diagnostics(of: "Button* { alpha: 1; }\n")
        XCTAssertTrue(d.contains { $0.message == "unexpected '*' in selector" }, "\(d.map(\.message))")
    }

    func testColourSyntaxes() throws {
        let c = try compileSheet(
            """
            @define-color a #abc;
            @define-color b #abcd;
            @define-color c rgba(0 0 0 / 0.5);
            @define-color d rgb(255, 0, 0, 50%);
            @define-color e hsl(120 100% 25%);
            @define-color f transparent;
            @define-color g RebeccaPurple;
            @define-color h shade(#808080, 0.5);
            @define-color i lighter(#000000);
            @define-color j darker(#ffffff);
            @define-color k alpha(@a, 0.5);
            @define-color l hsla(0, 100%, 50%, 0.25);
            Button { tint-color: @a; text-color: @b; background-color: @c; border-color: @d; title-color: @e;
              shadow-color: @f; on-tint-color: @g; selection-color: @h; separator-color: @i; placeholder-color: @j;
              bar-tint-color: @k; color: @l; }
            """)
        let expect = [
            "tint-color": "#aabbccff", "text-color": "#aabbccdd", "background-color": "#00000080",
            "border-color": "#ff000080", "title-color": "#008000ff", "shadow-color": "#00000000",
            "on-tint-color": "#663399ff", "selection-color": "#404040ff", "separator-color": "#000000ff",
            "placeholder-color": "#b3b3b3ff", "bar-tint-color": "#aabbcc80", "color": "#ff000040",
        ]
        for (p, v) in expect { XCTAssertEqual(try resolved(c, "Button", p), v, p) }
    }

    func testLengthsDurationsListsKeywordsAndStrings() throws {
        let c = try compileSheet(
            """
            TableView { row-height: 80; }
            Overlay { transition-duration: 600ms; alpha: 0.5; }
            Drawer { transition-duration: 0.6s; drawer-width: 300px; }
            CollectionView { item-size: 100 50; content-insets: -60 0 0 0; section-insets: 10 20; }
            Label { font-family: "Inter"; font-weight: bold; }
            """)
        XCTAssertEqual(try resolved(c, "TableView", "row-height"), "80")
        XCTAssertEqual(try resolved(c, "Overlay", "transition-duration"), "0.6s")
        XCTAssertEqual(try resolved(c, "Overlay", "alpha"), "0.5")
        XCTAssertEqual(try resolved(c, "Drawer", "transition-duration"), "0.6s")
        XCTAssertEqual(try resolved(c, "Drawer", "drawer-width"), "300")
        XCTAssertEqual(try resolved(c, "CollectionView", "item-size"), "100 50")
        XCTAssertEqual(try resolved(c, "CollectionView", "content-insets"), "-60 0 0 0")
        XCTAssertEqual(try resolved(c, "CollectionView", "section-insets"), "10 20 10 20")
        XCTAssertEqual(try resolved(c, "Label", "font-family"), "\"Inter\"")
        XCTAssertEqual(try resolved(c, "Label", "font-weight"), "bold")
    }

    func testImportInsideBundleAndEscapeRefused() throws {
        let c = try compileSheet(
            #"@import "controls.css"; Switch { on-tint-color: #00ff00; }"#,
            files: [
                "controls.css": Data("Switch { on-tint-color: #ff0000; thumb-tint-color: #0000ff; }".utf8)
            ])
        XCTAssertEqual(try resolved(c, "Switch", "on-tint-color"), "#00ff00ff")
        XCTAssertEqual(try resolved(c, "Switch", "thumb-tint-color"), "#0000ffff")
        let d = try diagnostics(of: #"@import "../x.css";"#)
        XCTAssertEqual(d.map(\.message), ["'../x.css' leads outside the bundle"])
    }

    func testImageCheckedByContentNotName() throws {
        let d = try diagnostics(
            of: #"Button { background-image: url("fake.png"); }"#,
            files: ["fake.png": Data("not an image".utf8)])
        XCTAssertEqual(d.map(\.message), ["'fake.png' is not a PNG, JPEG, WebP or SVG image"])
        XCTAssertEqual(BundleFiles.imageKind(Array("<svg xmlns='http://www.w3.org/2000/svg'/>".utf8)), "svg")
        XCTAssertEqual(BundleFiles.imageKind([0xff, 0xd8, 0xff, 0xe0]), "jpeg")
        XCTAssertEqual(BundleFiles.imageKind(Array("RIFF\0\0\0\0WEBPVP8 ".utf8)), "webp")
    }

    func testPaletteCycleIsOneErrorNamingTheCycle() throws {
        let d = try diagnostics(
            of: "@define-color a @b;\n@define-color b mix(@a, red, 0.5);\nButton { tint-color: @a; }\n")
        XCTAssertEqual(d.map(\.message), ["palette colour '@a' is part of a reference cycle (@a → @b → @a)"])
        let own = try diagnostics(of: "@define-color a @a;\n")
        XCTAssertEqual(own.map(\.message), ["palette colour '@a' refers to itself"])
    }

    func testComponentPathErrors() {
        XCTAssertThrowsError(try ComponentPath("Window/Buton", schema: shippedSchema)) { e in
            XCTAssertEqual(
                "\(e)",
                "segment 2 'Buton' of path 'Window/Buton': unknown type 'Buton' (did you mean 'Button'?)")
        }
        XCTAssertThrowsError(try ComponentPath("Window//Button", schema: shippedSchema))
        XCTAssertThrowsError(try ComponentPath("Button:pressed", schema: shippedSchema))
        XCTAssertEqual(
            try ComponentPath("Window/Button#ok.destructive:highlighted", schema: shippedSchema).nodes.last,
            PathNode(type: "Button", name: "ok", classes: ["destructive"], states: ["highlighted"]))
    }

    func testMissingSemicolonBeforeTheNextDeclarationIsHinted() throws {
        let line = "Button { tint-color: red text-color: blue; }"
        let second = line.range(of: "text-color:")!.upperBound
        let column = line.distance(from: line.startIndex, to: second)
        let d = try diagnostics(of: line)
        XCTAssertEqual(
            d.map { "\($0.location.line):\($0.location.column): \($0.message)" },
            ["1:\(column): unexpected ':' in value (missing ';' before 'text-color'?)"])
    }

    func testAFileNamedOutsideTheBundleIsSaidToBeOutsideEvenWhenMissing() throws {
        let d = try diagnostics(
            of: #"Button { background-image: url("../forest-copy/x.png"); }"#,
            files: ["images/a.png": tinyPNG])
        XCTAssertEqual(d.map(\.message), ["'../forest-copy/x.png' leads outside the bundle"])
        // A name that climbs out and back in is still inside.
        let inside = try diagnostics(
            of: #"Button { background-image: url("images/../images/missing.png"); }"#,
            files: ["images/a.png": tinyPNG])
        XCTAssertEqual(inside.map(\.message), ["'images/../images/missing.png' does not exist in the bundle"])
    }

    func testAnApplicationIdWithAGlobIsRefused() throws {
        let source = #"@app "org.example.*" { Switch { on-tint-color: #ff8800; } }"#
        let d = try diagnostics(of: source)
        let column = source.distance(from: source.startIndex, to: source.firstIndex(of: "\"")!) + 1
        XCTAssertEqual(
            d.map { "\($0.location.line):\($0.location.column): \($0.message)" },
            [
                "1:\(column): '@app' matches application ids exactly: 'org.example.*' has '*', which would never match"
            ])
    }

    func testCRLFLinesShowWithoutCarriageReturn() throws {
        let d = try diagnostics(of: "Button {\r\n  tint-colr: red;\r\n}\r\n")
        XCTAssertEqual(d.first?.sourceLine, "  tint-colr: red;")
        XCTAssertEqual(d.first?.location.column, 3)
    }

    func testVeryLongLinesAreNotCopiedIntoEveryDiagnostic() throws {
        let css = (0..<5000).map { "Button.c\($0)" }.joined(separator: ", ") + " { tint-colr: red; }"
        let d = try diagnostics(of: css)
        XCTAssertEqual(d.map(\.message), ["unknown property 'tint-colr' (did you mean 'tint-color'?)"])
        XCTAssertEqual(d.first?.sourceLine, "")
        XCTAssertEqual(d.first?.rendered, d.first?.description)
    }

    func testSuggestionsWithinAThirdOfTheWordAndNotForFarLengths() {
        let names = ["tint-color", "text-color", "alpha", "row-height"]
        XCTAssertEqual(suggestion(for: "tint-colr", among: names), "tint-color")
        XCTAssertEqual(suggestion(for: "ALPHA", among: names), "alpha")
        XCTAssertNil(suggestion(for: "tint", among: names))
        // A name far longer than every candidate has none (and is not compared letter by letter).
        XCTAssertNil(suggestion(for: String(repeating: "tint-color", count: 100_000), among: names))
    }
}
