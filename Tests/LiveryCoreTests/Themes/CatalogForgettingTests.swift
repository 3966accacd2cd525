import Foundation
import XCTest

@testable import LiveryCore

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
