import Foundation
import LiveryAPI
import LiveryCore

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
    /// `--out`: where `build` writes.
    var out: String?
    var warnings = false
    /// `--variant` (`get`).
    var variant = false
    var properties: [String] = []
    /// `--timeout`: seconds to wait for each reply from liveryd.
    var timeout = Client.defaultTimeout
    /// `--latitude`, `--longitude` (`sun`): degrees, north and east positive; range-checked by
    /// `SolarTimes`.
    var latitude: Double?
    var longitude: Double?
    /// `--date YYYY-MM-DD` (`sun`).
    var date: CalendarDate?
    /// `-o FILE` / `--output FILE` (`preview`): the PNG to write.
    var output: String?
    /// `--size WxH` (`preview`, `gallery`): the picture's size in pixels, parsed by `PreviewSize`.
    var size: String?
    /// `--color HEX` (`generate`): the source colour, in place of an image.
    var color: UInt32?
    /// `--scheme NAME` (`generate`): the dynamic scheme variant.
    var scheme: MaterialVariant?
    /// `--contrast C` (`generate`): -1...1.
    var contrast: Double?
    /// `--from-desktop` (`generate`): the picture is GNOME's current wallpaper.
    var fromDesktop = false
}

struct UsageError: Error {
    var message: String
    var command: Command?
}

/// Parses the arguments after the program name and checks them against the command.
/// - Parameter args: The arguments; `--flag value` and `--flag=value` are both accepted.
/// - Returns: The invocation; `--version` prints and exits.
/// - Throws: `UsageError` for unknown commands or flags, missing values and wrong arguments.
func parse(_ args: [String]) throws(UsageError) -> Invocation {
    var inv = Invocation()
    try inv.read(args)
    if inv.help { return inv }
    if inv.system && inv.address != nil {
        throw UsageError(message: "--system and --address exclude each other", command: inv.command)
    }
    guard let c = inv.command else { return inv }
    try inv.checkArguments(of: c)
    try inv.checkOptions(of: c)
    return inv
}

extension Invocation {
    /// The options followed by a value (`--flag value` or `--flag=value`).
    static let valueOptions: Set<String> = [
        "--app", "--address", "--themes-dir", "--schema", "--out", "-o", "--output", "--size", "--property",
        "--timeout", "--latitude", "--longitude", "--date", "--color", "--scheme", "--contrast",
    ]

    /// Reads the command, its arguments and the options, in any order; after `--`, every
    /// argument is positional.
    mutating func read(_ args: [String]) throws(UsageError) {
        var i = 0
        var onlyPositional = false
        while i < args.count {
            let a = args[i]
            i += 1
            if onlyPositional || !a.hasPrefix("-") || a == "-" {
                try addWord(a)
                continue
            }
            var flag = a
            var inline: String?
            if let eq = a.firstIndex(of: "="), a.hasPrefix("--") {
                flag = String(a[..<eq])
                inline = String(a[a.index(after: eq)...])
            }
            if flag == "--" {
                onlyPositional = true
                continue
            }
            var value: String?
            if Self.valueOptions.contains(flag) {
                if let inline {
                    value = inline
                } else {
                    guard i < args.count else {
                        throw UsageError(message: "\(flag) needs a value", command: command)
                    }
                    value = args[i]
                    i += 1
                }
            }
            try set(flag, value, as: a)
        }
    }

    /// The command when there is none yet, else a positional argument.
    private mutating func addWord(_ a: String) throws(UsageError) {
        guard command == nil else {
            positional.append(a)
            return
        }
        guard let c = Command(rawValue: a) else {
            let hint =
                suggestion(for: a, among: Command.allCases.map(\.rawValue)).map { " (did you mean '\($0)'?)" }
                ?? ""
            throw UsageError(message: "unknown command '\(a)'\(hint)", command: nil)
        }
        command = c
    }

    /// Sets option `flag` (written as `written`) with its value, for those that take one.
    private mutating func set(_ flag: String, _ value: String?, as written: String) throws(UsageError) {
        func error(_ message: String) -> UsageError { UsageError(message: message, command: command) }
        switch (flag, value) {
        case ("--json", _): json = true
        case ("--app", let v?): app = v
        case ("--address", let v?):
            guard !v.isEmpty else { throw error("--address needs a bus address") }
            address = v
        case ("--system", _): system = true
        case ("--themes-dir", let v?): themesDirectories.append(v)
        case ("--schema", let v?): schema = v
        case ("--out", let v?): out = v
        case ("-o", let v?), ("--output", let v?): output = v
        case ("--size", let v?): size = v
        case ("--warnings", _): warnings = true
        case ("--variant", _): variant = true
        case ("--property", let v?): properties.append(v)
        case ("--timeout", let v?):
            guard let seconds = Double(v), seconds > 0, seconds.isFinite else {
                throw error("--timeout needs a number of seconds above 0, not '\(v)'")
            }
            timeout = seconds
        case ("--latitude", let v?), ("--longitude", let v?):
            guard let degrees = Double(v), degrees.isFinite else {
                throw error("\(flag) needs a number of degrees, not '\(v)'")
            }
            if flag == "--latitude" { latitude = degrees } else { longitude = degrees }
        case ("--date", let v?):
            guard let day = CalendarDate(iso: v) else {
                throw error("--date needs a day as YYYY-MM-DD, not '\(v)'")
            }
            date = day
        case ("--from-desktop", _): fromDesktop = true
        case ("--color", let v?):
            let digits = v.hasPrefix("#") ? v.dropFirst() : Substring(v)
            guard digits.count == 3 || digits.count == 6, let c = RGBA(hexDigits: digits) else {
                throw error("--color needs a colour as #rrggbb or #rgb, not '\(v)'")
            }
            color = UInt32(RGBA.eightBit(c.red) << 16 | RGBA.eightBit(c.green) << 8 | RGBA.eightBit(c.blue))
        case ("--scheme", let v?):
            guard let variant = MaterialVariant(rawValue: v) else {
                let names = MaterialVariant.allCases.map(\.name)
                let hint = suggestion(for: v, among: names).map { " (did you mean '\($0)'?)" } ?? ""
                throw error("unknown scheme '\(v)'\(hint); the schemes are " + names.joined(separator: ", "))
            }
            scheme = variant
        case ("--contrast", let v?):
            guard let c = Double(v), ThemeGenerator.contrastRange.contains(c) else {
                throw error("--contrast needs a number from -1 to 1, not '\(v)'")
            }
            contrast = c
        case ("-h", _), ("--help", _): help = true
        case ("--version", _):
            print("livery \(LiveryBus.version)")
            exit(0)
        default: throw error("unknown option '\(written)'")
        }
    }

    /// Checks the number of positional arguments against the command.
    func checkArguments(of c: Command) throws(UsageError) {
        let n = positional.count
        let usage = "\nUsage: \(c.usage.split(separator: "\n")[0])"
        if c == .generate {
            // One source of colour: a picture, a colour or the desktop's wallpaper.
            let sources = min(n, 1) + (color == nil ? 0 : 1) + (fromDesktop ? 1 : 0)
            let message: String? =
                sources > 1
                ? "IMAGE, --color and --from-desktop are alternatives: give one of them"
                : sources == 0
                    ? "'generate' needs one of IMAGE, --color HEX and --from-desktop"
                    : n > 1 ? "'generate' takes one IMAGE, not \(n)" : nil
            if let message { throw UsageError(message: message + usage, command: c) }
            return
        }
        let ok: Bool
        switch c {
        case .list, .get, .reload, .status, .toggle, .dark, .light, .plugins, .sun, .schedule: ok = n == 0
        case .watch: ok = true
        case .set: ok = n == 1
        case .resolve: ok = n >= 1
        case .explain: ok = n == 2
        case .check, .palette: ok = n >= 1
        case .build: ok = n >= 1
        case .export: ok = n == 2
        case .preview, .gallery: ok = n == 1
        case .generate: ok = true
        }
        if !ok {
            throw UsageError(message: "wrong number of arguments for '\(c.rawValue)'" + usage, command: c)
        }
    }

    /// Checks that every option given applies to the command.
    func checkOptions(of c: Command) throws(UsageError) {
        func error(_ message: String) -> UsageError { UsageError(message: message, command: c) }
        if out != nil && c != .build && c != .generate {
            throw error("--out applies to 'build' and 'generate' only")
        }
        if (color != nil || scheme != nil || contrast != nil || fromDesktop) && c != .generate {
            throw error("--color, --from-desktop, --scheme and --contrast apply to 'generate' only")
        }
        if output != nil && c != .preview { throw error("-o applies to 'preview' only") }
        if size != nil && c != .preview && c != .gallery {
            throw error("--size applies to 'preview' and 'gallery' only")
        }
        if json
            && [.set, .check, .reload, .toggle, .dark, .light, .build, .export, .preview, .gallery].contains(
                c)
        {
            throw error("'\(c.rawValue)' has no --json output")
        }
        if !properties.isEmpty && (c != .watch || positional.isEmpty) {
            throw error("--property applies to 'watch PATH...' only")
        }
        if variant && c != .get { throw error("--variant applies to 'get' only") }
        if warnings && c != .check { throw error("--warnings applies to 'check' only") }
        if c == .sun && (latitude == nil || longitude == nil) {
            throw error("'sun' needs --latitude and --longitude")
        }
        if c != .sun && (latitude != nil || longitude != nil || date != nil) {
            throw error("--latitude, --longitude and --date apply to 'sun' only")
        }
        if app != nil && c != .resolve && c != .explain && c != .watch && c != .preview {
            throw error("--app applies to 'resolve', 'explain', 'watch' and 'preview' only")
        }
    }
}
