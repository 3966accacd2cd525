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
    /// Names to values found when a template asks for them, for data too large to list (every
    /// component of a theme): a dotted name's part is looked up here as in an object.
    case lookup(MustacheLookup)

    /// Whether a section over this value renders: not for `null`, `false`, an empty list or an
    /// empty string; once for anything else (and once per item for a list).
    public var isTruthy: Bool {
        switch self {
        case .null: false
        case .bool(let b): b
        case .number: true
        case .string(let s): !s.isEmpty
        case .list(let l): !l.isEmpty
        case .object, .lookup: true
        }
    }

    /// The text an interpolation tag writes: strings as they are, numbers in their shortest
    /// decimal form (`85`, `1.21`), booleans as `true`/`false`, nothing for `null`, lists and
    /// objects.
    public var interpolated: String {
        switch self {
        case .null, .list, .object, .lookup: ""
        case .bool(let b): b ? "true" : "false"
        case .string(let s): s
        case .number(let d):
            d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d)
        }
    }
}

/// The names of a `MustacheValue.lookup`: a function from a name to its value, or nil where the
/// name is not there (a lookup then goes on down the context stack, as for an object's missing
/// key), and optionally another for the parts after the first of a dotted name (`a.b`: `b` is
/// looked up inside `a`), which may know more names than the context stack should see. Two
/// lookups are equal only when they are the same instance.
public final class MustacheLookup: Sendable, Equatable {
    let find: @Sendable (String) -> MustacheValue?
    let member: @Sendable (String) -> MustacheValue?

    /// A lookup answering through `find` for both; the functions may be called from any thread,
    /// any number of times for one name, and must give the same answer each time.
    /// - Parameters:
    ///   - find: A name on the context stack (a section over this value, or the first part of a
    ///     dotted name).
    ///   - member: A later part of a dotted name inside this value; `find` when nil.
    public init(
        _ find: @escaping @Sendable (String) -> MustacheValue?,
        member: (@Sendable (String) -> MustacheValue?)? = nil
    ) {
        self.find = find
        self.member = member ?? find
    }

    /// The value of `name` on the context stack, or nil.
    public subscript(_ name: String) -> MustacheValue? { find(name) }

    public static func == (a: MustacheLookup, b: MustacheLookup) -> Bool { a === b }
}

extension MustacheValue {
    /// The value of `name` when this value is on the context stack: an object's key or a
    /// lookup's name; nil for anything else.
    public subscript(_ name: String) -> MustacheValue? {
        switch self {
        case .object(let d): d[name]
        case .lookup(let l): l.find(name)
        default: nil
        }
    }

    /// The value of a later part of a dotted name inside this value.
    public func member(_ name: String) -> MustacheValue? {
        switch self {
        case .object(let d): d[name]
        case .lookup(let l): l.member(name)
        default: nil
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
