import LiveryAPI
import LiveryDBus
import Synchronization

extension Client {
    /// `livery watch [PATH... [--property P]... [--app ID]] [--json]`: prints `ThemeChanged`
    /// signals, or with paths subscribes to them and prints each change, until liveryd leaves
    /// the bus or the bus goes away (exit 1).
    func watch() throws -> Int32 {
        let (json, terminal, out) = (inv.json, output.isTerminal, output.out)
        let options = self.options
        if inv.positional.isEmpty {
            try connection.addMatch(LiveryBus.signalRule(ThemeChangedSignal.member)) { message in
                out(WatchCommand.text(ThemeChangedSignal(decoding: message.arguments), json: json))
            }
            // Make sure the daemon is there before waiting; this also fails fast when it is not.
            _ = try property(.serial)
        } else {
            // Listen before subscribing, so that no Changed can arrive unheard.
            try connection.addMatch(LiveryBus.signalRule(ChangedSignal.member)) { message in
                guard let signal = ChangedSignal(decoding: message.arguments) else { return }
                out(WatchCommand.text(signal, json: json, terminal: terminal))
            }
            try subscribe(options)
        }
        // Follow the daemon: a replacement (`liveryd --replace`) gets the subscription
        // again, as a dconf watch follows a restarted dconf-service; a daemon that leaves the
        // bus, or a bus that goes away, ends the watch with a message and exit status 1.
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
                client.output.err("livery: liveryd was replaced by \(new); subscribing again\n")
                do { try client.subscribe(options) } catch {
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

    /// `Subscribe` for `watch PATH…`; with `--json`, prints the subscription and current values.
    func subscribe(_ options: [String: DBusValue]) throws {
        let r = try call("Subscribe", [.strings(inv.positional), .strings(inv.properties), .dict(options)])
        if inv.json, let reply = SubscribeReply(decoding: r) {
            output.out(
                jsonLine(["subscription": Int(reply.id), "current": WatchCommand.json(reply.current)]))
        }
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

    /// `SERIAL PATH PROPERTY VALUE` per changed property, or with `--json` one object with
    /// the subscription id, the serial and the changes.
    static func text(_ s: ChangedSignal, json: Bool, terminal: Bool) -> String {
        if json {
            return jsonLine([
                "signal": "Changed", "subscription": Int(s.id), "serial": Int(s.serial),
                "changes": WatchCommand.json(s.changes),
            ])
        }
        return s.changes.components.flatMap { c in
            c.values.values.map {
                "\(s.serial) \(c.path) \($0.property) \(display($0.value, terminal: terminal))\n"
            }
        }.joined()
    }

    /// `a{sa{sv}}` as a JSON object, path → property → value.
    static func json(_ values: ComponentValues) -> [String: Any] {
        var o: [String: Any] = [:]
        for c in values.components {
            var inner: [String: Any] = [:]
            for v in c.values.values { inner[v.property] = LiveryCLI.json(v.value) }
            o[c.path] = inner
        }
        return o
    }
}

/// A flag set from the loop thread and read after it stops.
final class Flag: Sendable {
    private let value = Mutex(false)
    /// Sets the flag.
    func set() { value.withLock { $0 = true } }
    /// Whether it was set.
    var isSet: Bool { value.withLock { $0 } }
}
