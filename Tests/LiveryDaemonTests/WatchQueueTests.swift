import Foundation
import LiveryAPI
import Synchronization
import XCTest

@testable import LiveryDaemon
@testable import LiveryService

/// The calls waiting in a `WatchQueue`: each client's in order, newcomers before the clients
/// that had a turn and never behind another client's step, the others a step each in turn; a
/// client that leaves has its calls dropped and is released after its step in progress; a
/// client's waiting paths are bounded.
final class WatchQueueTests: XCTestCase {
    /// What the calls of a test did, in order.
    final class Journal: Sendable {
        let entries = Mutex<[String]>([])
        func write(_ entry: String) { entries.withLock { $0.append(entry) } }
        var all: [String] { entries.withLock { $0 } }
    }

    /// A call of `steps` steps that writes `name` to the journal at each; the first step can
    /// be held until the test lets it go.
    final class Call: WatchQueueWork, @unchecked Sendable {
        let name: String
        let steps: Int
        let cost: Int
        let journal: Journal
        /// Signalled when the first step starts.
        let started = DispatchSemaphore(value: 0)
        /// Waited for by the first step, when set.
        let gate: DispatchSemaphore?
        /// Signalled when the call is done or abandoned.
        let ended = DispatchSemaphore(value: 0)
        private var taken = 0

        init(_ name: String, steps: Int = 1, cost: Int = 1, journal: Journal, held: Bool = false) {
            self.name = name
            self.steps = steps
            self.cost = cost
            self.journal = journal
            self.gate = held ? DispatchSemaphore(value: 0) : nil
        }

        func step(until deadline: ContinuousClock.Instant) -> Bool {
            if taken == 0 {
                started.signal()
                gate?.wait()
            }
            taken += 1
            journal.write(name)
            if taken == steps { ended.signal() }
            return taken == steps
        }

        func abandon() -> Bool {
            journal.write("abandon \(name)")
            ended.signal()
            return taken < steps
        }
    }

    func wait(_ semaphore: DispatchSemaphore, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(semaphore.wait(timeout: .now() + 10), .success, "timed out", file: file, line: line)
    }

    func testANewClientIsServedWhileAnotherClientsStepRuns() throws {
        let queue = WatchQueue(label: "test")
        let journal = Journal()
        let a1 = Call("a1", steps: 2, journal: journal, held: true)
        let a2 = Call("a2", journal: journal)
        let b1 = Call("b1", journal: journal)
        try queue.enqueue(a1, from: ":1.1")
        wait(a1.started)
        try queue.enqueue(a2, from: ":1.1")
        try queue.enqueue(b1, from: ":1.2")
        wait(b1.ended)
        // b1 ran while a1's first step was held, and a2 waits for a1.
        XCTAssertEqual(journal.all, ["b1"])
        a1.gate?.signal()
        for call in [a1, a2] { wait(call.ended) }
        XCTAssertEqual(journal.all, ["b1", "a1", "a1", "a2"])
    }

    func testNewcomersGoFirstThenEveryClientTakesAStepInTurnAndKeepsItsOrder() throws {
        let queue = WatchQueue(label: "test")
        let journal = Journal()
        // Both threads held: h1 and g1's first steps.
        let h1 = Call("h1", journal: journal, held: true)
        let g1 = Call("g1", journal: journal, held: true)
        try queue.enqueue(h1, from: ":1.8")
        wait(h1.started)
        try queue.enqueue(g1, from: ":1.9")
        wait(g1.started)
        let a1 = Call("a1", steps: 3, journal: journal)
        let a2 = Call("a2", journal: journal)
        let c1 = Call("c1", steps: 2, journal: journal)
        let b1 = Call("b1", journal: journal)
        try queue.enqueue(a1, from: ":1.1")
        try queue.enqueue(c1, from: ":1.3")
        try queue.enqueue(a2, from: ":1.1")
        try queue.enqueue(b1, from: ":1.2")
        g1.gate?.signal()
        for call in [g1, a1, a2, b1, c1] { wait(call.ended) }
        // One thread free: the newcomers' first steps in the order they came, then a and c in
        // turn; a2 only after a1.
        XCTAssertEqual(journal.all, ["g1", "a1", "c1", "b1", "a1", "c1", "a1", "a2"])
        h1.gate?.signal()
        wait(h1.ended)
    }

    func testAClientThatLeftHasItsCallsDroppedAndIsReleasedAfterItsStepInProgress() throws {
        let queue = WatchQueue(label: "test")
        let journal = Journal()
        let a1 = Call("a1", steps: 2, journal: journal, held: true)
        let a2 = Call("a2", journal: journal)
        try queue.enqueue(a1, from: ":1.1")
        wait(a1.started)
        try queue.enqueue(a2, from: ":1.1")
        let released = DispatchSemaphore(value: 0)
        queue.depart(":1.1") { dropped in
            journal.write("release :1.1, \(dropped) dropped")
            released.signal()
        }
        XCTAssertEqual(queue.waitingPaths(of: ":1.1"), 0)
        // A client with nothing running is released at once.
        queue.depart(":1.2") { dropped in
            journal.write("release :1.2, \(dropped) dropped")
            released.signal()
        }
        wait(released)
        XCTAssertEqual(journal.all, ["release :1.2, 0 dropped"])
        a1.gate?.signal()
        wait(released)
        // a1 was not done: its step in progress finishes, then it is dropped with a2.
        XCTAssertEqual(
            journal.all,
            ["release :1.2, 0 dropped", "a1", "abandon a1", "abandon a2", "release :1.1, 2 dropped"])
    }

    func testAClientsWaitingPathsAreBounded() throws {
        let queue = WatchQueue(label: "test")
        let journal = Journal()
        let limit = WatchQueue.maximumWaitingPaths
        let a1 = Call("a1", cost: limit - 1024, journal: journal, held: true)
        let a2 = Call("a2", cost: 1024, journal: journal)
        try queue.enqueue(a1, from: ":1.1")
        wait(a1.started)
        try queue.enqueue(a2, from: ":1.1")
        XCTAssertEqual(queue.waitingPaths(of: ":1.1"), limit)
        XCTAssertThrowsError(try queue.enqueue(Call("a3", journal: journal), from: ":1.1")) { error in
            XCTAssertEqual(
                error as? ServiceError,
                ServiceError(
                    .limitExceeded,
                    ":1.1 has \(limit) paths waiting in Watch and Unwatch calls; at most \(limit) may wait: "
                        + "wait for their replies"))
        }
        // Another client is not concerned.
        let b1 = Call("b1", cost: 1024, journal: journal)
        try queue.enqueue(b1, from: ":1.2")
        wait(b1.ended)
        a1.gate?.signal()
        for call in [a1, a2] { wait(call.ended) }
        XCTAssertEqual(journal.all, ["b1", "a1", "a2"])
        // Answered calls no longer count (the queue counts a call out just after its last step).
        let deadline = Date().addingTimeInterval(10)
        while queue.waitingPaths(of: ":1.1") > 0 && Date() < deadline { usleep(1000) }
        XCTAssertEqual(queue.waitingPaths(of: ":1.1"), 0)
        let a4 = Call("a4", cost: limit, journal: journal)
        try queue.enqueue(a4, from: ":1.1")
        wait(a4.ended)
    }

    func testTheIdleWorkRunsWhenBothThreadsRunOutOfWork() throws {
        let queue = WatchQueue(label: "test")
        let journal = Journal()
        let idle = DispatchSemaphore(value: 0)
        queue.whenIdle {
            journal.write("idle")
            idle.signal()
        }
        let a1 = Call("a1", journal: journal, held: true)
        let b1 = Call("b1", journal: journal)
        try queue.enqueue(a1, from: ":1.1")
        wait(a1.started)
        try queue.enqueue(b1, from: ":1.2")
        wait(b1.ended)
        a1.gate?.signal()
        wait(idle)
        XCTAssertEqual(journal.all, ["b1", "a1", "idle"])
    }
}
