import Foundation
import LiveryCore
import XCTest

final class SampleScreenTests: XCTestCase {
    func testEveryPathAndPropertyIsInTheShippedSchema() throws {
        let schema = try Schema.load(from: repositoryRoot.appendingPathComponent("themes/schema.json"))
        for element in SampleScreen.elements {
            XCTAssertNoThrow(try ComponentPath(element.path, schema: schema), element.path)
            for p in element.properties { XCTAssertNotNil(schema.properties[p], "\(element.id): \(p)") }
        }
        XCTAssertEqual(
            Set(SampleScreen.elements.map(\.id)).count, SampleScreen.elements.count, "ids are unique")
    }

    func testEveryRoleOfTheIssueIsOnTheScreen() {
        // The UIAppearance sample screen: a navigation bar with bar button items, a segmented control, a progress
        // view, a slider, switches on and off, an activity indicator, a table with rows, a button
        // in each state, an overlay and a tab bar.
        let roles = SampleScreen.elements.map(\.role)
        for role in SampleScreen.Role.allCases { XCTAssertTrue(roles.contains(role), "\(role)") }
        let switches = SampleScreen.elements.filter { $0.role == .toggleSwitch }
        XCTAssertEqual(Set(switches.map(\.isOn)), [true, false])
        let buttons = Set(SampleScreen.elements.filter { $0.role == .button }.map(\.path))
        XCTAssertEqual(
            buttons,
            [
                "Window/Button", "Window/Button:highlighted", "Window/Button:selected",
                "Window/Button:disabled",
            ])
        // Everything lies on the canvas.
        for e in SampleScreen.elements {
            XCTAssertTrue(e.frame.x >= 0 && e.frame.y >= 0, e.id)
            XCTAssertLessThanOrEqual(e.frame.x + e.frame.width, SampleScreen.width, e.id)
            XCTAssertLessThanOrEqual(e.frame.y + e.frame.height, SampleScreen.height, e.id)
        }
    }

    func testRowsAreStackedAtTheThemesRowHeight() {
        // 140 points of table: three rows of 44 fit, two of 60, one of 100.
        XCTAssertEqual(SampleScreen.rowFrames(rowHeight: 44).map(\.y), [212, 256, 300])
        XCTAssertEqual(SampleScreen.rowFrames(rowHeight: 60).count, 2)
        XCTAssertEqual(SampleScreen.rowFrames(rowHeight: 100).count, 1)
        XCTAssertEqual(SampleScreen.rowFrames(rowHeight: 0).count, 3)
    }

    func testForestsValuesComeFromItsSheet() throws {
        let themes = repositoryRoot.appendingPathComponent("themes").path
        let schema = try Schema.load(from: URL(fileURLWithPath: themes + "/schema.json"))
        let theme = try XCTUnwrap(ThemeCatalog(searchPath: [themes]).compile("forest", schema: schema).theme)
        let styles = try SampleScreen.resolve(Cascade(theme: theme))
        XCTAssertEqual(Set(styles.keys), Set(SampleScreen.paths))
        let green = RGBA(red8: 0, green8: 128, blue8: 0)
        XCTAssertEqual(styles["Window/NavigationBar"]?.color("tint-color"), green)
        // Inherited from the navigation bar by its bar button items (an inheritable property a node does not set takes
        // its container's value).
        XCTAssertEqual(styles["Window/NavigationBar/BarButtonItem"]?.color("tint-color"), green)
        XCTAssertEqual(styles["Window/TabBar"]?.color("tint-color"), green)
        XCTAssertEqual(styles["Window/Switch:selected"]?.color("on-tint-color"), green)
        XCTAssertEqual(
            styles["Window/Button:highlighted"]?.image("background-image"),
            themes + "/forest/images/back2.png")
        XCTAssertEqual(
            styles["Window/Button"]?.image("background-image"), themes + "/forest/images/back1.png")
        XCTAssertEqual(styles["Window/TableView"]?.length("row-height"), 44)
    }
}
