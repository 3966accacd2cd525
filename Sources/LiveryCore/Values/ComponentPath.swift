/// One node of a component path: `Type#name.class:state`.
public struct PathNode: Hashable, Sendable, CustomStringConvertible {
    /// The component type, a type of the schema such as `Button`.
    public var type: String
    /// The `#name`, e.g. a part name such as `title`; at most one per node.
    public var name: String?
    /// The `.class` names, in the order written.
    public var classes: [String]
    /// The `:state` names, states of the schema; none means `normal`.
    public var states: [String]

    /// A node; unchecked, unlike a node parsed by `ComponentPath(_:schema:)`.
    public init(type: String, name: String? = nil, classes: [String] = [], states: [String] = []) {
        self.type = type
        self.name = name
        self.classes = classes
        self.states = states
    }

    /// Whether the node is in `state`; `normal` means in no other state.
    /// - Parameter state: A state name such as `highlighted`.
    /// - Returns: Whether a `:state` selector matches the node.
    @inline(__always)
    public func isIn(state: String) -> Bool {
        state == "normal" ? !states.contains { $0 != "normal" } : states.contains(state)
    }

    /// The textual form, `Type#name.class:state`.
    public var description: String {
        type + (name.map { "#" + $0 } ?? "") + classes.map { "." + $0 }.joined()
            + states.map { ":" + $0 }.joined()
    }
}

/// A component named by its containers from the outermost inwards,
/// `Window/NavigationBar/BarButtonItem:highlighted` (the README, "The cascade"). Parts are children of their
/// owner: `Window/Button/Label#title`.
public struct ComponentPath: Hashable, Sendable, CustomStringConvertible {
    /// The nodes from the outermost container to the component itself.
    public var nodes: [PathNode]

    /// A path of the given nodes, outermost first; not checked against a schema.
    public init(nodes: [PathNode]) { self.nodes = nodes }

    /// Why a path was refused.
    public struct ParseError: Error, Sendable, CustomStringConvertible {
        /// `segment N 'text' of path 'path': problem`, one line.
        public var description: String
    }

    /// Parses the textual form and checks it against the schema: known types and states.
    /// - Parameters:
    ///   - text: Nodes joined by `/`, each `Type#name.class:state` with any number of classes and states.
    ///   - schema: The schema that must know every type and state.
    /// - Throws: `ParseError` saying what is wrong and at which segment.
    public init(_ text: String, schema: Schema) throws {
        guard !text.isEmpty else { throw ParseError(description: "empty component path") }
        var nodes: [PathNode] = []
        for (i, segment) in text.split(separator: "/", omittingEmptySubsequences: false).enumerated() {
            func fail(_ m: String) -> ParseError {
                ParseError(description: "segment \(i + 1) '\(segment)' of path '\(text)': \(m)")
            }
            var node = PathNode(type: "")
            var cur = ""
            var mode: Character = "T"
            func flush() throws {
                guard !cur.isEmpty else {
                    throw fail(mode == "T" ? "expected a type name" : "expected a name after '\(mode)'")
                }
                guard cur.unicodeScalars.allSatisfy(Lexer.isName) else { throw fail("invalid name '\(cur)'") }
                switch mode {
                case "T": node.type = cur
                case "#":
                    guard node.name == nil else { throw fail("a node has at most one #name") }
                    node.name = cur
                case ".": node.classes.append(cur)
                default: node.states.append(cur)
                }
                cur = ""
            }
            for ch in segment {
                if ch == "#" || ch == "." || ch == ":" {
                    try flush()
                    mode = ch
                } else {
                    cur.append(ch)
                }
            }
            try flush()
            guard schema.types[node.type] != nil else {
                throw fail("unknown type '\(node.type)'\(didYouMean(node.type, schema.types.keys))")
            }
            for s in node.states where !schema.states.contains(s) {
                throw fail("unknown state ':\(s)'\(didYouMean(s, schema.states))")
            }
            nodes.append(node)
        }
        self.nodes = nodes
    }

    /// The textual form, nodes joined by `/`.
    public var description: String { nodes.map(\.description).joined(separator: "/") }
}
