import Foundation

/// iTerm2 colour schemes (`.itermcolors`, a property list read with Foundation's
/// `PropertyListSerialization`): a dictionary of colours, each a dictionary of `Red Component`,
/// `Green Component`, `Blue Component` (reals 0–1), optionally `Alpha Component` and
/// `Color Space`. The scheme becomes a theme whose palette holds the terminal colours and which
/// inherits the mapping theme `terminal`.
public struct ItermFormat: ThemeFormat {
    /// The iTerm2 format; it has no settings.
    public init() {}
    /// `iterm2`.
    public var name: String { "iterm2" }

    /// iTerm2's keys and the palette names they become: `Ansi 0 Color`…`Ansi 15 Color` as
    /// `color0`…`color15`, then the special colours. Other keys (`Badge Color`, `Link Color`,
    /// `Tab Color` …) colour nothing Livery styles and are ignored.
    static let keys: [(key: String, palette: String)] =
        (0..<16).map { ("Ansi \($0) Color", "color\($0)") } + [
            ("Background Color", "background"), ("Foreground Color", "foreground"),
            ("Cursor Color", "cursor"), ("Cursor Text Color", "cursor-text"),
            ("Selection Color", "selection-background"), ("Selected Text Color", "selection-foreground"),
            ("Bold Color", "bold"),
        ]

    /// Claims a `.itermcolors` file; the id is made from its file name as a scheme's.
    public func claim(_ url: URL, isDirectory: Bool) -> String? {
        guard !isDirectory, url.pathExtension.lowercased() == "itermcolors" else { return nil }
        return ThemeFormats.schemeID(for: url)
    }

    /// Reads the property list (at most 1 MiB); every colour it has of ``keys`` is defined in the
    /// palette, converted to sRGB. The name is the file's base name (`3024 Night`).
    public func read(_ url: URL, id: String) -> ThemeSource {
        var out = ImportedSheet(url: url)
        guard let data = out.readData() else { return out.source(id: id, format: name) }
        let text = String(decoding: data, as: UTF8.self)
        out = ImportedSheet(url: url, text: text)
        let places = KeyPlaces(text)
        let plist: Any
        do {
            plist = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            out.error(
                "not a property list (an .itermcolors file is an XML or binary plist): \(Self.reason(error))")
            return out.source(id: id, format: name)
        }
        guard let top = plist as? [String: Any] else {
            out.error("an .itermcolors file is a dictionary of colours, not a \(Self.kind(of: plist))")
            return out.source(id: id, format: name)
        }
        var background: RGBA?
        var found = 0
        for (key, palette) in Self.keys {
            guard let value = top[key] else { continue }
            found += 1
            let keyAt = places.find("<key>\(key)</key>")
            func place(_ component: String?) -> (line: Int, column: Int) {
                guard let keyAt else { return (1, 1) }
                guard let component, let at = places.find("<key>\(component)</key>", from: keyAt) else {
                    return places.place(keyAt)
                }
                return places.place(at)
            }
            switch Self.color(value) {
            case .failure(let problem):
                let (line, column) = place(problem.component)
                out.error("'\(key)': \(problem.message)", line: line, column: column)
            case .success(let color):
                let (line, column) = place(nil)
                out.define(palette, color, line: line, column: column)
                if palette == "background" { background = color }
            }
        }
        if found == 0 {
            out.error(
                "no terminal colours: an .itermcolors file has 'Ansi 0 Color'…'Ansi 15 Color', 'Background Color' …"
            )
        }
        out.describe(
            name: url.deletingPathExtension().lastPathComponent, description: "iTerm2 colour scheme",
            background: background, inherits: TerminalMapping.theme)
        return out.source(id: id, format: name)
    }

    /// What is wrong with one colour, and the component key to point at (nil: the colour's key).
    struct Problem: Error {
        var message: String
        var component: String?
    }

    /// One colour dictionary as sRGB: `P3` through linear light and the P3→sRGB matrix, clamped;
    /// `sRGB`, `Calibrated` and no colour space as sRGB (what iTerm2-Color-Schemes' generator
    /// does). Components must be numbers in 0–1; `Alpha Component` is kept, 1 when absent.
    static func color(_ value: Any) -> Result<RGBA, Problem> {
        guard let dict = value as? [String: Any] else {
            return .failure(
                Problem(message: "a colour is a dictionary of components, not a \(kind(of: value))"))
        }
        var channels: [Double] = []
        for component in ["Red Component", "Green Component", "Blue Component", "Alpha Component"] {
            guard let raw = dict[component] else {
                if component == "Alpha Component" {
                    channels.append(1)
                    continue
                }
                return .failure(Problem(message: "missing '\(component)'"))
            }
            guard let v = number(raw) else {
                return .failure(
                    Problem(
                        message: "'\(component)' is a \(kind(of: raw)), not a number", component: component))
            }
            guard v >= 0 && v <= 1 else {
                return .failure(
                    Problem(message: "'\(component)' is \(v), outside 0–1", component: component))
            }
            channels.append(v)
        }
        let space = dict["Color Space"] as? String
        if space == "P3" {
            let (r, g, b) = displayP3ToSRGB(channels[0], channels[1], channels[2])
            return .success(RGBA(red: r, green: g, blue: b, alpha: channels[3]))
        }
        if let space, space != "sRGB", space != "Calibrated" {
            return .failure(
                Problem(
                    message: "unknown 'Color Space' '\(space)' (expected sRGB, Calibrated or P3)",
                    component: "Color Space"))
        }
        return .success(RGBA(red: channels[0], green: channels[1], blue: channels[2], alpha: channels[3]))
    }

    /// A plist number (`<real>`, `<integer>`) as a Double; nil for anything else. (Foundation
    /// bridges `<true/>` to a number too, and a `<real>1</real>` to something `is Bool` accepts,
    /// so booleans cannot be told apart here: `<true/>` reads as 1.)
    static func number(_ v: Any) -> Double? {
        guard !(v is String), let n = v as? NSNumber else { return nil }
        let d = n.doubleValue
        return d.isFinite ? d : nil
    }

    /// Display P3 (D65, the sRGB transfer curve) to sRGB: decode to linear light, apply the
    /// linear P3→sRGB matrix (from the two spaces' primaries and D65 white, CSS Color 4 §10.4),
    /// encode, clamp to 0–1 (out-of-gamut colours are clipped).
    static func displayP3ToSRGB(_ r: Double, _ g: Double, _ b: Double) -> (Double, Double, Double) {
        func decode(_ v: Double) -> Double { v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4) }
        func encode(_ v: Double) -> Double {
            let c = min(max(v, 0), 1)
            return c <= 0.0031308 ? c * 12.92 : 1.055 * pow(c, 1 / 2.4) - 0.055
        }
        let (lr, lg, lb) = (decode(r), decode(g), decode(b))
        return (
            encode(1.224_940_176_280_561 * lr - 0.224_940_176_280_561 * lg),
            encode(-0.042_056_954_709_688 * lr + 1.042_056_954_709_688 * lg),
            encode(-0.019_637_554_590_334 * lr - 0.078_636_045_550_632 * lg + 1.098_273_600_140_966 * lb)
        )
    }

    /// A value's kind for messages: `string`, `array` …
    static func kind(of v: Any) -> String {
        switch v {
        case is String: "string"
        case is [Any]: "array"
        case is [String: Any]: "dictionary"
        case is Bool: "boolean"
        case is Data: "data"
        case is Date: "date"
        case is NSNumber: "number"
        default: "value"
        }
    }

    /// Foundation's reason for refusing a property list, without its error domain and code.
    static func reason(_ error: Error) -> String {
        let ns = error as NSError
        return (ns.userInfo[NSDebugDescriptionErrorKey] as? String) ?? ns.localizedDescription
    }
}

/// The mapping theme of terminal schemes (iTerm2, `colors.json`).
enum TerminalMapping {
    /// `terminal`: `themes/terminal/theme.css`.
    static let theme = "terminal"
}
