import Foundation
import XCTest

/// `make run` without a session bus (`scripts/run-daemon.sh`): the private bus it starts serves
/// whoever owns org.livery.Livery1 on it, not only the daemon the script started.
final class MakeRunBusTests: EndToEndTestCase {
    func testThePrivateBusOutlivesAReplacedDaemonAndGoesWithTheLastOwner() throws {
        environment["DBUS_SESSION_BUS_ADDRESS"] = nil
        let script = try background(
            Locations.repo + "/scripts/run-daemon.sh", [Locations.products, Locations.themes])
        let marker = "export DBUS_SESSION_BUS_ADDRESS='"
        XCTAssertTrue(waitUntil { script.stdout.contains(marker) || !script.isRunning }, script.stderr)
        let printed = try XCTUnwrap(script.stdout.components(separatedBy: marker).dropFirst().first)
        let busAddress = String(printed.prefix { $0 != "'" })
        func get() throws -> RunResult { try run(Locations.livery, ["--address", busAddress, "get"]) }
        XCTAssertTrue(try waitUntil { try get().status == 0 }, script.stderr)

        let replacement = try background(
            Locations.liveryd, ["--themes-dir", Locations.themes, "--address", busAddress, "--replace"])
        XCTAssertTrue(
            waitUntil { script.stderr.contains("replaced by another instance") }, script.stderr)
        // The script's daemon is gone; the bus stays for the one that replaced it.
        XCTAssertFalse(waitUntil(timeout: 2) { !script.isRunning }, "the script ended: \(script.stderr)")
        let after = try get()
        XCTAssertEqual(after.status, 0, "\(after)\n\(replacement.stderr)")
        XCTAssertTrue(replacement.isRunning, replacement.stderr)

        // When nothing owns the name any more, the script stops its bus and ends.
        replacement.stop()
        XCTAssertTrue(script.waitForExit(timeout: 10), "the script kept running: \(script.stderr)")
        XCTAssertNotEqual(try get().status, 0)
    }
}
