import Foundation
import XCTest

@testable import LiveryCore

/// Every case of Tests/Fixtures/seed-cases.md, with its exact expected value.
final class CascadeRuleTests: XCTestCase {
    // 1. Class-wide setting
    func testClassWideSettingReachesEverySwitch() throws {
        let c = try compileSheet("Switch { on-tint-color: #00ff00; }")
        XCTAssertEqual(try resolved(c, "Window/Switch", "on-tint-color"), "#00ff00ff")
        XCTAssertEqual(try resolved(c, "Window/TableView/TableViewCell/Switch", "on-tint-color"), "#00ff00ff")
    }

    // 2. Runtime skin switch: the shipped forest and crimson themes.
    func testForestAndCrimsonColourTheSevenComponents() throws {
        let catalog = ThemeCatalog(searchPath: [themesDirectory.path])
        let seven: [(String, String)] = [
            ("Window/NavigationBar", "tint-color"), ("Window/SegmentedControl", "tint-color"),
            ("Window/ProgressView", "progress-tint-color"), ("Window/Slider", "minimum-track-tint-color"),
            ("Window/Switch", "on-tint-color"), ("Window/ActivityIndicatorView", "color"),
            ("Window/TabBar", "tint-color"),
        ]
        for (id, expected) in [("forest", "#008000ff"), ("crimson", "#800000ff")] {
            let (theme, diags) = catalog.compile(id, schema: shippedSchema)
            XCTAssertEqual(diags.filter { $0.severity == .error }.map(\.description), [])
            let cascade = Cascade(theme: try XCTUnwrap(theme))
            for (path, property) in seven {
                XCTAssertEqual(try resolved(cascade, path, property), expected, "\(id) \(path) \(property)")
            }
        }
    }

    // 3. Containment narrows a rule
    func testTypeRuleMatchesInEveryContainer() throws {
        let c = try compileSheet("BarButtonItem { tint-color: #0000ff; }")
        XCTAssertEqual(try resolved(c, "Window/NavigationBar/BarButtonItem", "tint-color"), "#0000ffff")
        XCTAssertEqual(try resolved(c, "Window/ToolBar/BarButtonItem", "tint-color"), "#0000ffff")
    }

    func testDescendantRuleAppliesOnlyInsideItsContainer() throws {
        let c = try compileSheet("NavigationBar BarButtonItem { tint-color: #0000ff; }")
        XCTAssertEqual(try resolved(c, "Window/NavigationBar/BarButtonItem", "tint-color"), "#0000ffff")
        XCTAssertEqual(try resolved(c, "Window/ToolBar/BarButtonItem", "tint-color"), initial("tint-color"))
    }

    func testSeveralContainersMustAllEnclose() throws {
        let c = try compileSheet("Popover NavigationBar BarButtonItem { tint-color: #0000ff; }")
        XCTAssertEqual(
            try resolved(c, "Window/Popover/NavigationBar/BarButtonItem", "tint-color"), "#0000ffff")
        XCTAssertEqual(
            try resolved(c, "Window/NavigationBar/BarButtonItem", "tint-color"), initial("tint-color"))
    }

    func testChildCombinatorNeedsTheDirectContainer() throws {
        let c = try compileSheet("Window > BarButtonItem { tint-color: #0000ff; }")
        XCTAssertEqual(try resolved(c, "Window/BarButtonItem", "tint-color"), "#0000ffff")
        XCTAssertEqual(try resolved(c, "Window/ToolBar/BarButtonItem", "tint-color"), initial("tint-color"))
    }

    // 4. A container's setting reaches its subviews
    func testContainerSettingIsInheritedBySubviews() throws {
        let c = try compileSheet("NavigationBar { tint-color: #008000; }")
        XCTAssertEqual(try resolved(c, "Window/NavigationBar/BarButtonItem", "tint-color"), "#008000ff")
        XCTAssertEqual(try resolved(c, "Window/ToolBar/BarButtonItem", "tint-color"), initial("tint-color"))
    }

    // 5. The subview's own setting wins, whatever the order
    func testSubviewSettingBeatsParentRegardlessOfOrder() throws {
        let a = try compileSheet(
            "NavigationBar { tint-color: #008000; } BarButtonItem { tint-color: #0000ff; }")
        let b = try compileSheet(
            "BarButtonItem { tint-color: #0000ff; } NavigationBar { tint-color: #008000; }")
        for c in [a, b] {
            XCTAssertEqual(try resolved(c, "Window/NavigationBar/BarButtonItem", "tint-color"), "#0000ffff")
            XCTAssertEqual(try resolved(c, "Window/NavigationBar", "tint-color"), "#008000ff")
        }
    }

    func testDirectMatchBeatsMoreSpecificContainerRule() throws {
        let c = try compileSheet(
            "Window NavigationBar { tint-color: #008000; } BarButtonItem { tint-color: #0000ff; }")
        XCTAssertEqual(try resolved(c, "Window/NavigationBar/BarButtonItem", "tint-color"), "#0000ffff")
    }

    // 6. Composite controls contain labels
    func testLabelRuleReachesPartsOfCompositeControls() throws {
        let c = try compileSheet("Label { text-color: #ff0000; }")
        XCTAssertEqual(try resolved(c, "Window/Button/Label#title", "text-color"), "#ff0000ff")
        XCTAssertEqual(try resolved(c, "Window/TextField/Label#text", "text-color"), "#ff0000ff")
        XCTAssertEqual(
            try resolved(c, "Window/SearchBar/TextField#field/Label#text", "text-color"), "#ff0000ff")
    }

    func testDescendantLabelRuleNarrowsToButtons() throws {
        let c = try compileSheet("Label { text-color: #ff0000; } Button Label { text-color: #0000ff; }")
        XCTAssertEqual(try resolved(c, "Window/Button/Label#title", "text-color"), "#0000ffff")
        XCTAssertEqual(try resolved(c, "Window/Label", "text-color"), "#ff0000ff")
    }

    // 7. View reaches every component
    func testViewRuleReachesEveryComponent() throws {
        let c = try compileSheet("View { background-color: #ffffff; }")
        XCTAssertEqual(try resolved(c, "Window/Button", "background-color"), "#ffffffff")
        XCTAssertEqual(try resolved(c, "Window/Switch", "background-color"), "#ffffffff")
    }

    func testMoreDerivedTypeWinsInEitherOrder() throws {
        for css in [
            "View { background-color: #ffffff; } Button { background-color: #ffff00; }",
            "Button { background-color: #ffff00; } View { background-color: #ffffff; }",
        ] {
            let c = try compileSheet(css)
            XCTAssertEqual(try resolved(c, "Window/Button", "background-color"), "#ffff00ff", css)
            XCTAssertEqual(try resolved(c, "Window/Switch", "background-color"), "#ffffffff", css)
        }
    }

    // 8. Background images per state
    func testBackgroundImagePerState() throws {
        let c = try compileSheet(
            #"Button { background-image: url("images/back1.png"); } Button:highlighted { background-image: url("images/back2.png"); }"#,
            files: ["images/back1.png": tinyPNG, "images/back2.png": tinyPNG])
        let back1 = try resolved(c, "Window/Button", "background-image")
        let back2 = try resolved(c, "Window/Button:highlighted", "background-image")
        XCTAssertTrue(back1.hasPrefix("/") && back1.hasSuffix("/images/back1.png"), back1)
        XCTAssertTrue(back2.hasPrefix("/") && back2.hasSuffix("/images/back2.png"), back2)
        XCTAssertTrue(FileManager.default.fileExists(atPath: back1))
    }

    func testImageOutsideTheBundleIsAnError() throws {
        let d = try diagnostics(of: #"Button { background-image: url("../outside.png"); }"#)
        XCTAssertEqual(d.count, 1)
        XCTAssertEqual(d.first?.location.line, 1)
        XCTAssertEqual(d.first?.location.column, 32)
        XCTAssertTrue(d.first?.message.contains("outside.png") ?? false, d.first?.message ?? "")
    }

    func testSymlinkLeadingOutsideTheBundleIsAnError() throws {
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent(
            "livery-outside-\(UUID().uuidString).png")
        try tinyPNG.write(to: outside)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "livery-link-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("images"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: dir.appendingPathComponent("images/back1.png").path, withDestinationPath: outside.path)
        try #"Button { background-image: url("images/back1.png"); }"#.write(
            to: dir.appendingPathComponent("theme.css"), atomically: true, encoding: .utf8)
        let (theme, diags) = ThemeCompiler.compile(
            chain: [NativeFormat().read(dir, id: "t")], schema: shippedSchema)
        XCTAssertNil(theme)
        XCTAssertEqual(diags.map(\.message), ["'images/back1.png' leads outside the bundle"])
    }

    // 9. Equal specificity: the later declaration wins
    func testLaterDeclarationWinsAtEqualSpecificity() throws {
        let c = try compileSheet("Button { tint-color: #111111; } Button { tint-color: #222222; }")
        XCTAssertEqual(try resolved(c, "Window/Button", "tint-color"), "#222222ff")
    }

    // 10. Layers
    func testUserOverridesBeatMoreSpecificThemeRules() throws {
        let c = try compileSheet(
            "Window Button.destructive:highlighted { tint-color: #111111; }",
            overrides: "Button { tint-color: #333333; }")
        XCTAssertEqual(try resolved(c, "Window/Button.destructive:highlighted", "tint-color"), "#333333ff")
    }

    func testAppBlockAppliesOnlyToThatApplication() throws {
        let c = try compileSheet(
            #"@app "org.example.Mail" { Switch { on-tint-color: #ff8800; } } Switch { on-tint-color: #00ff00; }"#
        )
        XCTAssertEqual(
            try resolved(c, "Window/Switch", "on-tint-color", app: "org.example.Mail"), "#ff8800ff")
        XCTAssertEqual(try resolved(c, "Window/Switch", "on-tint-color"), "#00ff00ff")
        XCTAssertEqual(
            try resolved(c, "Window/Switch", "on-tint-color", app: "org.example.Other"), "#00ff00ff")
    }

    // 11. Colour arithmetic
    func testColourArithmetic() throws {
        let c = try compileSheet(
            """
            @define-color a rgb(0 128 0);
            @define-color b rgb(100% 100% 100%);
            @define-color c alpha(#ff0000, 0.5);
            @define-color d mix(#000000, #ffffff, 0.5);
            Button { tint-color: @a; text-color: @b; background-color: @c; border-color: @d; }
            """)
        XCTAssertEqual(try resolved(c, "Button", "tint-color"), "#008000ff")
        XCTAssertEqual(try resolved(c, "Button", "text-color"), "#ffffffff")
        XCTAssertEqual(try resolved(c, "Button", "background-color"), "#ff000080")
        XCTAssertEqual(try resolved(c, "Button", "border-color"), "#808080ff")
    }

    func testGreyRampRoundsToSeventeenTimesK() {
        for k in 0...15 {
            let v = Double(k) / 15
            XCTAssertEqual(RGBA.eightBit(v), 17 * k, "k = \(k)")
            XCTAssertEqual(
                RGBA(red: v, green: v, blue: v).hex,
                "#" + String(repeating: String(format: "%02x", 17 * k), count: 3) + "ff")
        }
        XCTAssertEqual(RGBA.eightBit(1.0), 0xff)
    }
}
