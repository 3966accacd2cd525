import Foundation
import XCTest

@testable import LiveryCore
@testable import LiveryDaemon
@testable import LiveryService

/// Switching back to a recently active theme reuses its index (`PreparedCascades`) only when the
/// theme compiles to the same thing again.
final class PreparedCascadeTests: XCTestCase {
    private func tint(_ s: ThemeService, _ path: String = "Button") throws -> String {
        try s.resolve(path, properties: ["tint-color"], app: nil)[0].value.description
    }

    func testSwitchingBackToAnUnchangedThemeReusesItsIndexAndStyles() throws {
        let s = try Scratch().service()
        _ = try s.setTheme("forest")
        let forest = s.activeCascade
        XCTAssertEqual(try tint(s, "Window/TabBar"), "#008000ff")
        _ = try s.setTheme("crimson")
        XCTAssertEqual(try tint(s, "Window/TabBar"), "#800000ff")
        XCTAssertEqual(try s.setTheme("forest"), ThemeService.Change(theme: "forest", serial: 3))
        XCTAssertTrue(s.activeCascade.generation === forest.generation)
        XCTAssertGreaterThan(s.activeCascade.cache.size.entries, 0, "the styles resolved before are kept")
        XCTAssertEqual(try tint(s, "Window/TabBar"), "#008000ff")
    }

    func testAThemeEditedOnDiskGetsANewIndex() throws {
        let scratch = try Scratch()
        try scratch.write("mine/theme.css", "Button { tint-color: #010203; }\n")
        let s = try scratch.service()
        _ = try s.setTheme("mine")
        let first = s.activeCascade.generation
        _ = try s.setTheme("forest")
        try scratch.write("mine/theme.css", "Button { tint-color: #040506; }\n")
        _ = try s.setTheme("mine")
        XCTAssertFalse(s.activeCascade.generation === first)
        XCTAssertEqual(try tint(s), "#040506ff")
    }

    func testAnEditedImportGetsANewIndex() throws {
        let scratch = try Scratch()
        try scratch.write("mine/theme.css", "@import \"colors.css\";\n")
        try scratch.write("mine/colors.css", "Button { tint-color: #010203; }\n")
        let s = try scratch.service()
        _ = try s.setTheme("mine")
        XCTAssertEqual(try tint(s), "#010203ff")
        _ = try s.setTheme("forest")
        try scratch.write("mine/colors.css", "Button { tint-color: #040506; }\n")
        _ = try s.setTheme("mine")
        XCTAssertEqual(try tint(s), "#040506ff")
    }

    func testEditedOverridesAndPaletteGetANewIndex() throws {
        let scratch = try Scratch()
        try scratch.write(
            "mine/theme.css", "@define-color unused #111111;\nButton { tint-color: #010203; }\n")
        let s = try scratch.service()
        _ = try s.setTheme("mine")
        _ = try s.setTheme("forest")
        try scratch.writeOverrides("Button { tint-color: #0a0b0c; }\n")
        _ = try s.setTheme("mine")
        XCTAssertEqual(try tint(s), "#0a0b0cff")
        _ = try s.setTheme("forest")
        // No rule names the colour, but plugins' templates read the palette.
        try scratch.write(
            "mine/theme.css", "@define-color unused #222222;\nButton { tint-color: #010203; }\n")
        _ = try s.setTheme("mine")
        XCTAssertEqual(s.activeCascade.theme.palette["unused"]?.hex, "#222222ff")
    }

    func testABrokenEditIsRefusedNotServedFromTheKeptIndex() throws {
        let scratch = try Scratch()
        try scratch.write("mine/theme.css", "Button { tint-color: #010203; }\n")
        let s = try scratch.service()
        _ = try s.setTheme("mine")
        _ = try s.setTheme("forest")
        try scratch.write("mine/theme.css", "Button { tint-color: #010203; text-colr: red; }\n")
        XCTAssertThrowsError(try s.setTheme("mine")) { error in
            XCTAssertEqual((error as? ServiceError)?.kind, .invalidTheme)
        }
        XCTAssertEqual(s.activeTheme, "forest")
    }

    func testAtMostFourIndexesAreKeptAndTheEvictedForgetsItsStyles() throws {
        let scratch = try Scratch()
        for n in 1...5 { try scratch.write("t\(n)/theme.css", "Button { tint-color: #00000\(n); }\n") }
        let s = try scratch.service()
        _ = try s.setTheme("t1")
        let t1 = s.activeCascade
        XCTAssertEqual(try tint(s), "#000001ff")
        XCTAssertGreaterThan(t1.cache.size.entries, 0)
        for n in 2...5 {
            _ = try s.setTheme("t\(n)")
            XCTAssertLessThanOrEqual(s.preparedCount, PreparedCascades.capacity)
        }
        XCTAssertEqual(s.preparedCount, PreparedCascades.capacity)
        XCTAssertEqual(t1.cache.size.entries, 0, "evicted: its styles are forgotten")
        _ = try s.setTheme("t1")
        XCTAssertFalse(s.activeCascade.generation === t1.generation)
        XCTAssertEqual(try tint(s), "#000001ff")
    }

    func testAReloadForgetsTheOtherThemesIndexes() throws {
        let s = try Scratch().service()
        _ = try s.setTheme("forest")
        let forest = s.activeCascade.generation
        _ = try s.setTheme("crimson")
        XCTAssertEqual(s.preparedCount, 3)  // default, forest, crimson
        XCTAssertNil(s.reload())
        XCTAssertEqual(s.preparedCount, 1)
        _ = try s.setTheme("forest")
        XCTAssertFalse(s.activeCascade.generation === forest)
        XCTAssertEqual(try tint(s, "Window/TabBar"), "#008000ff")
    }

    func testForgettingResolvedStylesReachesTheKeptIndexes() throws {
        let s = try Scratch().service()
        _ = try s.setTheme("forest")
        let forest = s.activeCascade
        _ = try tint(s, "Window/TabBar")
        _ = try s.setTheme("crimson")
        _ = try tint(s, "Window/TabBar")
        s.forgetResolvedStyles()
        XCTAssertEqual(forest.cache.size.entries, 0)
        XCTAssertEqual(s.activeCascade.cache.size.entries, 0)
    }
}
