/// A Mustache template (specification v1.4.2, with the optional inheritance and dynamic-names
/// modules; no lambdas), compiled once and rendered any number of times.
///
/// Interpolation escapes `&`, `<`, `>`, `"` and `'` as `&amp;`, `&lt;`, `&gt;`, `&quot;` and
/// `&#39;` (the specification asks for the first four; the fifth is what the tinted-theming
/// builder's engine writes). A section renders for anything but `null`, `false`, an empty
/// list and an empty string.
public struct Template: Sendable {
    /// The name errors are reported under (`name:line:column: error: …`).
    public let name: String
    let nodes: [Node]
    /// The bytes of the template's text outside tags: what a render reserves room for first.
    let textSize: Int

    /// Compiles `text`.
    /// - Parameters:
    ///   - text: The template.
    ///   - name: The name for error messages, usually the file name.
    /// - Throws: `TemplateError` for an unclosed tag, section, parent or block, a closing
    ///   tag that matches nothing, an empty tag or a bad set-delimiter tag.
    public init(_ text: String, name: String = "template") throws(TemplateError) {
        self.name = name
        nodes = try Parser(source: Array(text.utf8), file: name).parse()
        textSize = Template.textSize(nodes)
    }

    /// Limits on one render, so that a hostile template or data ends in an error, not in
    /// exhausted memory or time.
    public struct Limits: Sendable {
        /// Most bytes written.
        public var output: Int
        /// Most nodes visited (text, tags, each pass of a section).
        public var steps: Int
        /// Deepest nesting of partials and parents.
        public var depth: Int

        /// 64 MiB, 50 million nodes, 100 partials deep.
        public static let standard = Limits(output: 64 << 20, steps: 50_000_000, depth: 100)

        /// Limits of `output` bytes, `steps` nodes and `depth` nested partials.
        public init(output: Int, steps: Int, depth: Int) {
            self.output = output
            self.steps = steps
            self.depth = depth
        }
    }

    /// Renders the template.
    /// - Parameters:
    ///   - data: The bottom of the context stack.
    ///   - partials: The templates `{{>name}}` and `{{<name}}` name; a missing one renders as
    ///     nothing.
    ///   - limits: Bounds on the work done.
    /// - Returns: The text.
    /// - Throws: `RenderError` when a limit is passed.
    public func render(
        _ data: MustacheValue, partials: [String: Template] = [:], limits: Limits = .standard
    ) throws(RenderError) -> String {
        String(decoding: try renderBytes(data, partials: partials, limits: limits), as: UTF8.self)
    }

    /// Renders the template as UTF-8 bytes, for a caller that writes them to a file (no
    /// `String` made and read back).
    /// - Parameters:
    ///   - data: The bottom of the context stack.
    ///   - partials: The templates `{{>name}}` and `{{<name}}` name; a missing one renders as
    ///     nothing.
    ///   - limits: Bounds on the work done.
    /// - Returns: The text's bytes: UTF-8 when the template and the data's strings are.
    /// - Throws: `RenderError` when a limit is passed.
    public func renderBytes(
        _ data: MustacheValue, partials: [String: Template] = [:], limits: Limits = .standard
    ) throws(RenderError) -> [UInt8] {
        var renderer = Renderer(stack: [data], partials: partials, limits: limits)
        renderer.out.reserveCapacity(textSize + textSize / 2)
        try renderer.render(nodes)
        return renderer.out
    }

    /// The text bytes of `nodes`, sections and blocks included once, partials not.
    static func textSize(_ nodes: [Node]) -> Int {
        nodes.reduce(0) { sum, node in
            switch node {
            case .text(let bytes, _): sum + bytes.count
            case .section(_, let body, _), .block(_, let body, _, _): sum + textSize(body)
            case .variable, .partial, .parent: sum
            }
        }
    }
}
