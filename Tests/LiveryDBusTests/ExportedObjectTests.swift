import Foundation
import LiveryDBus
import XCTest

#if canImport(FoundationXML)
    import FoundationXML
#endif

final class ExportedObjectTests: BusTestCase {
    // MARK: Outside clients

    func testGdbusCallsTheExportedObject() throws {
        let add = try runTool(
            "/usr/bin/gdbus",
            [
                "call", "--address", bus.address, "--dest", "org.livery.Test", "--object-path",
                "/org/livery/Test",
                "--method", "org.livery.Test1.Add", "2", "3",
            ])
        XCTAssertEqual(add.status, 0, add.stderr)
        XCTAssertEqual(add.stdout, "(5,)\n")
        let echo = try runTool(
            "/usr/bin/gdbus",
            [
                "call", "--address", bus.address, "--dest", "org.livery.Test", "--object-path",
                "/org/livery/Test",
                "--method", "org.livery.Test1.Echo", "<{'a': <uint32 7>}>",
            ])
        XCTAssertEqual(echo.status, 0, echo.stderr)
        XCTAssertEqual(echo.stdout, "(<{'a': <uint32 7>}>,)\n")
    }

    func testBusctlCallsAndReadsProperties() throws {
        let add = try runTool(
            "/usr/bin/busctl",
            [
                "--address=\(bus.address)", "call", "org.livery.Test", "/org/livery/Test", "org.livery.Test1",
                "Add",
                "ii", "40", "2",
            ])
        XCTAssertEqual(add.status, 0, add.stderr)
        XCTAssertEqual(add.stdout, "i 42\n")
        let count = try runTool(
            "/usr/bin/busctl",
            [
                "--address=\(bus.address)", "get-property", "org.livery.Test", "/org/livery/Test",
                "org.livery.Test1",
                "Count",
            ])
        XCTAssertEqual(count.status, 0, count.stderr)
        XCTAssertEqual(count.stdout, "u 42\n")
        let introspect = try runTool(
            "/usr/bin/busctl",
            [
                "--address=\(bus.address)", "introspect", "--xml-interface", "org.livery.Test",
                "/org/livery/Test",
            ])
        XCTAssertEqual(introspect.status, 0, introspect.stderr)
        XCTAssertTrue(introspect.stdout.contains("<method name=\"Add\">"))
    }

    func testDbusSendGetsRepliesAndErrors() throws {
        let add = try runTool(
            "/usr/bin/dbus-send",
            [
                "--bus=\(bus.address)", "--print-reply", "--dest=org.livery.Test", "/org/livery/Test",
                "org.livery.Test1.Add", "int32:2", "int32:3",
            ])
        XCTAssertEqual(add.status, 0, add.stderr)
        XCTAssertTrue(add.stdout.hasSuffix("\n   int32 5\n"), add.stdout)
        let unknown = try runTool(
            "/usr/bin/dbus-send",
            [
                "--bus=\(bus.address)", "--print-reply", "--dest=org.livery.Test", "/org/livery/Test",
                "org.livery.Test1.Nope",
            ])
        XCTAssertNotEqual(unknown.status, 0)
        XCTAssertTrue(unknown.stderr.contains("org.freedesktop.DBus.Error.UnknownMethod"), unknown.stderr)
    }

    func testPythonDbusCallsMethodsAndSeesCustomErrors() throws {
        let result = try runPython(
            """
            import sys, dbus
            bus = dbus.bus.BusConnection(sys.argv[1])
            t = dbus.Interface(bus.get_object('org.livery.Test', '/org/livery/Test'), 'org.livery.Test1')
            print(int(t.Add(2, 3)))
            # No interface field: the object searches all its interfaces for the member.
            obj = bus.get_object('org.livery.Test', '/org/livery/Test', introspect=False)
            print(int(obj.Add(dbus.Int32(4), dbus.Int32(5))))
            r = t.Echo(dbus.Dictionary({'a': dbus.UInt32(7), 'b': dbus.String('x')}, signature='sv'))
            print(sorted((str(k), str(v)) for k, v in r.items()))
            try:
                t.Fail('org.livery.Livery1.Error.UnknownTheme', "no theme 'nope'")
            except dbus.exceptions.DBusException as e:
                print(e.get_dbus_name(), e.get_dbus_message())
            try:
                t.Add('x', 'y', signature='ss')
            except dbus.exceptions.DBusException as e:
                print(e.get_dbus_name())
            """, address: bus.address)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(
            result.stdout,
            """
            5
            9
            [('a', '7'), ('b', 'x')]
            org.livery.Livery1.Error.UnknownTheme no theme 'nope'
            org.freedesktop.DBus.Error.InvalidArgs

            """)
    }

    func testTwoHundredConcurrentPythonCallsAllGetTheirReplies() throws {
        let result = try runPython(
            """
            import sys, dbus, dbus.mainloop.glib
            from gi.repository import GLib
            dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
            bus = dbus.bus.BusConnection(sys.argv[1])
            obj = bus.get_object('org.livery.Test', '/org/livery/Test', introspect=False)
            loop = GLib.MainLoop()
            results, errors = {}, []
            def make(i):
                def ok(v):
                    results[i] = int(v)
                    if len(results) + len(errors) == 200: loop.quit()
                def err(e):
                    errors.append(str(e))
                    if len(results) + len(errors) == 200: loop.quit()
                return ok, err
            for i in range(200):
                ok, err = make(i)
                obj.Add(dbus.Int32(i), dbus.Int32(1000), dbus_interface='org.livery.Test1',
                        reply_handler=ok, error_handler=err)
            GLib.timeout_add(15000, loop.quit)
            loop.run()
            print(len(results), len(errors), all(results[i] == i + 1000 for i in results))
            """, address: bus.address)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "200 0 True\n")
    }

    func testConcurrentCallsFromManySwiftThreads() throws {
        let failures = Box(0)
        let client = self.client!
        DispatchQueue.concurrentPerform(iterations: 200) { i in
            do {
                let reply = try client.call(
                    destination: Test.name, path: Test.path, interface: Test.interface,
                    member: MemberName("Add"),
                    arguments: [.int32(Int32(i)), .int32(1)], timeout: 10)
                if reply != [.int32(Int32(i) + 1)] { failures.mutate { $0 += 1 } }
            } catch {
                failures.mutate { $0 += 1 }
            }
        }
        XCTAssertEqual(failures.value, 0)
    }

    // MARK: Errors

    func testUnknownMembersInterfacesAndObjectsGetErrors() throws {
        assertDBusError(.unknownMethod) { _ = try callTest("Nope") }
        assertDBusError(.unknownMethod) {
            _ = try callTest("Add", interface: InterfaceName("org.livery.Other"))
        }
        assertDBusError(.unknownObject) {
            _ = try client.call(
                destination: Test.name, path: ObjectPath("/nothing/here"), interface: Test.interface,
                member: MemberName("Add"), arguments: [.int32(1), .int32(2)], timeout: 5)
        }
    }

    func testWrongArgumentTypesGetInvalidArgsNamingBothSignatures() throws {
        let error = assertDBusError(.invalidArgs) { _ = try callTest("Add", [.string("1"), .string("2")]) }
        XCTAssertEqual(error?.message, "Method 'org.livery.Test1.Add' expects signature 'ii' but got 'ss'")
        assertDBusError(.invalidArgs) { _ = try callTest("Add", [.int32(1)]) }
    }

    func testHandlerErrorsReachTheCallerByName() throws {
        let error = assertDBusError(ErrorName(rawValue: "org.livery.Livery1.Error.UnknownTheme")) {
            _ = try callTest(
                "Fail", [.string("org.livery.Livery1.Error.UnknownTheme"), .string("no theme 'x'")])
        }
        XCTAssertEqual(error?.message, "no theme 'x'")
        let plain = assertDBusError(.failed) { _ = try callTest("FailPlainly") }
        XCTAssertEqual(plain?.message, "oops")
        // An invalid error name from a handler must not crash libdbus; it becomes Failed.
        let invalid = assertDBusError(.failed) {
            _ = try callTest("Fail", [.string("not valid"), .string("m")])
        }
        XCTAssertEqual(invalid?.message, "not valid: m")
        let wrong = assertDBusError(.failed) { _ = try callTest("WrongReply") }
        XCTAssertTrue(wrong?.message.contains("returned signature 's' instead of its declared 'u'") ?? false)
    }

    // MARK: Answers given later

    func testADeferredReplyLetsOtherCallsBeAnsweredMeanwhile() throws {
        // Another connection, so that its blocking call does not hold up this client's.
        let other = try Connection(address: bus.address)
        defer { other.close() }
        let later = Box<[DBusValue]?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            later.value = try? other.call(
                destination: Test.name, path: Test.path, interface: Test.interface,
                member: MemberName("Later"), arguments: [.string("hi")], timeout: 10)
            done.signal()
        }
        // `Later` waits for the gate; the loop thread answers other calls meanwhile, from this
        // client and from gdbus.
        for i in 0..<20 {
            XCTAssertEqual(try callTest("Add", [.int32(Int32(i)), .int32(1)]), [.int32(Int32(i) + 1)])
        }
        let add = try runTool(
            "/usr/bin/gdbus",
            [
                "call", "--address", bus.address, "--dest", "org.livery.Test", "--object-path",
                "/org/livery/Test",
                "--method", "org.livery.Test1.Add", "2", "3",
            ])
        XCTAssertEqual(add.stdout, "(5,)\n", add.stderr)
        XCTAssertNil(later.value, "Later answered before the gate opened")
        gate.signal()
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(later.value, [.string("hi!")], "one answer, the first")
        // The second answer was not sent: the next call gets its own reply.
        XCTAssertEqual(try callTest("Add", [.int32(1), .int32(1)]), [.int32(2)])
    }

    func testCallsAwaitingADeferredReplyDoNotStopTheConnectionReading() throws {
        // libdbus stops reading a connection while the calls it received and has not freed
        // total its maximum received size (63 MiB by default). Four calls of 24 MiB each pass
        // it; all four must reach their handler while none is answered, and a call after them
        // must be answered meanwhile.
        let payload = DBusValue.string(String(repeating: "x", count: 24 << 20))
        // One connection per call: a thread blocked for its reply holds its connection's I/O
        // path and only reads (libdbus), so calls queued on one shared connection by other
        // threads would wait unwritten behind the first one, which is held unanswered.
        let senders = try (0..<4).map { _ in try Connection(address: bus.address) }
        defer { for c in senders { c.close() } }
        let answered = Box(0)
        for sender in senders {
            Thread.detachNewThread {
                if (try? sender.call(
                    destination: Test.name, path: Test.path, interface: Test.interface,
                    member: MemberName("Hold"), arguments: [payload], timeout: 120)) != nil
                {
                    answered.mutate { $0 += 1 }
                }
            }
        }
        XCTAssertTrue(
            eventually(timeout: 60) { held.value.count == 4 }, "\(held.value.count) of 4 calls held")
        XCTAssertEqual(try callTest("Add", [.int32(2), .int32(3)]), [.int32(5)])
        XCTAssertEqual(answered.value, 0)
        for reply in held.value { reply.succeed([]) }
        XCTAssertTrue(eventually(timeout: 60) { answered.value == 4 }, "\(answered.value) of 4 answered")
    }

    func testDetachedCallsAwaitingAReplyDoNotStopTheConnectionReading() throws {
        // As above, but each handler keeps its invocation, detached, to read it later.
        let size = 24 << 20
        let payload = DBusValue.string(String(repeating: "x", count: size))
        let senders = try (0..<4).map { _ in try Connection(address: bus.address) }
        defer { for c in senders { c.close() } }
        let answers = Box<[[DBusValue]]>([])
        for sender in senders {
            Thread.detachNewThread {
                if let answer = try? sender.call(
                    destination: Test.name, path: Test.path, interface: Test.interface,
                    member: MemberName("HoldDetached"), arguments: [payload], timeout: 120)
                {
                    answers.mutate { $0.append(answer) }
                }
            }
        }
        XCTAssertTrue(
            eventually(timeout: 60) { heldDetached.value.count == 4 }, "\(heldDetached.value.count) of 4 held"
        )
        XCTAssertEqual(try callTest("Add", [.int32(2), .int32(3)]), [.int32(5)])
        XCTAssertEqual(answers.value.count, 0)
        // The copies read as the calls were sent.
        for (call, reply) in heldDetached.value {
            reply.succeed([.uint32(UInt32(call.arguments[0].string?.utf8.count ?? 0))])
        }
        XCTAssertTrue(
            eventually(timeout: 60) { answers.value.count == 4 }, "\(answers.value.count) of 4 answered")
        XCTAssertEqual(answers.value.map { $0 }, Array(repeating: [.uint32(UInt32(size))], count: 4))
    }

    func testArrayArgumentsAreCountedWithoutReadingThem() throws {
        let words = DBusValue.strings((0..<1000).map { "word \($0)" })
        // The string, 1,000 words, an empty dictionary, no fourth argument.
        XCTAssertEqual(
            try callTest("Count", [.string("w"), words, .dict([:])]),
            [.array(element: "i", [.int32(-1), .int32(1000), .int32(0), .int32(-1)])])
        // An invocation made of values counts the same, detached or not.
        let made = MethodInvocation(
            sender: "", path: Test.path, member: "Count",
            arguments: [.string("w"), words, .dict(["a": .uint32(1)])])
        XCTAssertEqual([0, 1, 2, 3].map { made.detached().count(ofArrayArgument: $0) }, [nil, 1000, 1, nil])
    }

    func testDeferredRepliesThatFailOrAreDroppedStillAnswerTheCaller() throws {
        let dropped = assertDBusError(.failed) { _ = try callTest("Dropped") }
        XCTAssertEqual(dropped?.message, "org.livery.Test1.Dropped ended without an answer")
        let wrong = assertDBusError(.failed) { _ = try callTest("LaterWrongly") }
        XCTAssertEqual(
            wrong?.message,
            "Method 'org.livery.Test1.LaterWrongly' returned signature 's' instead of its declared 'u'")
        let failing = assertDBusError(ErrorName(rawValue: "org.livery.Test1.Error.Late")) {
            _ = try callTest("LaterFailing")
        }
        XCTAssertEqual(failing?.message, "too late")
        let thrown = assertDBusError(.accessDenied) { _ = try callTest("ThrowsAtOnce") }
        XCTAssertEqual(thrown?.message, "not now")
        // dbus-send, a client nobody here wrote, gets the same error reply.
        let send = try runTool(
            "/usr/bin/dbus-send",
            [
                "--bus=\(bus.address)", "--print-reply", "--dest=org.livery.Test", "/org/livery/Test",
                "org.livery.Test1.Dropped",
            ])
        XCTAssertNotEqual(send.status, 0)
        XCTAssertTrue(send.stderr.contains("org.livery.Test1.Dropped ended without an answer"), send.stderr)
    }

    func testHandlersSeeTheCallersUniqueName() throws {
        XCTAssertEqual(try callTest("Caller"), [.string(client.uniqueName)])
        XCTAssertTrue(client.uniqueName.hasPrefix(":"))
    }

    func testHandlersSeeTheMarshalledBody() throws {
        func bytes(_ reply: [DBusValue]) -> [UInt8] {
            guard case .array(_, let items) = reply.first else { return [] }
            return items.compactMap { if case .byte(let b) = $0 { b } else { nil } }
        }
        // `s` "A" (length, byte, NUL, 2 bytes of padding), an empty `as` (its length), an empty
        // `a{sv}` (its length; dict entries align to 8, which offset 16 already is).
        let reply = try callTest("Body", [.string("A"), .strings([]), .dict([:])])
        XCTAssertEqual(bytes(reply), [1, 0, 0, 0, 65, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
        XCTAssertEqual(reply.last, .string("A"))
        // From another client, and against the bytes of an invocation made from values.
        let arguments: [DBusValue] = [
            .string("Window/Button:highlighted"), .strings(["tint-color", "alpha"]),
            .dict(["app": .string("org.example")]),
        ]
        let expected = MethodInvocation(
            sender: "", path: Test.path, member: "Body", arguments: arguments
        ).marshalledBody
        XCTAssertEqual(bytes(try callTest("Body", arguments)), expected)
        // s: 4 + 25 + NUL, pad to 32; as: length, "tint-color" (4 + 10 + NUL), pad to 52,
        // "alpha" (4 + 5 + NUL) to 62; a{sv}: pad to 64, length, pad to 72 (dict entries align
        // to 8), "app" (4 + 3 + NUL) to 80, variant signature `s` (3 bytes), pad to 84,
        // "org.example" (4 + 11 + NUL): 100.
        XCTAssertEqual(expected.count, 100)
        let gdbus = try runTool(
            "/usr/bin/gdbus",
            [
                "call", "--address", bus.address, "--dest", "org.livery.Test", "--object-path",
                "/org/livery/Test",
                "--method", "org.livery.Test1.Body", "Window/Button:highlighted", "['tint-color', 'alpha']",
                "{'app': <'org.example'>}",
            ])
        XCTAssertEqual(gdbus.status, 0, gdbus.stderr)
        XCTAssertTrue(
            gdbus.stdout.hasPrefix("([byte 0x19, 0x00, 0x00, 0x00, 0x57, 0x69"), gdbus.stdout)
        XCTAssertEqual(gdbus.stdout.components(separatedBy: "0x").count - 1, expected.count, gdbus.stdout)
    }

    /// A big-endian call (Gio can send one) is swapped to this machine's order when it is
    /// received, on the dispatching thread: its body bytes equal a little-endian call's, read
    /// before or after its arguments. (Left to the first read of the arguments, the swap
    /// happened in place on whatever thread read them, racing with the reply.)
    func testCallsOfTheOtherByteOrderAreReadInThisMachinesOrder() throws {
        let script = """
            import sys, gi
            gi.require_version('Gio', '2.0')
            from gi.repository import Gio, GLib
            flags = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION
            c = Gio.DBusConnection.new_for_address_sync(sys.argv[1], flags, None, None)
            for order in (Gio.DBusMessageByteOrder.BIG_ENDIAN, Gio.DBusMessageByteOrder.LITTLE_ENDIAN):
                msg = Gio.DBusMessage.new_method_call("org.livery.Test", "/org/livery/Test", "org.livery.Test1", "Body")
                msg.set_body(GLib.Variant("(sasa{sv})", ("AB", ["tint-color"], {"app": GLib.Variant("s", "x")})))
                msg.set_byte_order(order)
                r, _ = c.send_message_with_reply_sync(msg, Gio.DBusSendMessageFlags.NONE, 5000, None)
                body, path = r.get_body().unpack()
                print(bytes(body).hex(), path)
            """
        let out = try runTool("/usr/bin/python3", ["-c", script, bus.address])
        XCTAssertEqual(out.status, 0, out.stderr)
        let expected = MethodInvocation(
            sender: "", path: Test.path, member: "Body",
            arguments: [.string("AB"), .strings(["tint-color"]), .dict(["app": .string("x")])]
        ).marshalledBody.map { String(format: "%02x", $0) }.joined()
        XCTAssertEqual(out.stdout, "\(expected) AB\n\(expected) AB\n")
    }

    /// A prepared body is the reply to each call, addressed to each caller: this client twice,
    /// then gdbus, a client nobody here wrote, on a connection of its own.
    func testPreparedRepliesReachEachCaller() throws {
        XCTAssertEqual(try callTest("Prepared", [.string("a")]), [.string("prepared")])
        XCTAssertEqual(try callTest("Prepared", [.string("b")]), [.string("prepared")])
        let gdbus = try runTool(
            "/usr/bin/gdbus",
            [
                "call", "--address", bus.address, "--dest", "org.livery.Test", "--object-path",
                "/org/livery/Test", "--method", "org.livery.Test1.Prepared", "c",
            ])
        XCTAssertEqual(gdbus.status, 0, gdbus.stderr)
        XCTAssertEqual(gdbus.stdout, "('prepared',)\n")
        let refused = assertDBusError(.accessDenied) { _ = try callTest("Prepared", [.string("fail")]) }
        XCTAssertEqual(refused?.message, "no answer")
        assertDBusError(.invalidArgs) { _ = try callTest("Prepared", [.uint32(1)]) }
    }

    /// A reply larger than the socket takes at once is written out in parts as the socket
    /// drains, while the caller sends nothing else that would wake the service.
    func testAReplyLargerThanTheSocketBufferIsWrittenOut() throws {
        let size = 32 << 20
        let reply = try client.call(
            destination: Test.name, path: Test.path, interface: Test.interface, member: MemberName("Big"),
            arguments: [.uint32(UInt32(size))], timeout: 20)
        XCTAssertEqual(reply.first?.string?.utf8.count, size)
    }

    /// Calls reach exactly the exported path: not a path that extends it or that it extends,
    /// and an object exported at `/` is called like any other.
    func testCallsReachOnlyTheirExactPath() throws {
        for path in ["/org/livery/Tes", "/org/livery/TestX", "/org/livery/Test/child/x"] {
            let error = assertDBusError(.unknownObject) {
                _ = try client.call(
                    destination: Test.name, path: ObjectPath(path), interface: Test.interface,
                    member: MemberName("Add"), arguments: [.int32(1), .int32(2)], timeout: 5)
            }
            XCTAssertEqual(error?.message, "No object is exported at path '\(path)'")
        }
        try service.export(
            [
                Interface(
                    try InterfaceName("org.livery.Root1"),
                    methods: [Method("Where", outputs: [Argument("path", "o")]) { [.objectPath($0.path)] }])
            ], at: .root)
        XCTAssertEqual(
            try client.call(
                destination: Test.name, path: .root, interface: InterfaceName("org.livery.Root1"),
                member: MemberName("Where"), timeout: 5), [.objectPath(.root)])
        XCTAssertEqual(try callTest("Add", [.int32(40), .int32(2)]), [.int32(42)])
        service.unexport(at: .root)
        assertDBusError(.unknownMethod) {
            _ = try client.call(
                destination: Test.name, path: .root, interface: InterfaceName("org.livery.Root1"),
                member: MemberName("Where"), timeout: 5)
        }
    }

    func testHandlerCanMakeABlockingCallOnTheLoopThread() throws {
        let id = try client.call(
            destination: .bus, path: ObjectPath("/org/freedesktop/DBus"), interface: .bus,
            member: MemberName("GetId"))
        XCTAssertEqual(try callTest("BusId"), id)
        XCTAssertEqual(id.first?.string?.count, 32)
    }

    // MARK: Standard interfaces

    func testIntrospectionDescribesInterfacesAndChildren() throws {
        let reply = try callTest("Introspect", interface: .introspectable)
        let xml = try XCTUnwrap(reply.first?.string)
        XCTAssertTrue(
            xml.hasPrefix(
                "<!DOCTYPE node PUBLIC \"-//freedesktop//DTD D-BUS Object Introspection 1.0//EN\"\n \"http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd\">\n<node>"
            ))
        let parsed = try IntrospectionSummary(xml)
        XCTAssertEqual(
            parsed.interfaces,
            [
                "org.livery.Test1", "org.freedesktop.DBus.Introspectable", "org.freedesktop.DBus.Properties",
                "org.freedesktop.DBus.Peer",
            ])
        XCTAssertEqual(parsed.methods["org.livery.Test1.Add"], ["a:i:in", "b:i:in", "sum:i:out"])
        XCTAssertEqual(parsed.methods["org.livery.Test1.Echo"], ["value:v:in", "value:v:out"])
        XCTAssertEqual(
            parsed.methods["org.freedesktop.DBus.Properties.Get"],
            ["interface_name:s:in", "property_name:s:in", "value:v:out"])
        XCTAssertEqual(parsed.signals["org.livery.Test1.Changed"], ["what:s:"])
        XCTAssertEqual(
            parsed.signals["org.freedesktop.DBus.Properties.PropertiesChanged"],
            ["interface_name:s:", "changed_properties:a{sv}:", "invalidated_properties:as:"])
        XCTAssertEqual(parsed.properties, ["Name:s:readwrite", "Count:u:read", "Quiet:s:read"])
        XCTAssertEqual(parsed.annotations, ["org.freedesktop.DBus.Property.EmitsChangedSignal=false"])
        XCTAssertEqual(parsed.children, ["child"])

        // Parents of exported objects list their children.
        let root = try client.call(
            destination: Test.name, path: .root, interface: .introspectable, member: MemberName("Introspect"))
        XCTAssertEqual(try IntrospectionSummary(root[0].string!).children, ["org"])
        // gdbus parses the XML too.
        let gdbus = try runTool(
            "/usr/bin/gdbus",
            [
                "introspect", "--address", bus.address, "--dest", "org.livery.Test", "--object-path",
                "/org/livery/Test",
            ])
        XCTAssertEqual(gdbus.status, 0, gdbus.stderr)
        XCTAssertTrue(gdbus.stdout.contains("readwrite s Name = 'initial';"), gdbus.stdout)
        XCTAssertTrue(gdbus.stdout.contains("Add(in  i a,"), gdbus.stdout)
    }

    func testPropertiesGetGetAllAndSet() throws {
        let props = InterfaceName.properties
        XCTAssertEqual(
            try callTest("Get", [.string("org.livery.Test1"), .string("Count")], interface: props),
            [.variant(.uint32(42))])
        XCTAssertEqual(
            try callTest("GetAll", [.string("org.livery.Test1")], interface: props),
            [
                .dictionary(
                    key: "s", value: "v",
                    [
                        DBusDictEntry(key: .string("Name"), value: .variant(.string("initial"))),
                        DBusDictEntry(key: .string("Count"), value: .variant(.uint32(42))),
                        DBusDictEntry(key: .string("Quiet"), value: .variant(.string("shh"))),
                    ])
            ])
        XCTAssertEqual(
            try callTest(
                "Set", [.string("org.livery.Test1"), .string("Name"), .variant(.string("new"))],
                interface: props), [])
        XCTAssertEqual(propertyName.value, "new")
        XCTAssertEqual(
            try callTest("Get", [.string("org.livery.Test1"), .string("Name")], interface: props),
            [.variant(.string("new"))])

        assertDBusError(.propertyReadOnly) {
            _ = try callTest(
                "Set", [.string("org.livery.Test1"), .string("Count"), .variant(.uint32(1))], interface: props
            )
        }
        let wrongType = assertDBusError(.invalidArgs) {
            _ = try callTest(
                "Set", [.string("org.livery.Test1"), .string("Name"), .variant(.uint32(1))], interface: props)
        }
        XCTAssertEqual(wrongType?.message, "Property 'Name' has type 's', not 'u'")
        assertDBusError(.accessDenied) {
            _ = try callTest(
                "Set", [.string("org.livery.Test1"), .string("Name"), .variant(.string("forbidden"))],
                interface: props)
        }
        assertDBusError(.unknownProperty) {
            _ = try callTest("Get", [.string("org.livery.Test1"), .string("Nope")], interface: props)
        }
        assertDBusError(.unknownInterface) {
            _ = try callTest("Get", [.string("org.livery.Nope"), .string("Name")], interface: props)
        }
        assertDBusError(.unknownInterface) {
            _ = try callTest("GetAll", [.string("org.livery.Nope")], interface: props)
        }
        XCTAssertEqual(setterCalls.value, 2)
    }

    /// A property with a deferred setter answers `Set` when its setter does, from another
    /// thread: its error, or success; the getter sees what was stored meanwhile.
    func testADeferredSetterAnswersSetWhenItIsDone() throws {
        let stored = Box("dark")
        let path = try ObjectPath("/org/livery/Deferred")
        let interface = try InterfaceName("org.livery.Deferred1")
        try service.export(
            [
                Interface(
                    interface,
                    properties: [
                        Property(
                            "Mode", .string, emitsChangedSignal: false, get: { .string(stored.value) },
                            deferredSet: { value, reply in
                                let mode = value.string ?? ""
                                if mode.isEmpty { throw DBusError(.invalidArgs, "empty") }
                                DispatchQueue.global().async {
                                    guard mode != "dim" else {
                                        reply.fail(DBusError(.failed, "no theme is dim"))
                                        return
                                    }
                                    stored.value = mode
                                    reply.succeed([])
                                }
                            })
                    ])
            ], at: path)
        func set(_ mode: String) throws {
            _ = try client.call(
                destination: Test.name, path: path, interface: .properties, member: MemberName("Set"),
                arguments: [.string(interface.rawValue), .string("Mode"), .variant(.string(mode))], timeout: 5
            )
        }
        try set("light")
        XCTAssertEqual(stored.value, "light")
        let failed = assertDBusError(.failed) { try set("dim") }
        XCTAssertEqual(failed?.message, "no theme is dim")
        assertDBusError(.invalidArgs) { try set("") }
        XCTAssertEqual(
            try client.call(
                destination: Test.name, path: path, interface: .properties, member: MemberName("Get"),
                arguments: [.string(interface.rawValue), .string("Mode")], timeout: 5),
            [.variant(.string("light"))])
    }

    func testPropertiesChangedReachesAPythonListener() throws {
        let result = try runPython(
            """
            import sys, dbus, dbus.mainloop.glib
            from gi.repository import GLib
            dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
            bus = dbus.bus.BusConnection(sys.argv[1])
            loop = GLib.MainLoop()
            seen = []
            def changed(iface, values, invalidated):
                seen.append((str(iface), sorted((str(k), str(v)) for k, v in values.items()), [str(x) for x in invalidated]))
                loop.quit()
            bus.add_signal_receiver(changed, 'PropertiesChanged', 'org.freedesktop.DBus.Properties', None, '/org/livery/Test')
            props = dbus.Interface(bus.get_object('org.livery.Test', '/org/livery/Test'), 'org.freedesktop.DBus.Properties')
            props.Set('org.livery.Test1', 'Name', dbus.String('renamed', variant_level=1))
            GLib.timeout_add(5000, loop.quit)
            loop.run()
            print(seen)
            """, address: bus.address)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "[('org.livery.Test1', [('Name', 'renamed')], [])]\n")
    }

    func testEmitPropertiesChangedCarriesChangedAndInvalidated() throws {
        let seen = Box<[Message]>([])
        try client.addMatch(
            "type='signal',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged'"
        ) {
            message in seen.mutate { $0.append(message) }
        }
        try service.emitPropertiesChanged(
            path: Test.path, interface: Test.interface, changed: ["Count": .uint32(43)], invalidated: ["Name"]
        )
        XCTAssertTrue(eventually { seen.value.count == 1 })
        let message = try XCTUnwrap(seen.value.first)
        XCTAssertEqual(message.signature, "sa{sv}as")
        XCTAssertEqual(message.path, "/org/livery/Test")
        XCTAssertEqual(
            message.arguments,
            [.string("org.livery.Test1"), .dict(["Count": .uint32(43)]), .strings(["Name"])])
    }

    func testPeerPingAndGetMachineId() throws {
        XCTAssertEqual(try callTest("Ping", interface: .peer), [])
        let id = try callTest("GetMachineId", interface: .peer)
        let expected = try String(contentsOfFile: "/etc/machine-id", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(id, [.string(expected)])
        let gdbus = try runTool(
            "/usr/bin/gdbus",
            [
                "call", "--address", bus.address, "--dest", "org.livery.Test", "--object-path",
                "/org/livery/Test",
                "--method", "org.freedesktop.DBus.Peer.Ping",
            ])
        XCTAssertEqual(gdbus.stdout, "()\n")
    }

    func testExportRejectsInvalidDeclarationsAndDuplicatePaths() throws {
        let path = try ObjectPath("/bad")
        assertDBusError(.invalidArgs) {
            try service.export([Interface(Test.interface, methods: [Method("1x") { _ in [] }])], at: path)
        }
        assertDBusError(.invalidArgs) {
            try service.export(
                [
                    Interface(
                        Test.interface, methods: [Method("M", inputs: [Argument("a", "ss")]) { _ in [] }])
                ], at: path)
        }
        assertDBusError(.invalidArgs) { try service.export([Interface(.properties)], at: path) }
        assertDBusError(ErrorName(rawValue: "org.freedesktop.DBus.Error.ObjectPathInUse")) {
            try service.export([], at: Test.path)
        }
        service.unexport(at: Test.childPath)
        assertDBusError(.unknownObject) {
            _ = try client.call(
                destination: Test.name, path: Test.childPath, interface: InterfaceName("org.livery.Child1"),
                member: MemberName("Hello"))
        }
    }
}

/// The parts of introspection XML the tests compare, read with Foundation's XMLParser.
final class IntrospectionSummary: NSObject, XMLParserDelegate {
    var interfaces: [String] = []
    var methods: [String: [String]] = [:]
    var signals: [String: [String]] = [:]
    var properties: [String] = []
    var annotations: [String] = []
    var children: [String] = []
    private var depth = 0
    private var currentInterface = ""
    private var currentMember: (kind: String, name: String)? = nil

    init(_ xml: String) throws {
        super.init()
        let parser = XMLParser(data: Data(xml.utf8))
        parser.delegate = self
        if !parser.parse() { throw parser.parserError ?? DBusError(.failed, "XML did not parse") }
    }

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        depth += 1
        switch name {
        case "interface":
            currentInterface = attributes["name"] ?? ""
            interfaces.append(currentInterface)
        case "method", "signal":
            let key = currentInterface + "." + (attributes["name"] ?? "")
            currentMember = (name, key)
            if name == "method" { methods[key] = [] } else { signals[key] = [] }
        case "arg":
            let entry =
                "\(attributes["name"] ?? ""):\(attributes["type"] ?? ""):\(attributes["direction"] ?? "")"
            if let member = currentMember {
                if member.kind == "method" {
                    methods[member.name, default: []].append(entry)
                } else {
                    signals[member.name, default: []].append(entry)
                }
            }
        case "property":
            properties.append(
                "\(attributes["name"] ?? ""):\(attributes["type"] ?? ""):\(attributes["access"] ?? "")")
        case "annotation":
            annotations.append("\(attributes["name"] ?? "")=\(attributes["value"] ?? "")")
        case "node" where depth == 2:
            children.append(attributes["name"] ?? "")
        default:
            break
        }
    }

    func parser(
        _ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?
    ) {
        depth -= 1
        if name == "method" || name == "signal" { currentMember = nil }
    }
}
