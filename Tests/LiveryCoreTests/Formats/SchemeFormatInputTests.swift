import Foundation
import XCTest

@testable import LiveryCore

/// Bad terminal and KDE schemes get compiler-style diagnostics at their place; their cost is
/// linear in their size, under the schemes' 1 MiB limit.
final class SchemeFormatInputTests: XCTestCase {
    var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "livery-formats-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    func read(_ name: String, _ text: String) throws -> ThemeSource {
        let url = dir.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        let format = try XCTUnwrap(ThemeFormats.all.first { $0.claim(url, isDirectory: false) != nil }, name)
        return format.read(url, id: "bad")
    }

    func errors(_ s: ThemeSource) -> [String] {
        s.sheet.diagnostics.filter { $0.severity == .error }.map {
            "\(URL(fileURLWithPath: $0.location.file).lastPathComponent):\($0.location.line):\($0.location.column): \($0.message)"
        }
    }

    static func plist(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
        \(body)
        </dict>
        </plist>
        """
    }

    func testAnItermcolorsFileThatIsNoPropertyListIsAnErrorAtItsStart() throws {
        let e = errors(try read("x.itermcolors", "background = black\n"))
        XCTAssertEqual(e.count, 1)
        XCTAssertTrue(e[0].hasPrefix("x.itermcolors:1:1: not a property list"), e[0])
    }

    func testAComponentOutOfRangeIsAnErrorAtItsKey() throws {
        let s = try read(
            "x.itermcolors",
            Self.plist(
                """
                \t<key>Background Color</key>
                \t<dict>
                \t\t<key>Blue Component</key>
                \t\t<real>0.5</real>
                \t\t<key>Green Component</key>
                \t\t<real>0.5</real>
                \t\t<key>Red Component</key>
                \t\t<real>1.5</real>
                \t</dict>
                """))
        XCTAssertEqual(
            errors(s), ["x.itermcolors:10:3: 'Background Color': 'Red Component' is 1.5, outside 0–1"])
        XCTAssertTrue(s.sheet.diagnostics[0].rendered.contains("\t\t<key>Red Component</key>"))
    }

    func testAMissingComponentAndAnUnknownColourSpaceAreErrors() throws {
        let s = try read(
            "x.itermcolors",
            Self.plist(
                """
                <key>Ansi 0 Color</key>
                <dict><key>Red Component</key><real>0</real><key>Green Component</key><real>0</real></dict>
                <key>Ansi 1 Color</key>
                <dict><key>Red Component</key><real>0</real><key>Green Component</key><real>0</real>
                <key>Blue Component</key><real>0</real><key>Color Space</key><string>Lab</string></dict>
                """))
        XCTAssertEqual(
            errors(s),
            [
                "x.itermcolors:4:1: 'Ansi 0 Color': missing 'Blue Component'",
                "x.itermcolors:8:40: 'Ansi 1 Color': unknown 'Color Space' 'Lab' (expected sRGB, Calibrated or P3)",
            ])
    }

    func testAnAlphaComponentIsKept() throws {
        let s = try read(
            "x.itermcolors",
            Self.plist(
                """
                <key>Background Color</key>
                <dict><key>Alpha Component</key><real>0.5</real><key>Red Component</key><real>1</real>
                <key>Green Component</key><real>0</real><key>Blue Component</key><real>0</real></dict>
                """))
        XCTAssertEqual(errors(s), [])
        // 0.5 × 255 = 127.5, rounded away from zero: 0x80.
        guard case .hash(let h) = s.sheet.palette.first?.value.first?.kind else { return XCTFail() }
        XCTAssertEqual(h, "ff000080")
    }

    func testAKDELineThatIsNotRGBIsAnErrorAtItsValue() throws {
        let s = try read(
            "x.colors",
            "[General]\nName=X\n\n[Colors:Window]\nBackgroundNormal=239,240\nForegroundNormal=1,2,300\nDecorationFocus=1,2,3,4\nnonsense\n"
        )
        XCTAssertEqual(
            errors(s),
            [
                "x.colors:5:18: 'BackgroundNormal' is '239,240', not a colour: expected r,g,b or r,g,b,a with each number 0–255",
                "x.colors:6:18: 'ForegroundNormal' is '1,2,300', not a colour: expected r,g,b or r,g,b,a with each number 0–255",
                "x.colors:8:1: expected 'Key=value' or a '[Group]' header",
            ])
        XCTAssertEqual(s.sheet.palette.map(\.name), ["window-decoration-focus"])
    }

    func testTranslatedKDENamesAreIgnored() throws {
        let s = try read(
            "x.colors", "[General]\nName[de]=Breeze-Dunkel\nName=Breeze Dark\nName[ja]=Breeze ダーク\n")
        XCTAssertEqual(s.sheet.metadataString("name"), "Breeze Dark")
    }

    func testABadColorsJSONColourIsAnErrorAtItsKey() throws {
        let s = try read(
            "x.json",
            """
            {"special": {"background": "#000000", "foreground": "#fff", "cursor": "red"},
             "colors": {\((0..<16).map { "\"color\($0)\": \"#000000\"" }.joined(separator: ", "))}}
            """)
        XCTAssertEqual(errors(s), ["x.json:1:61: 'special.cursor' is 'red', not a colour: expected #rrggbb"])
    }

    func testJSONOfAnotherShapeIsNotClaimed() throws {
        let url = dir.appendingPathComponent("other.json")
        try Data(#"{"types": {}, "colors": []}"#.utf8).write(to: url)
        XCTAssertNil(ColorsJSONFormat().claim(url, isDirectory: false))
        XCTAssertNil(
            ColorsJSONFormat().claim(
                themesDirectory.appendingPathComponent("schema.json"), isDirectory: false))
    }

    func testSchemesOverTheSizeLimitAreRefused() throws {
        for name in ["big.itermcolors", "big.json", "big.colors"] {
            let text = String(repeating: " ", count: ThemeFormats.maximumSchemeSize + 1)
            let s: ThemeSource
            if name.hasSuffix(".json") {
                // Claimed by content: the shape first, then the padding.
                let url = dir.appendingPathComponent(name)
                try Data(("{\"special\": {}, \"colors\": {}}" + text).utf8).write(to: url)
                s = ColorsJSONFormat().read(url, id: "big")
            } else {
                s = try read(name, text)
            }
            XCTAssertEqual(errors(s).count, 1, name)
            XCTAssertTrue(errors(s).first?.contains("the limit is 1048576") == true, "\(errors(s))")
        }
    }

    /// Schemes near the size limit are read to their end and their errors reported (how long
    /// each takes is measured by bench/hostile, which generates the same three).
    func testLargeSchemesAreReadToTheEnd() throws {
        // Near 1 MiB each: a KDE file of 40,000 colour lines (half of them bad), an .itermcolors
        // of 5,000 unknown colour keys around the real ones, a colors.json with 50,000 keys.
        var kde = "[Colors:Window]\n"
        for i in 0..<40000 { kde += i % 2 == 0 ? "Key\(i)=1,2,3\n" : "Key\(i)=1,2\n" }
        var iterm = ""
        for i in 0..<5000 {
            iterm += "<key>Other \(i) Color</key><dict><key>Red Component</key><real>2</real></dict>\n"
        }
        iterm += "<key>Background Color</key><dict><key>Red Component</key><real>9</real></dict>\n"
        var json = "{\"special\": {\"background\": \"#000\"}, \"colors\": {"
        json += (0..<50000).map { "\"k\($0)\": \"#000000\"" }.joined(separator: ",") + "}}"
        for (name, text) in [("big.colors", kde), ("big.itermcolors", Self.plist(iterm)), ("big.json", json)]
        {
            XCTAssertLessThan(text.utf8.count, ThemeFormats.maximumSchemeSize, name)
            let s = try read(name, text)
            XCTAssertFalse(errors(s).isEmpty, name)
        }
    }
}
