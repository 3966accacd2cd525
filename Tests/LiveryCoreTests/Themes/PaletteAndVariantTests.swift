import Foundation
import XCTest

@testable import LiveryCore

/// A theme's palette and its declared siblings, checked against its chain.
final class PaletteAndVariantTests: XCTestCase {
    func testSiblingVariantsMustBeOtherThemes() throws {
        XCTAssertEqual(
            try diagnostics(of: #"@theme { dark-variant: "test"; light-variant: "Nope Nope"; }"#).map(
                \.message),
            [
                "a theme cannot name itself as its 'dark-variant'",
                "'Nope Nope' is not a theme id (lower-case letters, digits and '-', not first)",
            ])
    }

    func testChildRedefiningAColourInTermsOfItselfIsOneError() throws {
        let parent = ThemeSource(
            id: "p", format: "native", path: "p",
            sheet: SheetParser().parse(
                "@define-color accent #f00; Button { tint-color: @accent; } Switch { on-tint-color: @accent; }",
                file: "p.css"))
        let child = ThemeSource(
            id: "c", format: "native", path: "c",
            sheet: SheetParser().parse(
                #"@theme { inherits: "p"; } @define-color accent @accent;"#, file: "c.css"))
        let d = ThemeCatalog(sources: [parent, child]).compile("c", schema: shippedSchema).diagnostics
        XCTAssertEqual(d.map(\.description), ["c.css:1:41: error: palette colour '@accent' refers to itself"])
    }
}
