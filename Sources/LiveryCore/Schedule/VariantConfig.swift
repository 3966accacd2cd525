import Foundation

/// `$XDG_CONFIG_HOME/livery/config.yaml` (the README, "Light and dark"), read through
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
        let reader = YAMLMappingReader(text: text, file: file)
        var config = VariantConfig()
        let top: [(YAMLNode, YAMLNode)]
        switch YAMLNode.topLevel(
            of: text, lines: reader.lines, file: file,
            expected: "config.yaml is a mapping of 'light', 'dark' and 'schedule'")
        {
        case .empty: return .success(config)
        case .refused(let d): return .failure(Errors(diagnostics: [d]))
        case .mapping(let pairs): top = pairs
        }
        for field in reader.fields(of: top, known: ["light", "dark", "schedule"], others: keyRule) {
            switch field.name {
            case "light": config.light = themeID(field.value, field.name, reader)
            case "dark": config.dark = themeID(field.value, field.name, reader)
            default: config.schedule = schedule(field.value, reader)
            }
        }
        let diagnostics = reader.diagnostics
        return diagnostics.isEmpty ? .success(config) : .failure(Errors(diagnostics: diagnostics))
    }

    /// Unknown keys are errors, with darkman's names for the place, which its users bring along,
    /// pointing to Livery's.
    private static let keyRule = YAMLMappingReader.OtherKeys.reported(hints: [
        "lat": "latitude", "lng": "longitude",
    ])

    /// `light` or `dark`: a theme id.
    private static func themeID(_ node: YAMLNode, _ key: String, _ reader: YAMLMappingReader) -> String? {
        guard let s = node.scalar, ThemeSource.isValidID(s) else {
            reader.error("'\(key)' must be a theme id (\(ThemeSource.idRule))", at: node.mark)
            return nil
        }
        return s
    }

    /// `schedule`: a place (`latitude`, `longitude`) or two times (`light`, `dark`); nil, with
    /// the errors reported, when it is neither.
    private static func schedule(_ value: YAMLNode, _ reader: YAMLMappingReader) -> Schedule? {
        guard case .mapping(let pairs) = value.kind else {
            reader.error(
                "'schedule' must be a mapping: 'latitude' and 'longitude', or 'light' and 'dark' times",
                at: value.mark)
            return nil
        }
        let fields = reader.fields(
            of: pairs, known: ["latitude", "longitude", "light", "dark"], others: keyRule)
        var values: [String: YAMLNode] = [:]
        for field in fields { values[field.name] = field.value }
        func degrees(_ n: String, _ limit: Double) -> Double? {
            guard let v = values[n] else { return nil }
            guard let s = v.scalar, let d = Double(s), d.isFinite, abs(d) <= limit else {
                reader.error(
                    "'\(n)' must be a number of degrees from -\(Int(limit)) to \(Int(limit))", at: v.mark)
                return nil
            }
            return d
        }
        func time(_ n: String) -> Int? {
            guard let v = values[n] else { return nil }
            guard let s = v.scalar, let t = seconds(of: s) else {
                reader.error("'\(n)' must be a local time \"HH:MM\" or \"HH:MM:SS\" (24-hour)", at: v.mark)
                return nil
            }
            return t
        }
        let place = values["latitude"] != nil || values["longitude"] != nil
        let times = values["light"] != nil || values["dark"] != nil
        if place && times {
            reader.error(
                "a schedule is either a place (latitude, longitude) or times (light, dark), not both",
                at: value.mark)
        } else if place {
            let (lat, lon) = (degrees("latitude", 90), degrees("longitude", 180))
            for n in ["latitude", "longitude"] where values[n] == nil {
                reader.error("a schedule by place needs '\(n)'", at: value.mark)
            }
            if let lat, let lon { return .sun(latitude: lat, longitude: lon) }
        } else if times {
            let (l, d) = (time("light"), time("dark"))
            for n in ["light", "dark"] where values[n] == nil {
                reader.error("a schedule by times needs '\(n)'", at: value.mark)
            }
            if let l, let d {
                if l != d { return .times(light: l, dark: d) }
                reader.error("'light' and 'dark' are the same time", at: value.mark)
            }
        } else if fields.isEmpty && reader.diagnostics.isEmpty {
            reader.error(
                "'schedule' needs 'latitude' and 'longitude', or 'light' and 'dark' times", at: value.mark)
        }
        return nil
    }
}
