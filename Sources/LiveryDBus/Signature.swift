/// A validated D-Bus type signature such as `a{sv}` or `(ua{sa{sv}})`; may hold several
/// complete types (`ss`) or none (the empty signature of a call without arguments).
///
/// Rules (D-Bus specification, "Valid Signatures"): at most 255 bytes; only known type codes;
/// arrays nest at most 32 deep and structures (with dict entries) at most 32 deep; a dict
/// entry `{kv}` appears only as an array element, has exactly two fields and a basic key;
/// a structure has at least one field.
public struct Signature: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The signature text.
    public let rawValue: String

    /// Maximum length in bytes ("Valid Signatures").
    public static let maximumLength = 255
    /// Maximum nesting of arrays, and separately of structures ("Valid Signatures").
    public static let maximumNesting = 32

    /// Validates a signature.
    ///
    /// - Parameter s: the signature text.
    /// - Throws: ``DBusError`` `InvalidArgs` saying what is wrong and quoting `s`.
    public init(_ s: String) throws(DBusError) {
        _ = try Signature.split(s)
        rawValue = s
    }

    init(unchecked s: String) { rawValue = s }

    /// Creates a signature from a literal; a literal that is not a valid signature is a
    /// programming error and traps.
    ///
    /// - Parameter value: the signature text, for example `"a{sv}"`.
    public init(stringLiteral value: String) {
        do {
            try self.init(value)
        } catch {
            preconditionFailure(error.message)
        }
    }

    /// Concatenates signatures, as for the argument list of a message.
    ///
    /// - Parameter parts: complete types in order.
    public init(concatenating parts: [Signature]) {
        rawValue = parts.map(\.rawValue).joined()
    }

    /// The signature text.
    public var description: String { rawValue }

    /// The complete types this signature holds, in order (`sa{sv}` gives `s`, `a{sv}`).
    public var completeTypes: [Signature] {
        // Validated at init, so splitting cannot fail.
        ((try? Signature.split(rawValue)) ?? []).map { Signature(unchecked: $0) }
    }

    /// Whether the signature is exactly one complete type, as a variant's content must be.
    public var isSingleCompleteType: Bool { completeTypes.count == 1 }

    /// Whether this is a single basic (non-container, non-variant) type, as a dict key must be.
    public var isBasic: Bool {
        rawValue.utf8.count == 1 && Signature.basicCodes.contains(rawValue.utf8.first!)
    }

    static let basicCodes: Set<UInt8> = Set("ybnqiuxtdsogh".utf8)

    /// `s`
    public static let string = Signature(unchecked: "s")
    /// `v`
    public static let variant = Signature(unchecked: "v")
    /// `u`
    public static let uint32 = Signature(unchecked: "u")
    /// `b`
    public static let boolean = Signature(unchecked: "b")
    /// `d`
    public static let double = Signature(unchecked: "d")
    /// `o`
    public static let objectPath = Signature(unchecked: "o")
    /// `as`
    public static let stringArray = Signature(unchecked: "as")
    /// `a{sv}`
    public static let stringVariantDictionary = Signature(unchecked: "a{sv}")
    /// The empty signature of a message without arguments.
    public static let empty = Signature(unchecked: "")

    static func split(_ s: String) throws(DBusError) -> [String] {
        let bytes = Array(s.utf8)
        if bytes.count > maximumLength {
            throw .invalidArgs(
                "invalid signature \(NameRules.quoted(s)): \(bytes.count) bytes, more than \(maximumLength)")
        }
        var parser = Parser(bytes: bytes, text: s)
        var result: [String] = []
        while parser.index < bytes.count {
            let start = parser.index
            try parser.completeType(arrayDepth: 0, structDepth: 0)
            result.append(String(decoding: bytes[start..<parser.index], as: UTF8.self))
        }
        return result
    }

    private struct Parser {
        let bytes: [UInt8]
        let text: String
        var index = 0

        func fail(_ why: String) -> DBusError {
            .invalidArgs("invalid signature \(NameRules.quoted(text)): \(why)")
        }

        mutating func completeType(arrayDepth: Int, structDepth: Int) throws(DBusError) {
            guard index < bytes.count else { throw fail("ends in the middle of a type") }
            let c = bytes[index]
            if Signature.basicCodes.contains(c) || c == UInt8(ascii: "v") {
                index += 1
                return
            }
            switch c {
            case UInt8(ascii: "a"):
                if arrayDepth + 1 > Signature.maximumNesting {
                    throw fail("arrays nested more than \(Signature.maximumNesting) deep")
                }
                index += 1
                if index < bytes.count && bytes[index] == UInt8(ascii: "{") {
                    if structDepth + 1 > Signature.maximumNesting {
                        throw fail("structures nested more than \(Signature.maximumNesting) deep")
                    }
                    index += 1
                    guard index < bytes.count else { throw fail("unterminated dict entry") }
                    if !Signature.basicCodes.contains(bytes[index]) {
                        throw fail("a dict entry key must be a basic type")
                    }
                    index += 1
                    if index < bytes.count && bytes[index] == UInt8(ascii: "}") {
                        throw fail("a dict entry needs a key and a value")
                    }
                    try completeType(arrayDepth: arrayDepth + 1, structDepth: structDepth + 1)
                    guard index < bytes.count else { throw fail("unterminated dict entry") }
                    guard bytes[index] == UInt8(ascii: "}") else {
                        throw fail("a dict entry has exactly two fields")
                    }
                    index += 1
                } else {
                    try completeType(arrayDepth: arrayDepth + 1, structDepth: structDepth)
                }
            case UInt8(ascii: "("):
                if structDepth + 1 > Signature.maximumNesting {
                    throw fail("structures nested more than \(Signature.maximumNesting) deep")
                }
                index += 1
                if index < bytes.count && bytes[index] == UInt8(ascii: ")") {
                    throw fail("empty structure '()'")
                }
                while true {
                    guard index < bytes.count else { throw fail("unterminated structure") }
                    if bytes[index] == UInt8(ascii: ")") {
                        index += 1
                        return
                    }
                    try completeType(arrayDepth: arrayDepth, structDepth: structDepth + 1)
                }
            case UInt8(ascii: "{"):
                throw fail("a dict entry '{' may only be an array element")
            case UInt8(ascii: ")"), UInt8(ascii: "}"):
                throw fail("unbalanced \(NameRules.describe(c))")
            default:
                throw fail("unknown type code \(NameRules.describe(c))")
            }
        }
    }
}
