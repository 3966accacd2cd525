import XCTest

@testable import LiveryDaemon
@testable import LiveryService

/// The rule of when live reload runs (`FileDebounce`), on a clock the tests give: each file
/// settles 250 ms after its own last event, or 1 s after its first, whichever comes first.
final class FileDebounceTests: XCTestCase {
    /// Feeds `events` (file, time in ms) in order, settling whenever the deadline comes before
    /// the next event (a settle due at an event's time comes first), then until nothing waits.
    /// - Returns: the times of the settles.
    private func settles(_ events: [(String, Int64)]) -> [Int64] {
        var debounce = FileDebounce(quiet: 250, bound: 1000)
        var times: [Int64] = []
        for (file, time) in events {
            while let due = debounce.deadline(), due <= time {
                XCTAssertFalse(debounce.settle(at: due - 1))
                XCTAssertTrue(debounce.settle(at: due))
                times.append(due)
            }
            debounce.record(file, at: time)
        }
        while let due = debounce.deadline() {
            XCTAssertTrue(debounce.settle(at: due))
            times.append(due)
        }
        XCTAssertTrue(debounce.isEmpty)
        return times
    }

    private func every100ms(_ file: String, from start: Int64, until end: Int64) -> [(String, Int64)] {
        stride(from: start, to: end, by: 100).map { (file, $0) }
    }

    func testAFileSettlesAQuietPeriodAfterItsLastEvent() {
        XCTAssertEqual(settles([("theme.css", 0)]), [250])
        // Writes to one file less than 250 ms apart: one settle, after the last.
        XCTAssertEqual(settles([("theme.css", 0), ("theme.css", 40), ("theme.css", 200)]), [450])
        // An editor's save (a temporary file written, then renamed over the file, then chmod)
        // within a few ms: one settle, when the temporary file has been quiet for 250 ms.
        XCTAssertEqual(
            settles([("theme.css.tmp", 0), ("theme.css.tmp", 1), ("theme.css", 2), ("theme.css", 3)]), [251])
    }

    func testAFileWrittenWithoutPauseSettlesOncePerBound() {
        XCTAssertEqual(settles(every100ms("render.log", from: 0, until: 3050)), [1000, 2000, 3000, 3250])
    }

    func testAnEditSettlesOnItsOwnQuietPeriodWhileAnotherFileIsWrittenEvery100ms() {
        // The writer's first settle (its bound) is at 1000; the edit at 350 settles at 600.
        var events = every100ms("render.log", from: 0, until: 5000)
        events.insert(("theme.css", 350), at: 4)
        let times = settles(events)
        XCTAssertEqual(times.first, 600)
        // Then the writer alone, once per bound from its next event (at 600, after the settle).
        XCTAssertEqual(Array(times.dropFirst().prefix(2)), [1600, 2600])
    }

    func testEveryEditSettlesWithinTheBoundWhateverElseIsWritten() {
        // Edits at each time of a 3 s run, each while a file is written every 100 ms: the first
        // settle at or after the edit is at most `bound` after it.
        for edit in stride(from: Int64(1), to: 3000, by: 37) {
            var events = every100ms("render.log", from: 0, until: 6000)
            events.append(("theme.css", edit))
            events.sort { $0.1 < $1.1 }
            let after = settles(events).first { $0 >= edit }
            XCTAssertNotNil(after)
            XCTAssertLessThanOrEqual(after ?? .max, edit + 1000, "edit at \(edit)")
        }
    }
}
