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

    /// `generate`'s picture is one of IMAGE, `--color` and `--from-desktop`: the error says so,
    /// not "wrong number of arguments", with the usage line.
    func testGenerateSaysItsSourcesAreAlternatives() {
        let usage =
            "\nUsage: livery generate (IMAGE | --color HEX | --from-desktop) [--scheme NAME] [--contrast C] [--json] [--out DIR]"
        let both = "IMAGE, --color and --from-desktop are alternatives: give one of them" + usage
        XCTAssertEqual(usageError(["generate", "a.jpg", "--color", "#fff"]), both)
        XCTAssertEqual(usageError(["generate", "a.jpg", "--from-desktop"]), both)
        XCTAssertEqual(usageError(["generate", "--color", "#fff", "--from-desktop"]), both)
        XCTAssertEqual(
            usageError(["generate", "--scheme", "vibrant"]),
            "'generate' needs one of IMAGE, --color HEX and --from-desktop" + usage)
        XCTAssertEqual(
            usageError(["generate", "a.jpg", "b.jpg"]), "'generate' takes one IMAGE, not 2" + usage)
        XCTAssertNil(usageError(["generate", "a.jpg"]))
        XCTAssertNil(usageError(["generate", "--color", "#fff"]))
        XCTAssertNil(usageError(["generate", "--from-desktop"]))
    }

    func testUsageErrorsExitTwo() {
        let output = Output(out: { _ in }, err: { _ in }, isTerminal: false)
        XCTAssertEqual(runClient(arguments: [], output: output), 2)
        XCTAssertEqual(runClient(arguments: ["frobnicate"], output: output), 2)
        XCTAssertEqual(runClient(arguments: ["--help"], output: output), 0)
    }
}
