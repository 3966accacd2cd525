import Foundation

/// base16 and base24 schemes (YAML read with libyaml): the modern layout (`system`, `name`,
/// `author`, `variant`, `palette.base00`…) and the legacy one (`scheme:`, colours at the top
/// level), hex with or without `#`, any case. The scheme becomes a theme whose palette holds its
/// colours and which inherits the mapping theme `base16`.
public struct Base16Format: ThemeFormat {
    /// The base16/base24 format; it has no settings.
    public init() {}
    /// `base16`, for base24 schemes too.
    public var name: String { "base16" }
    /// The palette slots: `base00`…`base0F`, then base24's `base10`…`base17`. Made once: every
    /// scheme on the search path is read at start-up.
    static let slots: [String] = (0..<24).map { i in
        let digits = Array("0123456789ABCDEF")
        return "base" + (i < 16 ? "0" : "1") + String(digits[i % 16])
    }

    /// The theme that says which slot colours which component.
    public static let mappingTheme = "base16"

    /// Claims a `.yaml` or `.yml` file; the id is its base name, lower-cased, other characters as `-`.
    public func claim(_ url: URL, isDirectory: Bool) -> String? {
        guard !isDirectory, ["yaml", "yml"].contains(url.pathExtension.lowercased()) else { return nil }
        return Base16Format.id(for: url)
    }

    /// The theme id for a scheme file: its base name, lower-cased, other characters as `-`.
    static func id(for url: URL) -> String { ThemeFormats.schemeID(for: url) }

    /// `base16-ID` or `base24-ID` (tinty's ids), the system judged from the file's first 16 KiB:
    /// a `system:` key saying `base24`, or a `base10`…`base17` key, make it base24. `read` says
    /// the same for every scheme whose `system` key or base24 colours come within those bytes.
    public func aliases(_ url: URL, id: String) -> [String] {
        guard let data = ThemeFormats.head(url, limit: 16 << 10) else { return [] }
        return ["\(Base16Format.system(ofHead: String(decoding: data, as: UTF8.self)))-\(id)"]
    }

    /// `base24` when the text has a `system` key of `base24` or a `base1X` key at the start of a
    /// line (after spaces and an optional quote), else `base16`.
    static func system(ofHead text: String) -> String {
        for line in text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            var rest = line.drop { $0 == " " || $0 == "\t" }
            if rest.first == "\"" || rest.first == "'" { rest = rest.dropFirst() }
            let lower = rest.lowercased()
            if lower.hasPrefix("system") {
                let value = lower.drop { $0 != ":" }.dropFirst().filter {
                    $0 != "\"" && $0 != "'" && $0 != " "
                }
                if value.hasPrefix("base24") { return "base24" }
            } else if lower.hasPrefix("base1"), lower.count > 6,
                lower.dropFirst(6).first.map({ $0 == ":" || $0 == "\"" || $0 == "'" }) == true
            {
                return "base24"
            }
        }
        return "base16"
    }

    /// Reads the scheme (at most 1 MiB) into a sheet whose palette holds its slots and which
    /// inherits `mappingTheme`.
    public func read(_ url: URL, id: String) -> ThemeSource {
        var sheet = Stylesheet(file: url.path)
        let text: String
        switch ThemeFormats.readText(url, limit: ThemeFormats.maximumSchemeSize) {
        case .failure(let d):
            sheet.diagnostics = [d]
            return ThemeSource(id: id, format: name, path: url.path, sheet: sheet)
        case .success(let t): text = t
        }
        return parse(text, url: url, id: id)
    }

    /// Reads scheme text as if it were the file `url` (an outside importer's output).
    func parse(_ text: String, url: URL, id: String) -> ThemeSource {
        var sheet = Stylesheet(file: url.path)
        let lines = YAMLNode.Lines(text)
        func lineText(_ n: Int) -> String { lines.text(at: YAMLNode.Mark(line: n, column: 1)) }
        func loc(_ m: YAMLNode.Mark) -> SourceLocation {
            SourceLocation(file: url.path, line: m.line, column: m.column)
        }
        func error(_ message: String, _ m: YAMLNode.Mark) {
            sheet.diagnostics.append(Diagnostic(.error, message, at: loc(m), sourceLine: lineText(m.line)))
        }
        let root: YAMLNode
        switch YAMLNode.parse(text) {
        case .failure(let e):
            error(e.message, e.mark)
            return ThemeSource(id: id, format: name, path: url.path, sheet: sheet)
        case .success(let r): root = r
        }
        guard case .mapping(let top) = root.kind else {
            error("a base16 scheme is a YAML mapping", root.mark)
            return ThemeSource(id: id, format: name, path: url.path, sheet: sheet)
        }
        func scalar(_ map: [(YAMLNode, YAMLNode)], _ key: String) -> (String, YAMLNode.Mark)? {
            for (k, v) in map where k.scalar == key {
                if let s = v.scalar { return (s, v.mark) }
            }
            return nil
        }
        // Modern layout: `palette:` holds the colours; legacy: they are at the top level.
        var colours = top
        var system = "base16"
        var schemeName: String
        if let p = top.first(where: { $0.0.scalar == "palette" })?.1 {
            guard case .mapping(let m) = p.kind else {
                error("'palette' must be a mapping of base00…base0F to colours", p.mark)
                return ThemeSource(id: id, format: name, path: url.path, sheet: sheet)
            }
            colours = m
            if let (s, mark) = scalar(top, "system") {
                guard s == "base16" || s == "base24" else {
                    error("unknown system '\(s)' (expected base16 or base24)", mark)
                    return ThemeSource(id: id, format: name, path: url.path, sheet: sheet)
                }
                system = s
            }
            schemeName = scalar(top, "name")?.0 ?? id
        } else {
            schemeName = scalar(top, "scheme")?.0 ?? scalar(top, "name")?.0 ?? id
            if colours.contains(where: { $0.0.scalar?.lowercased().hasPrefix("base1") == true }) {
                system = "base24"
            }
        }
        let author = scalar(top, "author")?.0
        let slots = Array(Base16Format.slots.prefix(system == "base24" ? 24 : 16))
        var found: [String: (String, YAMLNode.Mark)] = [:]
        for (k, v) in colours {
            guard let key = k.scalar, key.lowercased().hasPrefix("base"), key.count == 6 else { continue }
            // Slot names are matched case-insensitively (`base0a` and `base0A` are seen in the wild).
            guard let slot = slots.first(where: { $0.lowercased() == key.lowercased() }) else { continue }
            guard let s = v.scalar else {
                error("'\(key)' must be a hex colour", v.mark)
                continue
            }
            if found[slot] != nil {
                error("'\(slot)' is given twice", k.mark)
                continue
            }
            found[slot] = (s, v.mark)
        }
        for slot in slots {
            guard let (s, mark) = found[slot] else {
                error(
                    "missing colour '\(slot)' (a \(system) scheme has \(slots.first!)…\(slots.last!))",
                    root.mark)
                continue
            }
            let hex = s.hasPrefix("#") ? String(s.dropFirst()) : s
            guard hex.count == 6, RGBA(hexDigits: Substring(hex)) != nil else {
                error("'\(slot)' is '\(s)', not a colour: expected six hex digits, with or without '#'", mark)
                continue
            }
            let l = loc(mark)
            sheet.palette.append(
                PaletteDefinition(
                    name: slot, value: [ValueNode(kind: .hash(hex), location: l)], location: l,
                    sourceLine: lineText(mark.line)))
        }
        var variant = scalar(top, "variant")?.0.lowercased()
        if let (v, mark) = scalar(top, "variant"), v.lowercased() != "light" && v.lowercased() != "dark" {
            error("variant is '\(v)'; a scheme's variant is light or dark", mark)
        }
        if variant != "light" && variant != "dark" {
            // Old schemes say nothing: judge by the background.
            let bg = found["base00"].flatMap {
                RGBA(hexDigits: Substring($0.0.hasPrefix("#") ? String($0.0.dropFirst()) : $0.0))
            }
            variant = (bg?.luminance ?? 0) > 0.4 ? "light" : "dark"
        }
        func meta(_ key: String, _ value: String) {
            let l = SourceLocation(file: url.path, line: 1, column: 1)
            sheet.metadata.append(
                Declaration(
                    property: key, value: [ValueNode(kind: .string(value), location: l)], location: l,
                    sourceLine: "", bundleRoot: nil))
        }
        meta("name", schemeName)
        meta("description", "\(system) scheme" + (author.map { " by \($0)" } ?? ""))
        meta("variant", variant!)
        meta("inherits", Base16Format.mappingTheme)
        // Listed as what it is: base16 or base24 (one format reads both).
        return ThemeSource(id: id, format: system, path: url.path, sheet: sheet)
    }
}
