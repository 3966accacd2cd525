import LiveryAPI
import LiveryCore
import LiveryDBus
import Synchronization

extension Client {
    /// `livery watch [PATH... [--property P]... [--app ID]] [--json]`: prints `ThemeChanged`
    /// signals, or with paths watches them (DESIGN §5: a match rule per path first, then
    /// `Watch`) and prints each change, until liveryd leaves the bus or the bus goes away
    /// (exit 1).
    func watch() throws -> Int32 {
        let (json, terminal, out) = (inv.json, output.isTerminal, output.out)
        if inv.positional.isEmpty {
            try connection.addMatch(LiveryBus.signalRule(ThemeChangedSignal.member)) { message in
                out(WatchCommand.text(ThemeChangedSignal(decoding: message.arguments), json: json))
            }
            // Make sure the daemon is there before waiting; this also fails fast when it is not.
            _ = try property(.serial)
        } else {
            let session = WatchSession(paths: inv.positional, app: inv.app, properties: inv.properties)
            // Listen before reading, so that no Changed can arrive unheard: one rule per path
            // (arg0, arg1), or for a path too long for a rule, one rule for every Changed.
            var general = false
            for path in Set(inv.positional) {
                let rule = ChangedSignal.rule(path: path, app: inv.app)
                if rule.utf8.count <= LiveryBus.maximumMatchRuleLength {
                    try connection.addMatch(rule) { message in
                        out(session.received(message.arguments, json: json, terminal: terminal))
                    }
                } else if !general {
                    general = true
                    try connection.addMatch(LiveryBus.signalRule(ChangedSignal.member)) { message in
                        out(session.received(message.arguments, json: json, terminal: terminal))
                    }
                }
            }
            try readWatched(session)
        }
        // Follow the daemon: a replacement (`liveryd --replace`) is watched again, as a dconf
        // watch follows a restarted dconf-service; a daemon that leaves the bus, or a bus that
        // goes away, ends the watch with a message and exit status 1.
        let gone = Flag()
        let client = self
        let isPathWatch = !inv.positional.isEmpty
        try connection.addMatch(LiveryBus.ownerRule) { message in
            guard let change = NameOwnerChange(decoding: message.arguments) else { return }
            let new = change.newOwner
            if new.isEmpty {
                client.output.err("livery: liveryd left the bus; watch ended\n")
                gone.set()
                client.connection.stop()
            } else if isPathWatch {
                client.output.err("livery: liveryd was replaced by \(new); watching again\n")
                do { try client.readWatched(nil) } catch {
                    // The bus can go away while the call waits (libdbus then says NoReply):
                    // the watch ends as it ends when the bus goes away at any other time.
                    if !client.connection.isConnected {
                        client.output.err("livery: the bus went away; watch ended\n")
                    } else if let e = error as? DBusError {
                        client.output.err("livery: \(describe(e, timeout: client.inv.timeout))\n")
                    } else {
                        client.output.err("livery: \(error)\n")
                    }
                    gone.set()
                    client.connection.stop()
                }
            } else {
                client.output.err("livery: liveryd was replaced by \(new); its serials start again\n")
            }
        }
        connection.run()
        // The loop ends only by the handlers above or by the end of the connection (the bus
        // went away, replaced daemon or not): either way the watch did not end by itself.
        if !gone.isSet { output.err("livery: the bus went away; watch ended\n") }
        return 1
    }

    /// `Watch` for `watch PATH…`; with `--json`, prints the serial and current values. The
    /// session (nil: the one of the first call) then drops signals not above the serial.
    func readWatched(_ session: WatchSession?) throws {
        let session = session ?? WatchSession.current.withLock { $0 }!
        WatchSession.current.withLock { $0 = session }
        session.reset()
        let r = try call("Watch", [.strings(inv.positional), .dict(options)])
        guard let reply = WatchReply(decoding: r) else {
            throw DBusError(.failed, "liveryd's Watch reply is not (ua{sa{sv}})")
        }
        // Watch gives every property of each path: one asked for that none of them has is a
        // misspelling, said as `resolve` says it, not a watch that never prints.
        let known = Set(reply.values.components.flatMap(\.values.properties))
        for property in inv.properties where !known.contains(property) {
            let hint = suggestion(for: property, among: known).map { " (did you mean '\($0)'?)" } ?? ""
            throw WatchPropertyError(
                description:
                    "UnknownProperty: none of the watched paths has a property '\(property)'\(hint)")
        }
        if inv.json {
            output.out(
                jsonLine([
                    "serial": Int(reply.serial),
                    "values": WatchCommand.json(reply.values, properties: inv.properties),
                ]))
        }
        output.out(
            session.start(at: reply.serial, values: reply.values, json: inv.json, terminal: output.isTerminal)
        )
    }
}

/// What one `livery watch PATH…` has seen: the serial `Watch` returned, and the signals that
/// arrived before its reply was read (kept, then printed if they are newer).
final class WatchSession: Sendable {
    let paths: Set<String>
    let app: String
    let properties: [String]
    private struct State {
        var serial: UInt32?
        var early: [ChangedSignal] = []
        /// The values printed or read so far, path → property → value: after the daemon is
        /// replaced, what its `Watch` reads differently is printed as a change.
        var known: [String: [String: DBusValue]] = [:]
    }
    private let state = Mutex(State())
    /// The session of this process's watch, for a re-watch after the daemon was replaced.
    static let current = Mutex<WatchSession?>(nil)

    init(paths: [String], app: String?, properties: [String]) {
        self.paths = Set(paths)
        self.app = app ?? ""
        self.properties = properties
    }

    /// Forgets the serial before a new `Watch` (a replaced daemon's serials start again).
    func reset() {
        state.withLock { s in
            s.serial = nil
            s.early = []
        }
    }

    /// Records the serial and values `Watch` returned; returns what to print: after a replaced
    /// daemon's `Watch`, the values it reads differently from those known (as changes at its
    /// serial; `--json` prints the whole reply instead), then the signals that came first.
    func start(at serial: UInt32, values: ComponentValues, json: Bool, terminal: Bool) -> String {
        let (early, differing) = state.withLock { s -> ([ChangedSignal], [ChangedSignal]) in
            s.serial = serial
            defer { s.early = [] }
            var differing: [ChangedSignal] = []
            if !s.known.isEmpty {
                for c in values.components {
                    let changed = c.values.values.filter { s.known[c.path]?[$0.property] != $0.value }
                    if !changed.isEmpty {
                        differing.append(
                            ChangedSignal(
                                path: c.path, app: app, serial: serial, values: PropertyValues(changed)))
                    }
                }
            }
            for c in values.components {
                for v in c.values.values { s.known[c.path, default: [:]][v.property] = v.value }
            }
            for e in s.early where e.serial > serial {
                for v in e.values.values { s.known[e.path, default: [:]][v.property] = v.value }
            }
            return (s.early, differing)
        }
        let shown = (json ? [] : differing) + early.filter { $0.serial > serial }
        return shown.map { WatchCommand.text($0, properties, json: json, terminal: terminal) }.joined()
    }

    /// What to print for a received `Changed`: nothing for another path or application (a
    /// general rule hears them all), for one not above the serial read, or before it is known.
    func received(_ arguments: [DBusValue], json: Bool, terminal: Bool) -> String {
        guard let signal = ChangedSignal(decoding: arguments), paths.contains(signal.path), signal.app == app
        else { return "" }
        let serial: UInt32? = state.withLock { s in
            if s.serial == nil { s.early.append(signal) }
            return s.serial
        }
        guard let serial, signal.serial > serial else { return "" }
        state.withLock { s in
            for v in signal.values.values { s.known[signal.path, default: [:]][v.property] = v.value }
        }
        return WatchCommand.text(signal, properties, json: json, terminal: terminal)
    }
}

/// The output of `livery watch`.
enum WatchCommand {
    /// `ThemeChanged ID SERIAL`, or with `--json` one object.
    static func text(_ s: ThemeChangedSignal, json: Bool) -> String {
        json
            ? jsonLine(["signal": "ThemeChanged", "theme": s.theme, "serial": Int(s.serial)])
            : "ThemeChanged \(s.theme) \(s.serial)\n"
    }

    /// `SERIAL PATH PROPERTY VALUE` per changed property (of `properties`, when given), or with
    /// `--json` one object with the path, application, serial and values.
    static func text(_ s: ChangedSignal, _ properties: [String], json: Bool, terminal: Bool) -> String {
        let values = s.values.values.filter { properties.isEmpty || properties.contains($0.property) }
        if values.isEmpty { return "" }
        if json {
            var inner: [String: Any] = [:]
            for v in values { inner[v.property] = LiveryCLI.json(v.value) }
            return jsonLine([
                "signal": "Changed", "path": s.path, "app": s.app, "serial": Int(s.serial), "values": inner,
            ])
        }
        return values.map {
            "\(s.serial) \(s.path) \($0.property) \(display($0.value, terminal: terminal))\n"
        }
        .joined()
    }

    /// `a{sa{sv}}` as a JSON object, path → property → value (only `properties`, when given).
    static func json(_ values: ComponentValues, properties: [String] = []) -> [String: Any] {
        var o: [String: Any] = [:]
        for c in values.components {
            var inner: [String: Any] = [:]
            for v in c.values.values where properties.isEmpty || properties.contains(v.property) {
                inner[v.property] = LiveryCLI.json(v.value)
            }
            o[c.path] = inner
        }
        return o
    }
}

/// A `--property` that none of the watched paths has.
struct WatchPropertyError: Error, CustomStringConvertible {
    var description: String
}

/// A flag set from the loop thread and read after it stops.
final class Flag: Sendable {
    private let value = Mutex(false)
    /// Sets the flag.
    func set() { value.withLock { $0 = true } }
    /// Whether it was set.
    var isSet: Bool { value.withLock { $0 } }
}
