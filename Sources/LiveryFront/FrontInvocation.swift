/// A command line the front carries out itself: `get [--variant] [--json]`, `set ID` or
/// `toggle`, with `--address ADDR` or `--system` and `--timeout SECS`, each read exactly as the
/// full client reads it (`LiveryCLI`'s `Invocation`: options and words in any order, `--flag
/// value` or `--flag=value` for the options that take a value, the last of a repeated option
/// winning).
///
/// Every other command line is not one (`init` returns nil) and goes to the full client: the
/// other commands, `--help`, `--version`, `--`, the flag-only options written with `=`, and
/// every usage error, which the full client words.
public struct FrontInvocation: Equatable, Sendable {
    /// The command and what it was given.
    public enum Command: Equatable, Sendable {
        /// `get`: the active theme's id, or with `variant` its variant; with `json` as an object.
        case get(variant: Bool, json: Bool)
        /// `set ID`.
        case set(id: String)
        /// `toggle`.
        case toggle
    }

    /// The command.
    public var command: Command
    /// The bus: `--address`, else `--system`, else the session bus.
    public var bus: FrontBus
    /// Seconds to wait for each reply: `--timeout`, 5 unless given (`Client.defaultTimeout`).
    public var timeout: Double

    /// Seconds the full client waits for a reply when `--timeout` is not given.
    public static let defaultTimeout = 5.0

    /// Reads the arguments after the program name.
    /// - Parameter arguments: The arguments, as `CommandLine.arguments` holds them.
    /// - Returns: nil unless the front carries the command line out itself (see the type).
    public init?(_ arguments: [String]) {
        var words: [String] = []
        var flags = Flags()
        var i = 0
        while i < arguments.count {
            let a = arguments[i]
            i += 1
            if !a.hasPrefix("-") || a == "-" {
                words.append(a)
                continue
            }
            guard let taken = flags.read(a, next: i < arguments.count ? arguments[i] : nil) else {
                return nil
            }
            i += taken
        }
        guard let command = Self.command(words, flags) else { return nil }
        guard flags.address == nil || !flags.system else { return nil }
        self.command = command
        bus = flags.address.map { .address($0) } ?? (flags.system ? .system : .session)
        timeout = flags.timeout
    }

    /// The command of the words (the first is the command, the rest its arguments) if the
    /// options given apply to it.
    private static func command(_ words: [String], _ flags: Flags) -> Command? {
        guard let name = words.first else { return nil }
        let arguments = words.dropFirst()
        switch name {
        case "get" where arguments.isEmpty: return .get(variant: flags.variant, json: flags.json)
        case "set" where arguments.count == 1 && !flags.json && !flags.variant:
            return .set(id: arguments[arguments.startIndex])
        case "toggle" where arguments.isEmpty && !flags.json && !flags.variant: return .toggle
        default: return nil
        }
    }

    /// The options read so far.
    private struct Flags {
        var json = false
        var variant = false
        var system = false
        var address: String?
        var timeout = FrontInvocation.defaultTimeout

        /// Reads option `a`, with `next` the argument after it.
        /// - Returns: How many arguments after `a` it took (its value's), or nil when the front
        ///   does not take the option so (unknown to it, a usage error, or `--`).
        mutating func read(_ a: String, next: String?) -> Int? {
            switch a {
            case "--json": json = true
            case "--variant": variant = true
            case "--system": system = true
            case "--address", "--timeout":
                guard let next, take(a, next) else { return nil }
                return 1
            default:
                // `--address=ADDR`, `--timeout=SECS`: the value is what follows the first `=`.
                guard let eq = a.firstIndex(of: "="), a.hasPrefix("--"),
                    take(String(a[..<eq]), String(a[a.index(after: eq)...]))
                else { return nil }
            }
            return 0
        }

        /// Sets option `flag` to `value`; false when it is not `--address` or `--timeout` or
        /// the value is one the full client refuses.
        mutating func take(_ flag: String, _ value: String) -> Bool {
            switch flag {
            case "--address" where !value.isEmpty: address = value
            case "--timeout":
                guard let seconds = Double(value), seconds > 0, seconds.isFinite else { return false }
                timeout = seconds
            default: return false
            }
            return true
        }
    }
}
