/// The colour dictionary a pywal template reads: pywal's `export.flatten_colors` of
/// `colors.json`, `wallpaper`, `checksum`, `alpha`, the three `special` colours and the sixteen
/// `colors`, each the text `colors.json` holds.
public struct PywalColors: Sendable, Equatable {
    /// Every key, in `colors.json`'s order.
    public static let keys =
        ["wallpaper", "checksum", "alpha", "background", "foreground", "cursor"]
        + (0..<16).map { "color\($0)" }

    /// Each key's text.
    public private(set) var values: [String: String]

    /// The dictionary of a theme's terminal colours.
    /// - Parameters:
    ///   - colors: `color0`…`color15`, each `#rrggbb` (more are ignored; missing ones are `#000000`).
    ///   - background: `#rrggbb`, as are `foreground` and `cursor`.
    ///   - wallpaper: The wallpaper's path, `None` for none (pywal's word).
    ///   - checksum: The wallpaper's checksum, `None` for none.
    ///   - alpha: The terminal's alpha as written in `colors.json` (`100`, `0.8`).
    public init(
        colors: [String], background: String, foreground: String, cursor: String, wallpaper: String = "None",
        checksum: String = "None", alpha: String = "100"
    ) {
        values = [
            "wallpaper": wallpaper, "checksum": checksum, "alpha": alpha, "background": background,
            "foreground": foreground, "cursor": cursor,
        ]
        for i in 0..<16 { values["color\(i)"] = i < colors.count ? colors[i] : "#000000" }
    }
}

/// A template in pywal's syntax (pywal 3.8.15, which is pywal16, `pywal/export.py`), rendered
/// byte for byte as `wal` renders it:
///
/// - The file is read as UTF-8 text with Python's universal newlines: `\r\n` and `\r` become
///   `\n`, and each line is rendered on its own.
/// - A marker is `{…}` holding no brace, not preceded by `{` nor followed by `}` (`export.template`'s
///   regular expression). Its grammar is pywal16's (`Parser.parse_marker`):
///   `key ('.' method '(' numbers ')')* ('.' property)?`; a number is `-?\d+(\.\d+)?`, read from
///   the start of each comma-separated argument (so `darken(33%)` is `darken(33)`).
/// - Keys are `PywalColors.keys`; properties and methods those of pywal's `util.Color`
///   (`PywalColor`): `strip`, `rgb`, `rgba`, `xrgba`, `alpha`, `red`, `lighten(x)`, … . A key
///   alone is its text with whitespace stripped.
/// - Each marker's value replaces the first occurrence of the marker's text in the line as it
///   stands (`line.replace(marker, value, 1)`), which is usually the marker itself but is an
///   earlier `{{key}}`-looking text or an earlier value when one holds the same text.
/// - Last, `{{` becomes `{` and then `}}` becomes `}` in the whole text: the escapes.
///
/// Where pywal reports an error and writes the file with the marker left as it is (an unknown
/// key, a property called as a method, a value that is not a colour), or skips the whole file (a
/// marker it cannot parse), or stops with a Python exception (a method given the wrong number of
/// arguments), this is an error at the marker's file, line and column, and nothing is rendered.
///
/// The cost is linear in the template and its output (`PywalLine`): pywal's first-occurrence
/// rule is followed without searching each line again for each marker.
public struct PywalTemplate: Sendable {
    /// The name errors give: the template's path.
    public let name: String
    /// The text, newlines normalised.
    let text: [UInt8]
    /// The lines holding markers: their byte range and their markers' range in `matches`.
    let lines: [(start: Int, end: Int, matches: Range<Int>)]
    /// Every marker in text order: the offsets of its `{` and `}`, and the index of its text in
    /// `markers`.
    let matches: [(open: Int, close: Int, marker: Int)]
    /// Each distinct marker text, parsed.
    let markers: [Marker]
    /// Each distinct marker text (between the braces), by its index in `markers`.
    let contents: [[UInt8]: Int]

    /// A parsed marker.
    struct Marker: Sendable {
        var key: String
        var calls: [(name: String, arguments: [PywalNumber])]
        var property: String?
        /// Where its text first stands, for errors of its value.
        var location: SourceLocation
        var sourceLine: String
    }

    /// The largest output rendered: 64 MiB, as Mustache templates.
    public static let maximumOutput = 64 << 20

    /// Compiles a template.
    /// - Parameters:
    ///   - bytes: The file's bytes, which must be UTF-8.
    ///   - name: The path errors name.
    /// - Throws: A `Diagnostic` at the first marker pywal would not render (or at 1:1 for text
    ///   that is not UTF-8).
    public init(_ bytes: [UInt8], name: String) throws(Diagnostic) {
        self.name = name
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw Diagnostic(
                .error, "the template is not UTF-8 text", at: SourceLocation(file: name, line: 1, column: 1))
        }
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            if bytes[i] == 0x0D {
                text.append(0x0A)
                if i + 1 < bytes.count && bytes[i + 1] == 0x0A { i += 1 }
            } else {
                text.append(bytes[i])
            }
            i += 1
        }
        self.text = text
        var lines: [(start: Int, end: Int, matches: Range<Int>)] = []
        var matches: [(open: Int, close: Int, marker: Int)] = []
        var markers: [Marker] = []
        var contents: [[UInt8]: Int] = [:]
        var start = 0
        var lineNumber = 1
        while start < text.count {
            var end = start
            while end < text.count && text[end] != 0x0A { end += 1 }
            if end < text.count { end += 1 }
            let first = matches.count
            for (open, close) in PywalTemplate.markerSpans(text, start, end) {
                let content = Array(text[(open + 1)..<close])
                if contents[content] == nil {
                    let site = PywalTemplate.site(text, start, end, open, lineNumber, name)
                    contents[content] = markers.count
                    markers.append(try PywalTemplate.parse(content, at: site.location, sourceLine: site.line))
                }
                matches.append((open, close, contents[content]!))
            }
            if matches.count > first { lines.append((start, end, first..<matches.count)) }
            start = end
            lineNumber += 1
        }
        self.lines = lines
        self.matches = matches
        self.markers = markers
        self.contents = contents
    }

    /// The markers of the line `text[start..<end]`: each `{…}` holding no brace, not preceded by
    /// `{` and not followed by `}`, as the `{` and `}` offsets.
    static func markerSpans(_ text: [UInt8], _ start: Int, _ end: Int) -> [(Int, Int)] {
        var out: [(Int, Int)] = []
        var open = -1
        for i in start..<end {
            if text[i] == UInt8(ascii: "{") {
                open = i
            } else if text[i] == UInt8(ascii: "}") {
                if open >= 0, i > open + 1, open == start || text[open - 1] != UInt8(ascii: "{"),
                    i + 1 >= end || text[i + 1] != UInt8(ascii: "}")
                {
                    out.append((open, i))
                }
                open = -1
            }
        }
        return out
    }

    /// The location of the byte at `offset` of the line `text[start..<end]` (its column counting
    /// Unicode scalars) and the line's text.
    static func site(_ text: [UInt8], _ start: Int, _ end: Int, _ offset: Int, _ line: Int, _ file: String)
        -> (location: SourceLocation, line: String)
    {
        let column = String(decoding: text[start..<offset], as: UTF8.self).unicodeScalars.count + 1
        var stop = end
        if stop > start && text[stop - 1] == 0x0A { stop -= 1 }
        return (
            SourceLocation(file: file, line: line, column: column),
            String(decoding: text[start..<stop], as: UTF8.self)
        )
    }

    /// Renders the template over `colors`.
    /// - Returns: The output's bytes (UTF-8).
    /// - Throws: A `Diagnostic` at the first marker whose value pywal cannot make (a method of a
    ///   value that is not a colour, an alpha that is not a number), or an output over
    ///   `maximumOutput`.
    public func render(_ colors: PywalColors) throws(Diagnostic) -> [UInt8] {
        var work = 0
        return try render(colors, work: &work)
    }

    /// `render(_:)`, counting in `work` the bytes of marker-like texts read and the tokens
    /// labelled again (`PywalLine.work`).
    func render(_ colors: PywalColors, work: inout Int) throws(Diagnostic) -> [UInt8] {
        var values: [[UInt8]] = []
        values.reserveCapacity(markers.count)
        for marker in markers {
            do {
                values.append(Array(try PywalTemplate.value(of: marker, colors).utf8))
            } catch {
                throw Diagnostic(.error, error.message, at: marker.location, sourceLine: marker.sourceLine)
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(text.count + text.count / 4)
        var line = PywalLine(text: text, contents: contents, values: values)
        var copied = 0
        for l in lines {
            out.append(contentsOf: text[copied..<l.start])
            line.render(l.start, l.end, matches[l.matches], into: &out)
            copied = l.end
            if out.count > PywalTemplate.maximumOutput { throw tooLarge }
        }
        out.append(contentsOf: text[copied...])
        work += line.work
        let unescaped = PywalTemplate.unescape(out)
        if unescaped.count > PywalTemplate.maximumOutput { throw tooLarge }
        return unescaped
    }

    private var tooLarge: Diagnostic {
        Diagnostic(
            .error, "the output is over \(PywalTemplate.maximumOutput >> 20) MiB",
            at: SourceLocation(file: name, line: 1, column: 1))
    }

    /// pywal's escapes, in its order: `{{` → `{` through the text, then `}}` → `}`, each
    /// replacement left to right without overlap (`str.replace`).
    static func unescape(_ bytes: [UInt8]) -> [UInt8] {
        func collapse(_ input: [UInt8], _ brace: UInt8) -> [UInt8] {
            var out: [UInt8] = []
            out.reserveCapacity(input.count)
            var i = 0
            while i < input.count {
                out.append(input[i])
                i += input[i] == brace && i + 1 < input.count && input[i + 1] == brace ? 2 : 1
            }
            return out
        }
        return collapse(collapse(bytes, UInt8(ascii: "{")), UInt8(ascii: "}"))
    }

    /// `Parser.execute_marker`: the key's value, through the methods, then the property.
    static func value(of marker: Marker, _ colors: PywalColors) throws(PywalColor.Failure) -> String {
        var color = PywalColor(colors.values[marker.key] ?? "", alpha: colors.values["alpha"] ?? "100")
        for call in marker.calls { color = try color.call(call.name, call.arguments) }
        if let property = marker.property { return try color.property(property) }
        return String(String.UnicodeScalarView(PywalPython.strip(color.hex)))
    }
}
