import Foundation
import LiveryAPI
import LiveryCore
import LiveryDBus
import XCTest

@testable import LiveryDaemon

/// Diffs, serials, subscriptions, toggling, the portal mapping and the file watcher.
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

    func testSubscriptionsSeeOnlyTheirChangesWithTheSharedSerial() throws {
        let s = try Scratch().service()
        let registry = SubscriptionRegistry()
        func add(_ owner: String, _ paths: [String], _ props: [String]) throws
            -> SubscriptionRegistry.Subscription
        {
            try registry.add(owner: owner, paths: paths, properties: props, app: nil) {
                () throws(ServiceError) in
                try s.snapshot(paths: paths, properties: props, app: nil)
            }
        }
        let tab = try add(":1.1", ["Window/TabBar"], ["tint-color"])
        let row = try add(":1.2", ["Window/TableView"], ["row-height"])
        XCTAssertEqual(tab.values, ["Window/TabBar": ["tint-color": .color(RGBA(hexDigits: "007aff")!)]])
        let change = try XCTUnwrap(try s.setTheme("forest"))
        XCTAssertEqual(change.serial, 1)
        let updates = registry.update {
            s.resolvableSnapshot(paths: $0.paths, properties: $0.properties, app: $0.app)
        }
        XCTAssertEqual(updates.map { $0.recipients.map(\.id) }, [[tab.id]])
        XCTAssertEqual(updates.first?.changes, ["Window/TabBar": ["tint-color": green]])
        _ = row
        XCTAssertEqual(try s.setTheme("crimson")?.serial, 2)
        let next = registry.update {
            s.resolvableSnapshot(paths: $0.paths, properties: $0.properties, app: $0.app)
        }
        XCTAssertEqual(next.first?.changes, ["Window/TabBar": ["tint-color": red]])
    }

    func testSameRequestsShareOneDeliveryAndLeaveItWhenRemoved() throws {
        let s = try Scratch().service()
        let registry = SubscriptionRegistry()
        func add(_ owner: String, _ paths: [String]) throws -> UInt32 {
            try registry.add(owner: owner, paths: paths, properties: ["tint-color"], app: nil) {
                () throws(ServiceError) in
                try s.snapshot(paths: paths, properties: ["tint-color"], app: nil)
            }.id
        }
        let a = try add(":1.1", ["Window/TabBar"])
        let b = try add(":1.2", ["Window/TabBar"])
        let other = try add(":1.3", ["Window/NavigationBar"])
        let c = try add(":1.2", ["Window/TabBar"])
        try registry.remove(b, owner: ":1.2")
        XCTAssertEqual(registry.count(of: ":1.2"), 1)
        _ = try s.setTheme("forest")
        let updates = registry.update {
            s.resolvableSnapshot(paths: $0.paths, properties: $0.properties, app: $0.app)
        }.sorted { $0.recipients[0].id < $1.recipients[0].id }
        XCTAssertEqual(updates.count, 2)
        XCTAssertEqual(updates[0].recipients.map(\.id), [a, c])
        XCTAssertEqual(updates[0].recipients.map(\.owner), [":1.1", ":1.2"])
        XCTAssertEqual(updates[0].changes, ["Window/TabBar": ["tint-color": green]])
        XCTAssertEqual(updates[1].recipients.map(\.id), [other])
        // A member joining an existing group after the switch holds the current values: the
        // next switch sends it the same changes as the older members.
        let d = try add(":1.4", ["Window/TabBar"])
        _ = try s.setTheme("crimson")
        let next = registry.update {
            s.resolvableSnapshot(paths: $0.paths, properties: $0.properties, app: $0.app)
        }.first { $0.recipients.contains { $0.id == a } }
        XCTAssertEqual(next?.recipients.map(\.id), [a, c, d])
        XCTAssertEqual(next?.changes, ["Window/TabBar": ["tint-color": red]])
        XCTAssertEqual(registry.removeAll(of: ":1.2"), 1)
        XCTAssertEqual(registry.count, 3)
    }

    func testAPathThatStopsResolvingKeepsItsValuesWhileTheOthersFollow() throws {
        let scratch = try Scratch()
        try scratch.write(
            "comp/theme.css",
            """
            @theme { inherits: "default"; variant: light; }
            @component ColorWell : Control { part swatch: View; }
            ColorWell { tint-color: #ff0000; }
            """)
        let s = try scratch.service()
        _ = try s.setTheme("comp")
        let registry = SubscriptionRegistry()
        let paths = ["Window/ColorWell", "Window/TabBar"]
        _ = try registry.add(owner: ":1.1", paths: paths, properties: ["tint-color"], app: nil) {
            () throws(ServiceError) in
            try s.snapshot(paths: paths, properties: ["tint-color"], app: nil)
        }
        func update() -> [SubscriptionRegistry.Delivery] {
            registry.update { s.resolvableSnapshot(paths: $0.paths, properties: $0.properties, app: $0.app) }
        }
        // forest has no ColorWell: the TabBar's change still goes out.
        _ = try s.setTheme("forest")
        XCTAssertEqual(update().map(\.changes), [["Window/TabBar": ["tint-color": green]]])
        // Back in comp: the TabBar changes back, and the ColorWell kept its value (no change).
        _ = try s.setTheme("comp")
        XCTAssertEqual(
            update().map(\.changes), [["Window/TabBar": ["tint-color": .color(RGBA(hexDigits: "007aff")!)]]])
    }

    func testANewMemberDoesNotHideAChangeFromTheGroup() throws {
        let s = try Scratch().service()
        let registry = SubscriptionRegistry()
        func add(_ owner: String) throws -> UInt32 {
            try registry.add(owner: owner, paths: ["Window/TabBar"], properties: ["tint-color"], app: nil) {
                () throws(ServiceError) in
                try s.snapshot(paths: ["Window/TabBar"], properties: ["tint-color"], app: nil)
            }.id
        }
        let first = try add(":1.1")
        // The theme changes and, before the update that publishes it, a second member joins.
        _ = try s.setTheme("forest")
        let second = try add(":1.2")
        let updates = registry.update {
            s.resolvableSnapshot(paths: $0.paths, properties: $0.properties, app: $0.app)
        }
        XCTAssertEqual(updates.map { $0.recipients.map(\.id) }, [[first, second]])
        XCTAssertEqual(updates.first?.changes, ["Window/TabBar": ["tint-color": green]])
    }

    func testSubscriptionLimitsAndOwnership() throws {
        let registry = SubscriptionRegistry()
        let none: () throws(ServiceError) -> StyleSnapshot = { [:] }
        func kind(_ body: () throws -> Void) -> ServiceError.Kind? {
            do { try body() } catch { return (error as? ServiceError)?.kind }
            return nil
        }
        XCTAssertEqual(
            kind {
                _ = try registry.add(
                    owner: ":1.1", paths: Array(repeating: "View", count: 1025), properties: [], app: nil,
                    current: none)
            }, .limitExceeded)
        var ids: [UInt32] = []
        for _ in 0..<64 {
            ids.append(
                try registry.add(owner: ":1.1", paths: ["View"], properties: [], app: nil, current: none).id)
        }
        XCTAssertEqual(Set(ids).count, 64)
        XCTAssertEqual(
            kind {
                _ = try registry.add(owner: ":1.1", paths: ["View"], properties: [], app: nil, current: none)
            }, .limitExceeded)
        XCTAssertNil(
            kind {
                _ = try registry.add(owner: ":1.2", paths: ["View"], properties: [], app: nil, current: none)
            })
        XCTAssertEqual(kind { try registry.remove(ids[0], owner: ":1.2") }, .accessDenied)
        XCTAssertNil(kind { try registry.remove(ids[0], owner: ":1.1") })
        XCTAssertEqual(kind { try registry.remove(ids[0], owner: ":1.1") }, .unknownSubscription)
        XCTAssertEqual(registry.removeAll(of: ":1.1"), 63)
        XCTAssertEqual(registry.count, 1)
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
        XCTAssertEqual(
            ThemeService.conventionalSiblings(of: "nord-light", variant: "light"),
            ["nord-dark", "nord-light-dark"])
        XCTAssertEqual(
            ThemeService.conventionalSiblings(of: "nord-dark", variant: "dark"),
            ["nord-light", "nord", "nord-dark-light"])
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
        let watcher = try ThemeWatcher(directories: directories, debounce: 150) {
            calls.increment()
        }
        watcher.start()
        defer { watcher.stop() }
        Thread.sleep(forTimeInterval: 0.2)
        for i in 0..<5 { try scratch.write("mine/theme.css", "Button { tint-color: #01020\(i); }\n") }
        XCTAssertTrue(calls.wait(for: 1, timeout: 3))
        Thread.sleep(forTimeInterval: 0.4)
        XCTAssertEqual(calls.value, 1)
        try scratch.write("newone/theme.css", "Button { tint-color: red; }\n")
        XCTAssertTrue(calls.wait(for: 2, timeout: 3))
        Thread.sleep(forTimeInterval: 0.3)
        // The new bundle directory is watched too: an edit inside it is seen.
        try scratch.write("newone/theme.css", "Button { tint-color: blue; }\n")
        XCTAssertTrue(calls.wait(for: 3, timeout: 3))
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
