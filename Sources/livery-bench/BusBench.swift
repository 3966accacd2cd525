import Foundation
import LiveryAPI
import LiveryDBus
import Synchronization

/// liveryd on a private dbus-daemon: start-up time to the bus name, resident memory, and the
/// rate of `Resolve` calls next to `Peer.Ping` calls from one client.
struct BusResults: Codable {
    var themesGenerated: Int
    var themesShipped: Int
    /// Themes `ListThemes` lists, and how many of them are valid.
    var themesListed: Int
    var themesValid: Int
    var startupSeconds: [Double]
    var rssKiBAfterStartup: [Int]
    var rssKiBAfterCalls: Int
    var calls: Int
    var resolvePath: String
    /// The timed loops: Ping and Resolve with the arguments marshalled for every call, then
    /// both again with each call marshalled once (`PreparedCall`, a copy sent per call). Each
    /// runs as `rounds` rounds of a Ping block, a Resolve block and a block of the same Resolve
    /// against the C floor (``FloorResults``), `calls / rounds` calls a block, so that a slow
    /// spell of a shared machine hits all alike; `ratios` (and `preparedRatios`) hold each
    /// round's Resolve rate ÷ Ping rate, and their median is the figure judged.
    var ping: Loop
    var resolve: Loop
    var preparedPing: Loop
    var preparedResolve: Loop
    var rounds: Int
    var ratios: [Double]
    var preparedRatios: [Double]
    /// The same `Resolve` answered by the C floor, timed in the same rounds.
    var floor: FloorResults
    /// Ping, Resolve and the C floor's Resolve call by call, each call marshalled anew, then
    /// marshalled once.
    var interleaved: Interleaved
    var preparedInterleaved: Interleaved

    /// One timed loop of `calls` calls: wall time, and the CPU time (user + system) of liveryd,
    /// dbus-daemon and the client over it, seconds.
    struct Loop: Codable {
        var seconds: Double
        var daemonCPU: Double?
        var busCPU: Double?
        var clientCPU: Double?

        /// Both loops' times and CPU times added.
        static func + (a: Loop, b: Loop) -> Loop {
            func sum(_ x: Double?, _ y: Double?) -> Double? { x.flatMap { x in y.map { x + $0 } } }
            return Loop(
                seconds: a.seconds + b.seconds, daemonCPU: sum(a.daemonCPU, b.daemonCPU),
                busCPU: sum(a.busCPU, b.busCPU), clientCPU: sum(a.clientCPU, b.clientCPU))
        }
    }
}

/// `Resolve` against the C floor (`bench/fanout/floor/resolve`): a plain libdbus server on
/// liveryd's bus, under a name of the same length, that answers the call with liveryd's reply
/// body, marshalled once, copied per call. Its blocks run in the same rounds as liveryd's
/// (Ping, Resolve, then the floor's Resolve), so `ratios` hold each round's liveryd Resolve
/// rate ÷ the floor's. (The figure judged is ``Interleaved/resolveOverFloor``: a block's rate
/// depends on where the scheduler put the three processes of its round trips for that block.)
struct FloorResults: Codable {
    /// The floor's loops; `daemonCPU` is the floor process's CPU, `busCPU` the dbus-daemon's.
    var resolve: BusResults.Loop
    var preparedResolve: BusResults.Loop
    var ratios: [Double]
    var preparedRatios: [Double]
}

/// Calls timed one by one in strict alternation of two kinds (A, B, A, B, …), each call's
/// round trip on its own: Ping against Resolve (both liveryd's), then liveryd's Resolve against
/// the C floor's (each call then to the other server than the call before, for both alike).
/// Both kinds of a pair share the machine's state and the scheduler's placement of the
/// processes at every moment; blocks of calls each settle into a placement of their own, and a
/// block's rate moved by up to 4× with it on the 2-core machine. (Three kinds in one rotation
/// reversed every other round call two of them twice in a row at the turns: a second call to a
/// process that has just answered is quicker, which biased the ratios by several per cent.)
struct Interleaved: Codable {
    /// Rounds of each pair: one call of each kind.
    var rounds: Int
    /// Round trips, seconds, 10th, 50th and 90th percentile (nearest rank): Ping and Resolve
    /// alternated, then Resolve and the C floor's Resolve alternated.
    var ping: [Double]
    var resolveAfterPing: [Double]
    var resolve: [Double]
    var floor: [Double]
    /// The median over the rounds of each round's Resolve rate ÷ Ping rate (Ping's seconds ÷
    /// Resolve's), and the same ratio from the totals.
    var resolveOverPing: Double
    var resolveOverPingTotals: Double
    /// The median over the rounds of each round's liveryd Resolve rate ÷ the C floor's (the
    /// figure judged, ≥ 0.9), and the same ratio from the totals.
    var resolveOverFloor: Double
    var resolveOverFloorTotals: Double
}

struct BenchFailure: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}

/// VmRSS of a process in KiB.
func residentKiB(_ pid: Int32) -> Int? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
    for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])
    }
    return nil
}

/// User + system CPU seconds of a process so far (`/proc/PID/stat` fields 14 and 15).
func cpuSeconds(_ pid: Int32) -> Double? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = text.lastIndex(of: ")")
    else { return nil }
    let fields = text[text.index(after: close)...].split(separator: " ")
    guard fields.count > 13, let u = Double(fields[11]), let s = Double(fields[12]) else { return nil }
    return (u + s) / Double(sysconf(Int32(_SC_CLK_TCK)))
}

func which(_ tool: String) -> String? {
    for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
        let p = "\(dir)/\(tool)"
        if FileManager.default.isExecutableFile(atPath: p) { return p }
    }
    return nil
}

/// Writes `count` base16/base24 schemes, copies of the fixtures under distinct names, into `dir`.
func generateThemes(count: Int, fixtures: [URL], into dir: URL) throws {
    let fm = FileManager.default
    try? fm.removeItem(at: dir)
    try fm.createDirectory(at: dir, withIntermediateDirectories: true)
    for i in 0..<count {
        let f = fixtures[i % fixtures.count]
        let name = String(format: "bench%03d-", i) + f.lastPathComponent
        try fm.copyItem(at: f, to: dir.appendingPathComponent(name))
    }
}

/// Starts a private dbus-daemon.
/// - Returns: The process and the bus's address.
private func startPrivateBus() throws -> (Process, String) {
    guard let dbusDaemon = which("dbus-daemon") else { throw BenchFailure("dbus-daemon is not installed") }
    let bus = Process()
    bus.executableURL = URL(fileURLWithPath: dbusDaemon)
    bus.arguments = ["--session", "--nofork", "--nopidfile", "--print-address=1"]
    let out = Pipe()
    bus.standardOutput = out
    bus.standardError = FileHandle.nullDevice
    try bus.run()
    var addressData = Data()
    while !addressData.contains(UInt8(ascii: "\n")) {
        let chunk = out.fileHandleForReading.availableData
        if chunk.isEmpty {
            bus.terminate()
            throw BenchFailure("dbus-daemon printed no address")
        }
        addressData += chunk
    }
    let address = String(decoding: addressData, as: UTF8.self).split(separator: "\n")[0]
        .trimmingCharacters(in: .whitespaces)
    return (bus, address)
}

/// The daemon's environment: fresh XDG directories under `work`, so nothing of the user's is
/// read, and the private bus's address.
private func freshEnvironment(under work: URL, address: String) throws -> [String: String] {
    let fm = FileManager.default
    let home = work.appendingPathComponent("home")
    try? fm.removeItem(at: home)
    for d in ["data", "config", "state", "dirs"] {
        try fm.createDirectory(at: home.appendingPathComponent(d), withIntermediateDirectories: true)
    }
    var env = ["HOME": home.path, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
    env["XDG_DATA_HOME"] = home.appendingPathComponent("data").path
    env["XDG_CONFIG_HOME"] = home.appendingPathComponent("config").path
    env["XDG_STATE_HOME"] = home.appendingPathComponent("state").path
    env["XDG_DATA_DIRS"] = home.appendingPathComponent("dirs").path
    env["DBUS_SESSION_BUS_ADDRESS"] = address
    return env
}

/// `ListThemes` once every installed theme is checked: the daemon checks them after it starts
/// serving (`checked` false until then), so the listing is read again until every theme is
/// checked, for at most 60 s.
private func checkedThemes(_ client: Connection) throws -> [ThemeListing] {
    var listed: [ThemeListing] = []
    let checkDeadline = ContinuousClock.now + .seconds(60)
    repeat {
        listed = ThemeListing.list(decoding: try client.call(.listThemes))
        if listed.allSatisfy(\.checked) { break }
        usleep(20_000)
    } while ContinuousClock.now < checkDeadline
    return listed
}

func runBusBench(
    liveryd: String, floor floorBinary: String, shippedThemes: String, fixtures: [URL], work: URL,
    themeCount: Int, startups: Int, calls: Int, wrapper: [String] = []
) throws -> BusResults {
    let fm = FileManager.default
    let generated = work.appendingPathComponent("themes-\(themeCount)")
    try generateThemes(count: themeCount, fixtures: fixtures, into: generated)
    let shipped = (try fm.contentsOfDirectory(atPath: shippedThemes)).filter { $0 != "schema.json" }.count

    let (bus, address) = try startPrivateBus()
    defer {
        bus.terminate()
        bus.waitUntilExit()
    }

    // Watches NameOwnerChanged for the daemon's name on its own loop thread; the time is taken
    // in the handler.
    let watcher = try Connection(address: address)
    let acquired = DispatchSemaphore(value: 0)
    let acquiredAt = Mutex<Double>(0)
    try watcher.addMatch(LiveryBus.ownerRule) { message in
        let t = now()
        if let change = NameOwnerChange(decoding: message.arguments), !change.newOwner.isEmpty {
            acquiredAt.withLock { $0 = t }
            acquired.signal()
        }
    }
    watcher.startThread()
    defer { watcher.close() }

    let env = try freshEnvironment(under: work, address: address)
    let log = work.appendingPathComponent("liveryd.log")
    _ = fm.createFile(atPath: log.path, contents: nil)

    let launcher = DaemonLauncher(
        liveryd: liveryd, wrapper: wrapper, themes: [generated.path, shippedThemes], address: address,
        environment: env, log: log, acquired: acquired)
    let (startupSeconds, rss, daemon) = try launcher.start(startups) { acquiredAt.withLock { $0 } }
    defer {
        daemon.interrupt()  // SIGINT: a wrapper such as valgrind then still writes its output
        daemon.waitUntilExit()
    }

    let c = try TimedCalls(address: address)
    defer { c.client.close() }
    let reply = try c.resolve()
    guard let values = reply.first?.stringVariantDictionary, !values.isEmpty else {
        throw BenchFailure("Resolve returned no values: \(reply)")
    }
    // Every generated theme must be there and valid, or the start-up figure means little.
    let listed = try checkedThemes(c.client)
    let valid = listed.filter(\.valid).count
    guard listed.count >= themeCount + shipped, valid >= themeCount else {
        throw BenchFailure(
            "liveryd lists \(listed.count) themes, \(valid) valid; expected \(themeCount + shipped)")
    }
    let timer = CallTimer(calls: calls)
    let (anew, once, interleaved, preparedInterleaved) = try timeCalls(
        c, reply: reply, daemon: daemon.processIdentifier, bus: bus.processIdentifier, address: address,
        floor: try ResolveFloor(binary: floorBinary, address: address), timer: timer)
    let rssAfter = residentKiB(daemon.processIdentifier) ?? -1

    return BusResults(
        themesGenerated: themeCount, themesShipped: shipped, themesListed: listed.count, themesValid: valid,
        startupSeconds: startupSeconds,
        rssKiBAfterStartup: rss, rssKiBAfterCalls: rssAfter, calls: calls,
        resolvePath: TimedCalls.resolvePath,
        ping: anew.loops[0], resolve: anew.loops[1], preparedPing: once.loops[0],
        preparedResolve: once.loops[1], rounds: timer.rounds, ratios: anew.ratios(1, over: 0),
        preparedRatios: once.ratios(1, over: 0),
        floor: FloorResults(
            resolve: anew.loops[2], preparedResolve: once.loops[2], ratios: anew.ratios(1, over: 2),
            preparedRatios: once.ratios(1, over: 2)),
        interleaved: interleaved, preparedInterleaved: preparedInterleaved)
}

/// The timed loops: Ping, Resolve and the C floor's Resolve in alternating rounds of blocks,
/// then call by call, each call marshalled anew, then all again with each call marshalled once
/// (`PreparedCall`). The floor is stopped when they are done.
private func timeCalls(
    _ c: TimedCalls, reply: [DBusValue], daemon d: pid_t, bus b: pid_t, address: String, floor: ResolveFloor,
    timer: CallTimer
) throws -> (
    anew: CallTimer.Alternation, once: CallTimer.Alternation, interleaved: Interleaved,
    preparedInterleaved: Interleaved
) {
    defer { floor.stop() }
    let f = try TimedCalls(address: address, destination: ResolveFloor.name)
    defer { f.client.close() }
    guard try f.resolve() == reply else { throw BenchFailure("the C floor answered Resolve differently") }
    for _ in 0..<min(1000, timer.calls) {
        try c.ping()
        _ = try c.resolve()
        _ = try f.resolve()
    }
    // The floor's dbus-daemon is liveryd's.
    let fd = floor.process.processIdentifier
    let anewBlocks: [CallTimer.Block] = [
        .init(daemon: d, bus: b) { try c.ping() }, .init(daemon: d, bus: b) { _ = try c.resolve() },
        .init(daemon: fd, bus: b) { _ = try f.resolve() },
    ]
    let anew = try timer.alternate(anewBlocks)
    let (pingCall, resolveCall) = try c.prepared()
    let floorCall = try f.prepared().resolve
    let (client, floorClient) = (c.client, f.client)
    guard try client.call(resolveCall).arguments == reply, try floorClient.call(floorCall).arguments == reply
    else { throw BenchFailure("a prepared Resolve call answered differently") }
    let onceBlocks: [CallTimer.Block] = [
        .init(daemon: d, bus: b) { _ = try client.call(pingCall).arguments },
        .init(daemon: d, bus: b) { _ = try client.call(resolveCall).arguments },
        .init(daemon: fd, bus: b) { _ = try floorClient.call(floorCall).arguments },
    ]
    let once = try timer.alternate(onceBlocks)
    return (
        anew, once, try timer.interleave(ping: anewBlocks[0], resolve: anewBlocks[1], floor: anewBlocks[2]),
        try timer.interleave(ping: onceBlocks[0], resolve: onceBlocks[1], floor: onceBlocks[2])
    )
}

/// The C floor of `Resolve` (`bench/fanout/floor/resolve.c`) on liveryd's bus, under a name of
/// the same length (``name``), so that its calls and replies are liveryd's byte for byte but
/// for the destination's text, and the one dbus-daemon routes both: it takes liveryd's reply to
/// the benchmark's call once, then answers every `Resolve` with it.
private struct ResolveFloor {
    static let name = try! BusName("org.livery.Floor01")
    let process: Process

    init(binary: String, address: String) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: binary)
        p.arguments = [
            address, address, LiveryBus.name, LiveryBus.path, LiveryBus.interface,
            LiveryMethod.resolve.member.rawValue, TimedCalls.resolvePath, ResolveFloor.name.rawValue,
        ]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        process = p
        // "ready" once it owns the name; end of file when it failed (its error on stderr).
        var printed = Data()
        while !printed.contains(UInt8(ascii: "\n")) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty {
                stop()
                throw BenchFailure("the C floor \(binary) did not start")
            }
            printed += chunk
        }
    }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }
}

/// Starts liveryd on the private bus, timing it from the start to its name acquired (the time
/// taken on the watcher's loop thread, in its `NameOwnerChanged` handler).
private struct DaemonLauncher {
    let liveryd: String
    /// A program (valgrind, for `make bench-profile-daemon`) that runs liveryd, with its
    /// arguments; empty for none.
    let wrapper: [String]
    /// The generated themes' directory, then the shipped themes'.
    let themes: [String]
    let address: String
    let environment: [String: String]
    let log: URL
    let acquired: DispatchSemaphore

    /// Starts liveryd `count` times, each after the last stopped, keeping the last running.
    /// - Parameter acquiredAt: When the name was last acquired (`now()`).
    /// - Returns: Each start's seconds to its name, the resident memory after each, the last.
    func start(_ count: Int, acquiredAt: () -> Double) throws -> (
        startupSeconds: [Double], rss: [Int], daemon: Process
    ) {
        var startupSeconds: [Double] = []
        var rss: [Int] = []
        for i in 0..<count {
            let (p, seconds) = try start(acquiredAt: acquiredAt)
            startupSeconds.append(seconds)
            rss.append(residentKiB(p.processIdentifier) ?? -1)
            if i == count - 1 { return (startupSeconds, rss, p) }
            p.terminate()
            p.waitUntilExit()
        }
        throw BenchFailure("no daemon")
    }

    /// Starts liveryd and waits for its name, for at most 30 s.
    /// - Returns: The process and the seconds it took to take its name.
    func start(acquiredAt: () -> Double) throws -> (Process, Double) {
        let p = Process()
        let arguments = [
            "--themes-dir", themes[0], "--themes-dir", themes[1], "--address", address, "--log-level",
            "warning",
        ]
        // With a wrapper (e.g. valgrind, for `make bench-profile-daemon`), it runs liveryd.
        if let tool = wrapper.first {
            p.executableURL = URL(fileURLWithPath: which(tool) ?? tool)
            p.arguments = Array(wrapper.dropFirst()) + [liveryd] + arguments
        } else {
            p.executableURL = URL(fileURLWithPath: liveryd)
            p.arguments = arguments
        }
        p.environment = environment
        p.standardOutput = FileHandle.nullDevice
        p.standardError = try FileHandle(forWritingTo: log)
        let t0 = now()
        try p.run()
        guard acquired.wait(timeout: .now() + 30) == .success else {
            p.terminate()
            throw BenchFailure("liveryd did not take \(LiveryBus.name) within 30 s; see \(log.path)")
        }
        return (p, acquiredAt() - t0)
    }
}

/// The calls the bench times, `Peer.Ping` and a `Resolve`, from one client with no loop thread:
/// each call blocks for its reply. They are made with the names directly (no check of the
/// arguments per call).
private struct TimedCalls {
    static let resolvePath = "Window/NavigationBar/BarButtonItem:highlighted"
    let client: Connection
    let dest: BusName
    let path = LiveryBus.objectPath
    let iface = LiveryBus.interfaceName
    let resolveMember = LiveryMethod.resolve.member
    let pingMember: MemberName
    let args: [DBusValue] = [.string(TimedCalls.resolvePath), .strings([]), .dict([:])]

    /// A connection of its own to the bus at `address`, calling `destination`.
    init(address: String, destination: BusName = LiveryBus.busName) throws {
        client = try Connection(address: address)
        dest = destination
        pingMember = try MemberName("Ping")
    }

    func ping() throws {
        _ = try client.call(destination: dest, path: path, interface: .peer, member: pingMember)
    }

    func resolve() throws -> [DBusValue] {
        try client.call(
            destination: dest, path: path, interface: iface, member: resolveMember, arguments: args)
    }

    /// The two calls marshalled once, to be sent as copies.
    func prepared() throws -> (ping: PreparedCall, resolve: PreparedCall) {
        (
            try PreparedCall(destination: dest, path: path, interface: .peer, member: pingMember),
            try PreparedCall(
                destination: dest, path: path, interface: iface, member: resolveMember, arguments: args)
        )
    }
}
