import LiveryAPI
import LiveryCore
import LiveryDBus
import Synchronization

extension Client {
    /// `livery watch [PATH... [--property P]... [--app ID]] [--json]`: prints `ThemeChanged`
    /// signals, or with paths watches them (`WatchClient`: a match rule per path first, then
    /// `Watch`) and prints each change, until liveryd leaves the bus or the bus goes away
    /// (exit 1).
    func watch() throws -> Int32 {
        let (json, terminal, out) = (inv.json, output.isTerminal, output.out)
        // A daemon that leaves the bus, or a bus that goes away, ends the watch with a message
        // and exit status 1; a replacement (`liveryd --replace`) is watched again, as a dconf
        // watch follows a restarted dconf-service.
        let gone = Flag()
        let client = self
        var watch: WatchClient?
        if inv.positional.isEmpty {
            try connection.addMatch(LiveryBus.signalRule(ThemeChangedSignal.member)) { message in
                out(WatchCommand.text(ThemeChangedSignal(decoding: message.arguments), json: json))
            }
            // Make sure the daemon is there before waiting; this also fails fast when it is not.
            _ = try property(.serial)
            try connection.addMatch(LiveryBus.ownerRule) { message in
                guard let change = NameOwnerChange(decoding: message.arguments) else { return }
                if change.newOwner.isEmpty {
                    client.left(gone)
                } else {
                    client.output.err(
                        "livery: liveryd was replaced by \(change.newOwner); its serials start again\n")
                }
            }
        } else {
            let printer = WatchPrinter(properties: inv.properties, json: json, terminal: terminal)
            let readFirst = Flag()
            watch = WatchClient(
                connection: connection, paths: inv.positional, app: inv.app, timeout: inv.timeout
            ) { event in
                switch event {
                case .values(let reply):
                    try client.printValues(reply, printer, again: readFirst.isSet)
                    readFirst.set()
                case .changed(let signal): out(printer.changed(signal))
                case .replaced(let owner):
                    client.output.err("livery: liveryd was replaced by \(owner); watching again\n")
                case .left: client.left(gone)
                case .failed(let error):
                    // The bus can go away while the call waits (libdbus then says NoReply): the
                    // watch ends as it ends when the bus goes away at any other time.
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
            }
            try watch?.start()
        }
        connection.run()
        withExtendedLifetime(watch) {}
        // The loop ends only by the handlers above or by the end of the connection (the bus
        // went away, replaced daemon or not): either way the watch did not end by itself.
        if !gone.isSet { output.err("livery: the bus went away; watch ended\n") }
        return 1
    }

    /// Ends the watch because liveryd left the bus.
    private func left(_ gone: Flag) {
        output.err("livery: liveryd left the bus; watch ended\n")
        gone.set()
        connection.stop()
    }

    /// What `Watch` returned, for `watch PATH…`: with `--json` the serial and current values,
    /// then (after a replaced daemon's `Watch`) the values that differ from those printed.
    /// - Throws: `WatchPropertyError` when a `--property` is none of the paths'.
    func printValues(_ reply: WatchReply, _ printer: WatchPrinter, again: Bool) throws {
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
        output.out(printer.read(reply))
    }
}

/// What one `livery watch PATH…` has printed: the values known so far, so that after the
/// daemon is replaced, what its `Watch` reads differently is printed as a change.
final class WatchPrinter: Sendable {
    let properties: [String]
    let json: Bool
    let terminal: Bool
    /// path → property → value, as printed or read so far.
    private let known = Mutex<[String: [String: DBusValue]]>([:])

    init(properties: [String], json: Bool, terminal: Bool) {
        self.properties = properties
        self.json = json
        self.terminal = terminal
    }

    /// What to print for a `Watch` reply: nothing for the first; after a replaced daemon's,
    /// the values it reads differently from those known, as changes at its serial (`--json`
    /// prints the whole reply instead).
    func read(_ reply: WatchReply) -> String {
        let differing = known.withLock { known -> [ChangedSignal] in
            var differing: [ChangedSignal] = []
            if !known.isEmpty {
                for c in reply.values.components {
                    let changed = c.values.values.filter { known[c.path]?[$0.property] != $0.value }
                    if !changed.isEmpty {
                        differing.append(
                            ChangedSignal(
                                path: c.path, app: "", serial: reply.serial, values: PropertyValues(changed)))
                    }
                }
            }
            for c in reply.values.components {
                for v in c.values.values { known[c.path, default: [:]][v.property] = v.value }
            }
            return differing
        }
        if json { return "" }
        return differing.map { WatchCommand.text($0, properties, json: false, terminal: terminal) }.joined()
    }

    /// What to print for a `Changed` newer than the values read.
    func changed(_ signal: ChangedSignal) -> String {
        known.withLock { known in
            for v in signal.values.values { known[signal.path, default: [:]][v.property] = v.value }
        }
        return WatchCommand.text(signal, properties, json: json, terminal: terminal)
    }
}

/// The output of `livery watch`.
enum WatchCommand {
    /// `ThemeChanged ID SERIAL`, or with `--json` one object.
    static func text(_ s: ThemeChangedSignal, json: Bool) -> String {
        json
            ? jsonLine(["signal": ThemeChangedSignal.member, "theme": s.theme, "serial": Int(s.serial)])
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
                "signal": ChangedSignal.member, "path": s.path, "app": s.app, "serial": Int(s.serial),
                "values": inner,
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
