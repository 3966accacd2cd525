import Foundation
import XCTest

@testable import LiveryCore

/// base16 and base24 schemes are also reachable as `base16-ID` / `base24-ID` (tinty's ids), so
/// that two schemes of one name in the two systems are both usable (the README, "The sheet
/// language").
final class SchemeAliasTests: XCTestCase {
    let collection = fixturesDirectory.appendingPathComponent("tinted/schemes")

    func files(_ system: String) throws -> [URL] {
        let dir = collection.appendingPathComponent(system)
        return try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
            .filter { $0.hasSuffix(".yaml") }.map { dir.appendingPathComponent($0) }
    }

    func testEverySchemeOfTheCollectionIsSelectableByItsPrefixedID() throws {
        let base16 = try files("base16")
        let base24 = try files("base24")
        XCTAssertEqual(base16.count + base24.count, 287)
        var catalog = ThemeCatalog(
            searchPath: [
                collection.appendingPathComponent("base16").path,
                collection.appendingPathComponent("base24").path, themesDirectory.path,
            ],
            readingOnly: [])
        // The plain ids base24 shares with base16 (15 of 17): base16's, by search order.
        let shared = base24.filter { u in base16.contains { $0.lastPathComponent == u.lastPathComponent } }
        XCTAssertEqual(shared.count, 15)
        for (system, urls) in [("base16", base16), ("base24", base24)] {
            for url in urls {
                let alias = "\(system)-\(ThemeFormats.schemeID(for: url))"
                XCTAssertTrue(catalog.isInstalled(alias), alias)
                catalog.read(alias)
                let id = catalog.canonicalID(alias)
                let source = try XCTUnwrap(catalog.sources[id], alias)
                XCTAssertEqual(source.path, url.path, alias)
                XCTAssertEqual(source.format, system, alias)
                let (theme, diagnostics) = catalog.compile(alias, schema: shippedSchema)
                XCTAssertNotNil(theme, "\(alias): \(diagnostics.prefix(3).map(\.description))")
                catalog.forget(keepingChainOf: "base16")
            }
        }
    }

    func testTheListShowsEachSchemeOnceUnderItsPlainIDOrItsAliasWhenThePlainIDIsTaken() throws {
        let catalog = ThemeCatalog(
            searchPath: [
                collection.appendingPathComponent("base16").path,
                collection.appendingPathComponent("base24").path,
            ],
            readingOnly: [])
        let ids = catalog.installedIDs
        XCTAssertEqual(ids.count, 287)
        XCTAssertTrue(ids.contains("dracula"))
        XCTAssertTrue(ids.contains("base24-dracula"))
        XCTAssertFalse(ids.contains("base16-dracula"))
        XCTAssertEqual(catalog.canonicalID("base16-dracula"), "dracula")
        XCTAssertEqual(catalog.canonicalID("base24-dracula"), "base24-dracula")
    }

    /// pywal's collection has `base16-monokai.json` and others of that form: a theme whose own
    /// id is a prefixed id keeps it, and the scheme stays reachable by its plain id.
    func testAThemesOwnIDBeatsAPrefixedAlias() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "livery-alias-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.copyItem(
            at: collection.appendingPathComponent("base16/nord.yaml"),
            to: dir.appendingPathComponent("nord.yaml"))
        try FileManager.default.copyItem(
            at: fixturesDirectory.appendingPathComponent("schemes/pywal/dark/base16-nord.json"),
            to: dir.appendingPathComponent("base16-nord.json"))
        var catalog = ThemeCatalog(searchPath: [dir.path], readingOnly: [])
        XCTAssertEqual(catalog.installedIDs, ["base16-nord", "nord"])
        XCTAssertEqual(catalog.canonicalID("base16-nord"), "base16-nord")
        catalog.read("base16-nord")
        catalog.read("nord")
        XCTAssertEqual(
            catalog.sources["base16-nord"]?.path, dir.appendingPathComponent("base16-nord.json").path)
        XCTAssertEqual(catalog.sources["nord"]?.format, "base16")
    }

    func testTheSystemIsJudgedFromTheFilesHead() {
        XCTAssertEqual(Base16Format.system(ofHead: "system: \"base24\"\nname: x\n"), "base24")
        XCTAssertEqual(Base16Format.system(ofHead: "system: base16\n"), "base16")
        XCTAssertEqual(
            Base16Format.system(ofHead: "scheme: x\nbase00: \"000000\"\nbase10: \"111111\"\n"), "base24")
        XCTAssertEqual(Base16Format.system(ofHead: "scheme: x\nbase0F: \"000000\"\n"), "base16")
    }
}
