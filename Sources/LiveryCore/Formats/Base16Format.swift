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
    static func id(for url: URL) -> String {
        let base = url.deletingPathExtension().lastPathComponent.lowercased()
        var id = String(
            base.unicodeScalars.map { s -> Character in
                (s.properties.isAlphabetic && s.isASCII) || ("0"..."9").contains(s) ? Character(s) : "-"
            })
        while id.contains("--") { id = id.replacingOccurrences(of: "--", with: "-") }
        return String(id.trimmingCharacters(in: CharacterSet(charactersIn: "-")).prefix(64))
    }

    /// Reads the scheme (at most 1 MiB) into a sheet whose palette holds its slots and which
    /// inherits `mappingTheme`.
    public func read(_ url: URL, id: String) -> ThemeSource {
        var sheet = Stylesheet(file: url.path)
        let text: String
        switch ThemeFormats.readText(url, limit: 1 << 20) {
        case .failure(let d):
            sheet.diagnostics = [d]
            return ThemeSource(id: id, format: name, path: url.path, sheet: sheet)
        case .success(let t): text = t
        }
        let lines = text.split(
            omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
        func lineText(_ n: Int) -> String { n >= 1 && n <= lines.count ? String(lines[n - 1]) : "" }
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
