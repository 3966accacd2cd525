import Foundation
import XCTest

@testable import LiveryDBus

final class ConnectionTests: BusTestCase {
    func testUnicastSignalsReachOnlyTheirDestination() throws {
        let other = try Connection(address: bus.address)
        other.startThread()
        defer { other.close() }
        let rule = "type='signal',interface='org.livery.Test1',member='Changed'"
        let toClient = Box<[String]>([])
        let toOther = Box<[String]>([])
        try client.addMatch(rule) { m in toClient.mutate { $0.append(m.arguments.first?.string ?? "?") } }
        try other.addMatch(rule) { m in toOther.mutate { $0.append(m.arguments.first?.string ?? "?") } }
        let changed = try MemberName("Changed")
        try service.emitSignal(
            path: Test.path, interface: Test.interface, member: changed, arguments: [.string("private")],
            destination: BusName(client.uniqueName))
        try service.emitSignal(
            path: Test.path, interface: Test.interface, member: changed, arguments: [.string("public")])
        XCTAssertTrue(eventually { toClient.value.count == 2 && toOther.value.count == 1 })
        // Signals from one sender arrive in order, so once "public" is in, "private" would be too.
        XCTAssertEqual(toClient.value, ["private", "public"])
        XCTAssertEqual(toOther.value, ["public"])
    }

    func testFanOutSignalCarriesEachDestinationsOwnFirstArgument() throws {
        let other = try Connection(address: bus.address)
        other.startThread()
        defer { other.close() }
        let rule = "type='signal',interface='org.livery.Test1',member='Changed'"
        let toClient = Box<[Message]>([])
        let toOther = Box<[Message]>([])
        try client.addMatch(rule) { m in toClient.mutate { $0.append(m) } }
        try other.addMatch(rule) { m in toOther.mutate { $0.append(m) } }
        let body = DBusValue.dictionary(
            key: "s", value: "v", [DBusDictEntry(key: .string("tint"), value: .variant(.string("#008000ff")))]
        )
        let signal = try FanOutSignal(
            path: Test.path, interface: Test.interface, member: MemberName("Changed"),
            arguments: [.uint32(0), .uint32(7), body])
        try service.emit(signal, first: 0xDEAD_BEEF, destination: BusName(client.uniqueName))
        try service.emit(signal, first: 42, destination: BusName(other.uniqueName))
        XCTAssertTrue(eventually { toClient.value.count == 1 && toOther.value.count == 1 })
        XCTAssertEqual(toClient.value[0].arguments, [.uint32(0xDEAD_BEEF), .uint32(7), body])
        XCTAssertEqual(toClient.value[0].signature, "uua{sv}")
        XCTAssertEqual(toClient.value[0].sender, service.uniqueName)
        XCTAssertEqual(toOther.value[0].arguments, [.uint32(42), .uint32(7), body])
        assertDBusError(.invalidArgs) {
            _ = try FanOutSignal(
                path: Test.path, interface: Test.interface, member: MemberName("Changed"), arguments: [body])
        }
    }

    func testAddMatchDeliversMatchingSignalsAndRemoveMatchStopsThem() throws {
        let seen = Box<[Message]>([])
        let rule = "type='signal',sender='\(service.uniqueName)',path='/org/livery/Test',arg0='yes'"
        try client.addMatch(rule) { m in seen.mutate { $0.append(m) } }
        let changed = try MemberName("Changed")
        try service.emitSignal(
            path: Test.path, interface: Test.interface, member: changed, arguments: [.string("no")])
        try service.emitSignal(
            path: Test.path, interface: Test.interface, member: changed, arguments: [.string("yes")])
        XCTAssertTrue(eventually { seen.value.count == 1 })
        let message = try XCTUnwrap(seen.value.first)
        XCTAssertEqual(message.type, .signal)
        XCTAssertEqual(message.sender, service.uniqueName)
        XCTAssertEqual(message.interface, "org.livery.Test1")
        XCTAssertEqual(message.member, "Changed")
        XCTAssertEqual(message.arguments, [.string("yes")])

        try client.removeMatch(rule)
        // A fence: the bus handles RemoveMatch before the next signal, and a round trip to
        // the service orders everything after it.
        let fence = Box(0)
        try client.addMatch("type='signal',member='Fence'") { _ in fence.mutate { $0 += 1 } }
        try service.emitSignal(
            path: Test.path, interface: Test.interface, member: changed, arguments: [.string("yes")])
        try service.emitSignal(path: Test.path, interface: Test.interface, member: MemberName("Fence"))
        XCTAssertTrue(eventually { fence.value == 1 })
        XCTAssertEqual(seen.value.count, 1)
        assertDBusError(ErrorName(rawValue: "org.freedesktop.DBus.Error.MatchRuleInvalid")) {
            try client.addMatch("type='nonsense'") { _ in }
        }
    }

    func testRequestNameWithDoNotQueueReportsExistsWhenTaken() throws {
        XCTAssertEqual(try client.requestName(Test.name, flags: .doNotQueue), .exists)
        XCTAssertEqual(try client.requestName(Test.name, flags: []), .inQueue)
        XCTAssertEqual(try service.requestName(Test.name, flags: .doNotQueue), .alreadyOwner)
        XCTAssertEqual(try client.releaseName(Test.name), .released)  // leaves the queue
        XCTAssertEqual(try client.releaseName(Test.name), .notOwner)
        XCTAssertEqual(try client.releaseName(BusName("org.livery.Nobody")), .nonExistent)
        assertDBusError(.invalidArgs) { _ = try client.requestName(BusName(":1.99")) }
    }

    func testNameLostIsReportedWhenAnotherConnectionReplacesUs() throws {
        let name = try BusName("org.livery.Replaceable")
        let lost = Box<[String]>([])
        service.onNameLost = { lostName in lost.mutate { $0.append(lostName) } }
        XCTAssertEqual(try service.requestName(name, flags: [.allowReplacement, .doNotQueue]), .primaryOwner)
        XCTAssertEqual(try client.requestName(name, flags: [.replaceExisting, .doNotQueue]), .primaryOwner)
        XCTAssertTrue(eventually { lost.value == ["org.livery.Replaceable"] })
    }

    func testPerformRunsWorkInOrderOnTheLoopThread() throws {
        let log = Box<[String]>([])
        for i in 0..<3 {
            // The loop's own record of its thread: Foundation's thread name, set by the new
            // thread itself, read back once as the process's name under load.
            let loop = service.loop
            service.perform { log.mutate { $0.append("\(i):\(loop.isLoopThread)") } }
        }
        XCTAssertTrue(eventually { log.value.count == 3 })
        XCTAssertEqual(log.value, ["0:true", "1:true", "2:true"])
    }

    /// A call's timeout is its own: a call with a short one fails with NoReply while an earlier
    /// call of a long one, to the same method that has answered neither, still waits, and gets
    /// its answer when it comes.
    func testCallTimesOutWithNoReply() throws {
        let patient = try Connection(address: bus.address)
        defer { patient.close() }
        let answered = Box<Bool?>(nil)
        let hold = try MemberName("Hold")
        // The caller's thread is joined before `patient` closes, with its reply released: a
        // thread still inside the connection when the test process exits can crash it.
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            do {
                let reply = try? patient.call(
                    destination: Test.name, path: Test.path, interface: Test.interface, member: hold,
                    arguments: [.string("patient")], timeout: 600)
                answered.value = reply != nil
            }
            finished.signal()
        }
        XCTAssertTrue(eventually { held.value.count == 1 }, "the long call never arrived")
        assertDBusError(.noReply) {
            _ = try client.call(
                destination: Test.name, path: Test.path, interface: Test.interface, member: hold,
                arguments: [.string("hasty")], timeout: 0.2)
        }
        XCTAssertNil(answered.value, "the long call ended with the short one")
        held.value[0].succeed([])
        XCTAssertEqual(finished.wait(timeout: .now() + 30), .success, "the long call never returned")
        XCTAssertEqual(answered.value, true)
    }

    func testPreparedCallsAreAnsweredEachTimeWithTheirOwnSerial() throws {
        let add = try PreparedCall(
            destination: BusName(service.uniqueName), path: Test.path, interface: Test.interface,
            member: MemberName("Add"), arguments: [.int32(40), .int32(2)])
        let first = try client.call(add)
        let second = try client.call(add)
        XCTAssertEqual(first.arguments, [.int32(42)])
        XCTAssertEqual(second.arguments, [.int32(42)])
        XCTAssertNotEqual(first.replySerial, second.replySerial)
        let failing = try PreparedCall(
            destination: BusName(service.uniqueName), path: Test.path, interface: Test.interface,
            member: MemberName("Add"), arguments: [.string("not a number")])
        assertDBusError(.invalidArgs) { _ = try client.call(failing) }
        assertDBusError(.invalidArgs) { _ = try client.call(add, timeout: .nan) }
        assertDBusError(.invalidArgs) { _ = try client.call(add, timeout: -1) }
    }

    func testStopEndsRunAndDisconnectIsReported() throws {
        let own = try TestBus()
        defer { own.stop() }
        let connection = try Connection(address: own.address)
        let disconnected = Box(false)
        connection.onDisconnect = { disconnected.value = true }
        let thread = connection.startThread()
        XCTAssertTrue(eventually { thread.isExecuting })
        own.stop()
        XCTAssertTrue(eventually { disconnected.value })
        XCTAssertTrue(eventually { thread.isFinished })
        XCTAssertFalse(connection.isConnected)
        assertDBusError(.disconnected) {
            try connection.emitSignal(path: .root, interface: Test.interface, member: MemberName("X"))
        }

        // stop() on a healthy connection ends run() too.
        let second = try Connection(address: bus.address)
        let secondThread = second.startThread()
        XCTAssertTrue(eventually { secondThread.isExecuting })
        second.stop()
        XCTAssertTrue(eventually { secondThread.isFinished })
    }

    func testConnectingToANonexistentAddressThrows() {
        do {
            _ = try Connection(address: "unix:path=/nonexistent/livery-test-socket")
            XCTFail("connected to nothing")
        } catch {
            XCTAssertTrue(error.name.rawValue.hasPrefix("org.freedesktop.DBus.Error."), error.name.rawValue)
            XCTAssertTrue(error.message.contains("/nonexistent/livery-test-socket"), error.message)
        }
        assertDBusError(ErrorName(rawValue: "org.freedesktop.DBus.Error.BadAddress")) {
            _ = try Connection(address: "nonsense")
        }
        assertDBusError(.invalidArgs) { _ = try Connection(address: "unix:path=/x\0y") }
    }
}
