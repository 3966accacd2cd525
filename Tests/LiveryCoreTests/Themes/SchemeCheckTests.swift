import Foundation
import XCTest

@testable import LiveryCore

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
