import Foundation
import LiveryAPI
import LiveryCore
import LiveryDBus
import XCTest

@testable import LiveryDaemon

/// Failures a newcomer found, each pinned.
final class ServiceHardeningTests: XCTestCase {
    func testFailedSaveKeepsTheSwitchAndIsAProblemUntilASaveWorks() throws {
        let scratch = try Scratch()
        let stateDir = URL(fileURLWithPath: scratch.stateFile).deletingLastPathComponent().path
        // A directory where the state file should be: the save fails whoever runs the test.
        try FileManager.default.createDirectory(atPath: scratch.stateFile, withIntermediateDirectories: true)
        let lines = LogLines()
        let s = try scratch.service(log: lines.log)
        XCTAssertTrue(
            lines.all.contains { $0.hasPrefix("<4>\(scratch.stateFile) is a directory, not a state file") },
            "\(lines.all)")
        XCTAssertEqual(try s.setTheme("forest")?.theme, "forest")
        XCTAssertEqual(s.problems.count, 1)
        XCTAssertTrue(
            s.problems[0].hasPrefix("cannot save the active theme to \(scratch.stateFile)"), s.problems[0])
        try FileManager.default.removeItem(atPath: scratch.stateFile)
        _ = try s.setTheme("crimson")
        XCTAssertEqual(s.problems, [])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: stateDir), ["state.json"])
    }

    func testStaleTemporaryStateFilesAreRemovedAtStart() throws {
        let scratch = try Scratch()
        let dir = URL(fileURLWithPath: scratch.stateFile).deletingLastPathComponent().path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        XCTAssertTrue(
            FileManager.default.createFile(
                atPath: dir + "/.state.json.4242.tmp", contents: Data("{\"the".utf8)))
        _ = try scratch.service()
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), [])
    }

    func testUnreadableOverridesAreAProblem() throws {
        let scratch = try Scratch()
        try FileManager.default.createDirectory(
            atPath: scratch.overridesFile, withIntermediateDirectories: true)
        let s = try scratch.service()
        XCTAssertEqual(s.problems, ["\(scratch.overridesFile):1:1: error: is a directory, not a sheet"])
        try FileManager.default.removeItem(atPath: scratch.overridesFile)
        try Data([0x42, 0xff, 0xfe]).write(to: URL(fileURLWithPath: scratch.overridesFile))
        _ = s.reload()
        XCTAssertEqual(s.problems, ["\(scratch.overridesFile):1:1: error: is not UTF-8 text"])
    }

    func testOneClientCannotTakeEverySubscribedPath() throws {
        let registry = SubscriptionRegistry()
        let none: () throws(ServiceError) -> StyleSnapshot = { [:] }
        let paths = Array(repeating: "View", count: 1024)
        for _ in 0..<16 {
            _ = try registry.add(owner: ":1.1", paths: paths, properties: [], app: nil, current: none)
        }
        XCTAssertThrowsError(
            try registry.add(owner: ":1.1", paths: ["View"], properties: [], app: nil, current: none)
        ) { e in
            XCTAssertEqual((e as? ServiceError)?.kind, .limitExceeded)
        }
        // Another client still can; and the first can again once it frees paths.
        XCTAssertNoThrow(
            try registry.add(owner: ":1.2", paths: paths, properties: [], app: nil, current: none))
        XCTAssertEqual(registry.removeAll(of: ":1.1"), 16)
        XCTAssertNoThrow(
            try registry.add(owner: ":1.1", paths: paths, properties: [], app: nil, current: none))
    }

    func testSubscribedPathsAreCappedAcrossClients() throws {
        let registry = SubscriptionRegistry()
        let none: () throws(ServiceError) -> StyleSnapshot = { [:] }
        let paths = Array(repeating: "View", count: 1024)
        var made = 0
        var refused: ServiceError?
        for client in 0..<100 {
            do {
                _ = try registry.add(
                    owner: ":1.\(client)", paths: paths, properties: [], app: nil, current: none)
                made += 1
            } catch {
                refused = error
                break
            }
        }
        XCTAssertEqual(made, SubscriptionRegistry.maximumTotalPaths / 1024)
        XCTAssertEqual(refused?.kind, .limitExceeded)
        registry.removeAll(of: ":1.0")
        XCTAssertNoThrow(
            try registry.add(owner: ":1.99", paths: paths, properties: [], app: nil, current: none))
    }

    func testToggleRefusesADeclaredSiblingOfTheSameVariant() throws {
        let scratch = try Scratch()
        try scratch.write("day/theme.css", "@theme { variant: light; dark-variant: \"forest\"; }\n")
        let s = try scratch.service()
        _ = try s.setTheme("day")
        XCTAssertThrowsError(try s.toggle()) { e in
            XCTAssertEqual(
                (e as? ServiceError)?.message,
                "theme 'day' names 'forest' as its other variant, but 'forest' is light too")
        }
        XCTAssertEqual(s.activeTheme, "day")
    }
}
