import Foundation
import XCTest

/// The client tool's contract (the README's "The client"): exit 0 success, 1 failure with a message on
/// stderr, 2 usage error; data as JSON on request.
final class CommandLineTests: EndToEndTestCase {
    func testClientWithoutADaemonFailsWithExitOne() throws {
        for command in [
            ["get"], ["status"], ["set", "forest"], ["resolve", "Window/Button", "tint-color"], ["watch"],
        ] {
            let r = try run(Locations.livery, ["--address", address] + command)
            XCTAssertEqual(r.status, 1, "\(r)")
            XCTAssertTrue(r.stderr.hasPrefix("livery: liveryd is not running on this bus"), "\(r)")
            XCTAssertEqual(r.stdout, "", "\(r)")
        }
    }

    func testUsageErrorsExitTwo() throws {
        for arguments in [
            ["frobnicate"], ["set"], ["set", "a", "b"], ["resolve"], ["get", "--app", "org.example.Mail"],
            ["set", "forest", "--json"], ["--bogus", "get"], ["--address"],
        ] {
            let r = try run(Locations.livery, arguments)
            XCTAssertEqual(r.status, 2, "\(r)")
            XCTAssertTrue(r.stderr.hasPrefix("livery: "), "\(r)")
            XCTAssertEqual(r.stdout, "", "\(r)")
        }
        let daemon = try run(Locations.liveryd, ["--bogus"])
        XCTAssertEqual(daemon.status, 2, "\(daemon)")
        XCTAssertTrue(daemon.stderr.contains("--bogus"), "\(daemon)")
    }

    func testVersionAndHelp() throws {
        XCTAssertEqual(try run(Locations.livery, ["--version"]).stdout, "livery 0.1.0\n")
        XCTAssertEqual(try run(Locations.liveryd, ["--version"]).stdout, "liveryd 0.1.0\n")
        let help = try run(Locations.livery, ["--help"])
        XCTAssertEqual(help.status, 0, "\(help)")
        for command in [
            "list", "get", "set", "toggle", "resolve", "explain", "watch", "check", "reload", "status",
        ] {
            XCTAssertTrue(
                help.stdout.contains("\n  \(command)"), "\(command) missing from --help:\n\(help.stdout)")
            let sub = try run(Locations.livery, [command, "--help"])
            XCTAssertEqual(sub.status, 0, "\(sub)")
            XCTAssertTrue(sub.stdout.hasPrefix("Usage: livery \(command)"), "\(sub)")
        }
    }

    func testJSONOutputOfGetResolveAndStatus() throws {
        try startDaemon()
        try setTheme("forest")
        XCTAssertEqual(try livery("get", "--json").stdout, "{\"theme\":\"forest\"}\n")
        let resolved = try livery("resolve", "--json", "Window/NavigationBar", "tint-color")
        XCTAssertEqual(resolved.stdout, "{\"tint-color\":\"#008000ff\"}\n", "\(resolved)")
        let status = try livery("status", "--json")
        let json = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any]
        XCTAssertEqual(json?["active"] as? String, "forest", "\(status)")
        XCTAssertEqual(json?["serial"] as? Int, 1, "\(status)")
        XCTAssertEqual(json?["version"] as? String, "0.1.0", "\(status)")
        XCTAssertEqual(json?["invalid"] as? [String], [], "\(status)")

        let list = try livery("list")
        XCTAssertEqual(list.status, 0, "\(list)")
        let marked = list.stdout.split(separator: "\n").filter { $0.hasPrefix("*") }
        XCTAssertEqual(marked.count, 1, list.stdout)
        XCTAssertTrue(marked.first?.hasPrefix("* forest ") == true, list.stdout)
    }

    func testResolveWithoutPropertiesListsEveryPropertyOfTheType() throws {
        try startDaemon()
        try setTheme("forest")
        let r = try livery("resolve", "Window/Switch")
        XCTAssertEqual(r.status, 0, "\(r)")
        let rows = r.stdout.split(separator: "\n").map {
            $0.split(separator: " ", omittingEmptySubsequences: true)
        }
        let values = Dictionary(rows.map { (String($0[0]), $0.dropFirst().joined(separator: " ")) }) { a, _ in
            a
        }
        XCTAssertEqual(values["on-tint-color"], "#008000ff", r.stdout)
        XCTAssertNotNil(values["background-color"], r.stdout)
    }

    func testAnEmptySessionBusAddressIsSaidToBeEmpty() throws {
        environment["DBUS_SESSION_BUS_ADDRESS"] = ""
        let r = try run(Locations.livery, ["get"])
        XCTAssertEqual(r.status, 1, "\(r)")
        XCTAssertEqual(
            r.stderr,
            "livery: no session bus (DBUS_SESSION_BUS_ADDRESS is set but empty): give one with --address ADDR, "
                + "or start liveryd with 'make run', which prints the address to export\n")
    }

    func testAStoppedDaemonTimesOutWithAMessageThatSaysSo() throws {
        try startDaemon()
        kill(daemon.pid, SIGSTOP)
        defer { kill(daemon.pid, SIGCONT) }
        let quick = try livery("--timeout", "1", "get")
        XCTAssertEqual(quick.status, 1, "\(quick)")
        XCTAssertEqual(quick.stderr, "livery: liveryd did not answer within 1 s (is it stopped or busy?)\n")
        // The default is 5 s, well before libdbus's 25.
        let standard = try run(Locations.livery, ["--address", address, "get"], timeout: 15)
        XCTAssertFalse(standard.timedOut, "\(standard)")
        XCTAssertEqual(
            standard.stderr, "livery: liveryd did not answer within 5 s (is it stopped or busy?)\n")
        XCTAssertEqual(try livery("--timeout", "0", "get").status, 2)
    }

    func testBareLiveryIsAUsageError() throws {
        let bare = try run(Locations.livery, [])
        XCTAssertEqual(bare.status, 2)
        XCTAssertTrue(bare.stderr.hasPrefix("Usage: livery"), bare.stderr)
        XCTAssertEqual(bare.stdout, "")
        let help = try run(Locations.livery, ["--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.hasPrefix("Usage: livery"), help.stdout)
        let empty = try run(Locations.livery, ["--address", "", "list"])
        XCTAssertEqual(empty.status, 2, "\(empty)")
    }
}
