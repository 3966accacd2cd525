import CYAML

/// A YAML node with its position, as read by libyaml's document loader (YAML 1.1).
struct YAMLNode {
    struct Mark {
        /// 1-based line and column.
        var line: Int
        var column: Int
    }
    enum Kind {
        case scalar(String)
        case sequence([YAMLNode])
        case mapping([(YAMLNode, YAMLNode)])
    }
    var kind: Kind
    var mark: Mark

    var scalar: String? { if case .scalar(let s) = kind { s } else { nil } }

    /// The lines of `text` as libyaml numbers them in its marks: YAML 1.1's line breaks are
    /// LF, CR, CR LF, NEL (U+0085), LS (U+2028) and PS (U+2029) ("Line Break Characters"), so
    /// a file of lone CRs has as many lines as CRs, not one.
    struct Lines {
        /// Each line's text, without its break.
        let all: [Substring]

        init(_ text: String) {
            all = text.split(
                omittingEmptySubsequences: false,
                whereSeparator: { ["\n", "\r", "\r\n", "\u{85}", "\u{2028}", "\u{2029}"].contains($0) })
        }

        /// How many there are.
        var count: Int { all.count }

        /// The text of line `mark.line` (1-based) for a diagnostic's caret display; empty past
        /// the end.
        func text(at mark: Mark) -> String {
            mark.line >= 1 && mark.line <= all.count ? String(all[mark.line - 1]) : ""
        }
    }

    struct ParseError: Error {
        var message: String
        var mark: Mark
    }

    /// Parses the first document of `text` from libyaml's parser events, building the nodes
    /// here: libyaml's own document loader looks each anchor up in a list, so a scheme of many
    /// anchors takes time quadratic in their number. Anchors are kept in a dictionary, aliases
    /// share the anchored node, and the document is refused as soon as it holds, or expands
    /// through aliases to, more than `maximumNodes` nodes, or nests more than 64 levels.
    static func parse(_ text: String) -> Result<YAMLNode, ParseError> {
        if let mark = tooDeep(text) {
            return .failure(ParseError(message: "YAML nested more than 64 levels deep", mark: mark))
        }
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else {
            return .failure(
                ParseError(message: "cannot start the YAML parser", mark: Mark(line: 1, column: 1)))
        }
        defer { yaml_parser_delete(&parser) }
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { buf -> Result<YAMLNode, ParseError> in
            yaml_parser_set_input_string(&parser, buf.baseAddress, buf.count)
            var builder = Builder()
            while true {
                var event = yaml_event_t()
                guard yaml_parser_parse(&parser, &event) == 1 else {
                    let m = parser.problem_mark
                    let problem = parser.problem.map { String(cString: $0) } ?? "malformed YAML"
                    return .failure(
                        ParseError(
                            message: "YAML: \(problem)", mark: Mark(line: m.line + 1, column: m.column + 1)))
                }
                let step = builder.take(&event)
                yaml_event_delete(&event)
                switch step {
                case .more: continue
                case .done(let result): return result
                }
            }
        }
    }

    /// Builds nodes from parser events: a stack of open collections, the anchors, and the
    /// count of nodes the document expands to.
    private struct Builder {
        enum Step {
            case more
            case done(Result<YAMLNode, ParseError>)
        }
        /// An open collection: its mark, its anchor, its items so far and the nodes they count.
        struct Open {
            var mark: Mark
            var anchor: String?
            var isMapping: Bool
            var items: [YAMLNode] = []
            var count = 1
        }
        var stack: [Open] = []
        var anchors: [String: (node: YAMLNode, count: Int)] = [:]
        var total = 0
        var aliased = false
        var root: YAMLNode?

        static func string(_ p: UnsafeMutablePointer<yaml_char_t>?) -> String? {
            p.map { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
        }

        /// Adds a finished node (`count` nodes once expanded) to its collection or as the root.
        mutating func add(_ node: YAMLNode, count: Int, anchor: String?) -> Step {
            if let anchor { anchors[anchor] = (node, count) }
            if stack.isEmpty {
                root = node
            } else {
                stack[stack.count - 1].items.append(node)
                stack[stack.count - 1].count += count
            }
            return .more
        }

        mutating func fail(_ message: String, _ mark: Mark) -> Step {
            .done(.failure(ParseError(message: message, mark: mark)))
        }

        mutating func take(_ event: inout yaml_event_t) -> Step {
            let mark = Mark(line: event.start_mark.line + 1, column: event.start_mark.column + 1)
            // Every event that makes a node counts it, before any work is done for it.
            func counted(_ n: Int) -> Bool {
                total += n
                return total <= YAMLNode.maximumNodes
            }
            switch event.type {
            case YAML_SCALAR_EVENT:
                guard counted(1) else { return tooMany(mark) }
                let s = event.data.scalar
                let value = String(
                    decoding: UnsafeBufferPointer(start: s.value, count: s.length), as: UTF8.self)
                return add(
                    YAMLNode(kind: .scalar(value), mark: mark), count: 1, anchor: Builder.string(s.anchor))
            case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                guard counted(1) else { return tooMany(mark) }
                guard stack.count < 64 else { return fail("YAML nested more than 64 levels deep", mark) }
                let isMapping = event.type == YAML_MAPPING_START_EVENT
                let anchor = Builder.string(
                    isMapping ? event.data.mapping_start.anchor : event.data.sequence_start.anchor)
                stack.append(Open(mark: mark, anchor: anchor, isMapping: isMapping))
                return .more
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                guard let open = stack.popLast() else { return .more }
                let kind: Kind
                if open.isMapping {
                    var pairs: [(YAMLNode, YAMLNode)] = []
                    pairs.reserveCapacity(open.items.count / 2)
                    var i = 0
                    while i + 1 < open.items.count {
                        pairs.append((open.items[i], open.items[i + 1]))
                        i += 2
                    }
                    kind = .mapping(pairs)
                } else {
                    kind = .sequence(open.items)
                }
                return add(YAMLNode(kind: kind, mark: open.mark), count: open.count, anchor: open.anchor)
            case YAML_ALIAS_EVENT:
                let name = Builder.string(event.data.alias.anchor) ?? ""
                guard let (node, count) = anchors[name] else {
                    return fail("YAML: found undefined alias '\(name)'", mark)
                }
                aliased = true
                guard counted(count) else { return tooMany(mark) }
                return add(node, count: count, anchor: nil)
            case YAML_DOCUMENT_END_EVENT, YAML_STREAM_END_EVENT:
                guard let root else {
                    return fail("empty YAML document", Mark(line: 1, column: 1))
                }
                return .done(.success(root))
            default:
                return .more
            }
        }

        mutating func tooMany(_ mark: Mark) -> Step {
            fail(
                aliased
                    ? "YAML document expands to more than \(YAMLNode.maximumNodes) nodes (aliases nested too far)"
                    : "YAML document has more than \(YAMLNode.maximumNodes) nodes",
                mark)
        }
    }

    /// Where flow collections (`[`, `{`) first nest more than 64 deep, outside quotes; libyaml's
    /// loader takes a long time over deep nesting, and a colour scheme has two levels.
    static func tooDeep(_ text: String) -> Mark? {
        var depth = 0
        var line = 1
        var column = 0
        var quote: UInt8? = nil
        for b in text.utf8 {
            column += 1
            if b == UInt8(ascii: "\n") {
                line += 1
                column = 0
                quote = nil
                continue
            }
            if let q = quote {
                if b == q { quote = nil }
                continue
            }
            switch b {
            case UInt8(ascii: "\""), UInt8(ascii: "'"): quote = b
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > 64 { return Mark(line: line, column: column) }
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth = max(0, depth - 1)
            default: break
            }
        }
        return nil
    }

    /// Most nodes a document may expand to: aliases are expanded, so a "billion laughs" document
    /// would otherwise take exponential time.
    static let maximumNodes = 100_000
}

extension YAMLNode {
    /// What a YAML configuration file (`plugin.yaml`, `config.yaml`) holds at its top.
    enum TopLevel {
        /// No content but comments and blank lines.
        case empty
        /// The top-level mapping's pairs, in file order.
        case mapping([(YAMLNode, YAMLNode)])
        /// Not YAML, or not a mapping: why, at its place.
        case refused(Diagnostic)
    }

    /// Reads `text`'s top-level mapping.
    /// - Parameters:
    ///   - lines: `text`'s lines, for the diagnostics' source lines.
    ///   - file: The path diagnostics name.
    ///   - expected: What the file is, for the error when it is not a mapping
    ///     ("config.yaml is a mapping of 'light', 'dark' and 'schedule'").
    static func topLevel(of text: String, lines: Lines, file: String, expected: String) -> TopLevel {
        if lines.all.allSatisfy({
            let t = $0.trimmingCharacters(in: .whitespaces)
            return t.isEmpty || t.hasPrefix("#")
        }) {
            return .empty
        }
        switch parse(text) {
        case .failure(let e): return .refused(diagnostic(e.message, at: e.mark, lines: lines, file: file))
        case .success(let root):
            guard case .mapping(let top) = root.kind else {
                return .refused(diagnostic(expected, at: root.mark, lines: lines, file: file))
            }
            return .mapping(top)
        }
    }

    /// An error at `mark` of `file`, with its source line.
    static func diagnostic(_ message: String, at mark: Mark, lines: Lines, file: String) -> Diagnostic {
        Diagnostic(
            .error, message, at: SourceLocation(file: file, line: mark.line, column: mark.column),
            sourceLine: lines.text(at: mark))
    }
}
