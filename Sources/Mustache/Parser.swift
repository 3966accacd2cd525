/// Compiles template text into nodes in three phases: `scan` (tags and text, set delimiters
/// applied), `markStandalone` (lines holding only standalone tags and whitespace lose that
/// whitespace and their line ending), `build` (the tree, with sections matched).
struct Parser {
    let source: [UInt8]
    let file: String

    /// One tag or one piece of text (text is cut after each line ending).
    struct Token {
        enum Kind {
            case text, variable, unescaped, section, inverted, close, comment, partial, parent, block
            case delimiters
        }
        var kind: Kind
        /// Source offsets: the text, or the whole tag from its opening delimiter.
        var start: Int
        var end: Int
        var name = ""
        var dynamic = false
        /// Whitespace before a standalone tag; `nil` when the tag is not standalone.
        var indent: [UInt8]?
        /// Text kept of a token (a standalone line keeps nothing, a standalone block pair its
        /// line ending); `nil` keeps it all.
        var kept: [UInt8]?
    }

    func error(_ message: String, at offset: Int) -> TemplateError {
        TemplateError(message, at: offset, in: source, file: file)
    }

    static func isSpace(_ b: UInt8) -> Bool {
        b == UInt8(ascii: " ") || b == UInt8(ascii: "\t") || b == UInt8(ascii: "\n")
            || b == UInt8(ascii: "\r")
    }

    func find(_ needle: [UInt8], from: Int) -> Int? {
        guard !needle.isEmpty, source.count >= needle.count else { return nil }
        var i = from
        let first = needle[0]
        let last = source.count - needle.count
        while i <= last {
            if source[i] == first {
                var j = 1
                while j < needle.count, source[i + j] == needle[j] { j += 1 }
                if j == needle.count { return i }
            }
            i += 1
        }
        return nil
    }

    func trimmed(_ from: Int, _ to: Int) -> String {
        var a = from
        var b = to
        while a < b, Parser.isSpace(source[a]) { a += 1 }
        while b > a, Parser.isSpace(source[b - 1]) { b -= 1 }
        return String(decoding: source[a..<b], as: UTF8.self)
    }

    // MARK: scan

    func scan() throws(TemplateError) -> [Token] {
        var tokens: [Token] = []
        var open = Array("{{".utf8)
        var close = Array("}}".utf8)
        var pos = 0
        func text(_ from: Int, _ to: Int) {
            var a = from
            var i = from
            while i < to {
                if source[i] == UInt8(ascii: "\n") {
                    tokens.append(Token(kind: .text, start: a, end: i + 1))
                    a = i + 1
                }
                i += 1
            }
            if a < to { tokens.append(Token(kind: .text, start: a, end: to)) }
        }
        while pos < source.count {
            guard let tagStart = find(open, from: pos) else { break }
            text(pos, tagStart)
            let inner = tagStart + open.count
            let sigil = inner < source.count ? source[inner] : 0
            var token = Token(kind: .variable, start: tagStart, end: 0)
            switch sigil {
            case UInt8(ascii: "{"):
                guard let j = find([UInt8(ascii: "}")] + close, from: inner + 1) else {
                    throw error("unclosed tag: no '}\(String(decoding: close, as: UTF8.self))'", at: tagStart)
                }
                token.kind = .unescaped
                token.name = trimmed(inner + 1, j)
                token.end = j + 1 + close.count
            case UInt8(ascii: "="):
                guard let j = find([UInt8(ascii: "=")] + close, from: inner + 1) else {
                    throw error(
                        "unclosed set-delimiter tag: no '=\(String(decoding: close, as: UTF8.self))'",
                        at: tagStart)
                }
                let parts = trimmed(inner + 1, j).split(whereSeparator: { $0 == " " || $0 == "\t" })
                guard parts.count == 2, !parts.contains(where: { $0.contains("=") }) else {
                    throw error("a set-delimiter tag holds two delimiters, as in {{=<% %>=}}", at: tagStart)
                }
                token.kind = .delimiters
                token.end = j + 1 + close.count
                open = Array(parts[0].utf8)
                close = Array(parts[1].utf8)
            default:
                guard let j = find(close, from: inner) else {
                    throw error("unclosed tag: no '\(String(decoding: close, as: UTF8.self))'", at: tagStart)
                }
                token.end = j + close.count
                var a = inner
                while a < j, Parser.isSpace(source[a]) { a += 1 }
                let kinds: [UInt8: Token.Kind] = [
                    UInt8(ascii: "#"): .section, UInt8(ascii: "^"): .inverted, UInt8(ascii: "/"): .close,
                    UInt8(ascii: "!"): .comment, UInt8(ascii: ">"): .partial, UInt8(ascii: "<"): .parent,
                    UInt8(ascii: "$"): .block, UInt8(ascii: "&"): .unescaped,
                ]
                if a < j, let kind = kinds[source[a]] {
                    token.kind = kind
                    a += 1
                }
                if token.kind != .comment { token.name = trimmed(a, j) }
            }
            if token.kind == .partial || token.kind == .parent, token.name.hasPrefix("*") {
                token.dynamic = true
                token.name = String(token.name.dropFirst()).trimmingSpaces
            }
            if token.kind != .comment && token.kind != .delimiters {
                guard !token.name.isEmpty else { throw error("empty tag", at: tagStart) }
                guard !token.name.contains(where: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
                else {
                    throw error("tag name '\(token.name)' contains whitespace", at: tagStart)
                }
            }
            tokens.append(token)
            pos = token.end
        }
        text(pos, source.count)
        return tokens
    }

    // MARK: standalone lines

    /// A line whose only content is tags that write nothing (sections, inverted sections, their
    /// ends, comments, partials, parents, blocks, set delimiters) and whitespace is standalone:
    /// its whitespace and line ending are dropped and the whitespace before a partial, parent
    /// or block becomes its indentation. A block opened and closed on one such line keeps the
    /// line ending (inheritance module, "Standalone block").
    func markStandalone(_ tokens: inout [Token]) {
        var lineStart = 0
        while lineStart < tokens.count {
            var lineEnd = lineStart
            while lineEnd < tokens.count {
                let t = tokens[lineEnd]
                lineEnd += 1
                if t.kind == .text, source[t.end - 1] == UInt8(ascii: "\n") { break }
            }
            markLine(&tokens, lineStart..<lineEnd)
            lineStart = lineEnd
        }
    }

    func markLine(_ tokens: inout [Token], _ line: Range<Int>) {
        var tags: [Int] = []
        for i in line {
            let t = tokens[i]
            switch t.kind {
            case .variable, .unescaped: return
            case .text:
                for b in source[t.start..<t.end] where !Parser.isSpace(b) { return }
            default: tags.append(i)
            }
        }
        guard let first = tags.first else { return }
        var leading: [UInt8] = []
        for i in line.lowerBound..<first { leading += source[tokens[i].start..<tokens[i].end] }
        tokens[first].indent = leading
        for i in tags.dropFirst() { tokens[i].indent = [] }
        let pair =
            tags.count == 2 && tokens[tags[0]].kind == .block && tokens[tags[1]].kind == .close
            && tokens[tags[0]].name == tokens[tags[1]].name
        for i in line where tokens[i].kind == .text {
            var kept: [UInt8] = []
            if pair, i == line.upperBound - 1, source[tokens[i].end - 1] == UInt8(ascii: "\n") {
                let crlf =
                    tokens[i].end - tokens[i].start >= 2 && source[tokens[i].end - 2] == UInt8(ascii: "\r")
                kept = crlf ? [13, 10] : [10]
            }
            tokens[i].kept = kept
        }
    }

    // MARK: tree

    /// An open section, parent or block while the tree is built.
    struct Frame {
        var token: Token
        var nodes: [Node] = []
    }

    /// The deepest sections, inverted sections, parents and blocks may nest.
    static let maximumNesting = 256

    func build(_ tokens: [Token]) throws(TemplateError) -> [Node] {
        var stack = [Frame(token: Token(kind: .section, start: 0, end: 0))]
        for t in tokens {
            switch t.kind {
            case .text:
                let bytes = t.kept ?? Array(source[t.start..<t.end])
                guard !bytes.isEmpty else { continue }
                let atLineStart = t.start == 0 || source[t.start - 1] == UInt8(ascii: "\n")
                stack[stack.count - 1].nodes.append(.text(bytes, atLineStart: atLineStart))
            case .variable, .unescaped:
                stack[stack.count - 1].nodes.append(.variable(Name(t.name), escaped: t.kind == .variable))
            case .comment, .delimiters: continue
            case .partial:
                let name: PartialName = t.dynamic ? .dynamic(Name(t.name)) : .fixed(t.name)
                stack[stack.count - 1].nodes.append(.partial(name, indent: t.indent))
            case .section, .inverted, .parent, .block:
                // Bounded, so that the recursion over the tree (merging, dedenting, rendering,
                // releasing) stays within the stack whatever the template.
                guard stack.count <= Parser.maximumNesting else {
                    throw error("sections nested more than \(Parser.maximumNesting) deep", at: t.start)
                }
                stack.append(Frame(token: t))
            case .close:
                guard stack.count > 1 else {
                    throw error("closing tag '\(t.name)' with no open section", at: t.start)
                }
                let frame = stack.removeLast()
                guard frame.token.name == t.name else {
                    let opened = error("", at: frame.token.start)
                    throw error(
                        "closing tag '\(t.name)' does not match the open section '\(frame.token.name)' (opened at \(opened.line):\(opened.column))",
                        at: t.start)
                }
                stack[stack.count - 1].nodes.append(node(for: frame, closedBy: t))
            }
        }
        if stack.count > 1 {
            let open = stack[stack.count - 1].token
            let what =
                switch open.kind {
                case .parent: "parent"
                case .block: "block"
                default: "section"
                }
            throw error("unclosed \(what) '\(open.name)'", at: open.start)
        }
        return stack[0].nodes
    }

    func node(for frame: Frame, closedBy close: Token) -> Node {
        let t = frame.token
        switch t.kind {
        case .inverted: return .section(Name(t.name), frame.nodes, inverted: true)
        case .parent:
            var blocks: [String: [Node]] = [:]
            for case .block(let name, let body, _, _) in frame.nodes where blocks[name] == nil {
                blocks[name] = body
            }
            return .parent(
                t.dynamic ? .dynamic(Name(t.name)) : .fixed(t.name), indent: t.indent, blocks: blocks)
        case .block:
            guard t.indent != nil else { return .block(t.name, frame.nodes, leading: nil, intrinsic: []) }
            // A standalone block's body starts on the next line; its common indentation is
            // removed here and put back, or the expansion site's, where it is expanded.
            var bodyStart = t.end
            while bodyStart < close.start, source[bodyStart] != UInt8(ascii: "\n") { bodyStart += 1 }
            let prefix = Parser.commonIndentation(source[min(bodyStart + 1, close.start)..<close.start])
            var body = frame.nodes
            if !prefix.isEmpty { Parser.dedent(&body, by: prefix) }
            return .block(t.name, body, leading: t.indent, intrinsic: prefix)
        default: return .section(Name(t.name), frame.nodes, inverted: false)
        }
    }

    /// The longest run of spaces and tabs that starts every line of `text` holding anything else.
    static func commonIndentation(_ text: ArraySlice<UInt8>) -> [UInt8] {
        var common: [UInt8]?
        var i = text.startIndex
        while i < text.endIndex {
            var j = i
            while j < text.endIndex, text[j] == UInt8(ascii: " ") || text[j] == UInt8(ascii: "\t") { j += 1 }
            let blank = j == text.endIndex || text[j] == UInt8(ascii: "\n") || text[j] == UInt8(ascii: "\r")
            if !blank {
                let indent = Array(text[i..<j])
                if let c = common {
                    var n = 0
                    while n < c.count, n < indent.count, c[n] == indent[n] { n += 1 }
                    common = Array(c.prefix(n))
                } else {
                    common = indent
                }
                if common!.isEmpty { return [] }
            }
            while j < text.endIndex, text[j] != UInt8(ascii: "\n") { j += 1 }
            i = j + 1
        }
        return common ?? []
    }

    /// Removes `prefix` from the start of every source line in `nodes`: from text that starts a
    /// line and from the indentation of standalone tags; a nested standalone block's body is
    /// already dedented by its own (longer) indentation, which loses the prefix.
    static func dedent(_ nodes: inout [Node], by prefix: [UInt8]) {
        func strip(_ indent: [UInt8]?) -> [UInt8]? {
            guard let indent else { return nil }
            return indent.starts(with: prefix) ? Array(indent.dropFirst(prefix.count)) : indent
        }
        for i in nodes.indices {
            switch nodes[i] {
            case .text(let bytes, let atLineStart) where atLineStart:
                if bytes.starts(with: prefix) {
                    nodes[i] = .text(Array(bytes.dropFirst(prefix.count)), atLineStart: true)
                } else if bytes.allSatisfy({ isSpace($0) }) {
                    nodes[i] = .text(bytes.filter { $0 == 10 || $0 == 13 }, atLineStart: true)
                }
            case .section(let name, var body, let inverted):
                dedent(&body, by: prefix)
                nodes[i] = .section(name, body, inverted: inverted)
            case .partial(let name, let indent):
                nodes[i] = .partial(name, indent: strip(indent))
            case .parent(let name, let indent, var blocks):
                for (k, var body) in blocks {
                    dedent(&body, by: prefix)
                    blocks[k] = body
                }
                nodes[i] = .parent(name, indent: strip(indent), blocks: blocks)
            case .block(let name, var body, let leading, let intrinsic):
                if leading == nil {
                    dedent(&body, by: prefix)
                    nodes[i] = .block(name, body, leading: nil, intrinsic: intrinsic)
                } else {
                    nodes[i] = .block(name, body, leading: strip(leading), intrinsic: strip(intrinsic) ?? [])
                }
            default: break
            }
        }
    }

    /// Joins neighbouring text nodes, at every depth.
    static func merged(_ nodes: [Node]) -> [Node] {
        var out: [Node] = []
        out.reserveCapacity(nodes.count)
        for node in nodes {
            switch node {
            case .text(let bytes, _):
                if case .text(let previous, let start) = out.last {
                    out[out.count - 1] = .text(previous + bytes, atLineStart: start)
                } else {
                    out.append(node)
                }
            case .section(let name, let body, let inverted):
                out.append(.section(name, merged(body), inverted: inverted))
            case .parent(let name, let indent, let blocks):
                out.append(.parent(name, indent: indent, blocks: blocks.mapValues(merged)))
            case .block(let name, let body, let leading, let intrinsic):
                out.append(.block(name, merged(body), leading: leading, intrinsic: intrinsic))
            default: out.append(node)
            }
        }
        return out
    }

    func parse() throws(TemplateError) -> [Node] {
        var tokens = try scan()
        markStandalone(&tokens)
        return Parser.merged(try build(tokens))
    }
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" { s.removeLast() }
        return String(s)
    }
}
