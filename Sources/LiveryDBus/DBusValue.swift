/// One value of the D-Bus type system, as marshalled in a message body.
///
/// Containers carry their element signatures so that empty arrays and dictionaries still
/// have a type (D-Bus specification, "Type System"). Build dictionaries of the common `a{sv}`
/// shape with ``dict(_:)``, and read them back with ``stringVariantDictionary``.
///
/// Only `variant` and `dictionary` are stored indirectly (in a box of their own): the others
/// hold their payload inline, so that reading or building a body does not allocate a box per
/// basic value.
public enum DBusValue: Sendable, Equatable {
    /// `y`: an unsigned byte.
    case byte(UInt8)
    /// `b`: a boolean.
    case boolean(Bool)
    /// `n`: a signed 16-bit integer.
    case int16(Int16)
    /// `q`: an unsigned 16-bit integer.
    case uint16(UInt16)
    /// `i`: a signed 32-bit integer.
    case int32(Int32)
    /// `u`: an unsigned 32-bit integer.
    case uint32(UInt32)
    /// `x`: a signed 64-bit integer.
    case int64(Int64)
    /// `t`: an unsigned 64-bit integer.
    case uint64(UInt64)
    /// `d`: an IEEE 754 double.
    case double(Double)
    /// `s`: a UTF-8 string without NUL characters.
    case string(String)
    /// `o`: an object path.
    case objectPath(ObjectPath)
    /// `g`: a type signature.
    case signature(Signature)
    /// `h`: a Unix file descriptor. Sending duplicates it; a received one is a new descriptor
    /// that the receiver owns and must close.
    case unixFD(Int32)
    /// `v`: a value carrying its own type.
    indirect case variant(DBusValue)
    /// `aT`: an array whose elements all have the single complete type `element`.
    case array(element: Signature, [DBusValue])
    /// `a{KV}`: a dictionary; `key` is a basic type and `value` a single complete type.
    indirect case dictionary(key: Signature, value: Signature, [DBusDictEntry])
    /// `(…)`: a structure of one or more fields.
    case structure([DBusValue])

    /// The single complete type of this value, for example `a{sv}`.
    public var signature: Signature {
        Signature(unchecked: signatureText)
    }

    /// Whether the value is an array, dictionary, structure or variant.
    var isContainer: Bool {
        switch self {
        case .variant, .array, .dictionary, .structure: true
        default: false
        }
    }

    var signatureText: String {
        switch self {
        case .byte: "y"
        case .boolean: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .unixFD: "h"
        case .variant: "v"
        case .array(let element, _): "a" + element.rawValue
        case .dictionary(let key, let value, _): "a{" + key.rawValue + value.rawValue + "}"
        case .structure(let fields): "(" + fields.map(\.signatureText).joined() + ")"
        }
    }

    /// Makes an `a{sv}` dictionary; every value is wrapped in a variant and the entries are
    /// sorted by key so the same dictionary always marshals to the same bytes.
    ///
    /// - Parameter entries: the dictionary's keys and the values to wrap.
    /// - Returns: a `.dictionary(key: "s", value: "v", …)`.
    public static func dict(_ entries: [String: DBusValue]) -> DBusValue {
        .dictionary(
            key: .string, value: .variant,
            entries.sorted { $0.key < $1.key }.map {
                DBusDictEntry(key: .string($0.key), value: .variant($0.value))
            }
        )
    }

    /// Makes an `as` array.
    ///
    /// - Parameter strings: the elements.
    /// - Returns: an `.array(element: "s", …)`.
    public static func strings(_ strings: [String]) -> DBusValue {
        .array(element: .string, strings.map(DBusValue.string))
    }

    /// The value with every enclosing variant removed.
    public var variantValue: DBusValue {
        if case .variant(let inner) = self { return inner.variantValue }
        return self
    }

    /// The string of an `s` value (looking through variants), or nil.
    public var string: String? {
        if case .string(let s) = variantValue { return s }
        return nil
    }

    /// The path of an `o` value (looking through variants), or nil.
    public var objectPath: ObjectPath? {
        if case .objectPath(let p) = variantValue { return p }
        return nil
    }

    /// The number of a `u` value (looking through variants), or nil.
    public var uint32: UInt32? {
        if case .uint32(let v) = variantValue { return v }
        return nil
    }

    /// The number of an `i` value (looking through variants), or nil.
    public var int32: Int32? {
        if case .int32(let v) = variantValue { return v }
        return nil
    }

    /// The number of an `x` value (looking through variants), or nil.
    public var int64: Int64? {
        if case .int64(let v) = variantValue { return v }
        return nil
    }

    /// The number of a `t` value (looking through variants), or nil.
    public var uint64: UInt64? {
        if case .uint64(let v) = variantValue { return v }
        return nil
    }

    /// The number of a `d` value (looking through variants), or nil.
    public var double: Double? {
        if case .double(let v) = variantValue { return v }
        return nil
    }

    /// The truth value of a `b` value (looking through variants), or nil.
    public var bool: Bool? {
        if case .boolean(let v) = variantValue { return v }
        return nil
    }

    /// The elements of an array (looking through variants), or nil. Dictionaries are not arrays
    /// here; see ``dictionaryEntries``.
    public var array: [DBusValue]? {
        if case .array(_, let elements) = variantValue { return elements }
        return nil
    }

    /// The strings of an `as` value (looking through variants), or nil.
    public var stringArray: [String]? {
        guard case .array(let element, let elements) = variantValue, element == .string else { return nil }
        return elements.compactMap(\.string)
    }

    /// The fields of a structure (looking through variants), or nil.
    public var structureFields: [DBusValue]? {
        if case .structure(let fields) = variantValue { return fields }
        return nil
    }

    /// The entries of a dictionary (looking through variants), or nil.
    public var dictionaryEntries: [DBusDictEntry]? {
        if case .dictionary(_, _, let entries) = variantValue { return entries }
        return nil
    }

    /// The contents of an `a{sv}` dictionary with each value taken out of its variant, or nil
    /// for any other type. A repeated key keeps its last value.
    public var stringVariantDictionary: [String: DBusValue]? {
        guard case .dictionary(let key, let value, let entries) = variantValue, key == .string,
            value == .variant
        else { return nil }
        var result: [String: DBusValue] = [:]
        for entry in entries {
            guard case .string(let k) = entry.key, case .variant(let v) = entry.value else { return nil }
            result[k] = v
        }
        return result
    }

    /// Checks that `s` may be sent: a Swift `String` is always valid UTF-8, but D-Bus strings
    /// must not contain NUL (D-Bus specification, "Basic types").
    ///
    /// - Parameter s: the candidate string.
    /// - Returns: true if libdbus will accept it.
    public static func isValidString(_ s: String) -> Bool {
        !s.utf8.contains(0)
    }

    /// Checks that raw bytes form a string D-Bus accepts: valid UTF-8, no NUL, no surrogate
    /// or out-of-range code points (D-Bus specification, "Basic types").
    ///
    /// - Parameter bytes: the candidate bytes, without a terminating NUL.
    /// - Returns: true if the bytes decode to a valid D-Bus string.
    public static func isValidUTF8String(_ bytes: some Collection<UInt8>) -> Bool {
        if bytes.contains(0) { return false }
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    /// Checks the whole value tree before it reaches libdbus, which aborts on bad input:
    /// strings without NUL, array elements of the declared type, basic dict keys, non-empty
    /// structures, signatures within the length and nesting limits, nesting (variants
    /// included) at most 64 deep.
    ///
    /// - Throws: ``DBusError`` `InvalidArgs` naming the first problem.
    public func validate() throws(DBusError) {
        try validate(depth: 0)
        // Length and nesting limits of the value's own signature ("Valid Signatures").
        _ = try Signature(signatureText)
    }

    private func validate(depth: Int) throws(DBusError) {
        if depth > 64 { throw .invalidArgs("value nested more than 64 containers deep") }
        switch self {
        case .string(let s):
            try NameRules.checkString(s)
        case .variant(let inner):
            try inner.validate(depth: depth + 1)
            // A basic type's signature is one valid code; only containers need the full check.
            if inner.isContainer { _ = try Signature(inner.signatureText) }
        case .array(let element, let elements):
            guard element.isSingleCompleteType else {
                throw .invalidArgs("array element signature '\(element)' is not a single complete type")
            }
            for e in elements {
                if e.signatureText != element.rawValue {
                    throw .invalidArgs(
                        "array of '\(element)' holds an element of type '\(e.signatureText)'")
                }
                try e.validate(depth: depth + 1)
            }
        case .dictionary(let key, let value, let entries):
            guard key.isBasic else { throw .invalidArgs("dictionary key type '\(key)' is not a basic type") }
            guard value.isSingleCompleteType else {
                throw .invalidArgs("dictionary value signature '\(value)' is not a single complete type")
            }
            for entry in entries {
                if entry.key.signatureText != key.rawValue || entry.value.signatureText != value.rawValue {
                    throw .invalidArgs(
                        "dictionary 'a{\(key)\(value)}' holds an entry of types '\(entry.key.signatureText)', '\(entry.value.signatureText)'"
                    )
                }
                try entry.key.validate(depth: depth + 2)
                try entry.value.validate(depth: depth + 2)
            }
        case .structure(let fields):
            if fields.isEmpty { throw .invalidArgs("a structure needs at least one field") }
            for f in fields { try f.validate(depth: depth + 1) }
        default:
            break
        }
    }
}

/// One key–value pair of a D-Bus dictionary (`{KV}`).
public struct DBusDictEntry: Sendable, Equatable {
    /// The key, of a basic type.
    public var key: DBusValue
    /// The value.
    public var value: DBusValue

    /// Creates an entry.
    ///
    /// - Parameters:
    ///   - key: a value of a basic type (`s`, `u`, `o`, …).
    ///   - value: any value.
    public init(key: DBusValue, value: DBusValue) {
        self.key = key
        self.value = value
    }
}
