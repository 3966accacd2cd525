import LiveryDBus
import XCTest

final class NameValidationTests: XCTestCase {
    func rejects<T>(
        _ text: String, _ make: (String) throws(DBusError) -> T, file: StaticString = #filePath,
        line: UInt = #line
    ) {
        do {
            _ = try make(text)
            XCTFail("accepted invalid \(T.self) \(text.debugDescription)", file: file, line: line)
        } catch {
            XCTAssertEqual(error.name, .invalidArgs, file: file, line: line)
            let shown = text.replacingOccurrences(of: "\0", with: "\\0").prefix(40)
            XCTAssertTrue(
                error.message.contains("'" + shown), "message \(error.message) does not quote the text",
                file: file, line: line)
        }
    }

    func testObjectPathsFollowTheSpecification() throws {
        for valid in ["/", "/a", "/org/livery/Livery1", "/a_b/C9/_"] {
            XCTAssertEqual(try ObjectPath(valid).rawValue, valid)
        }
        for invalid in ["", "a", "/a/", "//", "/a//b", "/a-b", "/a.b", "/é", "/a\0b", "a/b"] {
            rejects(invalid, ObjectPath.init)
        }
        XCTAssertTrue(try ObjectPath("/a/b").isInside(ObjectPath("/a")))
        XCTAssertFalse(try ObjectPath("/ab").isInside(ObjectPath("/a")))
    }

    func testBusNamesAcceptWellKnownAndUniqueForms() throws {
        for valid in [
            "org.livery.Livery1", ":1.42", "a.b-c", ":1.0", "_a.b", String(repeating: "a.", count: 127) + "a",
        ] {
            XCTAssertEqual(try BusName(valid).rawValue, valid)
        }
        XCTAssertTrue(try BusName(":1.42").isUnique)
        for invalid in [
            "", "org", ".org.x", "org..x", "org.1x", "org.x/", "org.x.", "org.x\0y", ":1", "org.é.x",
            String(repeating: "a.", count: 128),
        ] {
            rejects(invalid, BusName.init)
        }
    }

    func testInterfaceAndErrorNamesRejectHyphensDigitsAndSingleElements() throws {
        for valid in ["org.livery.Livery1", "a._b", "org.freedesktop.DBus.Error.Failed"] {
            XCTAssertEqual(try InterfaceName(valid).rawValue, valid)
            XCTAssertEqual(try ErrorName(valid).rawValue, valid)
        }
        for invalid in ["org.livery-x.A", "org", "org.1a", "org..a", "", String(repeating: "ab.", count: 86)]
        {
            rejects(invalid, InterfaceName.init)
            rejects(invalid) { (s) throws(DBusError) in try ErrorName(s) }
        }
        // Names from the wire are taken as they are.
        XCTAssertEqual(ErrorName(rawValue: "whatever").rawValue, "whatever")
        XCTAssertEqual(ErrorName.unknownMethod.rawValue, "org.freedesktop.DBus.Error.UnknownMethod")
    }

    func testMemberNamesAreOneElement() throws {
        for valid in ["SetTheme", "_x", "a9"] {
            XCTAssertEqual(try MemberName(valid).rawValue, valid)
        }
        for invalid in ["", "1a", "a.b", "a-b", "a b", String(repeating: "m", count: 256)] {
            rejects(invalid, MemberName.init)
        }
    }

    func testSignaturesEnforceLengthNestingAndDictRules() throws {
        let nested32 = String(repeating: "a", count: 32) + "s"
        let structs32 = String(repeating: "(", count: 32) + "s" + String(repeating: ")", count: 32)
        for valid in [
            "", "s", "a{sv}", "aa{sv}", "a(sas)", "a{sa{sv}}", "(ua{sa{sv}})", "a{oa{sa{sv}}}", nested32,
            structs32, "ybnqiuxtdsogh",
        ] {
            XCTAssertEqual(try Signature(valid).rawValue, valid)
        }
        for invalid in [
            "a", "{sv}", "a{vs}", "a{s}", "a{sss}", "()", "(s", "s)", "z", "a{(s)s}", "a{sv", "aa",
            "a" + nested32, "(" + structs32 + ")", String(repeating: "s", count: 256), "s\0",
        ] {
            rejects(invalid) { (s) throws(DBusError) in try Signature(s) }
        }
        XCTAssertEqual(Signature("sa{sv}as").completeTypes, ["s", "a{sv}", "as"])
        XCTAssertTrue(Signature("(ua{sa{sv}})").isSingleCompleteType)
        XCTAssertFalse(Signature("ss").isSingleCompleteType)
    }

    func testStringsWithNULAreRejectedBeforeLibdbusSeesThem() throws {
        XCTAssertFalse(DBusValue.isValidString("a\0b"))
        XCTAssertTrue(DBusValue.isValidString("héllo ✓"))
        XCTAssertFalse(DBusValue.isValidUTF8String([0x61, 0xff]))
        XCTAssertFalse(DBusValue.isValidUTF8String([0xed, 0xa0, 0x80]))  // a UTF-16 surrogate
        XCTAssertFalse(DBusValue.isValidUTF8String([0x61, 0x00]))
        XCTAssertTrue(DBusValue.isValidUTF8String(Array("héllo".utf8)))
        XCTAssertThrowsError(try DBusValue.string("a\0b").validate()) { error in
            XCTAssertEqual((error as? DBusError)?.name, .invalidArgs)
        }
        XCTAssertThrowsError(try DBusValue.array(element: .string, [.uint32(1)]).validate())
        XCTAssertThrowsError(try DBusValue.structure([]).validate())
        XCTAssertThrowsError(try DBusValue.dictionary(key: .variant, value: .string, []).validate())
    }

    func testMatchRulesParseQuotesAndEscapes() throws {
        let rule = try MatchRule("type='signal', interface='org.livery.Test1',arg0='it'\\''s',member=Changed")
        XCTAssertEqual(rule.pairs.map(\.key), ["type", "interface", "arg0", "member"])
        XCTAssertEqual(rule.pairs.map(\.value), ["signal", "org.livery.Test1", "it's", "Changed"])
        let message = Message(
            type: .signal, path: "/x", interface: "org.livery.Test1", member: "Changed",
            arguments: [.string("it's")])
        XCTAssertTrue(rule.matches(message))
        var other = message
        other.arguments = [.string("its")]
        XCTAssertFalse(rule.matches(other))
        XCTAssertTrue(
            try MatchRule("path_namespace='/org/livery'").matches(
                Message(type: .signal, path: "/org/livery/A")))
        XCTAssertFalse(
            try MatchRule("path_namespace='/org/livery'").matches(
                Message(type: .signal, path: "/org/liveryX")))
        XCTAssertThrowsError(try MatchRule("type='signal"))
    }

    func testDictHelperSortsKeysAndWrapsValuesInVariants() {
        let value = DBusValue.dict(["b": .uint32(2), "a": .string("x")])
        XCTAssertEqual(value.signature, "a{sv}")
        XCTAssertEqual(
            value,
            .dictionary(
                key: "s", value: "v",
                [
                    DBusDictEntry(key: .string("a"), value: .variant(.string("x"))),
                    DBusDictEntry(key: .string("b"), value: .variant(.uint32(2))),
                ]))
        XCTAssertEqual(value.stringVariantDictionary, ["a": .string("x"), "b": .uint32(2)])
        XCTAssertEqual(DBusValue.variant(.variant(.double(0.5))).double, 0.5)
        XCTAssertEqual(DBusValue.structure([.uint32(1), .strings(["a"])]).signature, "(uas)")
    }
}
