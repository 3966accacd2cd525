import Foundation
import XCTest

@testable import LiveryCore

/// The naming rule over the whole fixture scheme collection (Tests/Fixtures/tinted/schemes):
/// how many schemes find a scheme of the other variant, and the pairs a user would expect.
final class VariantPairsTests: XCTestCase {
    func testTheFixtureCollectionsPairs() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/tinted/schemes")
        var variants: [String: String] = [:]
        for system in ["base16", "base24"] {
            let dir = root.appendingPathComponent(system)
            for file in try FileManager.default.contentsOfDirectory(atPath: dir.path)
            where file.hasSuffix(".yaml") {
                let scheme = try TintedScheme.read(dir.appendingPathComponent(file)).get()
                // The first directory holding an id wins, as on the theme search path.
                let id = String(file.dropLast(5))
                if variants[id] == nil { variants[id] = scheme.variant }
            }
        }
        func pair(_ id: String) -> String? {
            let variant = variants[id]!
            return VariantPairs.candidates(for: id, variant: variant).first {
                variants[$0] != nil && variants[$0] != variant
            }
        }
        XCTAssertEqual(pair("gruvbox-dark-medium"), "gruvbox-light-medium")
        XCTAssertEqual(pair("gruvbox-light-medium"), "gruvbox-dark-medium")
        XCTAssertEqual(pair("catppuccin-mocha"), "catppuccin-latte")
        XCTAssertEqual(pair("catppuccin-latte"), "catppuccin-mocha")
        XCTAssertEqual(pair("rose-pine"), "rose-pine-dawn")
        XCTAssertEqual(pair("rose-pine-dawn"), "rose-pine")
        XCTAssertEqual(pair("atelier-cave"), "atelier-cave-light")
        XCTAssertEqual(pair("tomorrow-night"), "tomorrow")
        XCTAssertEqual(pair("tokyo-night-dark"), "tokyo-night-light")
        XCTAssertEqual(pair("solarized-light"), "solarized-dark")
        XCTAssertNil(pair("dracula"), "no light dracula in the collection")
        let paired = variants.keys.filter { pair($0) != nil }.sorted()
        print("variant pairs: \(paired.count) of \(variants.count) schemes find one")
        XCTAssertGreaterThan(paired.count, 0)
    }
}
