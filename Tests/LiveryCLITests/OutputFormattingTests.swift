import LiveryAPI
import LiveryDBus
import XCTest

@testable import LiveryCLI

/// What each command prints, from replies built by hand, checked against the README's examples.
final class OutputFormattingTests: XCTestCase {
    func listing(_ id: String, valid: Bool = true, checked: Bool = true) -> ThemeListing {
        ThemeListing(
            id: id, name: id.capitalized, variant: "light", description: "", path: "/t/\(id)",
            format: "native",
            valid: valid, errors: [], checked: checked, inherits: nil, accentColor: nil)
    }

    func testListMarksTheActiveThemeAndThemesWithErrors() {
        let table = ListCommand.table(
            [
                listing("broken", valid: false), listing("forest"), listing("new", checked: false),
                listing("plain"),
            ],
            active: "forest")
        let marks = table.split(separator: "\n").map { $0.first! }
        XCTAssertEqual(marks, ["!", "*", "?", " "])
        XCTAssertEqual(table.split(separator: "\n")[1], "* forest  Forest  light  native")
    }

    func testListShowsAnActiveThemeRemovedFromDisk() {
        XCTAssertTrue(
            ListCommand.table([], active: "gone").hasPrefix("* gone  (removed from disk; still active)"))
    }

    func testResolveOfOnePropertyPrintsJustItsValue() {
        let values = PropertyValues([PropertyValue("tint-color", .string("#008000ff"))])
        XCTAssertEqual(ResolveCommand.text(values, asked: ["tint-color"], terminal: false), "#008000ff\n")
    }

    func testResolveOfSeveralPropertiesPrintsAlignedLines() {
        let values = PropertyValues([
            PropertyValue("tint-color", .string("#008000ff")), PropertyValue("row-height", .double(80)),
            PropertyValue("size", .structure([.double(10), .double(2.5)])),
        ])
        XCTAssertEqual(
            ResolveCommand.text(values, asked: [], terminal: false),
            "tint-color  #008000ff\nrow-height  80\nsize        10 2.5\n")
    }

    func testAColourOnATerminalHasASwatch() {
        XCTAssertEqual(
            display(.string("#ff000080"), terminal: true), "\u{1B}[48;2;255;0;0m    \u{1B}[0m #ff000080")
        XCTAssertEqual(display(.string("#ff000080"), terminal: false), "#ff000080")
    }

    func testExplainOfAnInheritedValue() {
        var entry = ExplainEntry(.inherited, value: .string("#008000ff"))
        entry.from = "Window/NavigationBar"
        XCTAssertEqual(
            ExplainCommand.text(
                path: "Window/NavigationBar/BarButtonItem", property: "tint-color", [entry], terminal: false),
            "Window/NavigationBar/BarButtonItem tint-color\n"
                + "  no declaration matched: inherited from Window/NavigationBar = #008000ff\n")
    }

    func testExplainMarksTheWinner() {
        var loser = ExplainEntry(.declaration, value: .string("#000000ff"))
        loser.selector = "View"
        loser.origin = "t.css:1:8"
        loser.layer = "theme"
        loser.specificity = (0, 0, 1)
        loser.reason = "lower specificity"
        var winner = loser
        winner.selector = "Button.destructive"
        winner.specificity = (0, 1, 1)
        winner.winner = true
        winner.reason = ""
        let text = ExplainCommand.text(
            path: "Button", property: "tint-color", [loser, winner], terminal: false)
        XCTAssertEqual(
            text,
            "Button tint-color\n"
                + "   View = #000000ff\n     t.css:1:8  layer theme  specificity (0,0,1)  loses: lower specificity\n"
                + "=> Button.destructive = #000000ff\n     t.css:1:8  layer theme  specificity (0,1,1)  wins\n"
        )
    }

    func testWatchPrintsSerialPathPropertyAndValue() {
        let signal = ChangedSignal(
            path: "Window/TabBar", app: "", serial: 2,
            values: PropertyValues(
                decoding: .dict(["tint-color": .string("#800000ff"), "bar-tint-color": .string("#ffffffff")]))
        )
        XCTAssertEqual(
            WatchCommand.text(signal, ["tint-color"], json: false, terminal: false),
            "2 Window/TabBar tint-color #800000ff\n")
        XCTAssertEqual(
            WatchCommand.text(signal, ["alpha"], json: false, terminal: false), "",
            "no asked property changed")
    }

    func testWatchPrintsThemeChanged() {
        XCTAssertEqual(
            WatchCommand.text(ThemeChangedSignal(theme: "crimson", serial: 3), json: false),
            "ThemeChanged crimson 3\n")
        XCTAssertEqual(
            WatchCommand.text(ThemeChangedSignal(theme: "crimson", serial: 3), json: true),
            #"{"serial":3,"signal":"ThemeChanged","theme":"crimson"}"# + "\n")
    }
}

/// `--json` output: every D-Bus number is a JSON number.
final class JSONOutputTests: XCTestCase {
    func testPluginsLastRunAndSerialAreJSONNumbers() throws {
        let plugin = PluginListing(
            name: "kitty", kind: "exporter", origin: "user", path: "/p/kitty", enabled: true, errors: [],
            lastRun: 1_796_169_335, serial: 7, result: "ok")
        let line = jsonLine(PluginsCommand.json([plugin]))
        let rows = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [[String: Any]])
        XCTAssertEqual(rows.first?["last-run"] as? Int, 1_796_169_335, line)
        XCTAssertEqual(rows.first?["serial"] as? Int, 7, line)
        XCTAssertTrue(line.contains("\"last-run\":1796169335"), line)
    }

    func testEveryIntegerTypeIsANumber() throws {
        let values: [DBusValue] = [
            .byte(200), .int16(-3), .uint16(60_000), .int32(-70_000), .uint32(4_000_000_000),
            .int64(-5_000_000_000), .uint64(18_000_000_000_000_000_000),
        ]
        let line = jsonLine(values.map(LiveryCLI.json))
        XCTAssertEqual(line, "[200,-3,60000,-70000,4000000000,-5000000000,18000000000000000000]\n")
    }
}
