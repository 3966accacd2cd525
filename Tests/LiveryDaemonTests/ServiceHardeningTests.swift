import Foundation
import LiveryAPI
import LiveryCore
import LiveryDBus
import XCTest

@testable import LiveryDaemon
@testable import LiveryService

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
