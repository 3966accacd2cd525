import Foundation
import XCTest

/// `livery palette`: a theme's palette after import and inheritance, with no daemon.
final class PaletteCommandTests: EndToEndTestCase {
    func palette(_ arguments: String...) throws -> RunResult {
        try run(Locations.livery, ["palette", "--themes-dir", Locations.themes] + arguments)
    }

    func testAPywalSchemesPaletteHasItsColoursAndTheTerminalThemesMadeOnes() throws {
        // By path: the id `monokai` is the shipped base16 scheme's.
        let r = try palette("--json", Locations.schemes + "/pywal/dark/monokai.json")
        XCTAssertEqual(r.status, 0, "\(r)")
        let got = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: String])
        // monokai.json's colours as written, then the terminal theme's colours made from them:
        // cursor-text = background; selection-foreground and bold = foreground;
        // selection-background, surface and border = mix(background, foreground, 0.25 / 0.08 /
        // 0.2), worked out by hand per channel, round(v × 255).
        let file = ["#272822", "#f92672", "#a6e22e", "#f4bf75", "#66d9ef", "#ae81ff", "#a1efe4", "#f8f8f2"]
        var want: [String: String] = [:]
        for i in 0..<16 {
            want["color\(i)"] =
                (i < 8 ? file[i] : i == 8 ? "#75715e" : i == 15 ? "#f9f8f5" : file[i - 8]) + "ff"
        }
        want.merge([
            "background": "#272822ff", "foreground": "#f8f8f2ff", "cursor": "#f92672ff",
            "cursor-text": "#272822ff", "selection-foreground": "#f8f8f2ff", "bold": "#f8f8f2ff",
            "selection-background": "#5b5c56ff", "surface": "#383933ff", "border": "#51524cff",
        ]) { a, _ in a }
        XCTAssertEqual(got, want)
    }

    func testTextOutputIsOneNameAndColourALineInNaturalOrder() throws {
        let r = try palette(Locations.schemes + "/kde/BreezeLight.colors")
        XCTAssertEqual(r.status, 0, "\(r)")
        let lines = r.stdout.split(separator: "\n")
        XCTAssertTrue(lines.contains("window-background-normal #eff0f1ff"), r.stdout)
        // BreezeLight has no [Colors:Header]: the kde theme gives it the window's colours.
        XCTAssertTrue(lines.contains("header-background-normal #eff0f1ff"), r.stdout)
        XCTAssertEqual(
            lines.map { String($0.split(separator: " ")[0]) },
            lines.map { String($0.split(separator: " ")[0]) }.sorted())
        let terminal = try palette("terminal").stdout.split(separator: "\n").map {
            String($0.split(separator: " ")[0])
        }
        XCTAssertEqual(Array(terminal.prefix(4)), ["background", "bold", "border", "color0"])
        XCTAssertLessThan(terminal.firstIndex(of: "color9")!, terminal.firstIndex(of: "color10")!)
    }

    func testAnAliasAndAnUnknownID() throws {
        let tinted = Locations.fixtures + "/tinted/schemes"
        let r = try palette(
            "--themes-dir", tinted + "/base16", "--themes-dir", tinted + "/base24", "base24-brogrammer")
        XCTAssertEqual(r.status, 0, "\(r)")
        XCTAssertTrue(r.stdout.contains("base10 "), r.stdout)
        let unknown = try palette("no-such-theme")
        XCTAssertEqual(unknown.status, 1)
        XCTAssertTrue(unknown.stderr.contains("no theme 'no-such-theme' is installed"), unknown.stderr)
    }
}
