/// One render: the output, the context stack, the current indentation (of standalone partials,
/// parents and blocks), and the block arguments of the parents being expanded.
struct Renderer {
    var out: [UInt8] = []
    var stack: [MustacheValue]
    let partials: [String: Template]
    let limits: Template.Limits
    /// Written before each line of template text while it is not empty.
    var indent: [UInt8] = []
    /// At the start of a line that has not been indented yet.
    var pending = false
    /// Block bodies given by the parents being expanded; the outermost parent's win.
    var arguments: [String: [Node]] = [:]
    var depth = 0
    var steps = 0

    init(stack: [MustacheValue], partials: [String: Template], limits: Template.Limits) {
        self.stack = stack
        self.partials = partials
        self.limits = limits
    }

    mutating func render(_ nodes: [Node]) throws(RenderError) {
        steps += nodes.count
        guard steps <= limits.steps else {
            throw RenderError(message: "template rendering took too many steps")
        }
        for node in nodes {
            switch node {
            case .text(let bytes, _): write(bytes)
            case .variable(let name, let escaped): interpolate(lookup(name), escaped: escaped)
            case .section(let name, let body, let inverted):
                let value = lookup(name)
                if inverted {
                    if !value.isTruthy { try render(body) }
                } else if case .list(let items) = value {
                    for item in items {
                        stack.append(item)
                        try render(body)
                        stack.removeLast()
                    }
                } else if value.isTruthy {
                    stack.append(value)
                    try render(body)
                    stack.removeLast()
                }
            case .partial(let name, let indent): try include(name, indent: indent, blocks: [:])
            case .parent(let name, let indent, let blocks): try include(name, indent: indent, blocks: blocks)
            case .block(let name, let body, let leading, let intrinsic):
                let chosen = arguments[name] ?? body
                if let leading {
                    try indented(intrinsic.isEmpty ? leading : intrinsic) { r throws(RenderError) in
                        try r.render(chosen)
                    }
                } else {
                    try render(chosen)
                }
            }
            guard out.count <= limits.output else { throw RenderError(message: "template output too large") }
        }
    }

    /// Renders `body` with `more` added to the indentation, from the start of a line.
    mutating func indented(
        _ more: [UInt8], _ body: (inout Renderer) throws(RenderError) -> Void
    ) throws(RenderError) {
        let saved = indent
        indent += more
        pending = true
        defer { indent = saved }
        try body(&self)
    }

    /// Expands a partial or a parent: its blocks join the arguments unless an outer parent
    /// already gave that block.
    mutating func include(_ name: PartialName, indent more: [UInt8]?, blocks: [String: [Node]])
        throws(RenderError)
    {
        let key: String
        switch name {
        case .fixed(let s): key = s
        case .dynamic(let n): key = lookup(n).interpolated
        }
        guard let template = partials[key] else { return }
        guard depth < limits.depth else {
            throw RenderError(message: "partials nested more than \(limits.depth) deep")
        }
        let saved = arguments
        for (k, v) in blocks where arguments[k] == nil { arguments[k] = v }
        depth += 1
        defer {
            depth -= 1
            arguments = saved
        }
        if let more {
            try indented(more) { r throws(RenderError) in try r.render(template.nodes) }
        } else {
            try render(template.nodes)
        }
    }

    /// Resolves a dotted name: the first part on the context stack from the top, the rest
    /// inside what it found (Mustache specification, sections: name resolution).
    func lookup(_ name: Name) -> MustacheValue {
        guard let first = name.parts.first else { return stack.last ?? .null }
        var found: MustacheValue?
        for context in stack.reversed() {
            if let v = context[first] {
                found = v
                break
            }
        }
        guard var value = found else { return .null }
        for part in name.parts.dropFirst() {
            guard let next = value.member(part) else { return .null }
            value = next
        }
        return value
    }

    mutating func write(_ bytes: [UInt8]) {
        if indent.isEmpty {
            out.append(contentsOf: bytes)
            pending = bytes.last == UInt8(ascii: "\n")
            return
        }
        var i = 0
        while i < bytes.count {
            var j = i
            while j < bytes.count, bytes[j] != UInt8(ascii: "\n") { j += 1 }
            let end = min(j + 1, bytes.count)
            let blank = bytes[i] == UInt8(ascii: "\n") || (bytes[i] == UInt8(ascii: "\r") && i + 1 == j)
            if pending && !blank { out.append(contentsOf: indent) }
            pending = j < bytes.count
            out.append(contentsOf: bytes[i..<end])
            i = end
        }
    }

    mutating func interpolate(_ value: MustacheValue, escaped: Bool) {
        let text = value.interpolated
        guard !text.isEmpty else { return }
        if pending && !indent.isEmpty { out.append(contentsOf: indent) }
        pending = false
        // Most values (colours, numbers, slugs) have nothing to escape: copied as they are.
        let special =
            escaped
            && text.utf8.contains { b in b == 0x26 || b == 0x3C || b == 0x3E || b == 0x22 || b == 0x27 }
        guard special else {
            out.append(contentsOf: text.utf8)
            return
        }
        for b in text.utf8 {
            switch b {
            case UInt8(ascii: "&"): out.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): out.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): out.append(contentsOf: "&gt;".utf8)
            case UInt8(ascii: "\""): out.append(contentsOf: "&quot;".utf8)
            case UInt8(ascii: "'"): out.append(contentsOf: "&#39;".utf8)
            default: out.append(b)
            }
        }
    }
}
