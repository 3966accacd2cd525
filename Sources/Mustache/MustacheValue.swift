/// The data a template is rendered with: the value kinds of the Mustache specification's test
/// data (JSON), with no lambdas.
public enum MustacheValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case list([MustacheValue])
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
    public init(stringLiteral value: String) { self = .string(value) }
    public init(dictionaryLiteral elements: (String, MustacheValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { first, _ in first }))
    }
    public init(arrayLiteral elements: MustacheValue...) { self = .list(elements) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}
