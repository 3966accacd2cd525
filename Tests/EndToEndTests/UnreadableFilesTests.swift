import Foundation
import XCTest

/// A file or directory the user cannot read is reported as such ("Permission denied"), never as
/// missing, empty or not UTF-8. The programs run as `nobody` (setpriv), since root reads
/// everything.
final class UnreadableFilesTests: EndToEndTestCase {
    /// Runs `executable` as the user nobody.
    func runAsNobody(_ executable: String, _ arguments: [String]) throws -> RunResult {
        try run(
            Locations.tool("setpriv"),
            ["--reuid=65534", "--regid=65534", "--clear-groups", executable] + arguments)
    }

    /// strerror(EACCES), as the messages quote it.
    let denied = String(cString: strerror(EACCES))

    func testAnUnreadableImportIsPermissionDenied() throws {
        let themes = try makeDirectory("themes")
        let bundle = try writeBundle(
            "locked", in: themes, sheet: "@import \"controls.css\";\n",
            files: ["controls.css": Data("Button { tint-color: red; }\n".utf8)])
        chmod(bundle + "/controls.css", 0)
        let r = try runAsNobody(Locations.livery, ["check", "--themes-dir", Locations.themes, bundle])
        XCTAssertEqual(r.status, 1, "\(r)")
        XCTAssertTrue(r.stderr.contains("error: 'controls.css' cannot be read: \(denied)"), r.stderr)
        XCTAssertFalse(r.stderr.contains("UTF-8"), r.stderr)
    }

    func testAnUnreadableBundleDirectoryIsPermissionDeniedInCheckAndInTheLog() throws {
        let themes = try makeDirectory("themes")
        let bundle = try writeBundle("locked", in: themes, sheet: "Button { tint-color: red; }\n")
        chmod(bundle, 0)
        defer { chmod(bundle, 0o755) }
        let checked = try runAsNobody(Locations.livery, ["check", "--themes-dir", Locations.themes, bundle])
        XCTAssertEqual(checked.status, 1, "\(checked)")
        XCTAssertEqual(checked.stderr, "\(bundle): error: cannot be read: \(denied)\n")
        // liveryd logs what it skipped before it connects (to no bus here, so it then exits).
        let daemon = try runAsNobody(
            Locations.liveryd,
            [
                "--themes-dir", themes, "--themes-dir", Locations.themes, "--address",
                "unix:path=/nonexistent",
                "--no-watch", "--no-portal",
            ])
        XCTAssertTrue(
            daemon.stderr.contains("\(bundle): skipped: cannot be read: \(denied)\n"), daemon.stderr)
    }

    func testAnUnreadableStateFileIsPermissionDeniedNotMissing() throws {
        let state = stateHome + "/livery/state.json"
        try FileManager.default.createDirectory(
            atPath: stateHome + "/livery", withIntermediateDirectories: true)
        try "{\"theme\": \"forest\"}".write(toFile: state, atomically: true, encoding: .utf8)
        chmod(state, 0)
        let daemon = try runAsNobody(
            Locations.liveryd,
            [
                "--themes-dir", Locations.themes, "--address", "unix:path=/nonexistent", "--no-watch",
                "--no-portal",
            ])
        XCTAssertTrue(
            daemon.stderr.contains("<4>\(state): cannot be read: \(denied); using 'default'\n"), daemon.stderr
        )
        XCTAssertFalse(daemon.stderr.contains("no saved state"), daemon.stderr)
    }
}
