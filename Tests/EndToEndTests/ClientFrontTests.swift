import Foundation
import XCTest

/// `livery`, the client's front, against `livery-cli`, the full client, run side by side with the
/// same arguments and environment: the front carries out `get`, `set` and `toggle` itself and must
/// print the same bytes on standard output and standard error and exit with the same status as
/// the full client, on success and on every failure; every other command line it hands to the
/// full client unchanged.
final class ClientFrontTests: EndToEndTestCase {
    /// One finished program's status and output, byte for byte.
    struct Outcome: Equatable, CustomStringConvertible {
        var status: Int32
        var stdout: Data
        var stderr: Data

        var description: String {
            "exit \(status)\n--- stdout:\n\(String(decoding: stdout, as: UTF8.self))"
                + "--- stderr:\n\(String(decoding: stderr, as: UTF8.self))"
        }
    }

    /// Runs `executable` to completion and keeps its output as bytes.
    func outcome(_ executable: String, _ arguments: [String], timeout: TimeInterval = 15) throws -> Outcome {
        let process = try background(executable, arguments)
        guard process.waitForExit(timeout: timeout) else {
            process.kill9()
            throw HarnessFailure("\(executable) \(arguments) did not finish in \(timeout) s")
        }
        return Outcome(
            status: process.process.terminationStatus,
            stdout: FileManager.default.contents(atPath: process.stdoutPath) ?? Data(),
            stderr: FileManager.default.contents(atPath: process.stderrPath) ?? Data())
    }

    /// Runs the front and then the full client with `arguments` (after `prepare` each time, which
    /// puts the daemon back in the same state) and asserts the same outcome.
    /// - Returns: The front's outcome.
    @discardableResult
    func assertSame(
        _ arguments: [String], prepare: () throws -> Void = {}, file: StaticString = #filePath,
        line: UInt = #line
    ) throws -> Outcome {
        try prepare()
        let front = try outcome(Locations.livery, arguments)
        try prepare()
        let full = try outcome(Locations.liveryCLI, arguments)
        XCTAssertEqual(front, full, "livery \(arguments)", file: file, line: line)
        return front
    }

    /// Makes `id` the active theme over the bus, without either client.
    func activate(_ id: String) throws {
        let r = try gdbusCall("SetTheme", [id])
        XCTAssertEqual(r.status, 0, "\(r)")
    }

    func testGetSetAndToggleSucceedAlike() throws {
        try startDaemon()
        try activate("forest")
        for arguments in [
            ["get"], ["get", "--json"], ["get", "--variant"], ["--variant", "--json", "get"],
            ["--timeout=2.5", "get"], ["get", "--timeout", "3"],
        ] {
            let r = try assertSame(["--address", address] + arguments)
            XCTAssertEqual(r.status, 0, "\(arguments): \(r)")
        }
        XCTAssertEqual(try assertSame(["--address=" + address, "get"]).stdout, Data("forest\n".utf8))
        let set = try assertSame(
            ["set", "crimson", "--address", address], prepare: { try activate("forest") })
        XCTAssertEqual(set, Outcome(status: 0, stdout: Data(), stderr: Data()))
        XCTAssertEqual(try activeTheme(), "crimson\n")
        let toggle = try assertSame(["--address", address, "toggle"], prepare: { try activate("default") })
        XCTAssertEqual(toggle.status, 0, "\(toggle)")
        XCTAssertEqual(try activeTheme(), String(decoding: toggle.stdout, as: UTF8.self))
        // The session bus when no address is given.
        XCTAssertEqual(try assertSame(["get"]).status, 0)
    }

    func testTheDaemonsErrorsArePrintedAlike() throws {
        let broken = try makeDirectory("broken-themes")
        try writeBundle("broken", in: broken, sheet: "Buton\u{1B}[31m { tint-colour: #zz; }\n")
        try startDaemon(extraThemesDirectories: [broken])
        try activate("forest")
        for id in ["no-such-theme", "", "-", "bad\u{1B}]0;title\u{7}id", "broken"] {
            let r = try assertSame(["--address", address, "set", id])
            XCTAssertEqual(r.status, 1, "\(id): \(r)")
            XCTAssertTrue(r.stdout.isEmpty, "\(id): \(r)")
            XCTAssertFalse(r.stderr.contains(0x1B), "an escape reached the terminal: \(r)")
        }
        XCTAssertEqual(try activeTheme(), "forest\n")
    }

    func testFailuresWithoutADaemonArePrintedAlike() throws {
        for command in [["get"], ["get", "--json"], ["set", "forest"], ["toggle"]] {
            for bus in [
                ["--address", address], ["--address", "unix:path=\(root)/no-bus"], ["--address", "bogus"],
            ] {
                let r = try assertSame(bus + command)
                XCTAssertEqual(r.status, 1, "\(bus + command): \(r)")
            }
            // The session bus: the test's own, none (no DBUS_SESSION_BUS_ADDRESS and no X display
            // to autolaunch one on), and an empty address.
            XCTAssertEqual(try assertSame(command).status, 1)
            environment["DBUS_SESSION_BUS_ADDRESS"] = nil
            environment["DISPLAY"] = nil
            XCTAssertEqual(try assertSame(command).status, 1)
            environment["DBUS_SESSION_BUS_ADDRESS"] = ""
            XCTAssertEqual(try assertSame(command).status, 1)
            environment["DBUS_SESSION_BUS_ADDRESS"] = address
            XCTAssertEqual(try assertSame(["--system"] + command).status, 1)
        }
    }

    /// A bus that starts liveryd when its name is called (D-Bus activation): both programs
    /// start it alike, each from a bus where it is not running.
    func testBothStartADaemonThroughActivationAlike() throws {
        let services = try makeDirectory("services")
        let socket = root + "/activation-bus"
        let bus = "unix:path=" + socket
        try """
        [D-BUS Service]
        Name=\(Locations.busName)
        Exec=\(Locations.liveryd) --themes-dir \(Locations.themes) --address \(bus)
        """.write(toFile: services + "/\(Locations.busName).service", atomically: true, encoding: .utf8)
        let config = root + "/activation-bus.conf"
        try """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>\(bus)</listen>
          <servicedir>\(services)</servicedir>
          <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
        </busconfig>
        """.write(toFile: config, atomically: true, encoding: .utf8)
        _ = try background(
            Locations.tool("dbus-daemon"), ["--nofork", "--nopidfile", "--config-file=" + config])
        XCTAssertTrue(waitUntil { FileManager.default.fileExists(atPath: socket) }, "the bus never listened")

        /// Stops the liveryd the bus started and waits until its name has no owner.
        func stopActivated() throws {
            let owner = try run(
                Locations.tool("busctl"),
                [
                    "--address=" + bus, "call", "org.freedesktop.DBus", "/org/freedesktop/DBus",
                    "org.freedesktop.DBus", "GetConnectionUnixProcessID", "s", Locations.busName,
                ])
            guard owner.status == 0,
                let pid = owner.stdout.split(separator: " ").last.flatMap({
                    Int32($0.trimmingCharacters(in: .whitespacesAndNewlines))
                })
            else { return }
            kill(pid, SIGTERM)
            let gone = try waitUntil {
                let has = try run(
                    Locations.tool("busctl"),
                    [
                        "--address=" + bus, "call", "org.freedesktop.DBus", "/org/freedesktop/DBus",
                        "org.freedesktop.DBus", "NameHasOwner", "s", Locations.busName,
                    ])
                return has.stdout.hasPrefix("b false")
            }
            XCTAssertTrue(gone, "the activated liveryd did not leave the bus")
        }
        defer { try? stopActivated() }
        // Each run starts liveryd anew with the theme saved before: crimson once set, which has no
        // dark theme to toggle to (an error of the daemon's, the same for both).
        for (arguments, status) in [
            (["get"], 0), (["set", "crimson"], 0), (["toggle"], 1), (["set", "no-such-theme"], 1),
        ] {
            let r = try assertSame(["--address", bus] + arguments, prepare: stopActivated)
            XCTAssertEqual(r.status, Int32(status), "\(arguments): \(r)")
        }
    }

    func testAStoppedDaemonTimesOutAlike() throws {
        try startDaemon()
        kill(daemon.pid, SIGSTOP)
        defer { kill(daemon.pid, SIGCONT) }
        for arguments in [["--timeout", "0.5", "get"], ["--timeout=1", "get", "--variant"]] {
            let r = try assertSame(["--address", address] + arguments)
            XCTAssertEqual(r.status, 1, "\(r)")
        }
    }

    /// Started with standard error or output closed, both clients exit alike, as with them on
    /// /dev/null: the descriptor is not left for the bus connection to take, where the error's text
    /// went down the socket (the front exited 1, the full client with SIGILL or SIGPIPE).
    func testClosedStandardStreamsEndBothAlike() throws {
        try startDaemon()
        for (arguments, closing) in [
            (["set", "no-such-theme"], "2>&-"), (["get"], ">&-"), (["toggle"], ">&- 2>&-"),
        ] {
            var ends: [Int32] = []
            for program in [Locations.livery, Locations.liveryCLI] {
                // The redirections apply to the client alone; the shell prints its status.
                let r = try run(
                    "/bin/sh",
                    ["-c", "\"$@\" \(closing); echo $?", "sh", program, "--address", address] + arguments)
                ends.append(Int32(r.stdout.split(separator: "\n").last ?? "") ?? -1)
            }
            XCTAssertEqual(ends[0], ends[1], "\(arguments) \(closing)")
            XCTAssertEqual(ends[0], arguments[0] == "set" ? 1 : 0, "\(arguments) \(closing)")
        }
    }

    /// A write that fails (a full disk) ends both programs alike: by the trap Foundation's
    /// `FileHandle.write` makes of it in the full client.
    func testAFailedWriteEndsBothAlike() throws {
        try startDaemon()
        for (arguments, stream) in [(["get"], 1), (["set", "no-such-theme"], 2)] {
            var ends: [String] = []
            for program in [Locations.livery, Locations.liveryCLI] {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: program)
                process.arguments = ["--address", address] + arguments
                process.environment = environment
                let full = FileHandle(forWritingAtPath: "/dev/full")
                process.standardOutput = stream == 1 ? full : FileHandle.nullDevice
                process.standardError = stream == 2 ? full : FileHandle.nullDevice
                try process.run()
                process.waitUntilExit()
                ends.append(
                    "\(process.terminationReason == .uncaughtSignal ? "signal" : "exit") \(process.terminationStatus)"
                )
            }
            XCTAssertEqual(ends[0], ends[1], "\(arguments)")
            XCTAssertEqual(ends[0], "signal \(SIGILL)", "\(arguments)")
        }
    }

    func testEveryOtherCommandLineIsTheFullClients() throws {
        for arguments in [
            [], ["--help"], ["-h"], ["get", "--help"], ["--version"], ["set"], ["set", "a", "b"],
            ["get", "extra"],
            ["get", "--json=1"], ["toggle", "--json"], ["set", "forest", "--variant"], ["--address=", "get"],
            ["--address"], ["--timeout", "0", "get"], ["--timeout", "nan", "get"],
            ["--system", "--address", address, "get"],
            ["--", "get"], ["frobnicate"], ["get", "--app", "org.example.Mail"], ["list"],
            ["status", "--json"],
            ["sun", "--latitude", "52.5", "--longitude", "13.4", "--date", "2026-06-21"],
        ] {
            try assertSame(arguments)
        }
    }

    func testTheFrontAloneCarriesOutItsCommandsAndNamesTheMissingFullClient() throws {
        let alone = try makeDirectory("alone") + "/livery"
        try FileManager.default.copyItem(atPath: Locations.livery, toPath: alone)
        let list = try run(alone, ["list"])
        XCTAssertEqual(list.status, 1, "\(list)")
        XCTAssertEqual(
            list.stderr,
            "livery: cannot run \(root)/alone/livery-cli, which carries out this command: No such file or directory\n"
        )
        let get = try run(alone, ["--address", address, "get"])
        XCTAssertEqual(get.status, 1, "\(get)")
        XCTAssertEqual(
            get.stderr,
            "livery: liveryd is not running on this bus (org.freedesktop.DBus.Error.ServiceUnknown)\n")
        // Through a link, the full client is found beside the file linked to.
        let link = try makeDirectory("linked") + "/livery"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: Locations.livery)
        XCTAssertEqual(try run(link, ["--version"]).stdout, "livery 0.1.0\n")
    }

    /// The front starts without Foundation, ICU or the drawing libraries: what the dynamic
    /// loader maps (`readelf`'s NEEDED entries, then `ldd`'s whole list) is libdbus, what
    /// libdbus needs, and the C and C++ runtimes.
    func testTheFrontLoadsNeitherFoundationNorTheDrawingLibraries() throws {
        let needed = try run(Locations.tool("readelf"), ["-d", Locations.livery])
        XCTAssertEqual(needed.status, 0, "\(needed)")
        let names = needed.stdout.split(separator: "\n").filter { $0.contains("(NEEDED)") }.compactMap {
            $0.split(separator: "[").last?.split(separator: "]").first.map(String.init)
        }
        XCTAssertEqual(
            Set(names),
            [
                "libdbus-1.so.3", "libc.so.6", "libm.so.6", "libstdc++.so.6", "libgcc_s.so.1",
                "ld-linux-x86-64.so.2",
            ],
            needed.stdout)
        let front = try run("/usr/bin/ldd", [Locations.livery])
        XCTAssertEqual(front.status, 0, "\(front)")
        for library in [
            "libFoundation", "libswiftCore", "libicu", "libcairo", "librsvg", "libgdk_pixbuf", "libpango",
            "libpng", "libxml2", "libglib", "libyaml",
        ] {
            XCTAssertFalse(front.stdout.contains(library), "\(library): \(front.stdout)")
        }
        let full = try run("/usr/bin/ldd", [Locations.liveryCLI])
        XCTAssertTrue(full.stdout.contains("libFoundation"), full.stdout)
    }
}
