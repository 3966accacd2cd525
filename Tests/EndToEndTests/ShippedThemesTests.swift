import Foundation
import XCTest

/// What a fresh install offers: the shipped tinted-theming collection under tinty's ids, no
/// helper themes that exist only to be inherited, and scheme folders added while liveryd runs.
final class ShippedThemesTests: EndToEndTestCase {
    /// Only what liveryd ships (the source tree's `themes/`), no fixture directories.
    override var standardThemesDirectories: [String] { [] }

    /// `base00: "1d2021"` of a scheme file, as `#1d2021ff` (what `livery resolve` prints).
    func slot(_ file: String, _ name: String) throws -> String {
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let line = try XCTUnwrap(text.split(separator: "\n").first { $0.contains(name + ":") })
        return "#" + line.split(separator: "\"")[1].lowercased() + "ff\n"
    }

    func testATintyIDWorksWithOnlyTheShippedThemes() throws {
        try startDaemon()
        let set = try livery("set", "base16-gruvbox-dark-hard")
        XCTAssertEqual(set.status, 0, "\(set)")
        XCTAssertEqual(try activeTheme(), "gruvbox-dark-hard\n")
        // The base16 mapping theme: Window's background is base00.
        let base00 = try slot(Locations.themes + "/tinted/base16/gruvbox-dark-hard.yaml", "base00")
        XCTAssertEqual(try resolve("Window", "background-color"), base00)
        let dracula = try livery("set", "base24-dracula")
        XCTAssertEqual(dracula.status, 0, "\(dracula)")
    }

    func testListOmitsAbstractThemesAndSetRefusesThem() throws {
        try startDaemon()
        let list = try livery("list", "--json")
        let ids = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]]
        ).compactMap { $0["id"] as? String }
        for id in ["base16", "terminal", "kde"] {
            XCTAssertFalse(ids.contains(id), "\(id) is listed: \(ids)")
            let set = try livery("set", id)
            XCTAssertNotEqual(set.status, 0, "\(set)")
            XCTAssertTrue(set.stderr.contains("theme '\(id)' is abstract"), "\(set)")
        }
        // Themes inheriting them are listed and selectable.
        XCTAssertTrue(ids.contains("gruvbox-dark-hard"), "\(ids.count) ids")
        XCTAssertTrue(ids.contains("debug"))
        XCTAssertEqual(try activeTheme(), "default\n")
    }

    func testASchemeFolderLinkedIntoAThemesDirectoryIsSelectableWithoutRestart() throws {
        let themes = try makeDirectory("themes")
        let collection = try makeDirectory("collection")
        try """
        system: "base16"
        name: "Lifecycle Test"
        author: "Livery's tests"
        variant: "dark"
        palette:
          base00: "102030"
          base01: "203040"
          base02: "304050"
          base03: "405060"
          base04: "a0b0c0"
          base05: "b0c0d0"
          base06: "c0d0e0"
          base07: "d0e0f0"
          base08: "e04040"
          base09: "e08040"
          base0A: "e0c040"
          base0B: "40c040"
          base0C: "40c0c0"
          base0D: "4080e0"
          base0E: "a040e0"
          base0F: "a06040"
        """.write(toFile: collection + "/lifecycle-test.yaml", atomically: true, encoding: .utf8)
        try startDaemon(extraThemesDirectories: [themes])
        XCTAssertNotEqual(try livery("set", "lifecycle-test").status, 0)
        try FileManager.default.createSymbolicLink(atPath: themes + "/mine", withDestinationPath: collection)
        XCTAssertTrue(try waitUntil { try livery("set", "lifecycle-test").status == 0 })
        XCTAssertEqual(try resolve("Window", "background-color"), "#102030ff\n")
    }
}
