/// A position in a source file: 1-based line and column (columns count Unicode scalars).
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    /// The file as the user named it (a path, or a label such as `<overrides>`).
    public var file: String
    /// The line, counting from 1.
    public var line: Int
    /// The column, counting Unicode scalars from 1.
    public var column: Int

    /// A position; `line` and `column` count from 1.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:col`, the form compilers and editors understand.
    public var description: String { "\(file):\(line):\(column)" }
}

/// One problem found in a sheet, reported compiler-style.
public struct Diagnostic: Error, Hashable, Sendable, CustomStringConvertible {
    /// How bad it is: errors stop a theme from activating, warnings do not.
    public enum Severity: String, Sendable { case error, warning, note }

    /// Whether it is an error, a warning or a note.
    public var severity: Severity
    /// What is wrong, one line without the location, e.g. `unknown property 'colr'`.
    public var message: String
    /// Where the problem starts; the caret goes under its column.
    public var location: SourceLocation
    /// The text of the source line, for the caret display; empty when unknown.
    public var sourceLine: String
    /// For the line that ends a file's kept diagnostics (`N more problems in this file not
    /// shown`), the N problems it stands for; 0 for every other diagnostic.
    public var omitted = 0

    /// A diagnostic.
    /// - Parameters:
    ///   - severity: Whether it stops the theme from activating (`.error`) or not.
    ///   - message: What is wrong, one line.
    ///   - location: Where the problem starts.
    ///   - sourceLine: The text of that line for the caret display, or empty.
    public init(_ severity: Severity, _ message: String, at location: SourceLocation, sourceLine: String = "")
    {
        self.severity = severity
        self.message = message
        self.location = location
        self.sourceLine = sourceLine
    }

    /// `file:line:col: error: message`, one line.
    public var description: String { "\(location): \(severity.rawValue): \(message)" }

    /// The compiler form: the one-line description, the source line and a caret under the column.
    public var rendered: String {
        guard !sourceLine.isEmpty else { return description }
        // The caret's padding copies the line's tabs, so it lines up however tabs are shown.
        let pad = String(
            sourceLine.unicodeScalars.prefix(max(0, location.column - 1)).map { $0 == "\t" ? "\t" : " " })
        return "\(description)\n\(sourceLine)\n\(pad)^"
    }
}

/// Suggests the candidate nearest to a misspelt word, as compilers do for "did you mean".
///
/// Uses Levenshtein distance, case-insensitively, and accepts a suggestion at most a third of the
/// word's length away (at least 1, at most 3 edits).
/// - Parameters:
///   - word: The unknown name as written.
///   - candidates: The names that would have been accepted.
/// - Returns: the best candidate, or nil when none is close enough.
public func suggestion<S: Sequence>(for word: String, among candidates: S) -> String?
where S.Element == String {
    let w = folded(word)
    let limit = min(3, max(1, w.count / 3))
    let (_, signature) = shape(word)
    var best: (String, Int)?
    var other: [UInt32] = []
    var rows = ([Int](), [Int]())
    for c in candidates {
        // Two filters before the distance, each a pass over the candidate with no allocation:
        // the distance is at least the difference in length, and at least the number of
        // distinct characters of either word missing from the other (their characters' bits,
        // folded into 64, can only undercount). The distance itself is computed in a band of
        // `limit` either side of the diagonal and given up as soon as a row is past `limit`.
        let (count, bits) = shape(c)
        guard abs(count - w.count) <= limit, (signature & ~bits).nonzeroBitCount <= limit,
            (bits & ~signature).nonzeroBitCount <= limit
        else { continue }
        folded(c, into: &other)
        guard let d = boundedDistance(w, other, limit, rows: &rows) else { continue }
        if d < (best?.1 ?? Int.max) || (d == best?.1 && c < best!.0) { best = (c, d) }
    }
    return best?.0
}

/// A word's length in Unicode scalars and the set of its characters, ASCII letters folded to
/// lower case, as bits (the scalar's value mod 64).
func shape(_ word: String) -> (count: Int, bits: UInt64) {
    var count = 0
    var bits: UInt64 = 0
    for u in word.unicodeScalars {
        var v = u.value
        if v >= 65 && v <= 90 { v += 32 }
        bits |= 1 << UInt64(v & 63)
        count += 1
    }
    return (count, bits)
}

/// The word's scalars in lower case (`String.lowercased()`; ASCII without building a string).
func folded(_ word: String) -> [UInt32] {
    var out: [UInt32] = []
    folded(word, into: &out)
    return out
}

func folded(_ word: String, into out: inout [UInt32]) {
    out.removeAll(keepingCapacity: true)
    for u in word.unicodeScalars {
        guard u.isASCII else {
            out = word.lowercased().unicodeScalars.map(\.value)
            return
        }
        out.append(u.value >= 65 && u.value <= 90 ? u.value + 32 : u.value)
    }
}

func boundedDistance(_ a: [UInt32], _ b: [UInt32], _ k: Int) -> Int? {
    var rows = ([Int](), [Int]())
    return boundedDistance(a, b, k, rows: &rows)
}

/// The Levenshtein distance of `a` and `b` when it is at most `k`, else nil: only the cells
/// within `k` of the diagonal can hold a distance of `k` or less (Ukkonen 1985), and once a
/// whole row is past `k` so is the result.
/// `rows` are two rows of the table, kept by the caller across calls so as not to allocate them.
func boundedDistance(_ a: [UInt32], _ b: [UInt32], _ k: Int, rows: inout ([Int], [Int])) -> Int? {
    let (n, m) = (a.count, b.count)
    guard abs(n - m) <= k else { return nil }
    if n == 0 || m == 0 { return max(n, m) }
    let outside = k + 1
    // Moved out and back, so that each is uniquely referenced and reused in place.
    var prev: [Int] = []
    var cur: [Int] = []
    swap(&prev, &rows.0)
    swap(&cur, &rows.1)
    defer {
        swap(&prev, &rows.0)
        swap(&cur, &rows.1)
    }
    prev.removeAll(keepingCapacity: true)
    prev.append(contentsOf: 0...m)
    cur.removeAll(keepingCapacity: true)
    cur.append(contentsOf: repeatElement(outside, count: m + 1))
    for i in 1...n {
        let lo = max(1, i - k)
        let hi = min(m, i + k)
        cur[lo - 1] = lo == 1 ? i : outside
        var rowMin = cur[lo - 1]
        for j in lo...hi {
            let v = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            cur[j] = v
            rowMin = min(rowMin, v)
        }
        if hi < m { cur[hi + 1] = outside }
        guard rowMin <= k else { return nil }
        swap(&prev, &cur)
    }
    return prev[m] <= k ? prev[m] : nil
}

/// " (did you mean 'x'?)" or the empty string.
func didYouMean(_ word: String, _ candidates: some Sequence<String>, prefix: String = "") -> String {
    suggestion(for: word, among: candidates).map { " (did you mean '\(prefix)\($0)'?)" } ?? ""
}

extension Diagnostic {
    /// Most diagnostics kept for one file, in the order they are found; the rest are counted and
    /// reported as one "N more" line (`DiagnosticLog`), as compilers stop at an error limit. A
    /// file of nothing but errors (a 4 MiB sheet of `}`) then costs memory and time linear in
    /// its size, and "did you mean" is computed for the kept ones only.
    public static let maximumPerFile = 100

    /// Most diagnostics of one file that offer "did you mean": each compares the word with
    /// every candidate, so that a sheet of tens of thousands of names and as many misspellings
    /// costs this many passes over the names, not one per diagnostic kept.
    public static let maximumSuggestionsPerFile = 20
}

/// Diagnostics in the order they are found, keeping at most `Diagnostic.maximumPerFile` for each
/// file and counting the rest.
struct DiagnosticLog {
    /// The diagnostics kept, in the order added.
    private(set) var kept: [Diagnostic] = []
    /// Per file, how many were found past the limit and not kept.
    private(set) var omitted: [String: Int] = [:]
    private var keptPerFile: [String: Int] = [:]

    /// Whether a diagnostic in `file` would be kept: callers skip costly messages ("did you
    /// mean") when it would not.
    func accepts(_ file: String) -> Bool { keptPerFile[file, default: 0] < Diagnostic.maximumPerFile }

    /// Whether a diagnostic in `file` kept now should offer "did you mean"
    /// (`Diagnostic.maximumSuggestionsPerFile`).
    func suggests(_ file: String) -> Bool {
        keptPerFile[file, default: 0] < Diagnostic.maximumSuggestionsPerFile
    }

    /// Keeps `d`, or counts it when its file has its fill.
    mutating func append(_ d: Diagnostic) {
        let file = d.location.file
        if accepts(file) {
            kept.append(d)
            keptPerFile[file, default: 0] += 1
        } else {
            omitted[file, default: 0] += 1
        }
    }

    /// Keeps each of `ds` in order, as `append` does.
    mutating func append(contentsOf ds: some Sequence<Diagnostic>) { for d in ds { append(d) } }

    /// Adds what another log kept and counted.
    mutating func merge(kept ds: [Diagnostic], omitted counts: [String: Int]) {
        append(contentsOf: ds)
        for (file, n) in counts { omitted[file, default: 0] += n }
    }

    /// Adds what another log kept and counted.
    mutating func merge(_ other: DiagnosticLog) { merge(kept: other.kept, omitted: other.omitted) }

    /// A diagnostic whose message is only built when it is kept.
    mutating func add(
        _ severity: Diagnostic.Severity, _ message: @autoclosure () -> String, at location: SourceLocation,
        sourceLine: String = ""
    ) {
        guard accepts(location.file) else {
            omitted[location.file, default: 0] += 1
            return
        }
        append(Diagnostic(severity, message(), at: location, sourceLine: sourceLine))
    }

    /// `ds` (deduplicated and sorted by file and position) with at most
    /// `Diagnostic.maximumPerFile` a file, each file's kept ones followed by one error at the
    /// last one's position saying how many more were found (those past the limit here and those
    /// `omitted` counted while collecting).
    static func limited(_ ds: [Diagnostic], omitted: [String: Int], severity: Diagnostic.Severity = .error)
        -> [Diagnostic]
    {
        var more = omitted
        var out: [Diagnostic] = []
        var shown = 0
        var current: SourceLocation?
        func summarize() {
            guard let at = current, let n = more.removeValue(forKey: at.file), n > 0 else { return }
            var summary = Diagnostic(
                severity,
                "\(n) more \(n == 1 ? "problem" : "problems") in this file not shown (the first \(Diagnostic.maximumPerFile) are)",
                at: at)
            summary.omitted = n
            out.append(summary)
        }
        for d in ds {
            if d.location.file != current?.file {
                summarize()
                shown = 0
            }
            if shown < Diagnostic.maximumPerFile {
                out.append(d)
                shown += 1
                current = d.location
            } else {
                more[d.location.file, default: 0] += 1
            }
        }
        summarize()
        for (file, n) in more.sorted(by: { $0.key < $1.key }) where n > 0 {
            var summary = Diagnostic(
                severity, "\(n) more \(n == 1 ? "problem" : "problems") in this file not shown",
                at: SourceLocation(file: file, line: 1, column: 1))
            summary.omitted = n
            out.append(summary)
        }
        return out
    }
}
