import Foundation
import XCTest

@testable import LiveryCore

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
