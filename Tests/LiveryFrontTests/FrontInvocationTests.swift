import XCTest

@testable import LiveryCLI
@testable import LiveryFront

/// Which command lines the front carries out itself, checked against the full client's own
/// reader (`LiveryCLI`'s `parse`): every line the front takes must mean the same to the full
/// client, and the usual ways of writing `get`, `set` and `toggle` must be taken.
final class FrontInvocationTests: XCTestCase {
    /// Asserts that the full client reads `arguments` as the front does.
    func assertFullClientAgrees(
        _ arguments: [String], _ front: FrontInvocation, file: StaticString = #filePath, line: UInt = #line
    ) {
        let inv: Invocation
        do { inv = try parse(arguments) } catch {
            XCTFail(
                "the front takes \(arguments), the full client refuses it: \(error.message)", file: file,
                line: line)
            return
        }
        XCTAssertFalse(inv.help, "\(arguments)", file: file, line: line)
        switch front.command {
        case .get(let variant, let json):
            XCTAssertEqual(inv.command, .get, "\(arguments)", file: file, line: line)
            XCTAssertEqual(inv.positional, [], "\(arguments)", file: file, line: line)
            XCTAssertEqual(inv.variant, variant, "\(arguments)", file: file, line: line)
            XCTAssertEqual(inv.json, json, "\(arguments)", file: file, line: line)
        case .set(let id):
            XCTAssertEqual(inv.command, .set, "\(arguments)", file: file, line: line)
            XCTAssertEqual(inv.positional, [id], "\(arguments)", file: file, line: line)
        case .toggle:
            XCTAssertEqual(inv.command, .toggle, "\(arguments)", file: file, line: line)
            XCTAssertEqual(inv.positional, [], "\(arguments)", file: file, line: line)
        }
        let bus: FrontBus = inv.address.map { .address($0) } ?? (inv.system ? .system : .session)
        XCTAssertEqual(front.bus, bus, "\(arguments)", file: file, line: line)
        XCTAssertEqual(front.timeout, inv.timeout, "\(arguments)", file: file, line: line)
    }

    func testTheUsualCommandLinesAreTheFronts() {
        let taken: [([String], FrontInvocation.Command, FrontBus)] = [
            (["get"], .get(variant: false, json: false), .session),
            (["get", "--json"], .get(variant: false, json: true), .session),
            (["--variant", "get"], .get(variant: true, json: false), .session),
            (["get", "--variant", "--json"], .get(variant: true, json: true), .session),
            (["set", "forest"], .set(id: "forest"), .session),
            (["set", "-"], .set(id: "-"), .session),
            (["set", ""], .set(id: ""), .session),
            (["toggle"], .toggle, .session),
            (["--system", "toggle"], .toggle, .system),
            (["--address", "unix:path=/x", "set", "a"], .set(id: "a"), .address("unix:path=/x")),
            (["set", "a", "--address=unix:path=/x,guid=1"], .set(id: "a"), .address("unix:path=/x,guid=1")),
            (["--address", "--json", "get"], .get(variant: false, json: false), .address("--json")),
        ]
        for (arguments, command, bus) in taken {
            guard let front = FrontInvocation(arguments) else {
                XCTFail("the front leaves \(arguments) to the full client")
                continue
            }
            XCTAssertEqual(front.command, command, "\(arguments)")
            XCTAssertEqual(front.bus, bus, "\(arguments)")
            XCTAssertEqual(front.timeout, 5, "\(arguments)")
            assertFullClientAgrees(arguments, front)
        }
        XCTAssertEqual(FrontInvocation(["--timeout", "0.25", "get"])?.timeout, 0.25)
        XCTAssertEqual(FrontInvocation(["get", "--timeout=7", "--timeout=2"])?.timeout, 2)
    }

    func testHelpVersionUsageErrorsAndOtherCommandsAreTheFullClients() {
        for arguments in [
            [], ["--help"], ["-h"], ["get", "--help"], ["--version"], ["set"], ["set", "a", "b"],
            ["get", "x"],
            ["get", "--json=1"], ["toggle", "--json"], ["set", "a", "--variant"], ["--address=", "get"],
            ["--address"], ["get", "--timeout"], ["--timeout", "0", "get"], ["--timeout", "-1", "get"],
            ["--timeout", "inf", "get"], ["--timeout", "nan", "get"], ["--system", "--address", "a:", "get"],
            ["--", "get"], ["list"], ["frobnicate"], ["get", "--app", "x"], ["get", "--themes-dir", "/t"],
            ["-x", "get"], ["dark"], ["light"],
        ] {
            XCTAssertNil(FrontInvocation(arguments), "\(arguments)")
        }
    }

    /// Every command line of up to four words from a set of words and options: whenever the front
    /// takes one, the full client reads it the same way (`--version` left out: it exits).
    func testEveryLineTheFrontTakesMeansTheSameToTheFullClient() {
        let words = [
            "get", "set", "toggle", "list", "forest", "-", "", "--json", "--variant", "--system", "--address",
            "--address=unix:path=/x", "--address=", "--timeout", "--timeout=2", "--timeout=0", "2.5", "x",
            "--json=1", "--", "-h", "--app", "--themes-dir", "--bogus",
        ]
        var lines: [[String]] = [[]]
        var taken = 0
        for _ in 1...4 {
            lines = lines.flatMap { line in words.map { line + [$0] } }
            for line in lines {
                guard let front = FrontInvocation(line) else { continue }
                taken += 1
                assertFullClientAgrees(line, front)
            }
        }
        XCTAssertGreaterThan(taken, 1000)
    }
}
