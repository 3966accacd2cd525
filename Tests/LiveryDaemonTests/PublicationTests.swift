import Foundation
import LiveryAPI
import LiveryCore
import LiveryDBus
import XCTest

@testable import LiveryDaemon
@testable import LiveryService

/// Diffs, serials, toggling, the portal mapping and the file watcher.
final class PublicationTests: XCTestCase {
    let green = Value.color(RGBA(red8: 0, green8: 128, blue8: 0))
    let red = Value.color(RGBA(red8: 128, green8: 0, blue8: 0))

    func testDiffKeepsOnlyChangedValuesAndPaths() {
        let old: StyleSnapshot = ["A": ["x": green, "y": .length(1)], "B": ["x": green]]
        let new: StyleSnapshot = ["A": ["x": red, "y": .length(1)], "B": ["x": green]]
        XCTAssertEqual(StyleDiff.changes(from: old, to: new), ["A": ["x": red]])
        XCTAssertEqual(StyleDiff.changes(from: new, to: new), [:])
        XCTAssertEqual(StyleDiff.changes(from: [:], to: ["C": ["x": green]]), ["C": ["x": green]])
    }

    func testToggleFollowsDeclaredSiblingOrNamingConvention() throws {
        let scratch = try Scratch()
        try scratch.write("ocean/theme.css", "@theme { variant: light; dark-variant: \"abyss\"; }\n")
        try scratch.write("abyss/theme.css", "@theme { variant: dark; light-variant: \"ocean\"; }\n")
        let s = try scratch.service()
        XCTAssertEqual(try s.toggle().theme, "default-dark")
        XCTAssertEqual(try s.toggle().theme, "default")
        _ = try s.setTheme("ocean")
        XCTAssertEqual(try s.toggle().theme, "abyss")
        XCTAssertEqual(try s.toggle().theme, "ocean")
        _ = try s.setTheme("forest")
        XCTAssertThrowsError(try s.toggle()) { e in
            XCTAssertEqual((e as? ServiceError)?.kind, .unknownTheme)
        }
        XCTAssertEqual(s.activeTheme, "forest")
    }

    /// The naming rule's candidates, in order (the README, "Light and dark").
    func testVariantPairCandidates() {
        XCTAssertEqual(
            VariantPairs.candidates(for: "gruvbox-dark-medium", variant: "dark").prefix(3),
            ["gruvbox-medium", "gruvbox-light-medium", "gruvbox-day-medium"])
        XCTAssertEqual(
            VariantPairs.candidates(for: "catppuccin-latte", variant: "light").prefix(2),
            ["catppuccin", "catppuccin-dark"])
        XCTAssertTrue(
            VariantPairs.candidates(for: "catppuccin-latte", variant: "light").contains("catppuccin-mocha"))
        XCTAssertTrue(VariantPairs.candidates(for: "rose-pine-dawn", variant: "light").contains("rose-pine"))
        XCTAssertEqual(
            VariantPairs.candidates(for: "tomorrow", variant: "light").prefix(2),
            ["tomorrow-dark", "tomorrow-night"])
        XCTAssertEqual(
            VariantPairs.candidates(for: "nord-dark", variant: "dark").prefix(2), ["nord", "nord-light"])
        XCTAssertTrue(VariantPairs.candidates(for: "nord-dark", variant: "dark").contains("nord"))
        XCTAssertFalse(
            VariantPairs.candidates(for: "dark", variant: "dark").contains(""), "never an empty id")
    }

    /// `config.yaml` names the light and dark themes; `setVariant` goes there, and is nothing
    /// when the active theme is of that variant already.
    func testConfiguredPairWinsAndSetVariantOfTheActiveVariantDoesNothing() throws {
        let scratch = try Scratch()
        let config = scratch.root.appendingPathComponent("config.yaml").path
        try "light: forest\ndark: default-dark\n".write(toFile: config, atomically: true, encoding: .utf8)
        let s = try scratch.service(configFile: config)
        XCTAssertEqual(try s.setVariant("light").theme, "default")
        XCTAssertNil(try s.setVariant("light").change)
        XCTAssertEqual(try s.setVariant("dark").theme, "default-dark")
        XCTAssertEqual(try s.toggle().theme, "forest")
        XCTAssertEqual(s.activeTheme, "forest")
        // A broken file is a problem, and its pair is not used.
        try "light: forest\ndarkk: crimson\n".write(toFile: config, atomically: true, encoding: .utf8)
        XCTAssertEqual(
            s.problems.filter {
                $0.contains("config.yaml:2:1: error: unknown key 'darkk' (did you mean 'dark'?)")
            }.count, 1, "\(s.problems)")
    }

    func testPortalSettingsFromThemeMetadata() throws {
        let scratch = try Scratch()
        try scratch.write(
            "hc/theme.css",
            "@theme { variant: dark; accent-color: #ff0000; contrast: high; reduced-motion: reduce; }\n")
        let s = try scratch.service()
        _ = try s.setTheme("hc")
        let settings = PortalBackend.settings(of: s.activeCascade.theme.metadata)
        XCTAssertEqual(settings["color-scheme"], .uint32(1))
        XCTAssertEqual(settings["accent-color"], .structure([.double(1), .double(0), .double(0)]))
        XCTAssertEqual(settings["contrast"], .uint32(1))
        XCTAssertEqual(settings["reduced-motion"], .uint32(1))
        _ = try s.setTheme("debug")
        let light = PortalBackend.settings(of: s.activeCascade.theme.metadata)
        XCTAssertEqual(light["color-scheme"], .uint32(2))
        XCTAssertEqual(light["contrast"], .uint32(0))
        XCTAssertTrue(PortalBackend.selects(["org.freedesktop.*"], "org.freedesktop.appearance"))
        XCTAssertTrue(PortalBackend.selects([], "org.freedesktop.appearance"))
        XCTAssertTrue(PortalBackend.selects([""], "org.freedesktop.appearance"))
        XCTAssertFalse(PortalBackend.selects(["org.gnome.*"], "org.freedesktop.appearance"))
        XCTAssertFalse(PortalBackend.selects(["org.freedesktop.appearanc"], "org.freedesktop.appearance"))
    }

    func testBadContrastKeywordIsAnError() throws {
        let scratch = try Scratch()
        try scratch.write("bad/theme.css", "@theme { contrast: loud; }\n")
        let s = try scratch.service()
        XCTAssertThrowsError(try s.setTheme("bad")) { e in
            XCTAssertTrue(
                (e as? ServiceError)?.message.contains("'contrast' is normal or high (0 or 1)") ?? false,
                "\(e)")
        }
    }

    func testWatcherDebouncesEditsIntoOneCallbackAndFollowsNewBundles() throws {
        let scratch = try Scratch()
        try scratch.write("mine/theme.css", "Button { tint-color: #010203; }\n")
        let calls = Counter()
        let directories: @Sendable () -> [String] = { [scratch.themes.path] }
        let watcher = try ThemeWatcher(directories: directories, quiet: 150) {
            calls.increment()
        }
        watcher.start()
        defer { watcher.stop() }
        XCTAssertTrue(watcher.waitUntilWatching(timeout: 10))
        for i in 0..<5 { try scratch.write("mine/theme.css", "Button { tint-color: #01020\(i); }\n") }
        XCTAssertTrue(calls.wait(for: 1, timeout: 10))
        try scratch.write("newone/theme.css", "Button { tint-color: red; }\n")
        XCTAssertTrue(calls.wait(for: 2, timeout: 10))
        // The callback of a later write has come: had the five edits made more than one, they
        // would have come before it.
        XCTAssertEqual(calls.value, 2)
        // The new bundle directory is watched too: an edit inside it is followed by a callback.
        // (Once watched, the new directory also counts as changed once, since files may have
        // been written in it before its watch existed; that callback may come before the edit
        // or be one with it, so the test asks only for a callback after the edit.)
        let before = calls.value
        try scratch.write("newone/theme.css", "Button { tint-color: blue; }\n")
        XCTAssertTrue(calls.wait(for: before + 1, timeout: 10), "no callback after the edit: \(calls.value)")
    }
}

final class Counter: @unchecked Sendable {
    private let condition = NSCondition()
    private var count = 0
    var value: Int { condition.withLock { count } }
    func increment() {
        condition.withLock {
            count += 1
            condition.broadcast()
        }
    }
    /// Waits until the count reaches `n`.
    func wait(for n: Int, timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while count < n { if !condition.wait(until: deadline) { return count >= n } }
        return true
    }
}
