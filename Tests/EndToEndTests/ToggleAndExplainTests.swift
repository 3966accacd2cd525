import Foundation
import XCTest

/// `livery toggle` and `livery explain` against a running daemon.
final class ToggleAndExplainTests: EndToEndTestCase {
    func testToggleSwitchesBetweenLightAndDarkSiblings() throws {
        let themes = try makeDirectory("themes")
        try writeBundle(
            "sun", in: themes,
            sheet:
                "@theme { variant: light; dark-variant: \"moon\"; }\nNavigationBar { tint-color: #ffff00; }\n"
        )
        try writeBundle(
            "moon", in: themes,
            sheet:
                "@theme { variant: dark; light-variant: \"sun\"; }\nNavigationBar { tint-color: #000080; }\n")
        try writeBundle(
            "lonely", in: themes,
            sheet: "@theme { variant: light; }\nNavigationBar { tint-color: #123456; }\n")
        try startDaemon(extraThemesDirectories: [themes])

        // The shipped pair, found by name: default <-> default-dark.
        let first = try livery("toggle")
        XCTAssertEqual(first.status, 0, "\(first)")
        XCTAssertEqual(first.stdout, "default-dark\n")
        XCTAssertEqual(try activeTheme(), "default-dark\n")
        XCTAssertEqual(try livery("toggle").stdout, "default\n")
        XCTAssertEqual(try activeTheme(), "default\n")
        XCTAssertEqual(try serial(), 2)

        // A pair declared in @theme.
        try setTheme("sun")
        XCTAssertEqual(try livery("toggle").stdout, "moon\n")
        XCTAssertEqual(try resolve("Window/NavigationBar", "tint-color"), "#000080ff\n")
        XCTAssertEqual(try livery("toggle").stdout, "sun\n")
        XCTAssertEqual(try resolve("Window/NavigationBar", "tint-color"), "#ffff00ff\n")

        try setTheme("lonely")
        let none = try livery("toggle")
        XCTAssertEqual(none.status, 1, "lonely has no dark sibling: \(none)")
        XCTAssertTrue(none.stderr.hasPrefix("livery: "), "\(none)")
        XCTAssertEqual(none.stdout, "")
        XCTAssertEqual(try activeTheme(), "lonely\n")
    }

    func testExplainShowsTheWinnerAndWhereItCameFrom() throws {
        try startDaemon()
        try setTheme("forest")
        let r = try livery("explain", "Window/Switch", "on-tint-color")
        XCTAssertEqual(r.status, 0, "\(r)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        let winner = lines.firstIndex { $0.hasPrefix("=>") }
        XCTAssertNotNil(winner, r.stdout)
        if let winner {
            XCTAssertTrue(lines[winner].hasSuffix("#008000ff"), r.stdout)
            let forest = Locations.themes + "/forest/theme.css:"
            XCTAssertTrue(lines.count > winner + 1 && lines[winner + 1].contains(forest), r.stdout)
        }

        let inherited = try livery("explain", "Window/NavigationBar/BarButtonItem", "tint-color")
        XCTAssertEqual(inherited.status, 0, "\(inherited)")
        XCTAssertTrue(inherited.stdout.contains("inherited from Window/NavigationBar"), inherited.stdout)
        XCTAssertTrue(inherited.stdout.contains("#008000ff"), inherited.stdout)

        let unknown = try livery("explain", "Window/Switch", "on-tint-colour")
        XCTAssertEqual(unknown.status, 1, "\(unknown)")
        XCTAssertTrue(unknown.stderr.contains("UnknownProperty"), "\(unknown)")
    }
}
