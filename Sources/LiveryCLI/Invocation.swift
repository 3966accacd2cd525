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
        case "--from-desktop": inv.fromDesktop = true
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
        case "--out": inv.out = try arg()
        case "-o", "--output": inv.output = try arg()
        case "--size": inv.size = try arg()
        case "--warnings": inv.warnings = true
        case "--variant": inv.variant = true
        case "--property": inv.properties.append(try arg())
        case "--timeout":
            let v = try arg()
            guard let seconds = Double(v), seconds > 0, seconds.isFinite else {
                throw UsageError(
                    message: "--timeout needs a number of seconds above 0, not '\(v)'", command: inv.command)
            }
            inv.timeout = seconds
        case "--latitude", "--longitude":
            let v = try arg()
            guard let degrees = Double(v), degrees.isFinite else {
                throw UsageError(
                    message: "\(flag) needs a number of degrees, not '\(v)'", command: inv.command)
            }
            if flag == "--latitude" { inv.latitude = degrees } else { inv.longitude = degrees }
        case "--date":
            let v = try arg()
            guard let date = CalendarDate(iso: v) else {
                throw UsageError(
                    message: "--date needs a day as YYYY-MM-DD, not '\(v)'", command: inv.command)
            }
            inv.date = date
        case "--color":
            let v = try arg()
            let digits = v.hasPrefix("#") ? v.dropFirst() : Substring(v)
            guard digits.count == 3 || digits.count == 6, let c = RGBA(hexDigits: digits) else {
                throw UsageError(
                    message: "--color needs a colour as #rrggbb or #rgb, not '\(v)'", command: inv.command)
            }
            inv.color = UInt32(
                RGBA.eightBit(c.red) << 16 | RGBA.eightBit(c.green) << 8 | RGBA.eightBit(c.blue))
        case "--scheme":
            let v = try arg()
            guard let variant = MaterialVariant(rawValue: v) else {
                let hint =
                    suggestion(for: v, among: MaterialVariant.allCases.map(\.name)).map {
                        " (did you mean '\($0)'?)"
                    } ?? ""
                throw UsageError(
                    message: "unknown scheme '\(v)'\(hint); the schemes are "
                        + MaterialVariant.allCases.map(\.name).joined(separator: ", "),
                    command: inv.command)
            }
            inv.scheme = variant
        case "--contrast":
            let v = try arg()
            guard let c = Double(v), ThemeGenerator.contrastRange.contains(c) else {
                throw UsageError(
                    message: "--contrast needs a number from -1 to 1, not '\(v)'", command: inv.command)
            }
            inv.contrast = c
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
    case .list, .get, .reload, .status, .toggle, .dark, .light, .plugins, .sun, .schedule: ok = n == 0
    case .watch: ok = true
    case .set: ok = n == 1
    case .resolve: ok = n >= 1
    case .explain: ok = n == 2
    case .check, .palette: ok = n >= 1
    case .build: ok = n >= 1
    case .export: ok = n == 2
    case .preview, .gallery: ok = n == 1
    case .generate:
        ok = n == (inv.color == nil && !inv.fromDesktop ? 1 : 0) && !(inv.color != nil && inv.fromDesktop)
    }
    if !ok {
        throw UsageError(
            message:
                "wrong number of arguments for '\(c.rawValue)'\nUsage: \(c.usage.split(separator: "\n")[0])",
            command: c)
    }
    if inv.out != nil && c != .build && c != .generate {
        throw UsageError(message: "--out applies to 'build' and 'generate' only", command: c)
    }
    if (inv.color != nil || inv.scheme != nil || inv.contrast != nil || inv.fromDesktop) && c != .generate {
        throw UsageError(
            message: "--color, --from-desktop, --scheme and --contrast apply to 'generate' only", command: c)
    }
    if inv.output != nil && c != .preview {
        throw UsageError(message: "-o applies to 'preview' only", command: c)
    }
    if inv.size != nil && c != .preview && c != .gallery {
        throw UsageError(message: "--size applies to 'preview' and 'gallery' only", command: c)
    }
    if inv.json
        && [.set, .check, .reload, .toggle, .dark, .light, .build, .export, .preview, .gallery].contains(c)
    {
        throw UsageError(message: "'\(c.rawValue)' has no --json output", command: c)
    }
    if !inv.properties.isEmpty && (c != .watch || inv.positional.isEmpty) {
        throw UsageError(message: "--property applies to 'watch PATH...' only", command: c)
    }
    if inv.variant && c != .get {
        throw UsageError(message: "--variant applies to 'get' only", command: c)
    }
    if inv.warnings && c != .check {
        throw UsageError(message: "--warnings applies to 'check' only", command: c)
    }
    if c == .sun && (inv.latitude == nil || inv.longitude == nil) {
        throw UsageError(message: "'sun' needs --latitude and --longitude", command: c)
    }
    if c != .sun && (inv.latitude != nil || inv.longitude != nil || inv.date != nil) {
        throw UsageError(message: "--latitude, --longitude and --date apply to 'sun' only", command: c)
    }
    if inv.app != nil && c != .resolve && c != .explain && c != .watch && c != .preview {
        throw UsageError(
            message: "--app applies to 'resolve', 'explain', 'watch' and 'preview' only", command: c)
    }
    return inv
}
