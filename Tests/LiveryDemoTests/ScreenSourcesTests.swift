import Foundation
import LiveryCore
import LiveryDemo
import XCTest

/// Where livery-demo reads what each element shows, under the shipped schema.
final class ScreenSourcesTests: XCTestCase {
    private let schema: Schema = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return try! Schema.load(from: root.appendingPathComponent("themes/schema.json"))
    }()

    private func element(_ id: String) -> SampleScreen.Element {
        SampleScreen.elements.first { $0.id == id }!
    }

    func testTextIsWatchedThroughTheLabelInsideWhereTheTypeHasNoTextProperties() {
        let sources = ScreenSources(schema: schema)
        XCTAssertEqual(Array(sources.paths.prefix(SampleScreen.paths.count)), SampleScreen.paths)
        XCTAssertEqual(sources.paths(of: element("window")), ["Window", "Window/Label"])
        XCTAssertEqual(
            sources.paths(of: element("button-highlighted")),
            ["Window/Button:highlighted", "Window/Button:highlighted/Label#title"], "the button's title part")
        XCTAssertEqual(
            sources.paths(of: element("row-bluetooth")),
            [
                "Window/TableView/TableViewCell:selected", "Window/TableView/TableViewCell:selected/Label",
                "Window/TableView",
            ])
        XCTAssertEqual(
            sources.paths(of: element("progress-view")), ["Window/ProgressView"], "it has all it reads")
        XCTAssertEqual(Set(sources.paths).count, sources.paths.count, "no path twice")
    }

    func testAnElementsOwnValuesComeBeforeItsTexts() {
        let sources = ScreenSources(schema: schema)
        let red = Value.color(RGBA(red8: 255, green8: 0, blue8: 0))
        let blue = Value.color(RGBA(red8: 0, green8: 0, blue8: 255))
        let styles = [
            "Window": SampleStyle(["background-color": red]),
            "Window/Label": SampleStyle(["background-color": blue, "text-color": blue]),
        ]
        XCTAssertEqual(
            sources.style(of: element("window"), in: styles).values,
            ["background-color": red, "text-color": blue])
    }
}
