import Foundation
import LiveryAPI
import LiveryCore
import LiveryDBus
import LiveryFront

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
    if command == .palette { return palette(inv, output: output) }
    if command == .build { return build(inv, output: output) }
    if command == .export { return export(inv, output: output) }
    if command == .preview { return preview(inv, output: output) }
    if command == .gallery { return gallery(inv, output: output) }
    if command == .sun { return sun(inv, output: output) }
    if command == .generate { return generate(inv, output: output) }
    if command == .schedule { return schedule(inv, output: output) }
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

/// A bus error for people: what it means for the client rather than libdbus's words
/// (`busFailureText`, which the front prints too).
/// - Parameters:
///   - e: The error.
///   - timeout: The seconds each call waited for its reply.
func describe(_ e: DBusError, timeout: Double) -> String {
    busFailureText(
        name: e.name.rawValue, message: e.message, timeout: timeout,
        sessionBusAddress: ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"])
}

/// A connection to liveryd; each command is a method of its own, in `Commands/`.
struct Client {
    let inv: Invocation
    let output: Output
    let connection: Connection

    init(_ inv: Invocation, output: Output) throws {
        self.inv = inv
        self.output = output
        connection = try Connection.open(Bus(address: inv.address, system: inv.system))
    }

    /// Seconds to wait for a reply unless `--timeout` says otherwise: a stopped or hung daemon
    /// is reported well before libdbus's 25 s (the front's, so that both halves wait as long).
    static let defaultTimeout = FrontInvocation.defaultTimeout

    /// Runs one command that talks to liveryd.
    /// - Returns: The exit status.
    func run(_ command: Command) throws -> Int32 {
        switch command {
        case .list: return try list()
        case .get: return try get()
        case .set: return try set()
        case .toggle: return try toggle()
        case .dark: return try setVariant("dark")
        case .light: return try setVariant("light")
        case .resolve: return try resolve()
        case .explain: return try explain()
        case .watch: return try watch()
        case .reload: return try reload()
        case .status: return try status()
        case .plugins: return try plugins()
        // These run without a daemon, before a client is made.
        case .check, .palette, .build, .export, .sun, .schedule, .preview, .gallery, .generate: return 2
        }
    }

    /// Calls a method of `org.livery.Livery1`.
    /// - Returns: The reply's arguments.
    func call(_ method: LiveryMethod, _ arguments: [DBusValue] = []) throws -> [DBusValue] {
        try connection.call(method, arguments, timeout: inv.timeout)
    }

    /// Reads one property (`Properties.Get`), unwrapped from its variant.
    func property(_ name: LiveryProperty) throws -> DBusValue {
        let r = try connection.call(
            destination: LiveryBus.busName, path: LiveryBus.objectPath, interface: .properties,
            member: try MemberName("Get"), arguments: [.string(LiveryBus.interface), .string(name.rawValue)],
            timeout: inv.timeout)
        return r.first?.variantValue ?? .string("")
    }

    /// Reads every property (`Properties.GetAll`).
    func properties() throws -> DaemonProperties {
        DaemonProperties(
            decoding: try connection.call(
                destination: LiveryBus.busName, path: LiveryBus.objectPath, interface: .properties,
                member: try MemberName("GetAll"), arguments: [.string(LiveryBus.interface)],
                timeout: inv.timeout))
    }

    /// The `a{sv}` options of `Resolve`, `Explain` and `Watch`: `app` when `--app` was given.
    var options: [String: DBusValue] { inv.app.map { ["app": .string($0)] } ?? [:] }

    /// Writes one JSON value and a newline to standard output.
    func printJSON(_ object: Any) { output.out(jsonLine(object)) }

    /// A value for people, with a swatch when standard output is a colour terminal.
    func display(_ v: DBusValue) -> String { LiveryCLI.display(v, terminal: output.isTerminal) }
}
