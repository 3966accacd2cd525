import Foundation
import XCTest

/// One liveryd per bus: a second instance refuses with a clear message, `--replace` takes over.
final class SecondInstanceTests: EndToEndTestCase {
    /// The unique name owning org.livery.Livery1, from `livery status --json`.
    func owner(file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let r = try livery("status", "--json")
        XCTAssertEqual(r.status, 0, "\(r)", file: file, line: line)
        let status = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        return status?["owner"] as? String ?? ""
    }

    /// Waits for org.livery.Livery1 to get an owner other than `previous`, and returns it.
    func newOwner(
        after previous: String, replacement: Background, file: StaticString = #filePath, line: UInt = #line
    )
        -> String
    {
        var owner = ""
        XCTAssertTrue(
            waitUntil {
                owner = (try? self.owner()) ?? ""
                return owner.hasPrefix(":") && owner != previous
            }, "no new owner; replacement stderr: \(replacement.stderr)", file: file, line: line)
        return owner
    }

    func testSecondInstanceExitsAndReplaceTakesOver() throws {
        let first = try startDaemon()
        try setTheme("forest")
        let firstOwner = try owner()
        XCTAssertTrue(firstOwner.hasPrefix(":"), firstOwner)

        let dirs = standardThemesDirectories.flatMap { ["--themes-dir", $0] }
        let second = try run(Locations.liveryd, dirs + ["--address", address])
        XCTAssertFalse(second.timedOut, "the second liveryd kept running: \(second)")
        XCTAssertNotEqual(second.status, 0, "\(second)")
        XCTAssertTrue(second.stderr.contains("org.livery.Livery1"), "\(second)")
        XCTAssertTrue(second.stderr.contains("--replace"), "\(second)")
        XCTAssertTrue(first.isRunning, "the first liveryd died: \(first.stderr)")
        XCTAssertEqual(try owner(), firstOwner)

        // A `livery watch` that has heard one change is surely listening. Every try switches
        // the theme (choosing by what the watch printed set the same theme again and again, no
        // change to hear, when it was not yet listening at the first switch: flaky under load).
        let watch = try background(Locations.livery, ["--address", address, "watch"])
        var switches = 0
        XCTAssertTrue(
            try waitUntil {
                switches += 1
                try setTheme(switches % 2 == 1 ? "crimson" : "forest")
                return waitUntil(timeout: 0.5) { watch.stdout.contains("ThemeChanged") } || !watch.isRunning
            }, "watch heard nothing: \(watch.stderr)")
        try setTheme("forest")

        let replacement = try background(Locations.liveryd, dirs + ["--address", address, "--replace"])
        XCTAssertTrue(first.waitForExit(timeout: 10), "the replaced liveryd did not exit: \(first.stderr)")
        let newOwner = newOwner(after: firstOwner, replacement: replacement)
        XCTAssertTrue(replacement.isRunning, replacement.stderr)
        daemon = replacement

        let status = try livery("status")
        XCTAssertEqual(status.status, 0, "\(status)")
        XCTAssertTrue(status.stdout.contains("(\(newOwner))"), "\(status)")
        XCTAssertTrue(status.stdout.contains("active theme: forest\n"), "\(status)")
        XCTAssertEqual(try resolve("Window/NavigationBar", "tint-color"), "#008000ff\n")

        // A `livery watch` started before the replacement hears the new owner's signals.
        let before = watch.stdout
        try setTheme("crimson")
        XCTAssertTrue(
            waitUntil { watch.stdout.count > before.count },
            "watch heard nothing after --replace: \(watch.stderr)")
        XCTAssertTrue(
            watch.stdout.dropFirst(before.count).hasPrefix("ThemeChanged crimson 1\n"), watch.stdout)
    }

    /// The old instance holds the portal backend's name until it exits, so the new one must take
    /// it over (or queue for it) together with org.livery.Livery1.
    func testReplaceAlsoTakesOverTheDesktopPortalName() throws {
        let first = try startDaemon()
        let firstOwner = try owner()
        let portalName = "org.freedesktop.impl.portal.desktop.livery"
        func portalOwner() throws -> RunResult {
            try busctl([
                "call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                "GetNameOwner", "s",
                portalName,
            ])
        }
        XCTAssertEqual(try portalOwner().stdout, "s \"\(firstOwner)\"\n")

        let dirs = standardThemesDirectories.flatMap { ["--themes-dir", $0] }
        let replacement = try background(Locations.liveryd, dirs + ["--address", address, "--replace"])
        daemon = replacement
        XCTAssertTrue(first.waitForExit(timeout: 10), "the replaced liveryd did not exit: \(first.stderr)")
        let newOwner = newOwner(after: firstOwner, replacement: replacement)

        var last: RunResult?
        let moved = try waitUntil(timeout: 3) {
            last = try portalOwner()
            return last?.stdout == "s \"\(newOwner)\"\n"
        }
        XCTAssertTrue(
            moved,
            "after --replace, \(portalName) is not owned by the new instance \(newOwner): "
                + "\(last.map { "\($0)" } ?? "")\nreplacement stderr:\n\(replacement.stderr)")
        let read = try run(
            Locations.tool("gdbus"),
            [
                "call", "--address", address, "--dest", portalName, "--object-path",
                "/org/freedesktop/portal/desktop",
                "--method", "org.freedesktop.impl.portal.Settings.Read", "org.freedesktop.appearance",
                "color-scheme",
            ])
        XCTAssertEqual(read.stdout, "(<uint32 2>,)\n", "\(read)")
    }
}
