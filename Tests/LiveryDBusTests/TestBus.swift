import Foundation
import LiveryDBus
import Synchronization
import XCTest

/// A private `dbus-daemon --session` for one test, stopped in tearDown.
final class TestBus {
    let process = Process()
    let address: String

    init() throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        process.arguments = ["--session", "--nofork", "--print-address=1"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        var bytes = Data()
        let handle = out.fileHandleForReading
        while !bytes.contains(UInt8(ascii: "\n")) {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            bytes.append(chunk)
        }
        address = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if address.isEmpty { throw DBusError(.failed, "dbus-daemon printed no address") }
    }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }
}

/// The result of running an outside tool.
struct ToolResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs a program to completion and captures its output.
func runTool(_ path: String, _ arguments: [String], input: String? = nil) throws -> ToolResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    var env = ProcessInfo.processInfo.environment
    env["DBUS_SESSION_BUS_ADDRESS"] = nil
    process.environment = env
    let inPipe = Pipe()
    process.standardInput = input == nil ? FileHandle.nullDevice : inPipe
    try process.run()
    if let input {
        inPipe.fileHandleForWriting.write(Data(input.utf8))
        try inPipe.fileHandleForWriting.close()
    }
    // Read both pipes concurrently so neither fills up and blocks the child.
    let errData = Mutex(Data())
    let reader = Thread { errData.withLock { $0 = err.fileHandleForReading.readDataToEndOfFile() } }
    reader.start()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    while reader.isExecuting || !reader.isFinished { usleep(1000) }
    return ToolResult(
        status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
        stderr: errData.withLock { String(decoding: $0, as: UTF8.self) })
}

/// Runs a Python 3 script with Debian's python3-dbus; `ADDR` is passed as argv[1].
func runPython(_ script: String, address: String) throws -> ToolResult {
    try runTool("/usr/bin/python3", ["-c", script, address])
}

/// Thread-safe storage for values the handlers under test touch.
final class Box<Value: Sendable>: Sendable {
    private let storage: Mutex<Value>
    init(_ value: Value) { storage = Mutex(value) }
    var value: Value {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
    func mutate(_ body: (inout Value) -> Void) { storage.withLock { body(&$0) } }
}

/// Polls `condition` until it holds or `timeout` seconds pass.
func eventually(timeout: Double = 5, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        usleep(5_000)
    }
    return condition()
}

/// Names used by the test service.
enum Test {
    static let name = try! BusName("org.livery.Test")
    static let path = try! ObjectPath("/org/livery/Test")
    static let childPath = try! ObjectPath("/org/livery/Test/child")
    static let interface = try! InterfaceName("org.livery.Test1")
}

/// Base class: a private bus, a service exporting a test object, and a client connection.
class BusTestCase: XCTestCase {
    var bus: TestBus!
    var service: Connection!
    var client: Connection!
    let propertyName = Box("initial")
    let setterCalls = Box(0)
    /// Released by a test to let `Later` answer.
    let gate = DispatchSemaphore(value: 0)
    /// The replies `Hold` keeps unanswered until a test answers them.
    let held = Box<[PendingReply]>([])
    /// The calls `HoldDetached` keeps unanswered, each with its invocation detached.
    let heldDetached = Box<[(call: MethodInvocation, reply: PendingReply)]>([])

    override func setUpWithError() throws {
        bus = try TestBus()
        service = try Connection(address: bus.address)
        try service.export(testInterfaces(service), at: Test.path)
        try service.export(
            [Interface(try InterfaceName("org.livery.Child1"), methods: [Method("Hello") { _ in [] }])],
            at: Test.childPath)
        XCTAssertEqual(try service.requestName(Test.name, flags: .doNotQueue), .primaryOwner)
        service.startThread()
        client = try Connection(address: bus.address)
        client.startThread()
    }

    override func tearDown() {
        client?.stop()
        service?.stop()
        client?.close()
        service?.close()
        client = nil
        service = nil
        bus?.stop()
    }

    func testInterfaces(_ connection: Connection) -> [Interface] {
        let propertyName = self.propertyName
        let setterCalls = self.setterCalls
        let gate = self.gate
        let held = self.held
        let heldDetached = self.heldDetached
        let prepared = try! PreparedValues([.string("prepared")])
        return [
            Interface(
                Test.interface,
                methods: [
                    Method(
                        "Echo", inputs: [Argument("value", .variant)], outputs: [Argument("value", .variant)]
                    ) {
                        call in call.arguments
                    },
                    Method(
                        "Add", inputs: [Argument("a", "i"), Argument("b", "i")],
                        outputs: [Argument("sum", "i")]
                    ) { call in
                        [.int32(call.arguments[0].int32! &+ call.arguments[1].int32!)]
                    },
                    Method("Fail", inputs: [Argument("name", .string), Argument("message", .string)]) {
                        call in
                        throw DBusError(
                            ErrorName(rawValue: call.arguments[0].string!), call.arguments[1].string!)
                    },
                    Method("FailPlainly") { _ in
                        struct Oops: Error, CustomStringConvertible { var description: String { "oops" } }
                        throw Oops()
                    },
                    Method("WrongReply", outputs: [Argument("n", .uint32)]) { _ in [.string("not a number")]
                    },
                    Method("Caller", outputs: [Argument("sender", .string)]) { call in [.string(call.sender)]
                    },
                    Method(
                        "Body",
                        inputs: [
                            Argument("path", "s"), Argument("properties", "as"), Argument("options", "a{sv}"),
                        ],
                        outputs: [Argument("body", "ay"), Argument("path", "s")]
                    ) { call in
                        // The body first, then an argument: read after the bytes, still right.
                        [.array(element: "y", call.marshalledBody.map { .byte($0) }), call.arguments[0]]
                    },
                    // Answered from another thread once the test releases `gate`.
                    Method.deferred(
                        "Later", inputs: [Argument("word", .string)], outputs: [Argument("word", .string)]
                    ) {
                        call, reply in
                        let word = call.arguments[0].string ?? ""
                        Thread.detachNewThread {
                            gate.wait()
                            reply.succeed([.string(word + "!")])
                            reply.fail(DBusError(.failed, "a second answer, never sent"))
                        }
                    },
                    // Kept unanswered (its argument unread) until a test answers it.
                    Method.deferred("Hold", inputs: [Argument("payload", .string)]) { _, reply in
                        held.mutate { $0.append(reply) }
                    },
                    // Kept unanswered with a detached copy of the call, its argument unread.
                    Method.deferred(
                        "HoldDetached", inputs: [Argument("payload", .string)],
                        outputs: [Argument("bytes", "u")]
                    ) { call, reply in
                        heldDetached.mutate { $0.append((call.detached(), reply)) }
                    },
                    Method(
                        "Count",
                        inputs: [
                            Argument("word", "s"), Argument("words", "as"), Argument("options", "a{sv}"),
                        ],
                        outputs: [Argument("counts", "ai")]
                    ) { call in
                        [
                            .array(
                                element: "i",
                                (0..<4).map { .int32(Int32(call.count(ofArrayArgument: $0) ?? -1)) })
                        ]
                    },
                    Method.deferred("Dropped") { _, _ in },
                    Method.deferred("LaterWrongly", outputs: [Argument("n", .uint32)]) { _, reply in
                        DispatchQueue.global().async { reply.succeed([.string("not a number")]) }
                    },
                    Method.deferred("LaterFailing") { _, reply in
                        DispatchQueue.global().async {
                            reply.fail(
                                DBusError(ErrorName(rawValue: "org.livery.Test1.Error.Late"), "too late"))
                        }
                    },
                    Method.deferred("ThrowsAtOnce") { _, _ in
                        throw DBusError(.accessDenied, "not now")
                    },
                    // One body marshalled once, the reply to every call; "fail" gets an error.
                    Method.prepared(
                        "Prepared", inputs: [Argument("word", .string)],
                        outputs: [Argument("answer", .string)]
                    ) { call in
                        if call.arguments[0].string == "fail" { throw DBusError(.accessDenied, "no answer") }
                        return prepared
                    },
                    // A reply of `size` bytes, more than a socket's buffer holds when it is large.
                    Method("Big", inputs: [Argument("size", "u")], outputs: [Argument("text", .string)]) {
                        call in
                        [.string(String(repeating: "x", count: Int(call.arguments[0].uint32 ?? 0)))]
                    },
                    Method("BusId", outputs: [Argument("id", .string)]) { [weak connection] _ in
                        // A blocking call made from inside a handler, on the loop thread.
                        guard let connection else { return [] }
                        return try connection.call(
                            destination: .bus, path: ObjectPath("/org/freedesktop/DBus"), interface: .bus,
                            member: MemberName("GetId"))
                    },
                ],
                signals: [SignalDescription("Changed", arguments: [Argument("what", .string)])],
                properties: [
                    Property(
                        "Name", .string, access: .readWrite, get: { .string(propertyName.value) },
                        set: { value in
                            setterCalls.mutate { $0 += 1 }
                            if value.string == "forbidden" {
                                throw DBusError(.accessDenied, "that name is not allowed")
                            }
                            propertyName.value = value.string!
                        }),
                    Property("Count", .uint32, get: { .uint32(42) }),
                    Property("Quiet", .string, emitsChangedSignal: false, get: { .string("shh") }),
                ])
        ]
    }

    /// Calls a method of the test object from the client connection.
    func callTest(_ member: String, _ arguments: [DBusValue] = [], interface: InterfaceName = Test.interface)
        throws -> [DBusValue]
    {
        try client.call(
            destination: Test.name, path: Test.path, interface: interface, member: MemberName(member),
            arguments: arguments, timeout: 5)
    }

    /// Asserts that `body` throws a DBusError with `name`, and returns it.
    @discardableResult
    func assertDBusError(
        _ name: ErrorName, file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> Void
    ) -> DBusError? {
        do {
            try body()
            XCTFail("expected \(name), got success", file: file, line: line)
        } catch let error as DBusError {
            XCTAssertEqual(error.name, name, error.message, file: file, line: line)
            return error
        } catch {
            XCTFail("expected DBusError, got \(error)", file: file, line: line)
        }
        return nil
    }
}
