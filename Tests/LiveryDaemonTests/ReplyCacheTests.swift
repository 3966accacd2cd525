import Foundation
import LiveryAPI
import LiveryCore
import LiveryDBus
import XCTest

@testable import LiveryDaemon
@testable import LiveryService

final class ReplyCacheTests: XCTestCase {
    func testRepliesBelongToOneThemeGeneration() throws {
        let s = try Scratch().service()
        let cache = ReplyCache()
        func bodyKey(_ path: String, _ properties: [String], _ options: [String: DBusValue]) -> ReplyCache.Key
        {
            ReplyCache.Key(
                MethodInvocation(
                    sender: ":1.1", path: try! ObjectPath("/org/livery/Livery1"), member: "Resolve",
                    arguments: [.string(path), .strings(properties), .dict(options)]
                ).marshalledBody)
        }
        let key = bodyKey("Window/TabBar", ["tint-color"], [:])
        let first = s.activeCascade.generation
        cache.store(first, key, try PreparedValues([.string("old")]))
        XCTAssertEqual(cache.lookup(first, key)?.values, [.string("old")])
        _ = try s.setTheme("forest")
        let second = s.activeCascade.generation
        XCTAssertFalse(first === second)
        XCTAssertNil(cache.lookup(second, key))
        cache.store(second, key, try PreparedValues([.string("new")]))
        XCTAssertNil(cache.lookup(first, key))
        XCTAssertEqual(cache.lookup(second, key)?.values, [.string("new")])
        // The key is the body: path, properties and options (so the application) all count.
        XCTAssertEqual(bodyKey("A", ["b"], [:]), bodyKey("A", ["b"], [:]))
        XCTAssertNotEqual(bodyKey("A", ["b"], [:]), bodyKey("A", ["b"], ["app": .string("app")]))
        XCTAssertNotEqual(bodyKey("A", ["b"], [:]), bodyKey("A", ["b", "c"], [:]))
        XCTAssertNotEqual(bodyKey("A", ["b"], [:]), bodyKey("AB", [], [:]))
        // Too long a body is answered but not kept.
        let long = bodyKey(String(repeating: "A/", count: 3000), [], [:])
        cache.store(second, long, try PreparedValues([.string("long")]))
        XCTAssertNil(cache.lookup(second, long))
    }

    /// A lookup by the bytes of a call's body, as they lie in the marshalled message, finds the
    /// reply stored under a key of the same bytes, and only in the generation it was stored in.
    func testRepliesAreFoundByTheBodysBytesInPlace() throws {
        let s = try Scratch().service()
        let cache = ReplyCache()
        func body(_ path: String, _ properties: [String]) -> [UInt8] {
            MethodInvocation(
                sender: ":1.1", path: try! ObjectPath("/org/livery/Livery1"), member: "Resolve",
                arguments: [.string(path), .strings(properties), .dict([:])]
            ).marshalledBody
        }
        let first = s.activeCascade.generation
        cache.store(
            first, ReplyCache.Key(body("Window/TabBar", [])), try PreparedValues([.string("tab bar")]))
        cache.store(
            first, ReplyCache.Key(body("Window/TabBar", ["alpha"])), try PreparedValues([.string("alpha")]))
        func lookup(_ g: AnyObject & Sendable, _ bytes: [UInt8]) -> [DBusValue]? {
            bytes.withUnsafeBytes { cache.lookup(g, body: $0)?.values }
        }
        XCTAssertEqual(lookup(first, body("Window/TabBar", [])), [.string("tab bar")])
        XCTAssertEqual(lookup(first, body("Window/TabBar", ["alpha"])), [.string("alpha")])
        XCTAssertNil(lookup(first, body("Window/TabBa", [])))
        XCTAssertNil(lookup(first, body("Window/TabBaz", [])))
        XCTAssertNil(lookup(first, body("Window/TabBar", ["alpha", "tint-color"])))
        XCTAssertNil(lookup(first, []))
        _ = try s.setTheme("forest")
        let second = s.activeCascade.generation
        XCTAssertNil(lookup(second, body("Window/TabBar", [])))
        cache.store(second, ReplyCache.Key(body("Window/TabBar", [])), try PreparedValues([.string("new")]))
        XCTAssertEqual(lookup(second, body("Window/TabBar", [])), [.string("new")])
        XCTAssertNil(lookup(first, body("Window/TabBar", [])))
    }
}
