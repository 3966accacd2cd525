import Foundation

/// A base16 or base24 scheme as the tinted-theming builder reads it (builder specification
/// 0.11, as tinted-builder-rust does): what its templates are rendered from.
///
/// The modern layout (`system`, `name`, `slug`, `author`, `description`, `variant`,
/// `palette`) and the legacy one (`scheme`, `author`, the colours at the top level) are read.
/// `slug` is the `slug` field slugified, or else the name slugified; `variant` is `dark` when
/// absent; colours are three or six hex digits, with or without `#`.
public struct TintedScheme: Sendable, Equatable {
    /// `base16` or `base24`.
    public var system: String
    /// The scheme's name as written, control characters as spaces (``TemplateText``).
    public var name: String
    /// `slugify(slug ?? name)`.
    public var slug: String
    /// As written, control characters as spaces; empty when absent.
    public var author: String
    /// As written, control characters as spaces; empty when absent.
    public var description: String
    /// `light` or `dark`.
    public var variant: String
    /// Slot name (`base00`…`base0F`, `base10`…`base17` for base24) to red, green, blue.
    public var palette: [String: RGB8]

    /// One colour, 8 bits a channel.
    public struct RGB8: Sendable, Equatable {
        /// Red, 0–255.
        public var r: UInt8
        /// Green, 0–255.
        public var g: UInt8
        /// Blue, 0–255.
        public var b: UInt8

        /// A colour's channels at eight bits (`RGBA.eightBit`), its alpha dropped.
        public init(_ c: RGBA) {
            self.init(
                r: UInt8(RGBA.eightBit(c.red)), g: UInt8(RGBA.eightBit(c.green)),
                b: UInt8(RGBA.eightBit(c.blue)))
        }
        /// The colour of three channels.
        public init(r: UInt8, g: UInt8, b: UInt8) {
            self.r = r
            self.g = g
            self.b = b
        }
    }

    /// A scheme from its fields; the slug is `slug`, or else `name`, slugified; the name, author
    /// and description lose their control characters (``TemplateText/clean(_:)``).
    public init(
        system: String, name: String, slug: String? = nil, author: String, description: String = "",
        variant: String, palette: [String: RGB8]
    ) {
        self.system = system
        self.name = TemplateText.clean(name)
        self.slug = TintedScheme.slugify(slug ?? name)
        self.author = TemplateText.clean(author)
        self.description = TemplateText.clean(description)
        self.variant = variant
        self.palette = palette
    }

    /// The slots of a system: `base00`…`base0F`, then `base10`…`base17` for base24.
    public static func slots(_ system: String) -> ArraySlice<String> {
        Base16Format.slots.prefix(system == "base24" ? 24 : 16)
    }

    /// Reads a scheme file (at most 1 MiB).
    /// - Returns: The scheme, or the diagnostic that says why the file is not one.
    public static func read(_ url: URL) -> Result<TintedScheme, Diagnostic> { read(path: url.path) }

    /// Reads the scheme file at `path` (at most 1 MiB); `livery build` reads hundreds, so this
    /// goes straight to `BundleFiles.contents`.
    public static func read(path: String) -> Result<TintedScheme, Diagnostic> {
        let loc = SourceLocation(file: path, line: 1, column: 1)
        switch BundleFiles.contents(of: path, limit: 1 << 20) {
        case .failure(let e): return .failure(Diagnostic(.error, "file \(e.message)", at: loc))
        case .success(let data):
            guard let text = String(data: data, encoding: .utf8) else {
                return .failure(Diagnostic(.error, "file is not UTF-8 text", at: loc))
            }
            return parse(text, file: path)
        }
    }

    /// Parses scheme text.
    /// - Parameters:
    ///   - text: The YAML.
    ///   - file: The path diagnostics name.
    public static func parse(_ text: String, file: String) -> Result<TintedScheme, Diagnostic> {
        func fail(_ message: String, _ mark: YAMLNode.Mark) -> Result<TintedScheme, Diagnostic> {
            let line = YAMLNode.Lines(text).text(at: mark)
            return .failure(
                Diagnostic(
                    .error, message, at: SourceLocation(file: file, line: mark.line, column: mark.column),
                    sourceLine: line))
        }
        let root: YAMLNode
        switch YAMLNode.parse(text) {
        case .failure(let e): return fail(e.message, e.mark)
        case .success(let r): root = r
        }
        guard case .mapping(let top) = root.kind else { return fail("a scheme is a YAML mapping", root.mark) }
        func scalar(_ map: [(YAMLNode, YAMLNode)], _ key: String) -> String? {
            map.first(where: { $0.0.scalar == key })?.1.scalar
        }
        var colours = top
        var system = "base16"
        let name: String?
        if let p = top.first(where: { $0.0.scalar == "palette" })?.1 {
            guard case .mapping(let m) = p.kind else { return fail("'palette' must be a mapping", p.mark) }
            colours = m
            system = scalar(top, "system") ?? "base16"
            name = scalar(top, "name")
        } else {
            name = scalar(top, "scheme") ?? scalar(top, "name")
            if colours.contains(where: { $0.0.scalar?.lowercased().hasPrefix("base1") == true }) {
                system = "base24"
            }
        }
        guard system == "base16" || system == "base24" else {
            return fail("unknown system '\(system)' (expected base16 or base24)", root.mark)
        }
        guard let name else { return fail("missing 'name'", root.mark) }
        let variant = scalar(top, "variant") ?? "dark"
        guard variant == "light" || variant == "dark" else {
            return fail("variant is '\(variant)'; a scheme's variant is light or dark", root.mark)
        }
        var palette: [String: RGB8] = [:]
        for (k, v) in colours {
            guard let key = k.scalar,
                let slot = slots(system).first(where: { $0.lowercased() == key.lowercased() })
            else { continue }
            guard let s = v.scalar, let rgb = hexColour(s) else {
                return fail(
                    "'\(key)' is not a colour: expected three or six hex digits, with or without '#'", v.mark)
            }
            palette[slot] = rgb
        }
        if let missing = slots(system).first(where: { palette[$0] == nil }) {
            return fail(
                "missing colour '\(missing)' (a \(system) scheme has \(slots(system).joined(separator: ", ")))",
                root.mark)
        }
        return .success(
            TintedScheme(
                system: system, name: name, slug: scalar(top, "slug"), author: scalar(top, "author") ?? "",
                description: scalar(top, "description") ?? "", variant: variant, palette: palette))
    }

    /// `#rrggbb`, `rrggbb`, `#rgb` or `rgb`, any case.
    static func hexColour(_ s: String) -> RGB8? {
        var hex = Array((s.hasPrefix("#") ? String(s.dropFirst()) : s).utf8)
        guard hex.allSatisfy({ ($0 >= 48 && $0 <= 57) || ($0 | 0x20 >= 97 && $0 | 0x20 <= 102) }) else {
            return nil
        }
        if hex.count == 3 { hex = hex.flatMap { [$0, $0] } }
        guard hex.count == 6 else { return nil }
        func byte(_ i: Int) -> UInt8 { UInt8(String(decoding: hex[i..<i + 2], as: UTF8.self), radix: 16)! }
        return RGB8(r: byte(0), g: byte(2), b: byte(4))
    }

    /// Letters that lose their accent by decomposition are kept by NFD; these few do not
    /// decompose and are spelled out as tinted-builder-rust spells them.
    static let spelledOut: [Character: String] = [
        "æ": "ae", "ø": "o", "œ": "oe", "ł": "l", "đ": "d", "ß": "ss", "þ": "th", "ħ": "h",
    ]

    /// The slug of a name: decomposed (NFD) with the combining marks dropped, lower-cased,
    /// spaces, `-` and `_` as `-` (runs of them as one, none at either end), every other
    /// character that is not an ASCII letter or digit dropped.
    public static func slugify(_ name: String) -> String {
        var slug = ""
        for ch in name.lowercased() {
            if let s = spelledOut[ch] {
                slug += s
                continue
            }
            // ASCII needs no decomposition (and is nearly every name).
            let scalars =
                ch.isASCII
                ? ch.unicodeScalars : String(ch).decomposedStringWithCanonicalMapping.unicodeScalars
            for scalar in scalars {
                switch scalar {
                case "a"..."z", "0"..."9": slug.unicodeScalars.append(scalar)
                case " ", "-", "_": if !slug.isEmpty && !slug.hasSuffix("-") { slug += "-" }
                default: continue
                }
            }
        }
        while slug.hasSuffix("-") { slug.removeLast() }
        return slug
    }
}

extension TintedScheme {
    /// The scheme files under `directories`, searched to any depth: `.yaml` and `.yml` files
    /// whose names do not start with `.` (nor do their directories'), each directory's files
    /// in name order before its subdirectories. Each directory is entered once however many
    /// links lead to it (a link to a parent made the walk exponential).
    public static func files(in directories: [String]) -> [String] {
        var found: [String] = []
        var entered = Set<[UInt64]>()
        func walk(_ dir: String, depth: Int) {
            var own = stat()
            guard depth < 32, stat(dir, &own) == 0,
                entered.insert([UInt64(own.st_dev), UInt64(own.st_ino)]).inserted,
                let d = opendir(dir)
            else { return }
            var files: [String] = []
            var subdirectories: [String] = []
            while let entry = readdir(d) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
                }
                guard !name.hasPrefix(".") else { continue }
                let path = dir + "/" + name
                var st = stat()
                guard stat(path, &st) == 0 else { continue }
                if (st.st_mode & S_IFMT) == S_IFDIR {
                    subdirectories.append(path)
                } else if name.lowercased().hasSuffix(".yaml") || name.lowercased().hasSuffix(".yml") {
                    files.append(path)
                }
            }
            closedir(d)
            found += files.sorted()
            for s in subdirectories.sorted() { walk(s, depth: depth + 1) }
        }
        for dir in directories {
            walk(dir.hasSuffix("/") && dir.count > 1 ? String(dir.dropLast()) : dir, depth: 0)
        }
        return found
    }
}
