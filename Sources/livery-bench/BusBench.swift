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
    /// pair runs as `rounds` rounds of a Ping block then a Resolve block of `calls / rounds`
    /// calls, so that a slow spell of a shared machine hits both alike; `ratios` (and
    /// `preparedRatios`) hold each round's Resolve rate ÷ Ping rate, and their median is the
    /// figure judged.
    var ping: Loop
    var resolve: Loop
    var preparedPing: Loop
    var preparedResolve: Loop
    var rounds: Int
    var ratios: [Double]
    var preparedRatios: [Double]

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

func runBusBench(
    liveryd: String, shippedThemes: String, fixtures: [URL], work: URL, themeCount: Int, startups: Int,
    calls: Int, wrapper: [String] = []
) throws -> BusResults {
    let fm = FileManager.default
    let generated = work.appendingPathComponent("themes-\(themeCount)")
    try generateThemes(count: themeCount, fixtures: fixtures, into: generated)
    let shipped = (try fm.contentsOfDirectory(atPath: shippedThemes)).filter { $0 != "schema.json" }.count

    // A private bus.
    guard let dbusDaemon = which("dbus-daemon") else { throw BenchFailure("dbus-daemon is not installed") }
    let bus = Process()
    bus.executableURL = URL(fileURLWithPath: dbusDaemon)
    bus.arguments = ["--session", "--nofork", "--nopidfile", "--print-address=1"]
    let out = Pipe()
    bus.standardOutput = out
    bus.standardError = FileHandle.nullDevice
    try bus.run()
    defer {
        bus.terminate()
        bus.waitUntilExit()
    }
    var addressData = Data()
    while !addressData.contains(UInt8(ascii: "\n")) {
        let chunk = out.fileHandleForReading.availableData
        if chunk.isEmpty { throw BenchFailure("dbus-daemon printed no address") }
        addressData += chunk
    }
    let address = String(decoding: addressData, as: UTF8.self).split(separator: "\n")[0]
        .trimmingCharacters(in: .whitespaces)

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

    // Fresh XDG directories, so nothing of the user's is read.
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
    let log = work.appendingPathComponent("liveryd.log")
    _ = fm.createFile(atPath: log.path, contents: nil)

    func start() throws -> (Process, Double) {
        let p = Process()
        let arguments = [
            "--themes-dir", generated.path, "--themes-dir", shippedThemes, "--address", address,
            "--log-level", "warning",
        ]
        // With a wrapper (e.g. valgrind, for `make bench-profile-daemon`), it runs liveryd.
        if let tool = wrapper.first {
            p.executableURL = URL(fileURLWithPath: which(tool) ?? tool)
            p.arguments = Array(wrapper.dropFirst()) + [liveryd] + arguments
        } else {
            p.executableURL = URL(fileURLWithPath: liveryd)
            p.arguments = arguments
        }
        p.environment = env
        p.standardOutput = FileHandle.nullDevice
        p.standardError = try FileHandle(forWritingTo: log)
        let t0 = now()
        try p.run()
        guard acquired.wait(timeout: .now() + 30) == .success else {
            p.terminate()
            throw BenchFailure("liveryd did not take \(LiveryBus.name) within 30 s; see \(log.path)")
        }
        return (p, acquiredAt.withLock { $0 } - t0)
    }

    var startupSeconds: [Double] = []
    var rss: [Int] = []
    var daemon: Process?
    for i in 0..<startups {
        let (p, seconds) = try start()
        startupSeconds.append(seconds)
        rss.append(residentKiB(p.processIdentifier) ?? -1)
        if i == startups - 1 {
            daemon = p
        } else {
            p.terminate()
            p.waitUntilExit()
        }
    }
    guard let daemon else { throw BenchFailure("no daemon") }
    defer {
        daemon.interrupt()  // SIGINT: a wrapper such as valgrind then still writes its output
        daemon.waitUntilExit()
    }

    // One client, no loop thread: each call blocks for its reply.
    let client = try Connection(address: address)
    defer { client.close() }
    let dest = LiveryBus.busName
    let path = LiveryBus.objectPath
    let iface = LiveryBus.interfaceName
    // The timed loops call with the names directly (no check of the arguments per call).
    let resolve = LiveryMethod.resolve.member
    let ping = try MemberName("Ping")
    let resolvePath = "Window/NavigationBar/BarButtonItem:highlighted"
    let args: [DBusValue] = [.string(resolvePath), .strings([]), .dict([:])]
    let reply = try client.call(
        destination: dest, path: path, interface: iface, member: resolve, arguments: args)
    guard let values = reply.first?.stringVariantDictionary, !values.isEmpty else {
        throw BenchFailure("Resolve returned no values: \(reply)")
    }
    // Every generated theme must be there and valid, or the start-up figure means little. The
    // daemon checks the installed themes after it starts serving (`checked` false until then),
    // so the listing is read again until every theme is checked.
    var listed: [ThemeListing] = []
    let checkDeadline = ContinuousClock.now + .seconds(60)
    repeat {
        listed = ThemeListing.list(decoding: try client.call(.listThemes))
        if listed.allSatisfy(\.checked) { break }
        usleep(20_000)
    } while ContinuousClock.now < checkDeadline
    let valid = listed.filter(\.valid).count
    guard listed.count >= themeCount + shipped, valid >= themeCount else {
        throw BenchFailure(
            "liveryd lists \(listed.count) themes, \(valid) valid; expected \(themeCount + shipped)")
    }
    for _ in 0..<min(1000, calls) {
        _ = try client.call(destination: dest, path: path, interface: .peer, member: ping)
        _ = try client.call(destination: dest, path: path, interface: iface, member: resolve, arguments: args)
    }
    func own() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }
    func delta(_ a: Double?, _ b: Double?) -> Double? { a.flatMap { x in b.map { $0 - x } } }
    let rounds = 10
    func timed(_ n: Int, _ call: () throws -> Void) rethrows -> BusResults.Loop {
        let (d0, b0, c0, t0) = (
            cpuSeconds(daemon.processIdentifier), cpuSeconds(bus.processIdentifier), own(), now()
        )
        for _ in 0..<n { try call() }
        let (t1, c1) = (now(), own())
        return BusResults.Loop(
            seconds: t1 - t0, daemonCPU: delta(d0, cpuSeconds(daemon.processIdentifier)),
            busCPU: delta(b0, cpuSeconds(bus.processIdentifier)), clientCPU: c1 - c0)
    }
    /// `rounds` rounds of a Ping block then a Resolve block: the totals and each round's ratio.
    func alternate(_ ping: () throws -> Void, _ resolve: () throws -> Void) rethrows -> (
        BusResults.Loop, BusResults.Loop, [Double]
    ) {
        let zero = BusResults.Loop(seconds: 0, daemonCPU: 0, busCPU: 0, clientCPU: 0)
        var (p, r, ratios) = (zero, zero, [Double]())
        for _ in 0..<rounds {
            let a = try timed(calls / rounds, ping)
            let b = try timed(calls / rounds, resolve)
            p = p + a
            r = r + b
            ratios.append(a.seconds / b.seconds)
        }
        return (p, r, ratios)
    }
    let (pingLoop, resolveLoop, ratios) = try alternate(
        { _ = try client.call(destination: dest, path: path, interface: .peer, member: ping) },
        {
            _ = try client.call(
                destination: dest, path: path, interface: iface, member: resolve, arguments: args)
        })
    let pingCall = try PreparedCall(destination: dest, path: path, interface: .peer, member: ping)
    let resolveCall = try PreparedCall(
        destination: dest, path: path, interface: iface, member: resolve, arguments: args)
    guard try client.call(resolveCall).arguments == reply else {
        throw BenchFailure("a prepared Resolve call answered differently")
    }
    let (preparedPingLoop, preparedResolveLoop, preparedRatios) = try alternate(
        { _ = try client.call(pingCall).arguments }, { _ = try client.call(resolveCall).arguments })
    let rssAfter = residentKiB(daemon.processIdentifier) ?? -1

    return BusResults(
        themesGenerated: themeCount, themesShipped: shipped, themesListed: listed.count, themesValid: valid,
        startupSeconds: startupSeconds,
        rssKiBAfterStartup: rss, rssKiBAfterCalls: rssAfter, calls: calls, resolvePath: resolvePath,
        ping: pingLoop, resolve: resolveLoop, preparedPing: preparedPingLoop,
        preparedResolve: preparedResolveLoop, rounds: rounds, ratios: ratios, preparedRatios: preparedRatios)
}
