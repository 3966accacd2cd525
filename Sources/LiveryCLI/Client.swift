import Foundation
import LiveryCore
import LiveryDBus
import LiveryDaemon

/// Where `livery` writes: standard output and error, replaceable in tests.
public struct Output: Sendable {
    /// Writes text to standard output as given; callers supply the newlines.
    public var out: @Sendable (String) -> Void
    /// Writes text to standard error as given; callers supply the newlines.
    public var err: @Sendable (String) -> Void
    /// Whether standard output is a terminal (colour swatches are shown only then).
    public var isTerminal: Bool

    /// The process's standard output and error, colour decided by `NO_COLOR`, `TERM` and isatty.
    /// Everything written to standard error passes `printable` (keeping its lines): its
    /// messages quote paths, theme ids and sheet lines that a caller or a theme controls, and
    /// the client writes no escape sequence there itself.
    public static let standard = Output(
        out: { s in
            FileHandle.standardOutput.write(Data(s.utf8))
        }, err: { FileHandle.standardError.write(Data(printable($0, keepingLines: true).utf8)) },
        isTerminal: Output.colourTerminal())

    /// Whether stdout is a terminal that takes colour: not with `NO_COLOR` set
    /// (no-color.org) or `TERM=dumb`.
    static func colourTerminal() -> Bool {
        let env = ProcessInfo.processInfo.environment
        return isatty(1) == 1 && (env["NO_COLOR"] ?? "").isEmpty && env["TERM"] != "dumb"
    }

    /// An output writing to the given closures, e.g. buffers in tests.
    public init(
        out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void, isTerminal: Bool
    ) {
        self.out = out
        self.err = err
        self.isTerminal = isTerminal
    }
}

/// Parsed global and command options.
struct Invocation {
    var command: Command?
    var positional: [String] = []
    var json = false
    var app: String?
    var address: String?
    var system = false
    var help = false
    var themesDirectories: [String] = []
    var schema: String?
    var warnings = false
    var properties: [String] = []
    /// `--timeout`: seconds to wait for each reply from liveryd.
    var timeout = Client.defaultTimeout
}

struct UsageError: Error {
    var message: String
    var command: Command?
}

/// `livery`'s whole program. Returns the exit status: 0 success, 1 failure, 2 usage error.
/// - Parameters:
///   - arguments: The arguments after the program name.
///   - output: Where to write; the process's standard streams by default.
/// - Returns: The exit status.
public func runClient(arguments: [String], output: Output = .standard) -> Int32 {
    let inv: Invocation
    do { inv = try parse(arguments) } catch {
        output.err("livery: \(error.message)\n")
        output.err("Try 'livery \(error.command.map { $0.rawValue + " " } ?? "")--help'.\n")
        return 2
    }
    guard let command = inv.command else {
        // `livery --help` asks for this; a bare `livery` is a usage error.
        if inv.help {
            output.out(generalUsage + "\n")
            return 0
        }
        output.err(generalUsage + "\n")
        return 2
    }
    if inv.help {
        output.out("Usage: " + command.usage + "\n")
        return 0
    }
    if command == .check { return check(inv, output: output) }
    do {
        let client = try Client(inv, output: output)
        return try client.run(command)
    } catch let e as DBusError {
        output.err("livery: \(describe(e, timeout: inv.timeout))\n")
        return 1
    } catch let e as UsageError {
        output.err("livery: \(e.message)\nTry 'livery \(command.rawValue) --help'.\n")
        return 2
    } catch {
        output.err("livery: \(error)\n")
        return 1
    }
}

/// A bus error for people: what it means for the client rather than libdbus's words.
/// - Parameters:
///   - e: The error.
///   - timeout: The seconds each call waited for its reply.
func describe(_ e: DBusError, timeout: Double) -> String {
    switch e.name {
    case .serviceUnknown, .nameHasNoOwner:
        return "liveryd is not running on this bus (\(e.name.rawValue))"
    case .noReply, .timeout:
        return
            "liveryd did not answer within \(timeout == timeout.rounded() ? String(Int(timeout)) : String(timeout)) s (is it stopped or busy?)"
    case _ where ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] == "":
        return "no session bus (DBUS_SESSION_BUS_ADDRESS is set but empty): give one with --address ADDR, "
            + "or start liveryd with 'make run', which prints the address to export"
    case _
    where ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] == nil
        && e.message.contains("autolaunch"):
        return "no session bus (DBUS_SESSION_BUS_ADDRESS is not set): give one with --address ADDR, "
            + "or start liveryd with 'make run', which prints the address to export"
    default:
        let short =
            e.name.rawValue.hasPrefix("org.livery.Livery1.Error.")
            ? String(e.name.rawValue.dropFirst("org.livery.Livery1.Error.".count)) : e.name.rawValue
        return "\(short): \(e.message)"
    }
}

func parse(_ args: [String]) throws(UsageError) -> Invocation {
    var inv = Invocation()
    var i = 0
    func value(_ flag: String) throws(UsageError) -> String {
        i += 1
        guard i < args.count else { throw UsageError(message: "\(flag) needs a value", command: inv.command) }
        return args[i]
    }
    var onlyPositional = false
    while i < args.count {
        let a = args[i]
        if onlyPositional || !a.hasPrefix("-") || a == "-" {
            if inv.command == nil {
                guard let c = Command(rawValue: a) else {
                    let hint =
                        suggestion(for: a, among: Command.allCases.map(\.rawValue)).map {
                            " (did you mean '\($0)'?)"
                        } ?? ""
                    throw UsageError(message: "unknown command '\(a)'\(hint)", command: nil)
                }
                inv.command = c
            } else {
                inv.positional.append(a)
            }
            i += 1
            continue
        }
        var flag = a
        var inline: String?
        if let eq = a.firstIndex(of: "="), a.hasPrefix("--") {
            flag = String(a[..<eq])
            inline = String(a[a.index(after: eq)...])
        }
        func arg() throws(UsageError) -> String {
            if let inline { return inline } else { return try value(flag) }
        }
        switch flag {
        case "--": onlyPositional = true
        case "--json": inv.json = true
        case "--app": inv.app = try arg()
        case "--address":
            let a = try arg()
            guard !a.isEmpty else {
                throw UsageError(message: "--address needs a bus address", command: inv.command)
            }
            inv.address = a
        case "--system": inv.system = true
        case "--themes-dir": inv.themesDirectories.append(try arg())
        case "--schema": inv.schema = try arg()
        case "--warnings": inv.warnings = true
        case "--property": inv.properties.append(try arg())
        case "--timeout":
            let v = try arg()
            guard let seconds = Double(v), seconds > 0, seconds.isFinite else {
                throw UsageError(
                    message: "--timeout needs a number of seconds above 0, not '\(v)'", command: inv.command)
            }
            inv.timeout = seconds
        case "-h", "--help": inv.help = true
        case "--version":
            print("livery \(LiveryBus.version)")
            exit(0)
        default: throw UsageError(message: "unknown option '\(a)'", command: inv.command)
        }
        i += 1
    }
    if inv.help { return inv }
    if inv.system && inv.address != nil {
        throw UsageError(message: "--system and --address exclude each other", command: inv.command)
    }
    guard let c = inv.command else { return inv }
    let n = inv.positional.count
    let ok: Bool
    switch c {
    case .list, .get, .reload, .status, .toggle: ok = n == 0
    case .watch: ok = true
    case .set: ok = n == 1
    case .resolve: ok = n >= 1
    case .explain: ok = n == 2
    case .check: ok = n >= 1
    }
    if !ok {
        throw UsageError(
            message:
                "wrong number of arguments for '\(c.rawValue)'\nUsage: \(c.usage.split(separator: "\n")[0])",
            command: c)
    }
    if inv.json && [.set, .check, .reload, .toggle].contains(c) {
        throw UsageError(message: "'\(c.rawValue)' has no --json output", command: c)
    }
    if !inv.properties.isEmpty && (c != .watch || inv.positional.isEmpty) {
        throw UsageError(message: "--property applies to 'watch PATH...' only", command: c)
    }
    if inv.warnings && c != .check {
        throw UsageError(message: "--warnings applies to 'check' only", command: c)
    }
    if inv.app != nil && c != .resolve && c != .explain && c != .watch {
        throw UsageError(message: "--app applies to 'resolve', 'explain' and 'watch' only", command: c)
    }
    return inv
}

/// A connection to liveryd and the commands that use it.
struct Client {
    let inv: Invocation
    let output: Output
    let connection: Connection
    let destination: BusName
    let path: ObjectPath
    let interface: InterfaceName

    init(_ inv: Invocation, output: Output) throws {
        self.inv = inv
        self.output = output
        if let a = inv.address {
            connection = try Connection(address: a)
        } else if inv.system {
            connection = try Connection.system()
        } else {
            connection = try Connection.session()
        }
        destination = try BusName(LiveryBus.name)
        path = try ObjectPath(LiveryBus.path)
        interface = try InterfaceName(LiveryBus.interface)
    }

    /// Seconds to wait for a reply unless `--timeout` says otherwise: a stopped or hung daemon
    /// is reported well before libdbus's 25 s.
    static let defaultTimeout = 5.0

    func call(_ member: String, _ arguments: [DBusValue] = []) throws -> [DBusValue] {
        try connection.call(
            destination: destination, path: path, interface: interface, member: try MemberName(member),
            arguments: arguments, timeout: inv.timeout)
    }

    func property(_ name: String) throws -> DBusValue {
        let r = try connection.call(
            destination: destination, path: path, interface: .properties, member: try MemberName("Get"),
            arguments: [.string(LiveryBus.interface), .string(name)], timeout: inv.timeout)
        return r.first?.variantValue ?? .string("")
    }

    func printJSON(_ object: Any) {
        let data =
            (try? JSONSerialization.data(
                withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        output.out(String(decoding: data, as: UTF8.self) + "\n")
    }

    func run(_ command: Command) throws -> Int32 {
        switch command {
        case .list:
            let themes = try call("ListThemes").first?.array ?? []
            let active = try property("ActiveTheme").string ?? ""
            if inv.json {
                printJSON(
                    themes.map { t -> [String: Any] in
                        let f = t.structureFields ?? []
                        var o: [String: Any] = [
                            "id": f[0].string ?? "", "name": f[1].string ?? "",
                            "active": f[0].string == active,
                        ]
                        for (k, v) in f[2].stringVariantDictionary ?? [:] { o[k] = json(v) }
                        return o
                    })
                return 0
            }
            let rows = themes.map { t -> [String] in
                let f = t.structureFields ?? []
                let meta = f[2].stringVariantDictionary ?? [:]
                let id = f[0].string ?? ""
                // `?`: not checked yet (the daemon checks installed themes after it starts).
                let unchecked = meta["checked"]?.variantValue.bool == false
                let mark =
                    id == active ? "*" : unchecked ? "?" : (meta["valid"]?.variantValue.bool == false ? "!" : " ")
                return [
                    mark, id, printable(f[1].string ?? ""), meta["variant"]?.variantValue.string ?? "",
                    meta["format"]?.variantValue.string ?? "",
                ]
            }
            var rows2 = rows
            // The active theme stays loaded when its files are removed: still show it.
            if !rows.contains(where: { $0[1] == active }) {
                rows2.append(["*", active, "(removed from disk; still active)", "", ""])
            }
            let w = (1..<5).map { c in rows2.map { $0[c].count }.max() ?? 0 }
            for r in rows2 {
                output.out("\(r[0]) \(pad(r[1], w[0]))  \(pad(r[2], w[1]))  \(pad(r[3], w[2]))  \(r[4])\n")
            }
            return 0
        case .get:
            let active = try property("ActiveTheme").string ?? ""
            if inv.json { printJSON(["theme": active]) } else { output.out(active + "\n") }
            return 0
        case .set:
            _ = try call("SetTheme", [.string(inv.positional[0])])
            return 0
        case .reload:
            _ = try call("Reload")
            return 0
        case .resolve:
            let props = Array(inv.positional.dropFirst())
            var options: [String: DBusValue] = [:]
            if let app = inv.app { options["app"] = .string(app) }
            let r = try call("Resolve", [.string(inv.positional[0]), .strings(props), .dict(options)])
            let values = r.first?.dictionaryEntries ?? []
            var byName: [String: DBusValue] = [:]
            for e in values { if let k = e.key.string { byName[k] = e.value.variantValue } }
            let order = props.isEmpty ? values.compactMap { $0.key.string } : props
            if inv.json {
                var o: [String: Any] = [:]
                for (k, v) in byName { o[k] = json(v) }
                printJSON(o)
            } else if props.count == 1, let v = byName[props[0]] {
                output.out(display(v) + "\n")
            } else {
                let w = order.map(\.count).max() ?? 0
                for k in order { if let v = byName[k] { output.out("\(pad(k, w))  \(display(v))\n") } }
            }
            return 0
        case .explain:
            var options: [String: DBusValue] = [:]
            if let app = inv.app { options["app"] = .string(app) }
            let r = try call(
                "Explain", [.string(inv.positional[0]), .string(inv.positional[1]), .dict(options)])
            let entries = (r.first?.array ?? []).map { $0.stringVariantDictionary ?? [:] }
            if inv.json {
                printJSON(entries.map { e in e.mapValues { json($0.variantValue) } })
                return 0
            }
            output.out("\(inv.positional[0]) \(inv.positional[1])\n")
            if let omitted = entries.first?["omitted"]?.variantValue.uint32 {
                output.out("   (\(omitted) earlier candidates not shown)\n")
            }
            for e in entries {
                let value = display(e["value"]?.variantValue ?? .string(""))
                switch e["kind"]?.variantValue.string {
                case "inherited":
                    output.out(
                        "  no declaration matched: inherited from \(e["from"]?.variantValue.string ?? "") = \(value)\n"
                    )
                case "initial":
                    output.out("  no declaration matched: the schema's initial value = \(value)\n")
                default:
                    let won = e["winner"]?.variantValue.bool == true
                    let spec = (e["specificity"]?.variantValue.structureFields ?? []).map {
                        "\($0.uint32 ?? 0)"
                    }
                    .joined(separator: ",")
                    let app = e["app"]?.variantValue.string.map { " \"\($0)\"" } ?? ""
                    output.out(
                        "\(won ? "=>" : "  ") \(e["selector"]?.variantValue.string ?? "") = \(value)\n"
                            + "     \(e["origin"]?.variantValue.string ?? "")  layer \(e["layer"]?.variantValue.string ?? "")\(app)  specificity (\(spec))"
                            + (won ? "  wins" : "  loses: \(e["reason"]?.variantValue.string ?? "")") + "\n")
                }
            }
            return 0
        case .status:
            let owner = try connection.nameOwner(LiveryBus.name)
            let all =
                try connection.call(
                    destination: destination, path: path, interface: .properties,
                    member: try MemberName("GetAll"),
                    arguments: [.string(LiveryBus.interface)], timeout: inv.timeout
                ).first?.stringVariantDictionary ?? [:]
            let themes = try call("ListThemes").first?.array ?? []
            let invalid = themes.filter {
                let meta = $0.structureFields?[2].stringVariantDictionary
                return meta?["valid"]?.variantValue.bool == false && meta?["checked"]?.variantValue.bool != false
            }
            .compactMap { $0.structureFields?[0].string }
            let unchecked = themes.filter {
                $0.structureFields?[2].stringVariantDictionary?["checked"]?.variantValue.bool == false
            }.count
            let problems = all["Problems"]?.variantValue.stringArray ?? []
            if inv.json {
                printJSON([
                    "owner": owner, "active": all["ActiveTheme"]?.variantValue.string ?? "",
                    "serial": Int(all["Serial"]?.variantValue.uint32 ?? 0),
                    "version": all["Version"]?.variantValue.string ?? "",
                    "themes": themes.count, "invalid": invalid, "unchecked": unchecked, "problems": problems,
                ])
                return 0
            }
            output.out(
                "liveryd \(all["Version"]?.variantValue.string ?? "") at \(LiveryBus.name) (\(owner))\n")
            output.out("active theme: \(all["ActiveTheme"]?.variantValue.string ?? "")\n")
            output.out("serial: \(all["Serial"]?.variantValue.uint32 ?? 0)\n")
            output.out(
                "themes: \(themes.count) installed"
                    + (unchecked > 0 ? ", \(unchecked) not checked yet" : "")
                    + (invalid.isEmpty ? "" : ", with errors: \(invalid.joined(separator: ", "))") + "\n")
            if problems.isEmpty {
                output.out("problems: none\n")
            } else {
                output.out("problems:\n" + problems.map { "  \(printable($0))\n" }.joined())
            }
            return 0
        case .watch:
            let json = inv.json
            let out = output.out
            let display = self.display
            let options: [String: DBusValue] = inv.app.map { ["app": .string($0)] } ?? [:]
            if inv.positional.isEmpty {
                try connection.addMatch(
                    "type='signal',sender='\(LiveryBus.name)',interface='\(LiveryBus.interface)',member='ThemeChanged',path='\(LiveryBus.path)'"
                ) { message in
                    let id = message.arguments.first?.string ?? ""
                    let serial = message.arguments.count > 1 ? message.arguments[1].uint32 ?? 0 : 0
                    if json {
                        out(jsonLine(["signal": "ThemeChanged", "theme": id, "serial": Int(serial)]))
                    } else {
                        out("ThemeChanged \(id) \(serial)\n")
                    }
                }
                // Make sure the daemon is there before waiting; this also fails fast when it is not.
                _ = try property("Serial")
            } else {
                // Listen before subscribing, so that no Changed can arrive unheard.
                try connection.addMatch(
                    "type='signal',sender='\(LiveryBus.name)',interface='\(LiveryBus.interface)',member='Changed',path='\(LiveryBus.path)'"
                ) { message in
                    guard message.arguments.count == 3 else { return }
                    let serial = message.arguments[1].uint32 ?? 0
                    let changes = message.arguments[2].dictionaryEntries ?? []
                    if json {
                        var o: [String: Any] = [:]
                        for e in changes { o[e.key.string ?? ""] = Client.jsonValues(e.value) }
                        out(
                            jsonLine([
                                "signal": "Changed", "subscription": Int(message.arguments[0].uint32 ?? 0),
                                "serial": Int(serial), "changes": o,
                            ]))
                        return
                    }
                    for e in changes {
                        for v in e.value.dictionaryEntries ?? [] {
                            out(
                                "\(serial) \(e.key.string ?? "") \(v.key.string ?? "") \(display(v.value.variantValue))\n"
                            )
                        }
                    }
                }
                try subscribe(options)
            }
            // Follow the daemon: a replacement (`liveryd --replace`) gets the subscription
            // again, as a dconf watch follows a restarted dconf-service; a daemon that leaves the
            // bus, or a bus that goes away, ends the watch with a message and exit status 1.
            let gone = LockedFlag()
            let client = self
            let isPathWatch = !inv.positional.isEmpty
            try connection.addMatch(
                "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',"
                    + "member='NameOwnerChanged',arg0='\(LiveryBus.name)'"
            ) { message in
                guard message.arguments.count == 3, let new = message.arguments[2].string else { return }
                if new.isEmpty {
                    client.output.err("livery: liveryd left the bus; watch ended\n")
                    gone.set()
                    client.connection.stop()
                } else if isPathWatch {
                    client.output.err("livery: liveryd was replaced by \(new); subscribing again\n")
                    do { try client.subscribe(options) } catch {
                        client.output.err("livery: \(error)\n")
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
        case .toggle:
            let r = try call("Toggle")
            output.out((r.first?.string ?? "") + "\n")
            return 0
        case .check:
            return 2
        }
    }

    /// `Subscribe` for `watch PATH…`; with `--json`, prints the subscription and current values.
    func subscribe(_ options: [String: DBusValue]) throws {
        let r = try call("Subscribe", [.strings(inv.positional), .strings(inv.properties), .dict(options)])
        if inv.json, r.count == 2 {
            var o: [String: Any] = [:]
            for e in r[1].dictionaryEntries ?? [] { o[e.key.string ?? ""] = Client.jsonValues(e.value) }
            output.out(jsonLine(["subscription": Int(r[0].uint32 ?? 0), "current": o]))
        }
    }

    func pad(_ s: String, _ w: Int) -> String { s + String(repeating: " ", count: max(0, w - s.count)) }

    /// A value for people: colours with a swatch on a terminal, numbers without trailing `.0`.
    func display(_ v: DBusValue) -> String {
        switch v {
        case .string(let s):
            if output.isTerminal, s.hasPrefix("#"), s.count == 9, let c = RGBA(hexDigits: s.dropFirst()) {
                // A fully transparent colour has nothing to show.
                guard c.alpha > 0 else { return "     \(s)" }
                let (r, g, b) = (RGBA.eightBit(c.red), RGBA.eightBit(c.green), RGBA.eightBit(c.blue))
                return "\u{1B}[48;2;\(r);\(g);\(b)m    \u{1B}[0m \(s)"
            }
            return printable(s)
        case .double(let d): return d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d)
        case .structure(let fields): return fields.map(display).joined(separator: " ")
        default: return "\(json(v))"
        }
    }
}

/// A flag set from the loop thread and read after it stops.
final class LockedFlag: @unchecked Sendable {
    // Safe to share: `value` is only touched with `lock` held.
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}

/// One JSON object and a newline.
func jsonLine(_ object: [String: Any]) -> String {
    let data =
        (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
        ?? Data()
    return String(decoding: data, as: UTF8.self) + "\n"
}

extension Client {
    /// `a{sv}` as a JSON object.
    static func jsonValues(_ v: DBusValue) -> [String: Any] {
        var o: [String: Any] = [:]
        for e in v.dictionaryEntries ?? [] { o[e.key.string ?? ""] = json(e.value) }
        return o
    }
}

/// A D-Bus value as a JSON-compatible object.
func json(_ v: DBusValue) -> Any {
    switch v {
    case .string(let s): return s
    case .double(let d): return d
    case .boolean(let b): return b
    case .uint32(let u): return Int(u)
    case .int32(let i): return Int(i)
    case .variant(let inner): return json(inner)
    case .structure(let fields): return fields.map(json)
    case .array(_, let items): return items.map(json)
    case .dictionary(_, _, let entries):
        var o: [String: Any] = [:]
        for e in entries { o[e.key.string ?? "\(e.key)"] = json(e.value) }
        return o
    default: return "\(v)"
    }
}
