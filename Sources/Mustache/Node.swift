/// A compiled template: the tags of the Mustache specification as a tree, text as UTF-8 bytes.
enum Node: Sendable {
    /// Literal text. `atLineStart`: it starts a line of the source (used when a standalone
    /// block's body is dedented, then no longer).
    case text([UInt8], atLineStart: Bool)
    /// `{{name}}` (escaped) or `{{{name}}}` and `{{&name}}`.
    case variable(Name, escaped: Bool)
    /// `{{#name}}…{{/name}}`, or `{{^name}}…{{/name}}` when inverted.
    case section(Name, [Node], inverted: Bool)
    /// `{{>name}}`; `indent` is the whitespace before a standalone tag, `nil` when inline.
    case partial(PartialName, indent: [UInt8]?)
    /// `{{<name}}…{{/name}}` (inheritance): the partial with the blocks given inside it.
    case parent(PartialName, indent: [UInt8]?, blocks: [String: [Node]])
    /// `{{$name}}default{{/name}}` (inheritance). `leading` is the whitespace before a
    /// standalone opening tag (`nil` when inline); `intrinsic` the indentation removed from
    /// the body of a standalone block, put back where it is expanded.
    case block(String, [Node], leading: [UInt8]?, intrinsic: [UInt8])
}

/// A dotted name; no parts is the implicit iterator `.`.
struct Name: Sendable, Equatable {
    var parts: [String]

    init(_ text: String) {
        parts =
            text == "." ? [] : text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }
}

/// A partial's name: written in the tag, or (dynamic names) looked up in the data.
enum PartialName: Sendable {
    case fixed(String)
    case dynamic(Name)
}
