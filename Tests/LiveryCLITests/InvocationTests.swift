import XCTest

@testable import LiveryCLI

/// Argument parsing and usage errors (the README's "The client": exit 2 for a usage error).
final class InvocationTests: XCTestCase {
    func usageError(_ args: [String]) -> String? {
        do {
            _ = try parse(args)
            return nil
        } catch {
            return error.message
        }
    }

    func testCommandAndPositionalArgumentsAreParsed() throws {
        let inv = try parse([
            "--address", "unix:path=/x", "resolve", "Window/Button", "tint-color", "--app=org.a.B",
        ])
        XCTAssertEqual(inv.command, .resolve)
        XCTAssertEqual(inv.positional, ["Window/Button", "tint-color"])
        XCTAssertEqual(inv.address, "unix:path=/x")
        XCTAssertEqual(inv.app, "org.a.B")
    }

    func testAnUnknownCommandSuggestsTheNearestOne() {
        XCTAssertEqual(usageError(["lst"]), "unknown command 'lst' (did you mean 'list'?)")
    }

    func testSetTakesExactlyOneID() {
        XCTAssertNotNil(usageError(["set"]))
        XCTAssertNotNil(usageError(["set", "a", "b"]))
        XCTAssertNil(usageError(["set", "forest"]))
    }

    func testSystemAndAddressExcludeEachOther() {
        XCTAssertEqual(
            usageError(["--system", "--address", "unix:path=/x", "list"]),
            "--system and --address exclude each other")
    }

    func testJSONIsRefusedWhereOutputIsNotData() {
        XCTAssertEqual(usageError(["set", "forest", "--json"]), "'set' has no --json output")
        XCTAssertNil(usageError(["list", "--json"]))
    }

    func testTimeoutMustBeAPositiveNumber() {
        XCTAssertNotNil(usageError(["--timeout", "0", "list"]))
        XCTAssertNotNil(usageError(["--timeout", "soon", "list"]))
        XCTAssertEqual(try parse(["--timeout", "1.5", "list"]).timeout, 1.5)
    }

    func testDoubleDashMakesTheRestPositional() throws {
        XCTAssertEqual(try parse(["set", "--", "-x"]).positional, ["-x"])
    }

    func testUsageErrorsExitTwo() {
        let output = Output(out: { _ in }, err: { _ in }, isTerminal: false)
        XCTAssertEqual(runClient(arguments: [], output: output), 2)
        XCTAssertEqual(runClient(arguments: ["frobnicate"], output: output), 2)
        XCTAssertEqual(runClient(arguments: ["--help"], output: output), 0)
    }
}
