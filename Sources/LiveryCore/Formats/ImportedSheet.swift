import Foundation

/// The sheet an imported scheme becomes, built up by a format's reader: the scheme's colours as
/// palette definitions, its metadata, and diagnostics at the places of the scheme's text.
struct ImportedSheet {
    /// The sheet so far.
    private(set) var sheet: Stylesheet
    /// The scheme file.
    let url: URL
    /// The scheme's lines, for the source line under a diagnostic's caret.
    private let lines: [Substring]

    /// Starts an empty sheet for `url`, whose text (when it was read) is `text`.
    init(url: URL, text: String = "") {
        self.url = url
        sheet = Stylesheet(file: url.path)
        lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
    }

    /// The text of line `n` (from 1), or empty.
    func line(_ n: Int) -> String { n >= 1 && n <= lines.count ? String(lines[n - 1]) : "" }

    /// A place in the scheme.
    func location(_ line: Int, _ column: Int) -> SourceLocation {
        SourceLocation(file: url.path, line: line, column: column)
    }

    /// Adds a diagnostic at line `line`, column `column` (both from 1).
    mutating func report(_ severity: Diagnostic.Severity, _ message: String, line: Int = 1, column: Int = 1) {
        sheet.diagnostics.append(
            Diagnostic(severity, message, at: location(line, column), sourceLine: self.line(line)))
    }

    /// Adds an error at line `line`, column `column`.
    mutating func error(_ message: String, line: Int = 1, column: Int = 1) {
        report(.error, message, line: line, column: column)
    }

    /// Whether an error was reported.
    var hasErrors: Bool { sheet.diagnostics.contains { $0.severity == .error } }

    /// Defines palette colour `name` (8 bits a channel, as every exporter writes it), written at
    /// `line`:`column` of the scheme.
    mutating func define(_ name: String, _ color: RGBA, line: Int = 1, column: Int = 1) {
        let l = location(line, column)
        sheet.palette.append(
            PaletteDefinition(
                name: name, value: [ValueNode(kind: .hash(String(color.hex.dropFirst())), location: l)],
                location: l, sourceLine: self.line(line)))
    }

    /// Sets `@theme` key `key` to the string `value`.
    mutating func meta(_ key: String, _ value: String) {
        let l = location(1, 1)
        sheet.metadata.append(
            Declaration(
                property: key, value: [ValueNode(kind: .string(value), location: l)], location: l,
                sourceLine: "",
                bundleRoot: nil))
    }

    /// Sets the name, description, variant (`light` when `background` is light, else `dark`) and
    /// parent theme.
    mutating func describe(name: String, description: String, background: RGBA?, inherits parent: String) {
        meta("name", name)
        meta("description", description)
        meta("variant", (background?.luminance ?? 0) > 0.4 ? "light" : "dark")
        meta("inherits", parent)
    }

    /// The source of theme `id` read by `format`.
    func source(id: String, format: String) -> ThemeSource {
        ThemeSource(id: id, format: format, path: url.path, sheet: sheet)
    }

    /// Reads the scheme's bytes (at most ``ThemeFormats/maximumSchemeSize``), or reports why not.
    mutating func readData() -> Data? {
        let limit = ThemeFormats.maximumSchemeSize
        if let size = BundleFiles.fileSize(url.path),
            size > limit
        {
            error("file is \(size) bytes; the limit is \(limit)")
            return nil
        }
        switch BundleFiles.contents(of: url.path, limit: limit) {
        case .failure(let e):
            error("file \(e.message)")
            return nil
        case .success(let d): return d
        }
    }
}

/// Where keys stand in a scheme's text, found by a scan for their first occurrence after a given
/// place, so that a reader whose parser gives no places (Foundation's property list and JSON
/// readers) can still point at the line.
struct KeyPlaces {
    /// The scheme's text, as UTF-8 bytes.
    private let bytes: [UInt8]
    /// The byte offset at which each line starts.
    private let lineStarts: [Int]

    /// Indexes `text`.
    init(_ text: String) {
        bytes = Array(text.utf8)
        var starts = [0]
        for (i, b) in bytes.enumerated() where b == 10 { starts.append(i + 1) }
        lineStarts = starts
    }

    /// The byte offset of the first `needle` at or after `start`, or nil.
    func find(_ needle: String, from start: Int = 0) -> Int? {
        let n = Array(needle.utf8)
        guard !n.isEmpty, bytes.count >= n.count, start <= bytes.count - n.count else { return nil }
        var i = start
        while i <= bytes.count - n.count {
            if bytes[i] == n[0] && bytes[i..<(i + n.count)].elementsEqual(n) { return i }
            i += 1
        }
        return nil
    }

    /// Line and column (both from 1, the column in bytes) of byte `offset`.
    func place(_ offset: Int) -> (line: Int, column: Int) {
        var lo = 0
        var hi = lineStarts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if lineStarts[mid] <= offset { lo = mid } else { hi = mid - 1 }
        }
        return (lo + 1, offset - lineStarts[lo] + 1)
    }
}
