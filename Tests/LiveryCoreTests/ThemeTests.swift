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
        let catalog = ThemeCatalog(searchPath: [themesDirectory.path] + dirs)
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
        let catalog = ThemeCatalog(searchPath: [themesDirectory.path])
        var all = catalog
        all.add(atlas)
        let theme = try XCTUnwrap(all.compile("atlas", schema: shippedSchema).theme)
        XCTAssertEqual(theme.palette["base02"]?.hex, "#517f8dff")
        XCTAssertEqual(theme.palette["base0C"]?.hex, "#14747eff")
        XCTAssertEqual(theme.metadata.name, "Atlas")
    }

    func testBase24SchemeKeepsItsExtraSlots() throws {
        let url = fixturesDirectory.appendingPathComponent("schemes/base24/one-light.yaml")
        var catalog = ThemeCatalog(searchPath: [themesDirectory.path])
        catalog.add(Base16Format().read(url, id: "one-light"))
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

final class SchemeCheckTests: XCTestCase {
    func testSchemeVariantMustBeLightOrDarkAndSlotsAppearOnce() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "livery-var-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let url = dir.appendingPathComponent("odd.yaml")
        var text = "system: \"base16\"\nname: \"Odd\"\nvariant: \"purple\"\npalette:\n"
        for i in 0..<16 { text += String(format: "  base0%X: \"112233\"\n", i) }
        text += "  base0a: \"445566\"\n"
        try text.write(to: url, atomically: true, encoding: .utf8)
        let d = Base16Format().read(url, id: "odd").sheet.diagnostics
        XCTAssertEqual(
            d.map(\.description),
            [
                "\(url.path):21:3: error: 'base0A' is given twice",
                "\(url.path):3:10: error: variant is 'purple'; a scheme's variant is light or dark",
            ])
    }
}

final class SearchPathDuplicatesTests: XCTestCase {
    func testTheSameDirectoryNamedTwiceIsScannedOnce() {
        let catalog = ThemeCatalog(searchPath: [
            themesDirectory.path, themesDirectory.path + "/../themes", themesDirectory.path + "/",
        ])
        XCTAssertEqual(catalog.notes, [])
        XCTAssertTrue(catalog.ids.contains("forest"))
    }

    /// A node's states are bits of one 64-bit word in the cascade: a schema with more than 64
    /// states besides `normal` is refused with a clear error, rather than a `:state` past the
    /// 64th matching every node (found by a newcomer trial with 75 states).
    func testSchemaWithMoreThan64StatesIsRefused() throws {
        let url = themesDirectory.appendingPathComponent("schema.json")
        var root = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        root["states"] = ["normal"] + (1...64).map { "s\($0)" }
        XCTAssertNoThrow(try Schema(json: JSONSerialization.data(withJSONObject: root), file: "s.json"))
        root["states"] = ["normal"] + (1...65).map { "s\($0)" }
        XCTAssertThrowsError(try Schema(json: JSONSerialization.data(withJSONObject: root), file: "s.json")) {
            XCTAssertEqual("\($0)", "s.json: at most 64 states besides 'normal', not 65")
        }
        // A state listed twice would take two bits' places (a reviewer found `:selected`
        // matching a highlighted node with `highlighted` listed twice).
        root["states"] = ["normal", "highlighted", "highlighted", "selected"]
        XCTAssertThrowsError(try Schema(json: JSONSerialization.data(withJSONObject: root), file: "s.json")) {
            XCTAssertEqual("\($0)", "s.json: state 'highlighted' is listed twice")
        }
    }
}

/// The daemon keeps only the active theme's chain read (`forget(keepingChainOf:)`).
final class CatalogForgettingTests: XCTestCase {
    func testForgettingKeepsTheChainAndReadsTheRestAgainWhenAsked() {
        var catalog = ThemeCatalog(searchPath: [themesDirectory.path])
        let all = catalog.installedIDs
        XCTAssertEqual(catalog.unread, [])
        // crimson inherits forest, which inherits default.
        catalog.forget(keepingChainOf: "crimson")
        XCTAssertEqual(catalog.ids, ["crimson", "default", "forest"])
        XCTAssertEqual(catalog.installedIDs, all, "forgotten themes are still installed")
        XCTAssertEqual(catalog.unread, all.filter { !["crimson", "default", "forest"].contains($0) })
        XCTAssertNil(catalog.sources["monokai"])
        // monokai.yaml inherits the base16 mapping theme: both are read again.
        catalog.read("monokai")
        XCTAssertEqual(catalog.ids, ["base16", "crimson", "default", "forest", "monokai"])
        XCTAssertNotNil(catalog.compile("monokai", schema: shippedSchema).theme)
        // A catalog of given sources (livery check) has nothing to read again and forgets nothing.
        var given = ThemeCatalog(
            sources: [catalog.sources["default"]!, catalog.sources["monokai"]!], otherIDs: [])
        given.forget(keepingChainOf: "default")
        XCTAssertEqual(given.ids, ["default", "monokai"])
    }
}

/// How entries of a theme directory become ids (the README's "The sheet language").
final class ThemeIdTests: XCTestCase {
    func testSchemeFileNamesAreMadeIntoIdsButDirectoryNamesMustBeIds() {
        XCTAssertEqual(Base16Format.id(for: URL(fileURLWithPath: "/t/My Scheme.yaml")), "my-scheme")
        XCTAssertEqual(Base16Format.id(for: URL(fileURLWithPath: "/t/Gruvbox_Dark.yml")), "gruvbox-dark")
        XCTAssertEqual(
            NativeFormat().claim(URL(fileURLWithPath: "/t/Upper.css"), isDirectory: false), "Upper")
        for name in ["Upper", "a_b", "-dash", "-"] { XCTAssertFalse(ThemeSource.isValidID(name), name) }
        XCTAssertTrue(ThemeSource.isValidID("a-"))
        XCTAssertTrue(ThemeSource.isValidID("my-scheme"))
    }
}
