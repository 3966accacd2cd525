/// The data a template is rendered with: the value kinds of the Mustache specification's test
/// data (JSON), with no lambdas.
public enum MustacheValue: Sendable, Equatable {
    /// Nothing: falsey, interpolated as nothing.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, interpolated in its shortest form.
    case number(Double)
    /// Text.
    case string(String)
    /// A list: a section renders once per item, with the item on top of the context stack.
    case list([MustacheValue])
    /// Names to values: what dotted names look up.
    case object([String: MustacheValue])

    /// Whether a section over this value renders: not for `null`, `false`, an empty list or an
    /// empty string; once for anything else (and once per item for a list).
    public var isTruthy: Bool {
        switch self {
        case .null: false
        case .bool(let b): b
        case .number: true
        case .string(let s): !s.isEmpty
        case .list(let l): !l.isEmpty
        case .object: true
        }
    }

    /// The text an interpolation tag writes: strings as they are, numbers in their shortest
    /// decimal form (`85`, `1.21`), booleans as `true`/`false`, nothing for `null`, lists and
    /// objects.
    public var interpolated: String {
        switch self {
        case .null, .list, .object: ""
        case .bool(let b): b ? "true" : "false"
        case .string(let s): s
        case .number(let d):
            d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d)
        }
    }
}

extension MustacheValue: ExpressibleByStringLiteral, ExpressibleByDictionaryLiteral,
    ExpressibleByArrayLiteral,
    ExpressibleByBooleanLiteral
{
    /// A string.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An object; the first of two equal keys wins.
    public init(dictionaryLiteral elements: (String, MustacheValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { first, _ in first }))
    }
    /// A list.
    public init(arrayLiteral elements: MustacheValue...) { self = .list(elements) }
    /// A boolean.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}
