import Foundation
import Mustache
import XCTest

/// Every test of every file of the Mustache specification's suite (v1.4.2, in
/// `Tests/Fixtures/mustache-spec/`, lambdas not included), each failure named by file and test.
final class SpecTests: XCTestCase {
    static let specDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/mustache-spec")

    static let files = [
        "comments", "delimiters", "interpolation", "inverted", "partials", "sections", "~dynamic-names",
        "~inheritance",
    ]

    func testComments() throws { try runSpec("comments", expecting: 12) }
    func testDelimiters() throws { try runSpec("delimiters", expecting: 14) }
    func testInterpolation() throws { try runSpec("interpolation", expecting: 42) }
    func testInverted() throws { try runSpec("inverted", expecting: 22) }
    func testPartials() throws { try runSpec("partials", expecting: 12) }
    func testSections() throws { try runSpec("sections", expecting: 34) }
    func testDynamicNames() throws { try runSpec("~dynamic-names", expecting: 21) }
    func testInheritance() throws { try runSpec("~inheritance", expecting: 27) }

    /// Every spec file is run by one of the tests above.
    func testEverySpecFileIsRun() throws {
        let present = try FileManager.default.contentsOfDirectory(atPath: SpecTests.specDirectory.path)
            .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
        XCTAssertEqual(present, SpecTests.files.sorted())
    }

    /// Runs every test of one file; `expecting` is its number of tests, so that none is lost.
    func runSpec(_ file: String, expecting count: Int) throws {
        let url = SpecTests.specDirectory.appendingPathComponent(file + ".json")
        let json = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let tests = try XCTUnwrap(json["tests"] as? [[String: Any]])
        XCTAssertEqual(tests.count, count, "\(file).json")
        var passed = 0
        for test in tests {
            let name = test["name"] as? String ?? "?"
            let label = "\(file).json: \(name)"
            do {
                let template = try Template(XCTUnwrap(test["template"] as? String), name: name)
                var partials: [String: Template] = [:]
                for (key, text) in test["partials"] as? [String: String] ?? [:] {
                    partials[key] = try Template(text, name: key)
                }
                let data = SpecTests.value(test["data"] ?? NSNull())
                let output = try template.render(data, partials: partials)
                let expected = try XCTUnwrap(test["expected"] as? String)
                if output == expected {
                    passed += 1
                } else {
                    XCTFail(
                        "\(label): expected \(expected.debugDescription), got \(output.debugDescription)")
                }
            } catch {
                XCTFail("\(label): \(error)")
            }
        }
        print("mustache spec \(file).json: \(passed)/\(tests.count) passed")
    }

    /// A value from JSONSerialization's objects.
    static func value(_ any: Any) -> MustacheValue {
        switch any {
        case is NSNull: return .null
        case let s as String: return .string(s)
        case let n as NSNumber:
            if String(cString: n.objCType) == "c" { return .bool(n.boolValue) }
            return .number(n.doubleValue)
        case let a as [Any]: return .list(a.map(value))
        case let d as [String: Any]: return .object(d.mapValues(value))
        default: return .null
        }
    }
}
