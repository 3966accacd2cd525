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

    /// Runs the built `livery` with `arguments` as a process, with `TZ` set to `tz` and a
    /// config.yaml of `config`: standard output, after checking it exits 0.
    func runBuilt(_ arguments: [String], tz: String, config: String) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "livery-schedule-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("livery"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try config.write(
            to: dir.appendingPathComponent("livery/config.yaml"), atomically: true, encoding: .utf8)
        let r = try process(
            SunCommandTests.livery, arguments, environment: ["TZ": tz, "XDG_CONFIG_HOME": dir.path])
        XCTAssertEqual(r.status, 0, "TZ=\(tz) livery \(arguments): \(r.err)")
        return r.out
    }

    /// Runs `executable` with `arguments`, this process's environment changed by `environment`.
    func process(_ executable: String, _ arguments: [String], environment: [String: String]) throws
        -> (status: Int32, out: String, err: String)
    {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let (out, err) = (Pipe(), Pipe())
        (p.standardOutput, p.standardError) = (out, err)
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }

    /// `date` run with `TZ=tz` and `arguments`: libc's reading of the zone, the oracle.
    func date(_ arguments: String..., tz: String) throws -> String {
        let r = try process("/usr/bin/date", arguments, environment: ["TZ": tz])
        XCTAssertEqual(r.status, 0, r.err)
        return r.out.trimmingCharacters(in: .newlines)
    }

    /// Every form of `TZ` that libc reads (POSIX rules with and without daylight saving time,
    /// `<…>` names, a zone file with and without `:`): the local times of the schedule are the
    /// local times `date` gives under the same `TZ`, in the offset `date` gives.
    func testTimesAreLocalTimeAsLibcReadsTZ() throws {
        let config = "schedule:\n  light: \"07:00\"\n  dark: \"19:00:30\"\n"
        for tz in [
            "CET-1CEST,M3.5.0,M10.5.0/3", "EST5EDT,M3.2.0/2,M11.1.0/2", "<+14>-14", "<-12>12",
            ":Europe/Berlin",
            "Asia/Kolkata",
        ] {
            let out = try runBuilt(["schedule", "--json"], tz: tz, config: config)
            let json = try XCTUnwrap(
                try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any], "TZ=\(tz): \(out)")
            let transitions = try XCTUnwrap(json["transitions"] as? [[String: String]], "TZ=\(tz): \(out)")
            XCTAssertEqual(transitions.count, 2, "TZ=\(tz): \(out)")
            for t in transitions {
                let at = try XCTUnwrap(t["at"], "TZ=\(tz): \(out)")
                let instant = try XCTUnwrap(ISO8601DateFormatter().date(from: at), at)
                let epoch = "@\(Int(instant.timeIntervalSince1970))"
                let clock = t["variant"] == "light" ? "07:00:00" : "19:00:30"
                let local = try date("-d", epoch, "+%FT%T%:z", tz: tz)
                XCTAssertTrue(
                    local.hasSuffix("T" + clock + String(local.suffix(6))), "TZ=\(tz): \(at), date \(local)")
                XCTAssertEqual(at.replacingOccurrences(of: "Z", with: "+00:00"), local, "TZ=\(tz)")
            }
            // From the rule itself: <+14>-14 is 14 hours east of UTC all year.
            if tz == "<+14>-14" { XCTAssert(transitions.allSatisfy { $0["at"]!.hasSuffix("+14:00") }, out) }
            let now = try date("+%T", tz: tz).split(separator: ":").compactMap { Int($0) }
            let seconds = now[0] * 3600 + now[1] * 60 + now[2]
            XCTAssertEqual(
                json["now"] as? String, seconds >= 7 * 3600 && seconds < 19 * 3600 + 30 ? "light" : "dark",
                "TZ=\(tz) at \(now)")
        }
    }

    /// `livery sun` without `--date` takes today in the local zone as libc reads `TZ`: at any
    /// moment one of UTC+14 and UTC−12 is on another day than UTC.
    func testSunsDefaultDateIsTodayAsLibcReadsTZ() throws {
        for tz in ["<+14>-14", "<-12>12"] {
            let out = try runBuilt(
                ["sun", "--latitude", "0", "--longitude", "0", "--json"], tz: tz, config: "")
            let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
            XCTAssertEqual(json["date"] as? String, try date("+%F", tz: tz), "TZ=\(tz)")
        }
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
