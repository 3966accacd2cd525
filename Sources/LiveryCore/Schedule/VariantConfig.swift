import Foundation

/// `$XDG_CONFIG_HOME/livery/config.yaml` (DESIGN §10; the README, "Light and dark"), read through
/// libyaml: the light and dark themes, and when to switch between them. Errors are
/// compiler-style diagnostics at the key or value, as a sheet's; a file with any error is not
/// returned.
///
/// ```yaml
/// light: forest
/// dark: default-dark
/// schedule:                 # either a place: light at sunrise, dark at sunset
///   latitude: 52.37         # degrees north, −90…90
///   longitude: 4.89         # degrees east, −180…180
/// # or fixed local times:  schedule: { light: "07:00", dark: "19:30:15" }
/// ```
public struct VariantConfig: Sendable, Equatable {
    /// When the variant changes by itself.
    public enum Schedule: Sendable, Equatable {
        /// Light at sunrise, dark at sunset at this place (degrees).
        case sun(latitude: Double, longitude: Double)
        /// Light and dark at these local times of day, seconds after midnight.
        case times(light: Int, dark: Int)
    }

    /// The light theme's id, when given.
    public var light: String?
    /// The dark theme's id, when given.
    public var dark: String?
    /// The schedule, when given.
    public var schedule: Schedule?

    /// A configuration of these parts.
    public init(light: String? = nil, dark: String? = nil, schedule: Schedule? = nil) {
        self.light = light
        self.dark = dark
        self.schedule = schedule
    }

    /// The theme configured for `variant` (`light` or `dark`).
    public func theme(for variant: String) -> String? { variant == "dark" ? dark : light }

    /// Every error of a configuration, in file order.
    public struct Errors: Error, Sendable, Equatable {
        public var diagnostics: [Diagnostic]
    }

    /// The largest file read: 64 KiB.
    public static let maximumSize = 64 << 10

    /// Reads the file at `path`: nil when there is none.
    /// - Returns: The configuration, nil for no file, or every error.
    public static func load(_ path: String) -> Result<VariantConfig, Errors>? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let start = SourceLocation(file: path, line: 1, column: 1)
        switch BundleFiles.contents(of: path, limit: maximumSize) {
        case .failure(let e):
            return .failure(Errors(diagnostics: [Diagnostic(.error, "file \(e.message)", at: start)]))
        case .success(let data):
            guard let text = String(data: data, encoding: .utf8) else {
                return .failure(
                    Errors(diagnostics: [Diagnostic(.error, "file is not UTF-8 text", at: start)]))
            }
            return parse(text, file: path)
        }
    }

    /// A local time `HH:MM` or `HH:MM:SS` (24-hour) as seconds after midnight, or nil.
    public static func seconds(of time: String) -> Int? {
        let parts = time.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3,
            parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) })
        else { return nil }
        let n = parts.map { Int($0)! }
        guard n[0] < 24, n[1] < 60, n.count == 2 || n[2] < 60 else { return nil }
        return n[0] * 3600 + n[1] * 60 + (n.count == 3 ? n[2] : 0)
    }

    /// Parses configuration text.
    /// - Parameters:
    ///   - text: The YAML.
    ///   - file: The path diagnostics name.
    /// - Returns: The configuration, or every error found (never empty).
    public static func parse(_ text: String, file: String) -> Result<VariantConfig, Errors> {
        let lines = YAMLNode.Lines(text)
        var diagnostics: [Diagnostic] = []
        func error(_ message: String, _ mark: YAMLNode.Mark) {
            diagnostics.append(YAMLNode.diagnostic(message, at: mark, lines: lines, file: file))
        }
        var config = VariantConfig()
        let top: [(YAMLNode, YAMLNode)]
        switch YAMLNode.topLevel(
            of: text, lines: lines, file: file,
            expected: "config.yaml is a mapping of 'light', 'dark' and 'schedule'")
        {
        case .empty: return .success(config)
        case .refused(let d): return .failure(Errors(diagnostics: [d]))
        case .mapping(let pairs): top = pairs
        }
        func keys(_ pairs: [(YAMLNode, YAMLNode)], _ known: [String]) -> [(String, YAMLNode, YAMLNode)] {
            var seen: Set<String> = []
            var out: [(String, YAMLNode, YAMLNode)] = []
            for (k, v) in pairs {
                guard let name = k.scalar else {
                    error("a key must be a plain name", k.mark)
                    continue
                }
                guard known.contains(name) else {
                    // darkman's names for the place, which its users bring along.
                    let darkman = ["lat": "latitude", "lng": "longitude"]
                    let hint =
                        (darkman[name].flatMap { known.contains($0) ? $0 : nil }
                        ?? suggestion(for: name, among: known))
                        .map { " (did you mean '\($0)'?)" } ?? ""
                    error("unknown key '\(name)'\(hint)", k.mark)
                    continue
                }
                guard seen.insert(name).inserted else {
                    error("'\(name)' is given twice", k.mark)
                    continue
                }
                out.append((name, k, v))
            }
            return out
        }
        func themeID(_ node: YAMLNode, _ key: String) -> String? {
            guard let s = node.scalar, ThemeSource.isValidID(s) else {
                error("'\(key)' must be a theme id (\(ThemeSource.idRule))", node.mark)
                return nil
            }
            return s
        }
        for (name, _, value) in keys(top, ["light", "dark", "schedule"]) {
            switch name {
            case "light": config.light = themeID(value, name)
            case "dark": config.dark = themeID(value, name)
            default:
                guard case .mapping(let pairs) = value.kind else {
                    error(
                        "'schedule' must be a mapping: 'latitude' and 'longitude', or 'light' and 'dark' times",
                        value.mark)
                    continue
                }
                let fields = keys(pairs, ["latitude", "longitude", "light", "dark"])
                var values: [String: (YAMLNode, YAMLNode)] = [:]
                for (n, k, v) in fields { values[n] = (k, v) }
                func degrees(_ n: String, _ limit: Double) -> Double? {
                    guard let (_, v) = values[n] else { return nil }
                    guard let s = v.scalar, let d = Double(s), d.isFinite, abs(d) <= limit else {
                        error(
                            "'\(n)' must be a number of degrees from -\(Int(limit)) to \(Int(limit))", v.mark)
                        return nil
                    }
                    return d
                }
                func time(_ n: String) -> Int? {
                    guard let (_, v) = values[n] else { return nil }
                    guard let s = v.scalar, let t = seconds(of: s) else {
                        error("'\(n)' must be a local time \"HH:MM\" or \"HH:MM:SS\" (24-hour)", v.mark)
                        return nil
                    }
                    return t
                }
                let place = values["latitude"] != nil || values["longitude"] != nil
                let times = values["light"] != nil || values["dark"] != nil
                if place && times {
                    error(
                        "a schedule is either a place (latitude, longitude) or times (light, dark), not both",
                        value.mark)
                } else if place {
                    let (lat, lon) = (degrees("latitude", 90), degrees("longitude", 180))
                    for n in ["latitude", "longitude"] where values[n] == nil {
                        error("a schedule by place needs '\(n)'", value.mark)
                    }
                    if let lat, let lon { config.schedule = .sun(latitude: lat, longitude: lon) }
                } else if times {
                    let (l, d) = (time("light"), time("dark"))
                    for n in ["light", "dark"] where values[n] == nil {
                        error("a schedule by times needs '\(n)'", value.mark)
                    }
                    if let l, let d {
                        if l == d {
                            error("'light' and 'dark' are the same time", value.mark)
                        } else {
                            config.schedule = .times(light: l, dark: d)
                        }
                    }
                } else if fields.isEmpty && diagnostics.isEmpty {
                    error(
                        "'schedule' needs 'latitude' and 'longitude', or 'light' and 'dark' times", value.mark
                    )
                }
            }
        }
        return diagnostics.isEmpty ? .success(config) : .failure(Errors(diagnostics: diagnostics))
    }
}
