import Foundation
import LiveryAPI
import LiveryCore
import XCTest

@testable import LiveryDaemon
@testable import LiveryService

/// Watches counted per (path, app) over all clients and per client, released by `Unwatch` and
/// when a client leaves; values kept once per key; the limits; and the publication invariant
/// (no key below a completed serial).
final class WatchRegistryTests: XCTestCase {
    let green = Value.color(RGBA(red8: 0, green8: 128, blue8: 0))
    let red = Value.color(RGBA(red8: 128, green8: 0, blue8: 0))
    let tab = WatchRegistry.Key(path: "Window/TabBar", app: nil)
    let nav = WatchRegistry.Key(path: "Window/NavigationBar", app: nil)

    func testWatchesAreCountedPerKeyOverAllClientsAndReleased() throws {
        let r = WatchRegistry(serial: 4)
        let first = try XCTUnwrap(
            try r.add(owner: ":1.1", keys: [tab], fresh: ["Window/TabBar": ["tint-color": green]], serial: 4))
        XCTAssertEqual(first.serial, 4)
        XCTAssertEqual(first.values, ["Window/TabBar": ["tint-color": green]])
        // A second client, and the first again: the key's values are the ones kept, not `fresh`.
        let second = try XCTUnwrap(
            try r.add(
                owner: ":1.2", keys: [tab, nav], fresh: ["Window/NavigationBar": ["tint-color": red]],
                serial: 4))
        XCTAssertEqual(second.values["Window/TabBar"], ["tint-color": green])
        _ = try r.add(owner: ":1.1", keys: [tab], fresh: [:], serial: 4)
        XCTAssertEqual(r.watches(of: tab), 3)
        XCTAssertEqual(r.watchedCount, 2)
        XCTAssertEqual(r.count(of: ":1.1"), 2)
        // Unwatch takes one watch; a key the client does not watch is ignored.
        XCTAssertEqual(r.remove(owner: ":1.1", keys: [tab, nav]), 1)
        XCTAssertEqual(r.watches(of: tab), 2)
        XCTAssertEqual(r.watches(of: nav), 1)
        // Leaving releases everything the client held, with multiplicity.
        XCTAssertEqual(r.removeAll(of: ":1.2"), 2)
        XCTAssertEqual(r.watches(of: nav), 0)
        XCTAssertEqual(r.watchedCount, 1)
        XCTAssertEqual(r.removeAll(of: ":1.1"), 1)
        XCTAssertEqual(r.watchedCount, 0)
        XCTAssertEqual(r.count(of: ":1.1"), 0)
    }

    /// The same path for another application is another key.
    func testAnApplicationsPathIsItsOwnKey() throws {
        let r = WatchRegistry()
        let mail = WatchRegistry.Key(path: "Window/TabBar", app: "org.example.Mail")
        _ = try r.add(owner: ":1.1", keys: [tab], fresh: ["Window/TabBar": ["tint-color": green]], serial: 0)
        let reading = try XCTUnwrap(
            try r.add(owner: ":1.1", keys: [mail], fresh: ["Window/TabBar": ["tint-color": red]], serial: 0))
        XCTAssertEqual(reading.values, ["Window/TabBar": ["tint-color": red]])
        XCTAssertEqual(r.watchedCount, 2)
    }

    /// A publication recomputes each key below its serial once, reports only changed
    /// properties, and completes when no key is below it.
    func testPublicationCommitsOncePerKeyAndCompletes() throws {
        let r = WatchRegistry(serial: 1)
        _ = try r.add(
            owner: ":1.1", keys: [tab, nav],
            fresh: [
                "Window/TabBar": ["tint-color": green, "x": .length(1)],
                "Window/NavigationBar": ["tint-color": green],
            ],
            serial: 1)
        _ = try r.add(owner: ":1.2", keys: [tab], fresh: [:], serial: 1)
        XCTAssertEqual(r.stale(below: 2), [tab, nav], "the most watched first: tab has two watches")
        XCTAssertFalse(r.complete(2))
        let changes = r.commit(
            [tab: ["tint-color": red, "x": .length(1)], nav: ["tint-color": green]], serial: 2,
            keys: [tab, nav])
        XCTAssertEqual(changes.count, 1, "the navigation bar did not change")
        XCTAssertEqual(changes.first?.key, tab)
        XCTAssertEqual(changes.first?.changes, ["tint-color": red])
        // Committed twice: nothing more (the key is at the serial already).
        XCTAssertTrue(r.commit([tab: ["tint-color": green]], serial: 2, keys: [tab]).isEmpty)
        XCTAssertEqual(r.stale(below: 2), [])
        XCTAssertTrue(r.complete(2))
        XCTAssertEqual(r.completedSerial, 2)
    }

    /// Values read before a publication completed are refused (nil: read again), and keys whose
    /// values are at different serials cannot be answered together; a key that no longer
    /// resolves keeps its values.
    func testOldReadingsAreRefusedAndMixedSerialsWait() throws {
        let r = WatchRegistry(serial: 1)
        _ = try r.add(owner: ":1.1", keys: [tab], fresh: ["Window/TabBar": ["tint-color": green]], serial: 1)
        // Serial 2 is published for tab; nav, read at serial 1 meanwhile, is refused.
        _ = r.commit([tab: ["tint-color": red]], serial: 2, keys: [tab])
        XCTAssertTrue(r.complete(2))
        XCTAssertNil(
            try r.add(
                owner: ":1.2", keys: [nav], fresh: ["Window/NavigationBar": ["tint-color": green]], serial: 1)
        )
        XCTAssertEqual(r.watchedCount, 1, "nothing registered")
        // tab at 2 and a fresh nav at 3 cannot share one serial.
        XCTAssertNil(
            try r.add(
                owner: ":1.2", keys: [tab, nav], fresh: ["Window/NavigationBar": ["tint-color": green]],
                serial: 3))
        let reading = try XCTUnwrap(
            try r.add(
                owner: ":1.2", keys: [tab, nav], fresh: ["Window/NavigationBar": ["tint-color": green]],
                serial: 2))
        XCTAssertEqual(reading.serial, 2)
        XCTAssertEqual(reading.values["Window/TabBar"], ["tint-color": red])
        // nav no longer resolves at 3 (missing from the values): no change, but it is at 3.
        XCTAssertEqual(r.commit([tab: ["tint-color": green]], serial: 3, keys: [tab, nav]).map(\.key), [tab])
        XCTAssertTrue(r.complete(3))
    }

    /// An image whose file changed is reported though its path is the same.
    func testAnEditedImageIsAChange() throws {
        let r = WatchRegistry()
        let image = Value.image("/themes/forest/images/back1.png")
        let button = WatchRegistry.Key(path: "Window/Button", app: nil)
        _ = try r.add(
            owner: ":1.1", keys: [button], fresh: ["Window/Button": ["background-image": image]], serial: 0)
        let changes = r.commit(
            [button: ["background-image": image]], serial: 1,
            editedImages: ["/themes/forest/images/back1.png"],
            keys: [button])
        XCTAssertEqual(changes.first?.changes, ["background-image": image])
    }

    func testOneClientCannotTakeEveryWatch() throws {
        let r = WatchRegistry()
        func keys(_ offset: Int) -> [WatchRegistry.Key] {
            (0..<1024).map { WatchRegistry.Key(path: "Window/View#n\(offset + $0)", app: nil) }
        }
        func fresh(_ k: [WatchRegistry.Key]) -> StyleSnapshot {
            Dictionary(uniqueKeysWithValues: k.map { ($0.path, ["tint-color": green]) })
        }
        for i in 0..<16 {
            _ = try r.add(owner: ":1.1", keys: keys(i * 1024), fresh: fresh(keys(i * 1024)), serial: 0)
        }
        XCTAssertThrowsError(try r.admit(owner: ":1.1", keys: [tab])) { e in
            XCTAssertEqual((e as? ServiceError)?.kind, .limitExceeded)
        }
        XCTAssertThrowsError(try r.admit(owner: ":1.2", keys: keys(0) + [tab])) { e in
            XCTAssertEqual((e as? ServiceError)?.kind, .limitExceeded, "1,025 paths in one call")
        }
        // Another client can; watching keys that are watched already costs no new key.
        XCTAssertNoThrow(try r.add(owner: ":1.2", keys: keys(0), fresh: [:], serial: 0))
        XCTAssertEqual(r.watchedCount, 16 * 1024)
        XCTAssertEqual(r.removeAll(of: ":1.1"), 16 * 1024)
        XCTAssertEqual(r.watchedCount, 1024)
    }

    func testWatchedKeysAreCappedAcrossClients() throws {
        let r = WatchRegistry()
        var made = 0
        var refused: ServiceError?
        for client in 0..<100 {
            let keys = (0..<1024).map { WatchRegistry.Key(path: "Window/View#c\(client)n\($0)", app: nil) }
            do {
                let fresh = Dictionary(uniqueKeysWithValues: keys.map { ($0.path, ["tint-color": green]) })
                _ = try r.add(owner: ":1.\(client)", keys: keys, fresh: fresh, serial: 0)
                made += 1
            } catch {
                refused = error
                break
            }
        }
        XCTAssertEqual(made, WatchRegistry.maximumWatched / 1024)
        XCTAssertEqual(refused?.kind, .limitExceeded)
        // Full: a new client's few paths are still watched (a status bar, `livery watch`); more
        // than its guaranteed share are not.
        let few = (0..<64).map { WatchRegistry.Key(path: "Window/View#late\($0)", app: nil) }
        let fresh = Dictionary(uniqueKeysWithValues: few.map { ($0.path, ["tint-color": green]) })
        XCTAssertNotNil(try r.add(owner: ":2.1", keys: few, fresh: fresh, serial: 0))
        let many = (0..<(WatchRegistry.guaranteedPerClient + 1)).map {
            WatchRegistry.Key(path: "Window/View#later\($0)", app: nil)
        }
        XCTAssertThrowsError(try r.admit(owner: ":2.2", keys: many)) { e in
            XCTAssertEqual((e as? ServiceError)?.kind, .limitExceeded)
        }
    }
}
