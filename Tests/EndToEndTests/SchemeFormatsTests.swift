import Foundation
import XCTest

/// liveryd with an iTerm2, a pywal, a KDE scheme and the tinted-theming collection installed:
/// each new format activates through `livery set` and resolves as its mapping theme says, and
/// the prefixed ids reach the base16 and base24 schemes that share a name.
final class SchemeFormatsTests: EndToEndTestCase {
    func testEachNewFormatActivatesAndResolvesThroughItsMappingTheme() throws {
        try startDaemon(extraThemesDirectories: [
            Locations.schemes + "/iterm2", Locations.schemes + "/pywal/dark", Locations.schemes + "/kde",
        ])
        // Expected colours from the files: 3024 Night's Background Color (0.0353, 0.0118, 0)
        // = #090300 and Ansi 4 (0.0039, 0.6275, 0.8941) = #01a0e4; sexy-gotham.json's background
        // #0a0f14 and color1 #c33027 (not monokai: the tinted monokai.yaml has that id); BreezeDark's [Colors:Window] BackgroundNormal 42,46,50 and
        // [Colors:Selection] BackgroundNormal 61,174,233.
        let cases: [(id: String, path: String, property: String, value: String)] = [
            ("3024-night", "Window", "background-color", "#090300ff"),
            ("3024-night", "Window/NavigationBar/BarButtonItem", "tint-color", "#01a0e4ff"),
            ("sexy-gotham", "Window", "background-color", "#0a0f14ff"),
            ("sexy-gotham", "Window/Button.destructive", "tint-color", "#c33027ff"),
            ("breezedark", "Window", "background-color", "#2a2e32ff"),
            ("breezedark", "Window/Switch", "on-tint-color", "#3daee9ff"),
        ]
        for c in cases {
            try setTheme(c.id)
            XCTAssertEqual(try activeTheme(), c.id + "\n")
            XCTAssertEqual(try resolve(c.path, c.property), c.value + "\n", "\(c)")
        }
        let list = try livery("list", "--json")
        let themes = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])
        let formats = Dictionary(themes.map { ($0["id"] as? String ?? "", "\($0["format"] ?? "")") }) {
            a, _ in a
        }
        XCTAssertEqual(formats["3024-night"], "iterm2")
        XCTAssertEqual(formats["monokai"], "base16")
        XCTAssertEqual(formats["sexy-gotham"], "pywal")
        XCTAssertEqual(formats["breezedark"], "kde")
        for id in ["3024-night", "sexy-gotham", "breezedark"] {
            let entry = try XCTUnwrap(themes.first { $0["id"] as? String == id }, id)
            XCTAssertEqual(entry["valid"] as? Bool, true, "\(entry)")
        }
    }

    func testPrefixedIDsReachBothSchemesOfOneName() throws {
        let tinted = Locations.fixtures + "/tinted/schemes"
        try startDaemon(extraThemesDirectories: [tinted + "/base16", tinted + "/base24"])
        // brogrammer is in both systems, with another base00 in each (read from the files).
        func slot(_ file: String, _ name: String) throws -> String {
            let text = try String(contentsOfFile: file, encoding: .utf8)
            let line = try XCTUnwrap(text.split(separator: "\n").first { $0.contains(name + ":") })
            return "#" + line.split(separator: "\"")[1].lowercased() + "ff\n"
        }
        let base16 = try slot(tinted + "/base16/brogrammer.yaml", "base00")
        let base24 = try slot(tinted + "/base24/brogrammer.yaml", "base00")
        XCTAssertNotEqual(base16, base24)
        try setTheme("base24-brogrammer")
        XCTAssertEqual(try activeTheme(), "base24-brogrammer\n")
        XCTAssertEqual(try resolve("Window", "background-color"), base24)
        try setTheme("base16-brogrammer")
        XCTAssertEqual(try activeTheme(), "brogrammer\n")
        XCTAssertEqual(try resolve("Window", "background-color"), base16)
        try setTheme("base24-brogrammer")
        XCTAssertEqual(try resolve("Window", "background-color"), base24)
        let list = try livery("list")
        XCTAssertTrue(list.stdout.contains("base24-brogrammer"), list.stdout)
        XCTAssertFalse(list.stdout.contains("base16-brogrammer"), list.stdout)
    }
}
