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
        let reader = YAMLMappingReader(text: text, file: url.path)
        var sheet = Stylesheet(file: url.path)
        guard let scheme = Scheme(text, id: id, reader: reader) else {
            sheet.diagnostics = reader.diagnostics
            return ThemeSource(id: id, format: name, path: url.path, sheet: sheet)
        }
        let found = scheme.colours(reader)
        sheet.palette = scheme.palette(found, reader)
        func meta(_ key: String, _ value: String) {
            let l = SourceLocation(file: url.path, line: 1, column: 1)
            sheet.metadata.append(
                Declaration(
                    property: key, value: [ValueNode(kind: .string(value), location: l)], location: l,
                    sourceLine: "", bundleRoot: nil))
        }
        meta("name", scheme.name)
        meta("description", "\(scheme.system) scheme" + (scheme.author.map { " by \($0)" } ?? ""))
        meta("variant", scheme.variant(background: found["base00"]?.0, reader))
        meta("inherits", Base16Format.mappingTheme)
        sheet.diagnostics = reader.diagnostics
        // Listed as what it is: base16 or base24 (one format reads both).
        return ThemeSource(id: id, format: scheme.system, path: url.path, sheet: sheet)
    }
}

extension Base16Format {
    /// A scheme's top-level mapping read in either layout: modern (`palette:` holds the
    /// colours) or legacy (they are at the top level).
    struct Scheme {
        let root: YAMLNode
        let top: [(YAMLNode, YAMLNode)]
        let colours: [(YAMLNode, YAMLNode)]
        let system: String
        let name: String
        let author: String?
        /// The slots a scheme of its system has.
        var slots: ArraySlice<String> { Base16Format.slots.prefix(system == "base24" ? 24 : 16) }

        /// The scheme of `text`, or nil after reporting why it is not one.
        init?(_ text: String, id: String, reader: YAMLMappingReader) {
            switch YAMLNode.parse(text) {
            case .failure(let e):
                reader.error(e.message, at: e.mark)
                return nil
            case .success(let r): root = r
            }
            guard case .mapping(let top) = root.kind else {
                reader.error("a base16 scheme is a YAML mapping", at: root.mark)
                return nil
            }
            self.top = top
            var system = "base16"
            if let p = top.first(where: { $0.0.scalar == "palette" })?.1 {
                guard case .mapping(let m) = p.kind else {
                    reader.error("'palette' must be a mapping of base00…base0F to colours", at: p.mark)
                    return nil
                }
                colours = m
                if let (s, mark) = Self.scalar(top, "system") {
                    guard s == "base16" || s == "base24" else {
                        reader.error("unknown system '\(s)' (expected base16 or base24)", at: mark)
                        return nil
                    }
                    system = s
                }
                name = Self.scalar(top, "name")?.0 ?? id
            } else {
                colours = top
                name = Self.scalar(top, "scheme")?.0 ?? Self.scalar(top, "name")?.0 ?? id
                if top.contains(where: { $0.0.scalar?.lowercased().hasPrefix("base1") == true }) {
                    system = "base24"
                }
            }
            self.system = system
            author = Self.scalar(top, "author")?.0
        }

        /// The first scalar value of `key` in `map`, with where it is.
        static func scalar(_ map: [(YAMLNode, YAMLNode)], _ key: String) -> (String, YAMLNode.Mark)? {
            for (k, v) in map where k.scalar == key {
                if let s = v.scalar { return (s, v.mark) }
            }
            return nil
        }

        /// The colour text of each slot given, by slot, with where it is.
        func colours(_ reader: YAMLMappingReader) -> [String: (String, YAMLNode.Mark)] {
            var found: [String: (String, YAMLNode.Mark)] = [:]
            // Slot names are matched case-insensitively (`base0a` and `base0A` are seen in the
            // wild); a scheme's other keys are its own.
            reader.forEachField(of: colours, known: Array(slots), others: .ignored, ignoringCase: true) {
                field in
                guard let s = field.value.scalar else {
                    reader.error("'\(field.key.scalar!)' must be a hex colour", at: field.value.mark)
                    return
                }
                found[field.name] = (s, field.value.mark)
            }
            return found
        }

        /// The palette: every slot of the system, each a colour of six hex digits.
        func palette(_ found: [String: (String, YAMLNode.Mark)], _ reader: YAMLMappingReader)
            -> [PaletteDefinition]
        {
            var palette: [PaletteDefinition] = []
            for slot in slots {
                guard let (s, mark) = found[slot] else {
                    reader.error(
                        "missing colour '\(slot)' (a \(system) scheme has \(slots.first!)…\(slots.last!))",
                        at: root.mark)
                    continue
                }
                let hex = s.hasPrefix("#") ? String(s.dropFirst()) : s
                guard hex.count == 6, RGBA(hexDigits: Substring(hex)) != nil else {
                    reader.error(
                        "'\(slot)' is '\(s)', not a colour: expected six hex digits, with or without '#'",
                        at: mark)
                    continue
                }
                let l = reader.location(mark)
                palette.append(
                    PaletteDefinition(
                        name: slot, value: [ValueNode(kind: .hash(hex), location: l)], location: l,
                        sourceLine: reader.lines.text(at: YAMLNode.Mark(line: mark.line, column: 1))))
            }
            return palette
        }

        /// `light` or `dark`: the scheme's `variant`, else judged by the background (old schemes
        /// say nothing).
        func variant(background: String?, _ reader: YAMLMappingReader) -> String {
            let given = Self.scalar(top, "variant")
            if let (v, mark) = given, v.lowercased() != "light" && v.lowercased() != "dark" {
                reader.error("variant is '\(v)'; a scheme's variant is light or dark", at: mark)
            }
            if let v = given?.0.lowercased(), v == "light" || v == "dark" { return v }
            let bg = background.flatMap {
                RGBA(hexDigits: Substring($0.hasPrefix("#") ? String($0.dropFirst()) : $0))
            }
            return (bg?.luminance ?? 0) > 0.4 ? "light" : "dark"
        }
    }
}
