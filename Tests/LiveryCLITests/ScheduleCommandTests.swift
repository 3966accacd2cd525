import Foundation
import XCTest

@testable import LiveryCLI

/// `livery schedule`: the schedule of config.yaml, the variant it says now and the next two
/// transitions, written from the rule (light from the light time to the dark time).
final class ScheduleCommandTests: XCTestCase {
    func run(_ args: [String], config: String?) throws -> (Int32, String, String) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "livery-schedule-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("livery"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        if let config {
            try config.write(
                to: dir.appendingPathComponent("livery/config.yaml"), atomically: true, encoding: .utf8)
        }
        let saved = ProcessInfo.processInfo.environment["XDG_CONFIG_HOME"]
        setenv("XDG_CONFIG_HOME", dir.path, 1)
        defer { if let saved { setenv("XDG_CONFIG_HOME", saved, 1) } else { unsetenv("XDG_CONFIG_HOME") } }
        final class Box: @unchecked Sendable {
            var out = ""
            var err = ""
        }
        let box = Box()
        let status = runClient(
            arguments: args, output: Output(out: { box.out += $0 }, err: { box.err += $0 }, isTerminal: false)
        )
        return (status, box.out, box.err)
    }

    func testTimesScheduleSaysTheVariantOfNowAndTheNextTwo() throws {
        let (status, out, err) = try run(
            ["schedule", "--json"], config: "schedule:\n  light: \"07:00\"\n  dark: \"19:30:15\"\n")
        XCTAssertEqual(status, 0, err)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
        XCTAssertEqual(json["schedule"] as? [String: String], ["light": "07:00:00", "dark": "19:30:15"])
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone.current
        let c = calendar.dateComponents([.hour, .minute, .second], from: Date())
        let seconds = c.hour! * 3600 + c.minute! * 60 + c.second!
        let expected = seconds >= 7 * 3600 && seconds < 19 * 3600 + 30 * 60 + 15 ? "light" : "dark"
        XCTAssertEqual(json["now"] as? String, expected)
        let transitions = try XCTUnwrap(json["transitions"] as? [[String: String]])
        XCTAssertEqual(
            transitions.map { $0["variant"] }, expected == "light" ? ["dark", "light"] : ["light", "dark"])
    }

    func testNoScheduleAndABrokenFile() throws {
        let (status, out, _) = try run(["schedule"], config: nil)
        XCTAssertEqual(status, 0)
        XCTAssertTrue(out.hasPrefix("no schedule in "), out)
        let (bad, _, err) = try run(["schedule"], config: "schedule:\n  latitude: 95\n  longitude: 4\n")
        XCTAssertEqual(bad, 1)
        XCTAssertTrue(
            err.contains("config.yaml:2:13: error: 'latitude' must be a number of degrees from -90 to 90"),
            err)
    }
}
