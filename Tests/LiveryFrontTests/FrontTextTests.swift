import Foundation
import LiveryAPI
import LiveryDBus
import XCTest

@testable import LiveryFront

/// What the front writes, against what the full client's libraries write: JSON as Foundation's
/// `JSONSerialization` writes it, and the names of the bus contract as LiveryAPI's table has them.
final class FrontTextTests: XCTestCase {
    /// The full client's `jsonLine` for `{key: value}`.
    func foundationLine(_ key: String, _ value: String) throws -> String {
        let data = try JSONSerialization.data(
            withJSONObject: [key: value], options: [.sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    func testJSONStringsAreWrittenAsJSONSerializationWritesThem() throws {
        // Every Unicode scalar, 4,096 to a string.
        var scalars: [Unicode.Scalar] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            scalars.append(scalar)
            if scalars.count == 4096 || value == 0x10FFFF {
                let s = String(String.UnicodeScalarView(scalars))
                XCTAssertEqual(
                    jsonObjectLine("theme", s), try foundationLine("theme", s),
                    "from U+\(String(value, radix: 16))")
                scalars = []
            }
        }
        for s in ["", "forest", "a/b", "\"quoted\" \\ back", "tab\tnew\nline\r\u{8}\u{C}", "e\u{301}", "🏳️‍🌈"] {
            XCTAssertEqual(jsonObjectLine("variant", s), try foundationLine("variant", s), s.debugDescription)
        }
    }

    func testTheContractNamesAreLiveryAPIs() {
        XCTAssertEqual(FrontContract.busName, LiveryBus.busName.rawValue)
        XCTAssertEqual(FrontContract.objectPath, LiveryBus.objectPath.rawValue)
        XCTAssertEqual(FrontContract.interface, LiveryBus.interface)
        XCTAssertEqual(FrontContract.errorPrefix, LiveryErrorKind.prefix)
        XCTAssertEqual(FrontContract.properties, InterfaceName.properties.rawValue)
        XCTAssertEqual(FrontContract.setTheme, LiveryMethod.setTheme.member.rawValue)
        XCTAssertEqual(LiveryMethod.setTheme.inputSignature.rawValue, "s")
        XCTAssertEqual(FrontContract.toggle, LiveryMethod.toggle.member.rawValue)
        XCTAssertEqual(LiveryMethod.toggle.inputSignature.rawValue, "")
        XCTAssertEqual(FrontContract.activeTheme, LiveryProperty.activeTheme.rawValue)
        XCTAssertEqual(FrontContract.variant, LiveryProperty.variant.rawValue)
    }

    func testBusFailuresAreWordedForPeople() {
        func text(_ name: String, _ message: String = "m", timeout: Double = 5, session: String? = "x")
            -> String
        {
            busFailureText(name: name, message: message, timeout: timeout, sessionBusAddress: session)
        }
        XCTAssertEqual(
            text("org.freedesktop.DBus.Error.ServiceUnknown"),
            "liveryd is not running on this bus (org.freedesktop.DBus.Error.ServiceUnknown)")
        XCTAssertEqual(
            text("org.freedesktop.DBus.Error.NoReply", timeout: 0.5),
            "liveryd did not answer within 0.5 s (is it stopped or busy?)")
        XCTAssertEqual(
            text("org.freedesktop.DBus.Error.Timeout", timeout: 3),
            "liveryd did not answer within 3 s (is it stopped or busy?)")
        // A whole number of seconds past Int's range is written as Double writes it (it trapped
        // converting to Int: `--timeout 1e300` and a daemon that went away).
        XCTAssertEqual(
            text("org.freedesktop.DBus.Error.NoReply", timeout: 1e300),
            "liveryd did not answer within \(1e300) s (is it stopped or busy?)")
        XCTAssertEqual(text("org.livery.Livery1.Error.UnknownTheme", "no theme"), "UnknownTheme: no theme")
        XCTAssertEqual(text("org.example.Other", "why"), "org.example.Other: why")
        XCTAssertTrue(
            text("org.freedesktop.DBus.Error.NotSupported", session: "").hasPrefix(
                "no session bus (DBUS_SESSION_BUS_ADDRESS is set but empty)"))
        XCTAssertTrue(
            text(
                "org.freedesktop.DBus.Error.NotSupported", "Unable to autolaunch a dbus-daemon", session: nil
            )
            .hasPrefix("no session bus (DBUS_SESSION_BUS_ADDRESS is not set)"))
        XCTAssertEqual(
            text("org.freedesktop.DBus.Error.FileNotFound", "no socket", session: nil),
            "org.freedesktop.DBus.Error.FileNotFound: no socket")
    }
}
