import Foundation
import XCTest

/// The built `livery sun`, run as a process: one case of `Tests/Fixtures/sun/reference.json`
/// (astral's) in both outputs, a polar night, and the usage errors.
final class SunCommandTests: XCTestCase {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    /// Beside the running test binary, so that any build configuration tests its own `livery`.
    static let livery = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        .deletingLastPathComponent().appendingPathComponent("livery").path

    /// Runs the built `livery` with `arguments`: exit status, standard output and error.
    func livery(_ arguments: String...) throws -> (status: Int32, out: String, err: String) {
        try livery(arguments)
    }

    func livery(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        guard FileManager.default.isExecutableFile(atPath: Self.livery) else {
            struct NotBuilt: Error, CustomStringConvertible { var description: String }
            XCTFail("\(Self.livery) is not built (swift build --build-tests builds it)")
            throw NotBuilt(description: "\(Self.livery) is not built")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.livery)
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self)
        )
    }

    /// Berlin on the spring-forward day of 2026, as the reference table has it.
    func referenceCase() throws -> [String: Any] {
        let url = Self.repository.appendingPathComponent("Tests/Fixtures/sun/reference.json")
        let table = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
        let cases = try XCTUnwrap(table?["cases"] as? [[String: Any]])
        return try XCTUnwrap(
            cases.first { $0["place"] as? String == "Berlin" && $0["date"] as? String == "2026-03-29" })
    }

    func seconds(between a: String, and b: String) throws -> TimeInterval {
        let f = ISO8601DateFormatter()
        let x = try XCTUnwrap(f.date(from: a), a)
        let y = try XCTUnwrap(f.date(from: b), b)
        return abs(x.timeIntervalSince(y))
    }

    func testSunPrintsTheReferenceTimesInUTC() throws {
        let c = try referenceCase()
        let (lat, lon) = try (XCTUnwrap(c["latitude"] as? Double), XCTUnwrap(c["longitude"] as? Double))
        let r = try livery("sun", "--latitude", "\(lat)", "--longitude", "\(lon)", "--date", "2026-03-29")
        XCTAssertEqual(r.status, 0, r.err)
        let lines = r.out.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        XCTAssertEqual(lines.map { $0.first }, ["sunrise", "sunset"], r.out)
        XCTAssertLessThanOrEqual(
            try seconds(between: lines[0][1], and: try XCTUnwrap(c["sunrise"] as? String)), 60)
        XCTAssertLessThanOrEqual(
            try seconds(between: lines[1][1], and: try XCTUnwrap(c["sunset"] as? String)), 60)
        XCTAssert(lines[0][1].hasSuffix("Z") && lines[0][1].count == 20, lines[0][1])

        let j = try livery("sun", "--latitude=\(lat)", "--longitude=\(lon)", "--date=2026-03-29", "--json")
        XCTAssertEqual(j.status, 0, j.err)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(j.out.utf8)) as? [String: Any])
        XCTAssertEqual(Set(object.keys), ["date", "latitude", "longitude", "sunrise", "sunset"])
        XCTAssertEqual(object["date"] as? String, "2026-03-29")
        XCTAssertEqual(object["latitude"] as? Double, lat)
        XCTAssertEqual(object["longitude"] as? Double, lon)
        XCTAssertEqual(object["sunrise"] as? String, lines[0][1])
        XCTAssertEqual(object["sunset"] as? String, lines[1][1])
    }

    func testSunSaysPolarNightWithoutTimes() throws {
        let r = try livery("sun", "--latitude", "78.2232", "--longitude", "15.6267", "--date", "2026-12-21")
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertEqual(r.out, "polar night\n")
        let j = try livery(
            "sun", "--latitude", "-77.8419", "--longitude", "166.6863", "--date", "2026-12-21", "--json")
        XCTAssertEqual(
            j.out, #"{"date":"2026-12-21","latitude":-77.8419,"longitude":166.6863,"polar":"day"}"# + "\n")
    }

    func testBadArgumentsAreUsageErrors() throws {
        let cases: [([String], String)] = [
            (["sun", "--latitude", "52"], "'sun' needs --latitude and --longitude"),
            (["sun", "--latitude", "91", "--longitude", "0"], "latitude 91.0 is outside -90...90 degrees"),
            (
                ["sun", "--latitude", "0", "--longitude", "-180.5"],
                "longitude -180.5 is outside -180...180 degrees"
            ),
            (
                ["sun", "--latitude", "north", "--longitude", "0"],
                "--latitude needs a number of degrees, not 'north'"
            ),
            (
                ["sun", "--latitude", "nan", "--longitude", "0"],
                "--latitude needs a number of degrees, not 'nan'"
            ),
            (
                ["sun", "--latitude", "0", "--longitude", "0", "--date", "2026-02-29"],
                "--date needs a day as YYYY-MM-DD"
            ),
            (
                ["sun", "--latitude", "0", "--longitude", "0", "--date", "21/06/2026"],
                "--date needs a day as YYYY-MM-DD"
            ),
            (["sun", "--latitude", "0", "--longitude", "0", "extra"], "wrong number of arguments for 'sun'"),
            (["sun", "--latitude"], "--latitude needs a value"),
            (["list", "--latitude", "0"], "--latitude, --longitude and --date apply to 'sun' only"),
        ]
        for (arguments, message) in cases {
            let r = try livery(arguments)
            XCTAssertEqual(r.status, 2, "\(arguments): \(r.err)")
            XCTAssert(r.err.contains(message), "\(arguments): \(r.err)")
            XCTAssertEqual(r.out, "", "\(arguments)")
        }
    }
}
