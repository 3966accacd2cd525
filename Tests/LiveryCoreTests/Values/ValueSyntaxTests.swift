import Foundation
import XCTest

@testable import LiveryCore

/// What a declaration's value may be written as: numbers, strings and their escapes.
final class ValueSyntaxTests: XCTestCase {
    func testNumbersWithExponentsAndOutOfRange() throws {
        let c = try compileSheet("Button { corner-radius: 1e1; border-width: 2.5E-1; }")
        XCTAssertEqual(try resolved(c, "Button", "corner-radius"), "10")
        XCTAssertEqual(try resolved(c, "Button", "border-width"), "0.25")
        XCTAssertEqual(
            try diagnostics(of: "Button { corner-radius: 1e309; }").map(\.message),
            ["number '1e309' is malformed or out of range"])
    }

    func testCSSEscapesInStrings() throws {
        let c = try compileSheet(#"Label { font-family: "A\42 C\"D\\"; }"#)
        XCTAssertEqual(try resolved(c, "Label", "font-family"), #""ABC"D\""#)
    }
}
