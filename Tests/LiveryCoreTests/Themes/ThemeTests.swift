import Foundation
import XCTest

@testable import LiveryCore

/// The shipped themes and the fixture schemes: every one reads, compiles and activates.
final class ThemeTests: XCTestCase {
    func testEveryShippedThemeCompilesWithoutErrors() throws {
        let catalog = ThemeCatalog(searchPath: [themesDirectory.path])
        XCTAssertEqual(catalog.notes, [])
        for id in ["default", "default-dark", "forest", "crimson", "debug", "base16"] {
            XCTAssertTrue(catalog.ids.contains(id), id)
        }
        XCTAssertGreaterThanOrEqual(catalog.ids.filter { catalog.sources[$0]?.format == "base16" }.count, 4)
        for id in catalog.ids {
            let (theme, diags) = catalog.compile(id, schema: shippedSchema)
            XCTAssertNotNil(theme, "\(id): \(diags.map(\.description))")
        }
    }

    func testEveryFixtureSchemeImportsAndActivates() throws {
        let dirs = ["base16", "base24", "legacy"].map {
            fixturesDirectory.appendingPathComponent("schemes/\($0)").path
        }
        // The fixtures first: the shipped collection (themes/tinted) has schemes of their ids.
        let catalog = ThemeCatalog(searchPath: dirs + [themesDirectory.path])
        var count = 0
        for dir in dirs {
            for name in try FileManager.default.contentsOfDirectory(atPath: dir) {
                let id = Base16Format.id(for: URL(fileURLWithPath: name))
                let source = try XCTUnwrap(catalog.sources[id], name)
                XCTAssertEqual(source.format, dir.hasSuffix("base24") ? "base24" : "base16", name)
                let (theme, diags) = catalog.compile(id, schema: shippedSchema)
                let t = try XCTUnwrap(theme, "\(name): \(diags.map(\.description))")
                XCTAssertEqual(t.metadata.inherits, "base16")
                // The mapping theme colours the accent from base0D of the scheme, not its own default.
                let base0D = try XCTUnwrap(t.palette["base0D"])
                XCTAssertEqual(
                    try resolved(Cascade(theme: t), "Window/NavigationBar", "tint-color"), base0D.hex, name)
                count += 1
            }
        }
        XCTAssertEqual(count, 12)
    }

    func testLegacySchemeReadsHexWithAndWithoutHashInAnyCaseAndOrder() throws {
        let url = fixturesDirectory.appendingPathComponent("schemes/legacy/hivemind-dark.yml")
        let source = Base16Format().read(url, id: "hivemind-dark")
        XCTAssertEqual(source.sheet.diagnostics, [])
        XCTAssertEqual(source.sheet.metadataString("name"), "base16-hivemind-dark")
        XCTAssertEqual(source.sheet.metadataString("variant"), "dark")
        let atlas = Base16Format().read(
            fixturesDirectory.appendingPathComponent("schemes/legacy/atlas.yaml"), id: "atlas")
        // The fixture's own atlas, not the shipped collection's.
        var all = ThemeCatalog(searchPath: [])
        all.add(atlas)
        all.add(NativeFormat().read(themesDirectory.appendingPathComponent("base16"), id: "base16"))
        let theme = try XCTUnwrap(all.compile("atlas", schema: shippedSchema).theme)
        XCTAssertEqual(theme.palette["base02"]?.hex, "#517f8dff")
        XCTAssertEqual(theme.palette["base0C"]?.hex, "#14747eff")
        XCTAssertEqual(theme.metadata.name, "Atlas")
    }

    func testBase24SchemeKeepsItsExtraSlots() throws {
        let url = fixturesDirectory.appendingPathComponent("schemes/base24/one-light.yaml")
        var catalog = ThemeCatalog(searchPath: [])
        catalog.add(Base16Format().read(url, id: "one-light"))
        catalog.add(NativeFormat().read(themesDirectory.appendingPathComponent("base16"), id: "base16"))
        let theme = try XCTUnwrap(catalog.compile("one-light", schema: shippedSchema).theme)
        XCTAssertEqual(theme.palette["base17"]?.hex, "#d02fcdff")
        XCTAssertEqual(theme.metadata.variant, "light")
    }

    func testSchemeWithBadColourReportsLineAndColumn() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "livery-b16-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let url = dir.appendingPathComponent("bad.yaml")
        var text = "scheme: \"Bad\"\nauthor: \"x\"\n"
        for i in 0..<16 { text += String(format: "base0%X: \"%@\"\n", i, i == 3 ? "12345z" : "112233") }
        try text.write(to: url, atomically: true, encoding: .utf8)
        let source = Base16Format().read(url, id: "bad")
        XCTAssertEqual(
            source.sheet.diagnostics.map(\.description),
            [
                "\(url.path):6:9: error: 'base03' is '12345z', not a colour: expected six hex digits, with or without '#'"
            ])
    }

    func testChildPaletteOverridesParentColoursInsideParentRules() throws {
        let parent = ThemeSource(
            id: "p", format: "native", path: "p",
            sheet: SheetParser().parse(
                "@define-color accent #ff0000; Button { tint-color: @accent; }", file: "p.css"))
        let child = ThemeSource(
            id: "c", format: "native", path: "c",
            sheet: SheetParser().parse(
                #"@theme { inherits: "p"; } @define-color accent #00ff00;"#, file: "c.css"))
        let catalog = ThemeCatalog(sources: [parent, child])
        let theme = try XCTUnwrap(catalog.compile("c", schema: shippedSchema).theme)
        XCTAssertEqual(try resolved(Cascade(theme: theme), "Button", "tint-color"), "#00ff00ff")
    }

    func testInheritsCycleAndUnknownParentAreErrors() {
        let a = ThemeSource(
            id: "a", format: "native", path: "a",
            sheet: SheetParser().parse(#"@theme { inherits: "b"; }"#, file: "a.css"))
        let b = ThemeSource(
            id: "b", format: "native", path: "b",
            sheet: SheetParser().parse(#"@theme { inherits: "a"; }"#, file: "b.css"))
        let c = ThemeSource(
            id: "c", format: "native", path: "c",
            sheet: SheetParser().parse(#"@theme { inherits: "defualt"; }"#, file: "c.css"))
        let d = ThemeSource(
            id: "default", format: "native", path: "d", sheet: SheetParser().parse("", file: "d.css"))
        let catalog = ThemeCatalog(sources: [a, b, c, d])
        XCTAssertEqual(
            catalog.compile("a", schema: shippedSchema).diagnostics.map(\.description),
            ["b.css:1:20: error: theme 'a' inherits itself (an inherits cycle)"])
        XCTAssertEqual(
            catalog.compile("c", schema: shippedSchema).diagnostics.map(\.description),
            ["c.css:1:20: error: 'c' inherits unknown theme 'defualt' (did you mean 'default'?)"])
    }

    func testComponentDeclarationExtendsTheSchema() throws {
        let c = try compileSheet(
            """
            @component ColorWell : Control { part swatch: View; }
            ColorWell { tint-color: #123456; }
            ColorWell View#swatch { background-color: #abcdef; }
            Control { border-width: 3; }
            """)
        XCTAssertEqual(try resolved(c, "Window/ColorWell", "tint-color"), "#123456ff")
        XCTAssertEqual(try resolved(c, "Window/ColorWell", "border-width"), "3")
        XCTAssertEqual(try resolved(c, "Window/ColorWell/View#swatch", "background-color"), "#abcdefff")
    }

    /// An unknown supertype or part type is reported where it is written, and a part named
    /// twice is an error at the second (a newcomer's trial found the first two pointing at the
    /// component's name, and the third accepted).
    func testComponentErrorsPointAtTheirToken() throws {
        let d = try diagnostics(
            of: """
                @component Foo : Nope {
                    part p: Nada;
                    part p: Label;
                }
                """)
        XCTAssertEqual(
            d.map { "\($0.location.line):\($0.location.column): \($0.message)" },
            [
                "1:18: unknown type 'Nope'",
                "2:13: unknown type 'Nada'",
                "3:10: part 'p' is named twice in '@component Foo'",
            ])
    }
}
