import Foundation
import XCTest

/// Where the end-to-end tests find the programs under test, the shipped themes and the shared
/// fixtures: all relative to this file, so that a checkout anywhere works.
enum Locations {
    /// The repository root (this file is `<repo>/Tests/EndToEndTests/Harness.swift`).
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    /// The products under test: the directory of the running test binary, so that a build with
    /// another configuration or scratch path tests its own liveryd and livery.
    static let products = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        .deletingLastPathComponent().path
    static let liveryd = products + "/liveryd"
    /// The client's front (`get`, `set`, `toggle`), which runs `livery-cli` for the rest.
    static let livery = products + "/livery"
    /// The full client, every command.
    static let liveryCLI = products + "/livery-cli"
    /// The GTK 4 window of the sample screen (`make demo`).
    static let liveryDemo = products + "/livery-demo"
    static let themes = repo + "/themes"
    /// `Tests/Fixtures`: the real schemes and the seed cases (Tests/Fixtures/README.md).
    static let fixtures = repo + "/Tests/Fixtures"
    static let schemes = fixtures + "/schemes"
    /// Debian's python3, which has the `dbus` and `gi` modules (not a pyenv shim on PATH).
    static let python = "/usr/bin/python3"
    static let busName = "org.livery.Livery1"
    static let objectPath = "/org/livery/Livery1"
    static let interface = "org.livery.Livery1"

    /// The absolute path of a tool on PATH (or in /usr/bin, /bin).
    static func tool(_ name: String) -> String {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        for dir in ["/usr/bin", "/bin"] + path {
            let candidate = dir + "/" + name
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return "/usr/bin/" + name
    }
}

/// A failure to set up what a test needs (the bus, the daemon), with what went wrong.
struct HarnessFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The outcome of one finished program.
struct RunResult: CustomStringConvertible {
    var status: Int32
    var stdout: String
    var stderr: String
    var timedOut: Bool
    var command: String

    var description: String {
        "`\(command)` exited \(status)\(timedOut ? " (killed after the timeout)" : "")\n--- stdout:\n\(stdout)\n--- stderr:\n\(stderr)"
    }
}

/// Monotonic counter for unique output file names.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func next() -> Int {
        lock.withLock {
            value += 1
            return value
        }
    }
}

private let outputCounter = Counter()

/// A program started in the background with stdout and stderr going to files (no pipes, so it
/// can never block on a full pipe), stopped with SIGTERM and then SIGKILL.
final class Background {
    let name: String
    let process = Process()
    let stdoutPath: String
    let stderrPath: String
    private let exited = DispatchSemaphore(value: 0)
    private var reaped = false

    /// Starts `executable` with `arguments` in `environment`; output files go into `directory`.
    /// It runs in `workingDirectory`, or in the test's own when nil.
    init(
        _ executable: String, _ arguments: [String], environment: [String: String], directory: String,
        workingDirectory: String? = nil
    ) throws {
        let n = outputCounter.next()
        name = (executable as NSString).lastPathComponent
        stdoutPath = "\(directory)/\(n)-\(name).out"
        stderrPath = "\(directory)/\(n)-\(name).err"
        FileManager.default.createFile(atPath: stdoutPath, contents: nil)
        FileManager.default.createFile(atPath: stderrPath, contents: nil)
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        if let workingDirectory { process.currentDirectoryURL = URL(fileURLWithPath: workingDirectory) }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle(forWritingAtPath: stdoutPath)
        process.standardError = FileHandle(forWritingAtPath: stderrPath)
        let exited = self.exited
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
    }

    var pid: pid_t { process.processIdentifier }
    var stdout: String { (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "" }
    var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }
    var isRunning: Bool { process.isRunning }

    /// Waits up to `timeout` seconds for the program to exit; true when it has.
    @discardableResult
    func waitForExit(timeout: TimeInterval) -> Bool {
        if reaped { return true }
        guard exited.wait(timeout: .now() + timeout) == .success else { return false }
        reaped = true
        // The handler runs just before `isRunning` turns false; wait for that too.
        process.waitUntilExit()
        return true
    }

    /// Kills the program with SIGKILL, as a crash would.
    func kill9() {
        if !reaped { kill(pid, SIGKILL) }
        waitForExit(timeout: 10)
    }

    /// SIGTERM, then SIGKILL after two seconds.
    func stop() {
        guard !reaped else { return }
        if process.isRunning { kill(pid, SIGTERM) }
        if !waitForExit(timeout: 2) {
            kill(pid, SIGKILL)
            waitForExit(timeout: 10)
        }
    }
}

/// Polls `condition` every 10 ms for up to `timeout` seconds.
@discardableResult
func waitUntil(timeout: TimeInterval = 10, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
        if try condition() { return true }
        if Date() >= deadline { return false }
        usleep(10_000)
    }
}

/// A private bus, fresh XDG directories and the processes of one test: each test starts from
/// nothing installed or saved, and everything it started is stopped in tearDown.
class EndToEndTestCase: XCTestCase {
    /// The test's scratch directory (canonical path, so published paths compare exactly).
    var root = ""
    var stateHome: String { root + "/state" }
    var configHome: String { root + "/config" }
    var dataHome: String { root + "/data" }
    var dataDirs: String { root + "/data-dirs" }
    var logs: String { root + "/logs" }
    /// The environment of every program the test runs.
    var environment: [String: String] = [:]
    /// The working directory of every program the test runs; nil for the test process's own
    /// (the repository).
    var workingDirectory: String?
    var bus: Background!
    var address = ""
    /// The most recently started liveryd.
    var daemon: Background!
    private var started: [Background] = []

    /// The theme directories every liveryd of these tests gets: the three fixture scheme folders
    /// and the shipped themes. The fixtures come first: the shipped tinted-theming collection
    /// (`themes/tinted`) has schemes of their ids, with other authors and some other colours.
    var standardThemesDirectories: [String] {
        ["base16", "base24", "legacy"].map { Locations.schemes + "/" + $0 } + [Locations.themes]
    }

    override func setUpWithError() throws {
        try super.setUpWithError()
        for binary in [Locations.liveryd, Locations.livery, Locations.liveryCLI] {
            guard FileManager.default.isExecutableFile(atPath: binary) else {
                throw HarnessFailure("\(binary) is missing: run `swift build --build-tests` first")
            }
        }
        let base = FileManager.default.temporaryDirectory.appendingPathComponent(
            "livery-e2e-\(getpid())-\(outputCounter.next())")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        root = base.resolvingSymlinksInPath().path
        for dir in [stateHome, configHome, dataHome, dataDirs, logs] {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        }
        var env = ProcessInfo.processInfo.environment
        env["XDG_STATE_HOME"] = stateHome
        env["XDG_CONFIG_HOME"] = configHome
        env["XDG_DATA_HOME"] = dataHome
        env["XDG_DATA_DIRS"] = dataDirs
        // The default, ~/.cache under each test's HOME: never the cache of whoever runs the tests.
        env["XDG_CACHE_HOME"] = nil
        env["XDG_RUNTIME_DIR"] = nil
        env["DBUS_SESSION_BUS_ADDRESS"] = nil
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        environment = env

        let bus = try Background(
            Locations.tool("dbus-daemon"), ["--session", "--nofork", "--nopidfile", "--print-address=1"],
            environment: env, directory: logs)
        started.append(bus)
        self.bus = bus
        guard waitUntil({ bus.stdout.contains("\n") || !bus.isRunning }), bus.isRunning else {
            throw HarnessFailure("dbus-daemon printed no address: \(bus.stderr)")
        }
        address = bus.stdout.split(separator: "\n")[0].trimmingCharacters(in: .whitespaces)
        // Tools that default to the session bus land on the private one too.
        environment["DBUS_SESSION_BUS_ADDRESS"] = address
    }

    override func tearDownWithError() throws {
        for process in started.reversed() { process.stop() }
        let leftovers = started.filter(\.isRunning).map(\.name)
        started = []
        if !root.isEmpty { try? FileManager.default.removeItem(atPath: root) }
        XCTAssertEqual(leftovers, [], "processes still running after tearDown")
        try super.tearDownWithError()
    }

    // MARK: Processes

    /// dconf-service on the test's bus, with the system's schemas on `XDG_DATA_DIRS` (GNOME's,
    /// GNOME Terminal's), as on a desktop, and a runtime directory of the test's own.
    func startDconf() throws {
        let runtime = try makeDirectory("runtime")
        chmod(runtime, 0o700)
        environment["XDG_RUNTIME_DIR"] = runtime
        environment["XDG_DATA_DIRS"] = dataDirs + ":/usr/local/share:/usr/share"
        let dconf = try background("/usr/libexec/dconf-service", [])
        XCTAssertTrue(dconf.isRunning, dconf.stderr)
    }

    /// Starts a program in the background; tearDown stops it.
    func background(_ executable: String, _ arguments: [String]) throws -> Background {
        let process = try Background(
            executable, arguments, environment: environment, directory: logs,
            workingDirectory: workingDirectory)
        started.append(process)
        return process
    }

    /// Runs a program to completion (killed after `timeout` seconds) and returns its status and
    /// output. Output goes through files, so a chatty program cannot dead-lock the test.
    func run(_ executable: String, _ arguments: [String], timeout: TimeInterval = 10) throws -> RunResult {
        let process = try Background(
            executable, arguments, environment: environment, directory: logs,
            workingDirectory: workingDirectory)
        var timedOut = false
        if !process.waitForExit(timeout: timeout) {
            timedOut = true
            process.kill9()
        }
        return RunResult(
            status: timedOut ? -1 : process.process.terminationStatus, stdout: process.stdout,
            stderr: process.stderr,
            timedOut: timedOut, command: ([process.name] + arguments).map(shortened).joined(separator: " "))
    }

    private func shortened(_ s: String) -> String {
        s.count > 200 ? String(s.prefix(60)) + "…(\(s.count) chars)" : s
    }

    /// `livery --address ADDR ARGS…`.
    func livery(_ arguments: String...) throws -> RunResult {
        try run(Locations.livery, ["--address", address] + arguments)
    }

    /// `gdbus call` on Livery's object: `method` is a member name, or a full
    /// `interface.member` when it contains a dot.
    func gdbusCall(_ method: String, _ arguments: [String]) throws -> RunResult {
        let member = method.contains(".") ? method : Locations.interface + "." + method
        return try run(
            Locations.tool("gdbus"),
            [
                "call", "--address", address, "--dest", Locations.busName, "--object-path",
                Locations.objectPath,
                "--method", member,
            ] + arguments)
    }

    /// `dbus-send --print-reply` to Livery's object.
    func dbusSend(_ member: String, _ arguments: [String]) throws -> RunResult {
        try run(
            Locations.tool("dbus-send"),
            [
                "--bus=" + address, "--print-reply", "--dest=" + Locations.busName, Locations.objectPath,
                member,
            ] + arguments)
    }

    /// Starts `dbus-monitor` on the test's bus with the given match rules and waits until it has
    /// become a monitor (the bus's `NameLost` to it), so that nothing sent afterwards is missed.
    func startMonitor(_ rules: String..., file: StaticString = #filePath, line: UInt = #line) throws
        -> Background
    {
        let monitor = try background(Locations.tool("dbus-monitor"), ["--address", address] + rules)
        XCTAssertTrue(
            waitUntil { monitor.stdout.contains("member=NameLost") },
            "dbus-monitor never became a monitor: \(monitor.stderr)",
            file: file, line: line)
        return monitor
    }

    /// `busctl --address=ADDR ARGS…`.
    func busctl(_ arguments: [String]) throws -> RunResult {
        try run(Locations.tool("busctl"), ["--address=" + address] + arguments)
    }

    /// Writes `source` to a file in the scratch directory and runs it with Debian's python3,
    /// the bus address as argv[1].
    func python(_ source: String, _ arguments: [String] = [], timeout: TimeInterval = 20) throws -> RunResult
    {
        let script = root + "/script-\(outputCounter.next()).py"
        try source.write(toFile: script, atomically: true, encoding: .utf8)
        return try run(Locations.python, [script, address] + arguments, timeout: timeout)
    }

    // MARK: The daemon

    /// Starts liveryd (`executable`, the built one by default) with the standard theme directories
    /// plus `extraThemesDirectories`, and waits (at most 10 s) until it answers on the bus.
    @discardableResult
    func startDaemon(
        extraThemesDirectories: [String] = [], arguments: [String] = [], waitForChecks: Bool = true,
        executable: String = Locations.liveryd
    )
        throws -> Background
    {
        let dirs = standardThemesDirectories + extraThemesDirectories
        let process = try background(
            executable, dirs.flatMap { ["--themes-dir", $0] } + ["--address", address] + arguments)
        daemon = process
        var last: RunResult?
        let up = try waitUntil {
            guard process.isRunning else { return true }  // exited: stop waiting, report below
            let r = try livery("get")
            last = r
            return r.status == 0
        }
        guard up, process.isRunning else {
            process.waitForExit(timeout: 0.2)
            throw HarnessFailure(
                "liveryd never owned \(Locations.busName) (running: \(process.isRunning)); its stderr:\n\(process.stderr)\n"
                    + "last probe: \(last.map { "\($0)" } ?? "none")")
        }
        if waitForChecks { try waitUntilThemesChecked() }
        return process
    }

    /// Waits (at most 60 s) until `ListThemes` lists every theme as checked: liveryd checks the
    /// installed themes on a thread of its own after start-up and after each reload.
    func waitUntilThemesChecked(file: StaticString = #filePath, line: UInt = #line) throws {
        var last: RunResult?
        let done = try waitUntil(timeout: 60) {
            let list = try livery("list", "--json")
            last = list
            guard list.status == 0,
                let themes = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8))
                    as? [[String: Any]]
            else { return false }
            return themes.allSatisfy { $0["checked"] as? Bool == true }
        }
        XCTAssertTrue(done, "themes not all checked: \(last.map { "\($0)" } ?? "")", file: file, line: line)
    }

    /// The value `livery resolve PATH PROPERTY` prints, with its newline, failing on a non-zero exit.
    func resolve(
        _ path: String, _ property: String, app: String? = nil, file: StaticString = #filePath,
        line: UInt = #line
    )
        throws -> String
    {
        let r = try run(
            Locations.livery,
            ["--address", address, "resolve"] + (app.map { ["--app", $0] } ?? []) + [path, property])
        XCTAssertEqual(r.status, 0, "\(r)", file: file, line: line)
        return r.stdout
    }

    /// `livery set ID`, asserting success.
    func setTheme(_ id: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let r = try livery("set", id)
        XCTAssertEqual(
            r.status, 0, "livery set \(id): \(r)\nliveryd stderr:\n\(daemon?.stderr ?? "")", file: file,
            line: line)
        XCTAssertEqual(r.stderr, "", file: file, line: line)
    }

    /// The active theme as `livery get` prints it.
    func activeTheme(file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let r = try livery("get")
        XCTAssertEqual(r.status, 0, "\(r)", file: file, line: line)
        return r.stdout
    }

    /// The `Serial` property read with busctl (`u N`).
    func serial(file: StaticString = #filePath, line: UInt = #line) throws -> UInt32 {
        let r = try busctl([
            "get-property", Locations.busName, Locations.objectPath, Locations.interface, "Serial",
        ])
        XCTAssertEqual(r.status, 0, "\(r)", file: file, line: line)
        let words = r.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ")
        guard words.count == 2, words[0] == "u", let n = UInt32(words[1]) else {
            XCTFail("busctl get-property Serial printed \(r.stdout.debugDescription)", file: file, line: line)
            return 0
        }
        return n
    }

    // MARK: The desktop portal

    /// Debian's xdg-desktop-portal, the frontend that owns `org.freedesktop.portal.Desktop`.
    static let desktopPortal = "/usr/libexec/xdg-desktop-portal"

    /// `org.freedesktop.portal.Settings.ReadAll(['org.freedesktop.*'])` on the portal frontend,
    /// with gdbus.
    func readAllPortalSettings() throws -> RunResult {
        try run(
            Locations.tool("gdbus"),
            [
                "call", "--address", address, "--dest", "org.freedesktop.portal.Desktop", "--object-path",
                "/org/freedesktop/portal/desktop", "--method", "org.freedesktop.portal.Settings.ReadAll",
                "['org.freedesktop.*']",
            ])
    }

    /// Starts Debian's xdg-desktop-portal on the test's bus with the shipped
    /// `systemd/livery.portal` as its only backend (`XDG_DESKTOP_PORTAL_DIR`, and
    /// `XDG_CURRENT_DESKTOP=livery` for its `UseIn=livery`), and waits until its Settings
    /// interface answers `ReadAll`. The variables stay in `environment`; tearDown stops it.
    /// - Returns: the portal process.
    /// - Throws: `HarnessFailure` when it is not installed, exits or never answers.
    @discardableResult
    func startDesktopPortal() throws -> Background {
        guard FileManager.default.isExecutableFile(atPath: Self.desktopPortal) else {
            throw HarnessFailure(
                "\(Self.desktopPortal) is missing (make deps-test installs xdg-desktop-portal)")
        }
        let portals = try makeDirectory("portals")
        try FileManager.default.copyItem(
            atPath: Locations.repo + "/systemd/livery.portal", toPath: portals + "/livery.portal")
        environment["XDG_DESKTOP_PORTAL_DIR"] = portals
        environment["XDG_CURRENT_DESKTOP"] = "livery"
        environment["XDG_RUNTIME_DIR"] = try makeDirectory("runtime")
        // The system's GSettings schemas, which the test's own XDG_DATA_DIRS leaves out, as a
        // desktop's portal has them: its network monitor makes GIO's proxy resolver, which with
        // glib-networking's GNOME module installed reads org.gnome.system.proxy and aborts the
        // portal when no schema is installed.
        environment["GSETTINGS_SCHEMA_DIR"] = "/usr/share/glib-2.0/schemas"
        let portal = try background(Self.desktopPortal, ["--replace", "--verbose"])
        var last: RunResult?
        let answered = try waitUntil {
            last = try readAllPortalSettings()
            return last?.status == 0 || !portal.isRunning
        }
        guard answered, portal.isRunning else {
            throw HarnessFailure(
                "xdg-desktop-portal never answered (running: \(portal.isRunning)): \(portal.stderr)\n"
                    + "last ReadAll: \(last.map { "\($0)" } ?? "none")")
        }
        return portal
    }

    // MARK: Bundles

    /// Creates a directory under the scratch directory and returns its path.
    func makeDirectory(_ relative: String) throws -> String {
        let path = root + "/" + relative
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Writes `<themesDirectory>/<id>/theme.css` (and any extra files) and returns the bundle path.
    @discardableResult
    func writeBundle(_ id: String, in themesDirectory: String, sheet: String, files: [String: Data] = [:])
        throws -> String
    {
        let bundle = themesDirectory + "/" + id
        try FileManager.default.createDirectory(atPath: bundle, withIntermediateDirectories: true)
        try sheet.write(toFile: bundle + "/theme.css", atomically: true, encoding: .utf8)
        for (name, data) in files {
            let path = bundle + "/" + name
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try data.write(to: URL(fileURLWithPath: path))
        }
        return bundle
    }
}

/// A valid 1×1 PNG image (real PNG bytes: signature, IHDR, IDAT, IEND).
let onePixelPNG = Data(
    base64Encoded:
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==")!

extension EndToEndTestCase {
    /// The absolute path of a test package's program; a missing one fails the test.
    func tool(_ name: String) throws -> String {
        let path = Locations.tool(name)
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw HarnessFailure("\(name) is missing: a test package (make deps-test installs it)")
        }
        return path
    }

    /// The slots of a base16 fixture scheme, read from its file: `#rrggbb` lower-case by name
    /// (`base00`).
    func slots(_ scheme: String) throws -> [String: String] {
        let text = try String(contentsOfFile: Locations.schemes + "/base16/\(scheme).yaml", encoding: .utf8)
        var slots: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard parts.count == 2, parts[0].hasPrefix("base") else { continue }
            slots[parts[0]] =
                "#" + parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")).lowercased()
        }
        return slots
    }
}
