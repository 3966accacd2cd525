import Foundation
import XCTest

@testable import LiveryDaemon
@testable import LiveryService

/// What live reload watches (`WatchPlan`), on real directories and links.
final class WatchPlanTests: XCTestCase {
    private var root = ""

    override func setUpWithError() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent(
            "livery-plan-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        root = base.resolvingSymlinksInPath().path
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: root)
    }

    private func directory(_ relative: String) throws -> String {
        let path = root + "/" + relative
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    private func link(_ path: String, to destination: String) throws {
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: destination)
    }

    func testALinkIsWatchedByNameInTheDirectoryOfEachLinkOnTheWayAndOfItsTarget() throws {
        let themes = try directory("themes")
        let wal = try directory("cache/wal")
        try "{}".write(toFile: wal + "/colors.json", atomically: true, encoding: .utf8)
        try link(themes + "/wal.json", to: "../current.json")
        try link(root + "/current.json", to: wal + "/colors.json")
        let plan = WatchPlan(trees: [themes], files: [])
        XCTAssertEqual(
            plan.directories,
            [themes: .everything, themes + "/..": .names(["current.json"]), wal: .names(["colors.json"])])
        XCTAssertTrue(plan.admits("colors.json", in: wal))
        XCTAssertFalse(plan.admits("colors.sh", in: wal))
        XCTAssertEqual(plan.unfollowed, [])
    }

    func testAMissingPathIsWatchedThroughItsNearestExistingAncestor() throws {
        let themes = try directory("themes")
        try link(themes + "/wal.json", to: root + "/cache/wal/colors.json")
        let plan = WatchPlan(
            trees: [themes, root + "/data/livery/themes"], files: [root + "/config/overrides.css"])
        XCTAssertEqual(plan.directories, [themes: .everything, root: .names(["cache", "data", "config"])])
    }

    func testBundlesAreWatchedToTheTreeDepthAndTheOverridesFileByName() throws {
        let themes = try directory("themes")
        let deep = try directory("themes/mine/images/icons/small")
        _ = try directory("themes/.git")
        let config = try directory("config")
        let plan = WatchPlan(trees: [themes], files: [config + "/overrides.css"])
        XCTAssertEqual(
            plan.directories,
            [
                themes: .everything, themes + "/mine": .everything, themes + "/mine/images": .everything,
                themes + "/mine/images/icons": .everything, config: .names(["overrides.css"]),
            ])
        XCTAssertNil(plan.directories[deep])
    }

    func testLinksIntoManyDirectoriesAreFollowedUpToTheLimit() throws {
        let themes = try directory("themes")
        let count = WatchPlan.linkDirectoryLimit + 3
        for i in 0..<count {
            let target = try directory("elsewhere/\(i)")
            try link(themes + "/scheme\(i).json", to: target + "/colors.json")
        }
        let plan = WatchPlan(trees: [themes], files: [])
        XCTAssertEqual(plan.directories.count, 1 + WatchPlan.linkDirectoryLimit)
        XCTAssertEqual(plan.unfollowed.count, 3)
    }

    func testALinkCycleEnds() throws {
        let themes = try directory("themes")
        try link(themes + "/a.json", to: "b.json")
        try link(themes + "/b.json", to: "a.json")
        XCTAssertEqual(WatchPlan(trees: [themes], files: []).directories, [themes: .everything])
    }
}
