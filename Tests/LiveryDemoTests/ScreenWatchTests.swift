import Foundation
import LiveryAPI
import LiveryCore
import LiveryDBus
import LiveryDemo
import Synchronization
import XCTest

/// livery-demo's watch of its paths against a stand-in for liveryd on a private bus: the stand-in
/// answers `Watch` as the protocol lets liveryd answer it, and the test looks at what the
/// window is handed.
final class ScreenWatchTests: XCTestCase {
    private let schema: Schema = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return try! Schema.load(from: root.appendingPathComponent("themes/schema.json"))
    }()

    /// A `Changed` newer than the `Watch` reply may reach the client before the reply does
    /// (liveryd sends `Changed` from its publication queue and answers `Watch` from its watch
    /// queue): the window gets its values after the reply's, not never.
    func testAChangedArrivingBeforeTheWatchReplyIsDeliveredAfterIt() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let daemon = try Connection(address: bus.address)
        defer { daemon.close() }
        let client = try Connection(address: bus.address)
        defer { client.close() }

        // The client's loop runs on a thread of its own while `Watch` is awaited, so a signal
        // that comes first is handled first. The stand-in answers once the client's loop has
        // dispatched its `Changed` (the work queued with `perform` runs after the dispatch).
        let dispatched = DispatchSemaphore(value: 0)
        let rule = ChangedSignal.rule(path: "Window", app: nil)
        try client.addMatch(rule) { _ in client.perform { dispatched.signal() } }
        client.startThread()

        let read = ComponentValues(["Window": ["alpha": .number(0.5)]])
        let newer = ChangedSignal(
            path: "Window", app: "", serial: 5, values: PropertyValues(sorted: ["alpha": .number(0.25)]))
        let watch = Method.deferred(.watch) { _, reply in
            DispatchQueue.global().async {
                do {
                    try daemon.emitSignal(
                        path: LiveryBus.objectPath, interface: LiveryBus.interfaceName,
                        member: LiverySignal.changed.member, arguments: newer.arguments)
                } catch {
                    reply.fail(error)
                    return
                }
                _ = dispatched.wait(timeout: .now() + 30)
                reply.succeed(WatchReply(serial: 4, values: read).arguments)
            }
        }
        try daemon.export([Interface(LiveryBus.interfaceName, methods: [watch])], at: LiveryBus.objectPath)
        _ = try daemon.requestName(LiveryBus.busName, flags: [.doNotQueue])
        daemon.startThread()

        let updates = Updates()
        let screen = ScreenWatch(
            connection: client, paths: ["Window"], app: nil, schema: schema, timeout: 30,
            deliver: { updates.append($0) }, report: { _ in })
        XCTAssertEqual(try screen.start(), ["Window": ["alpha": .number(0.5)]])
        XCTAssertTrue(
            updates.wait(for: 1),
            "the Changed of serial 5, which came before the reply of serial 4, was dropped")
        XCTAssertEqual(updates.all.first, ["Window": ["alpha": .number(0.25)]])
        withExtendedLifetime(screen) {}
        client.stop()
        daemon.stop()
    }
}

/// The updates a watch hands to the window, with a wait for them.
private final class Updates: Sendable {
    private let updates = Mutex<[ScreenWatch.Update]>([])
    private let arrived = DispatchSemaphore(value: 0)

    func append(_ update: ScreenWatch.Update) {
        updates.withLock { $0.append(update) }
        arrived.signal()
    }

    /// Waits until `count` updates have come, at most 30 s.
    /// - Returns: whether they came.
    func wait(for count: Int) -> Bool {
        while all.count < count {
            if arrived.wait(timeout: .now() + 30) == .timedOut { return false }
        }
        return true
    }

    var all: [ScreenWatch.Update] { updates.withLock { $0 } }
}

/// A private `dbus-daemon --session` for one test, stopped by `stop()`.
final class PrivateBus {
    private let process = Process()
    /// The address clients connect to.
    let address: String

    init() throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        process.arguments = ["--session", "--nofork", "--print-address=1"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        var bytes = Data()
        while !bytes.contains(UInt8(ascii: "\n")) {
            let chunk = out.fileHandleForReading.availableData
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
