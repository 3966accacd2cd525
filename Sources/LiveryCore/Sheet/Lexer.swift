/// A token of the sheet language, a small subset of CSS Syntax Level 3 §4.
struct Token: Sendable {
    enum Kind: Equatable, Sendable {
        case ident(String)
        /// `@name`: an at-rule keyword or a palette reference.
        case atKeyword(String)
        /// `#name`: an id selector or a hex colour.
        case hash(String)
        case string(String)
        /// A number with an optional unit (`80`, `80px`, `0.6s`) or `%`.
        case number(Double, unit: String)
        /// `name(`: a function call opening.
        case function(String)
        case delim(Character)
        case eof
    }
    var kind: Kind
    /// Where the token starts.
    var line: Int
    var column: Int
    /// True when whitespace or a comment comes right before it: the descendant combinator.
    var spaceBefore: Bool
}

/// Splits sheet text into tokens, reporting malformed input as diagnostics and continuing.
struct Lexer {
    let file: String
    let scalars: [Unicode.Scalar]
    /// Each line as diagnostics show it (`sourceLine`), made once: every declaration, selector
    /// and diagnostic on a line shares this one copy of its text, so that what a sheet's syntax
    /// tree holds of its source stays linear in the file's size.
    let lines: [String]
    private var i = 0
    private var line = 1
    private var column = 1
    private(set) var diagnostics = DiagnosticLog()

    init(text: String, file: String) {
        self.file = file
        self.scalars = Array(text.unicodeScalars)
        self.lines = text.split(
            omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }
        ).map { line in
            let line = line.last == "\r" ? line.dropLast() : line
            return line.utf8.count > Lexer.maximumShownLine ? "" : String(line)
        }
    }

    /// Longest source line copied into diagnostics; a longer line (a minified sheet) is left out,
    /// so that thousands of declarations on one line do not each carry a copy of it.
    static let maximumShownLine = 1000

    /// The text of line `n` for a diagnostic's caret display: the last line for positions past
    /// the end, without a trailing carriage return, empty when too long to show.
    func sourceLine(_ n: Int) -> String {
        guard !lines.isEmpty else { return "" }
        return lines[min(max(n, 1), lines.count) - 1]
    }

    private func peek(_ k: Int = 0) -> Unicode.Scalar? { i + k < scalars.count ? scalars[i + k] : nil }

    private mutating func advance() {
        if scalars[i] == "\n" {
            line += 1
            column = 1
        } else {
            column += 1
        }
        i += 1
    }

    private mutating func error(_ message: String, line: Int, column: Int) {
        diagnostics.add(
            .error, message, at: SourceLocation(file: file, line: line, column: column),
            sourceLine: sourceLine(line))
    }

    static func isNameStart(_ c: Unicode.Scalar) -> Bool {
        // ASCII by its ranges: the Unicode property lookup costs a table search a character.
        let v = c.value
        if v < 0x80 { return (v >= 0x61 && v <= 0x7a) || (v >= 0x41 && v <= 0x5a) || v == 0x5f }
        return true
    }
    static func isName(_ c: Unicode.Scalar) -> Bool {
        isNameStart(c) || ("0"..."9").contains(c) || c == "-"
    }

    /// Tokenizes the whole text; the last token is `.eof`.
    mutating func tokenize() -> [Token] {
        var tokens: [Token] = []
        repeat { tokens.append(next()) } while tokens.last!.kind != .eof
        return tokens
    }

    /// The diagnostics found so far, handed over and forgotten.
    mutating func takeDiagnostics() -> DiagnosticLog {
        defer { diagnostics = DiagnosticLog() }
        return diagnostics
    }

    /// The next token; `.eof` at the end, and again after it. The parser pulls tokens one at a
    /// time, so that a sheet's tokens are never all held at once (4 MiB of `}` would be four
    /// million of them).
    mutating func next() -> Token {
        let spaced = skipSpaceAndComments()
        let (l, col) = (line, column)
        func make(_ k: Token.Kind) -> Token { Token(kind: k, line: l, column: col, spaceBefore: spaced) }
        guard let c = peek() else { return make(.eof) }
        if c == "\"" || c == "'" { return make(quoted(by: c, line: l, column: col)) }
        if isNumberStart() { return make(number(line: l, column: col)) }
        if c == "@" || c == "#" {
            advance()
            let name = readName()
            if name.isEmpty {
                error("expected a name after '\(c)'", line: l, column: col)
                return make(.delim(Character(c)))
            }
            return make(c == "@" ? .atKeyword(name) : .hash(name))
        }
        if Lexer.isNameStart(c) || (c == "-" && peek(1).map(Lexer.isNameStart) == true) {
            let name = readName()
            guard peek() == "(" else { return make(.ident(name)) }
            advance()
            return make(.function(name))
        }
        advance()
        return make(.delim(Character(c)))
    }

    /// Skips whitespace and comments.
    /// - Returns: Whether there was any.
    private mutating func skipSpaceAndComments() -> Bool {
        var space = false
        while true {
            if let c = peek(), c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\u{0C}" {
                advance()
                space = true
            } else if peek() == "/" && peek(1) == "*" {
                let (l, col) = (line, column)
                advance()
                advance()
                while i < scalars.count && !(peek() == "*" && peek(1) == "/") { advance() }
                if i >= scalars.count {
                    error("unterminated comment", line: l, column: col)
                } else {
                    advance()
                    advance()
                }
                space = true
            } else {
                return space
            }
        }
    }

    /// A string token whose opening `quote` is the next character (at `line`, `column`), to
    /// its closing quote or the end of the line.
    private mutating func quoted(by quote: Unicode.Scalar, line: Int, column: Int) -> Token.Kind {
        advance()
        var s = ""
        var closed = false
        while let d = peek(), d != "\n" {
            advance()
            if d == quote {
                closed = true
                break
            }
            if d == "\\", let e = peek() {
                // CSS Syntax 3 §4.3.7: up to six hex digits and one optional space name a
                // code point; an escaped newline continues the string; any other character
                // stands for itself.
                if e == "\n" {
                    advance()
                } else if e.properties.isASCIIHexDigit {
                    var hex = ""
                    while hex.count < 6, let h = peek(), h.properties.isASCIIHexDigit {
                        hex.unicodeScalars.append(h)
                        advance()
                    }
                    if peek() == " " { advance() }
                    let v = UInt32(hex, radix: 16) ?? 0xFFFD
                    s.unicodeScalars.append(
                        v == 0 || (0xD800...0xDFFF).contains(v) ? "\u{FFFD}" : Unicode.Scalar(v) ?? "\u{FFFD}"
                    )
                } else {
                    advance()
                    s.unicodeScalars.append(e)
                }
            } else {
                s.unicodeScalars.append(d)
            }
        }
        if !closed { error("unterminated string", line: line, column: column) }
        return .string(s)
    }

    /// A number token, with its unit (`px`, `%`, or none), starting at the next character (at
    /// `line`, `column`; `isNumberStart`).
    private mutating func number(line: Int, column: Int) -> Token.Kind {
        var text = ""
        if let c = peek(), c == "-" || c == "+" {
            text.unicodeScalars.append(c)
            advance()
        }
        while let d = peek(), ("0"..."9").contains(d) || d == "." {
            if d == ".", !(peek(1).map { ("0"..."9").contains($0) } ?? false) { break }
            text.unicodeScalars.append(d)
            advance()
        }
        // An exponent (CSS Syntax 3 §4.3.12): `e`, an optional sign, digits.
        func digit(_ s: Unicode.Scalar?) -> Bool { s.map { ("0"..."9").contains($0) } ?? false }
        if let e = peek(), e == "e" || e == "E",
            digit(peek(1)) || ((peek(1) == "+" || peek(1) == "-") && digit(peek(2)))
        {
            for _ in 0..<(digit(peek(1)) ? 1 : 2) {
                text.unicodeScalars.append(peek()!)
                advance()
            }
            while let d = peek(), ("0"..."9").contains(d) {
                text.unicodeScalars.append(d)
                advance()
            }
        }
        var unit = ""
        if peek() == "%" {
            unit = "%"
            advance()
        } else {
            while let d = peek(), Lexer.isNameStart(d) {
                unit.unicodeScalars.append(d)
                advance()
            }
        }
        guard let v = Double(text), v.isFinite else {
            error("number '\(text)' is malformed or out of range", line: line, column: column)
            return .number(0, unit: unit)
        }
        // −0 is 0: values are interned by equality, and −0 == 0, so one spelling must stand for
        // both (else `resolve` and `explain` could print either).
        return .number(v == 0 ? 0 : v, unit: unit)
    }

    private func isNumberStart() -> Bool {
        guard let c = peek() else { return false }
        func digit(_ s: Unicode.Scalar?) -> Bool { s.map { ("0"..."9").contains($0) } ?? false }
        if digit(c) { return true }
        if c == "." { return digit(peek(1)) }
        if c == "-" || c == "+" { return digit(peek(1)) || (peek(1) == "." && digit(peek(2))) }
        return false
    }

    private mutating func readName() -> String {
        var s = ""
        while let d = peek(), Lexer.isName(d) {
            s.unicodeScalars.append(d)
            advance()
        }
        return s
    }
}
