import Foundation
import XCTest

/// The theme search path, as the README states it: each --themes-dir, then $XDG_DATA_HOME/livery/themes,
/// then each $XDG_DATA_DIRS/livery/themes; the first bundle with an id wins.
final class SearchPathTests: EndToEndTestCase {
    func testFirstBundleOnTheSearchPathWinsForADuplicateId() throws {
        let extra = try makeDirectory("extra")
        let home = try makeDirectory("data/livery/themes")
        let systemA = try makeDirectory("system-a/livery/themes")
        let systemB = try makeDirectory("system-b/livery/themes")
        environment["XDG_DATA_DIRS"] = root + "/system-a:" + root + "/system-b"
        func bundle(_ id: String, _ dir: String, _ colour: String) throws {
            try writeBundle(id, in: dir, sheet: "NavigationBar { tint-color: \(colour); }\n")
        }
        try bundle("forest", extra, "#777777")  // after the shipped themes: loses
        try bundle("forest", home, "#111111")  // XDG_DATA_HOME: loses to --themes-dir
        try bundle("home-first", home, "#222222")
        try bundle("home-first", systemA, "#333333")
        try bundle("system-first", systemA, "#444444")
        try bundle("system-first", systemB, "#555555")
        try bundle("system-last", systemB, "#666666")
        try startDaemon(extraThemesDirectories: [extra])

        let expected = [
            ("forest", "#008000ff\n"), ("home-first", "#222222ff\n"), ("system-first", "#444444ff\n"),
            ("system-last", "#666666ff\n"),
        ]
        for (id, colour) in expected {
            try setTheme(id)
            XCTAssertEqual(try resolve("Window/NavigationBar", "tint-color"), colour, id)
        }
    }
}
