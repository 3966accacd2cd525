import LiveryDBus
import XCTest

final class ValueRoundTripTests: BusTestCase {
    static let samples: [DBusValue] = {
        let theme = DBusValue.dict(["tint-color": .string("#00ff00ff"), "row-height": .double(80)])
        return [
            .byte(0), .byte(255), .boolean(true), .boolean(false),
            .int16(.min), .int16(.max), .uint16(.max), .int32(.min), .int32(-1), .uint32(.max),
            .int64(.min), .int64(.max), .uint64(.max), .double(3.25), .double(-1e300), .double(.infinity),
            .string(""), .string("héllo ✓ \u{1F3A8}"), .objectPath(try! ObjectPath("/org/livery/Livery1")),
            .signature("a{sa{sv}}"),
            .array(element: "i", [.int32(1), .int32(2), .int32(3)]),
            .array(element: "s", []),
            .array(element: "y", [.byte(1), .byte(0), .byte(255)]),
            theme,
            .dictionary(key: "s", value: "v", []),
            .array(element: "a{sv}", [theme, .dict([:])]),
            .array(
                element: "(sas)", [.structure([.string("Window/Button"), .strings(["tint-color", "x"])])]),
            .dictionary(
                key: "s", value: "a{sv}", [DBusDictEntry(key: .string("Button"), value: theme)]),
            .structure([
                .uint32(7),
                .dictionary(key: "s", value: "a{sv}", [DBusDictEntry(key: .string("Label"), value: theme)]),
            ]),
            .dictionary(
                key: "u", value: "as", [DBusDictEntry(key: .uint32(1), value: .strings(["a", "b"]))]),
            .variant(.variant(.string("deep"))),
            .variant(.array(element: "(dd)", [.structure([.double(1), .double(2)])])),
            .array(element: "v", [.variant(.int64(5)), .variant(.boolean(true))]),
            .structure([.structure([.byte(1)]), .array(element: "ai", [.array(element: "i", [.int32(9)])])]),
        ]
    }()

    func testEveryValueTypeSurvivesARoundTripThroughTheBus() throws {
        for value in Self.samples {
            let reply = try callTest("Echo", [.variant(value)])
            XCTAssertEqual(reply, [.variant(value)], "round trip of \(value.signature)")
        }
    }

    func testNestedVariantsAndDictionariesReadBackWithAccessors() throws {
        let reply = try callTest(
            "Echo",
            [.variant(.dict(["n": .uint32(3), "s": .string("x"), "d": .double(0.5), "b": .boolean(true)]))])
        let dict = try XCTUnwrap(reply.first?.stringVariantDictionary)
        XCTAssertEqual(dict["n"]?.uint32, 3)
        XCTAssertEqual(dict["s"]?.string, "x")
        XCTAssertEqual(dict["d"]?.double, 0.5)
        XCTAssertEqual(dict["b"]?.bool, true)
    }

    func testInvalidValuesAreRejectedLocallyWithoutCrashing() throws {
        assertDBusError(.invalidArgs) { _ = try callTest("Echo", [.variant(.string("nul\0inside"))]) }
        assertDBusError(.invalidArgs) {
            _ = try callTest("Echo", [.variant(.array(element: "s", [.int32(1)]))])
        }
        assertDBusError(.invalidArgs) {
            try service.emitSignal(
                path: Test.path, interface: Test.interface, member: MemberName("Changed"),
                arguments: [.string("\0")])
        }
        // The connection is still usable afterwards.
        XCTAssertEqual(try callTest("Add", [.int32(1), .int32(2)]), [.int32(3)])
    }

    func testUnixFileDescriptorsArriveAsNewDescriptors() throws {
        var fds: [Int32] = [-1, -1]
        XCTAssertEqual(pipe(&fds), 0)
        defer {
            close(fds[0])
            close(fds[1])
        }
        let reply = try callTest("Echo", [.variant(.unixFD(fds[1]))])
        guard case .variant(.unixFD(let received))? = reply.first else {
            return XCTFail("expected a file descriptor, got \(reply)")
        }
        defer { close(received) }
        XCTAssertNotEqual(received, fds[1])
        var a = stat()
        var b = stat()
        fstat(fds[1], &a)
        fstat(received, &b)
        XCTAssertEqual(a.st_ino, b.st_ino)
    }
}
