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
}
