import Foundation
import XCTest

@testable import LiveryCore

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
