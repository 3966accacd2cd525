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

    struct ParseError: Error {
        var message: String
        var mark: Mark
    }

    /// Parses the first document of `text`.
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
            var document = yaml_document_t()
            guard yaml_parser_load(&parser, &document) == 1 else {
                let m = parser.problem_mark
                let problem = parser.problem.map { String(cString: $0) } ?? "malformed YAML"
                return .failure(
                    ParseError(
                        message: "YAML: \(problem)", mark: Mark(line: m.line + 1, column: m.column + 1)))
            }
            defer { yaml_document_delete(&document) }
            guard let root = yaml_document_get_root_node(&document) else {
                return .failure(ParseError(message: "empty YAML document", mark: Mark(line: 1, column: 1)))
            }
            var budget = YAMLNode.maximumNodes
            var depth = 0
            let node = convert(root, &document, &depth, &budget)
            guard budget >= 0 else {
                return .failure(
                    ParseError(
                        message:
                            "YAML document expands to more than \(YAMLNode.maximumNodes) nodes (aliases nested too far)",
                        mark: Mark(line: 1, column: 1)))
            }
            return .success(node)
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

    private static func convert(
        _ node: UnsafeMutablePointer<yaml_node_t>, _ doc: inout yaml_document_t, _ depth: inout Int,
        _ budget: inout Int
    ) -> YAMLNode {
        let mark = Mark(line: node.pointee.start_mark.line + 1, column: node.pointee.start_mark.column + 1)
        depth += 1
        defer { depth -= 1 }
        // Aliases can nest without bound; a colour scheme never needs more than a few levels.
        budget -= 1
        guard depth < 64, budget >= 0 else { return YAMLNode(kind: .scalar(""), mark: mark) }
        switch node.pointee.type {
        case YAML_SCALAR_NODE:
            let s = node.pointee.data.scalar
            let buf = UnsafeBufferPointer(start: s.value, count: s.length)
            return YAMLNode(kind: .scalar(String(decoding: buf, as: UTF8.self)), mark: mark)
        case YAML_SEQUENCE_NODE:
            var items: [YAMLNode] = []
            var p = node.pointee.data.sequence.items.start
            while let cur = p, cur != node.pointee.data.sequence.items.top {
                if let child = yaml_document_get_node(&doc, cur.pointee) {
                    items.append(convert(child, &doc, &depth, &budget))
                }
                p = cur + 1
            }
            return YAMLNode(kind: .sequence(items), mark: mark)
        case YAML_MAPPING_NODE:
            var pairs: [(YAMLNode, YAMLNode)] = []
            var p = node.pointee.data.mapping.pairs.start
            while let cur = p, cur != node.pointee.data.mapping.pairs.top {
                if let k = yaml_document_get_node(&doc, cur.pointee.key),
                    let v = yaml_document_get_node(&doc, cur.pointee.value)
                {
                    pairs.append((convert(k, &doc, &depth, &budget), convert(v, &doc, &depth, &budget)))
                }
                p = cur + 1
            }
            return YAMLNode(kind: .mapping(pairs), mark: mark)
        default:
            return YAMLNode(kind: .scalar(""), mark: mark)
        }
    }
}
