import XCTest

@testable import LiveryCore

/// The first line of a command's standard error, as `status` and `plugins` show it: whole when
/// short, otherwise cut between words and marked, never inside a word.
final class ErrorLineTests: XCTestCase {
    func testAShortLineIsKeptWhole() {
        let line = "gtk: nothing names the GTK theme Livery"
        XCTAssertEqual(ProcessRunner.shortened(line), line)
    }

    func testALongLineIsCutBetweenWordsAndMarked() {
        let words = (1...60).map { "word\($0)" }
        let line = words.joined(separator: " ")
        let short = ProcessRunner.shortened(line)
        XCTAssertTrue(short.hasSuffix("…"), short)
        XCTAssertLessThanOrEqual(short.count, 200)
        // Every word kept is one of the line's whole words, in order.
        let kept = short.dropLast().split(separator: " ").map(String.init)
        XCTAssertEqual(kept, Array(words.prefix(kept.count)))
        XCTAssertGreaterThan(kept.count, 20)
    }

    func testOneLongWordIsCutAtTheLimit() {
        let short = ProcessRunner.shortened(String(repeating: "x", count: 500))
        XCTAssertEqual(short, String(repeating: "x", count: 199) + "…")
    }
}
