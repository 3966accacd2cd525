// Validation of names, paths, strings and signatures.
//
// libdbus aborts the whole process when handed an invalid name, path, signature or string, so
// every one is checked here, in Swift, before any dbus_* call sees it. The rules are those of
// the D-Bus specification, sections "Valid Names", "Valid Object Paths" and "Valid Signatures".

enum NameRules {
    /// Maximum length in bytes of bus, interface, member and error names ("Valid Names").
    static let maximumNameLength = 255

    static func quoted(_ s: String) -> String {
        var out = "'"
        for scalar in s.unicodeScalars.prefix(300) {
            if scalar == "\0" {
                out += "\\0"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        if s.unicodeScalars.count > 300 { out += "…" }
        return out + "'"
    }

    static func isNameCharacter(_ b: UInt8, allowHyphen: Bool = false) -> Bool {
        switch b {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
            return true
        case UInt8(ascii: "-"):
            return allowHyphen
        default:
            return false
        }
    }

    static func isDigit(_ b: UInt8) -> Bool {
        b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")
    }

    /// Interface and error names: two or more dot-separated elements of `[A-Za-z0-9_]`, none
    /// empty or starting with a digit, at most 255 bytes.
    static func checkInterfaceLike(_ s: String, kind: String) throws(DBusError) {
        let bytes = Array(s.utf8)
        if bytes.isEmpty { throw .invalidArgs("invalid \(kind) '': must not be empty") }
        if bytes.count > maximumNameLength {
            throw .invalidArgs(
                "invalid \(kind) \(quoted(s)): \(bytes.count) bytes, more than \(maximumNameLength)")
        }
        let elements = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        if elements.count < 2 {
            throw .invalidArgs("invalid \(kind) \(quoted(s)): needs at least two elements separated by '.'")
        }
        for element in elements {
            if element.isEmpty {
                throw .invalidArgs("invalid \(kind) \(quoted(s)): empty element")
            }
            if isDigit(element.first!) {
                throw .invalidArgs("invalid \(kind) \(quoted(s)): an element starts with a digit")
            }
            if let bad = element.first(where: { !isNameCharacter($0) }) {
                throw .invalidArgs(
                    "invalid \(kind) \(quoted(s)): character \(describe(bad)) is not allowed (only [A-Za-z0-9_])"
                )
            }
        }
    }

    static func describe(_ b: UInt8) -> String {
        if b >= 0x20 && b < 0x7f { return "'\(Character(Unicode.Scalar(b)))'" }
        return "0x" + String(b, radix: 16)
    }

    static func checkMember(_ s: String) throws(DBusError) {
        let bytes = Array(s.utf8)
        if bytes.isEmpty { throw .invalidArgs("invalid member name '': must not be empty") }
        if bytes.count > maximumNameLength {
            throw .invalidArgs(
                "invalid member name \(quoted(s)): \(bytes.count) bytes, more than \(maximumNameLength)")
        }
        if isDigit(bytes[0]) {
            throw .invalidArgs("invalid member name \(quoted(s)): must not start with a digit")
        }
        if let bad = bytes.first(where: { !isNameCharacter($0) }) {
            throw .invalidArgs(
                "invalid member name \(quoted(s)): character \(describe(bad)) is not allowed (only [A-Za-z0-9_])"
            )
        }
    }

    static func checkBusName(_ s: String) throws(DBusError) {
        let bytes = Array(s.utf8)
        if bytes.isEmpty { throw .invalidArgs("invalid bus name '': must not be empty") }
        if bytes.count > maximumNameLength {
            throw .invalidArgs(
                "invalid bus name \(quoted(s)): \(bytes.count) bytes, more than \(maximumNameLength)")
        }
        let unique = bytes[0] == UInt8(ascii: ":")
        let body = unique ? bytes.dropFirst() : bytes[...]
        let elements = body.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        if elements.count < 2 {
            throw .invalidArgs("invalid bus name \(quoted(s)): needs at least two elements separated by '.'")
        }
        for element in elements {
            if element.isEmpty { throw .invalidArgs("invalid bus name \(quoted(s)): empty element") }
            if !unique && isDigit(element.first!) {
                throw .invalidArgs(
                    "invalid bus name \(quoted(s)): an element of a well-known name starts with a digit")
            }
            if let bad = element.first(where: { !isNameCharacter($0, allowHyphen: true) }) {
                throw .invalidArgs(
                    "invalid bus name \(quoted(s)): character \(describe(bad)) is not allowed (only [A-Za-z0-9_-])"
                )
            }
        }
    }

    static func checkObjectPath(_ s: String) throws(DBusError) {
        let bytes = Array(s.utf8)
        guard bytes.first == UInt8(ascii: "/") else {
            throw .invalidArgs("invalid object path \(quoted(s)): must start with '/'")
        }
        if bytes.count == 1 { return }
        if bytes.last == UInt8(ascii: "/") {
            throw .invalidArgs("invalid object path \(quoted(s)): must not end with '/'")
        }
        for element in bytes.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        {
            if element.isEmpty {
                throw .invalidArgs("invalid object path \(quoted(s)): empty element ('//')")
            }
            if let bad = element.first(where: { !isNameCharacter($0) }) {
                throw .invalidArgs(
                    "invalid object path \(quoted(s)): character \(describe(bad)) is not allowed (only [A-Za-z0-9_])"
                )
            }
        }
    }

    /// Strings handed to libdbus must be UTF-8 without NUL ("Basic types: STRING").
    static func checkString(_ s: String, what: String = "string") throws(DBusError) {
        if s.utf8.contains(0) {
            throw .invalidArgs("invalid \(what) \(quoted(s)): contains a NUL character")
        }
    }
}

/// A validated object path such as `/org/freedesktop/DBus`.
///
/// Rules (D-Bus specification, "Valid Object Paths"): starts with `/`; elements of
/// `[A-Za-z0-9_]` separated by single `/`; no empty element; no trailing `/` except for the
/// root path `/`.
public struct ObjectPath: Hashable, Sendable, CustomStringConvertible, Comparable {
    /// The path text.
    public let rawValue: String

    /// Validates an object path.
    ///
    /// - Parameter s: the path text.
    /// - Throws: ``DBusError`` `InvalidArgs` saying what is wrong and quoting `s`.
    public init(_ s: String) throws(DBusError) {
        try NameRules.checkObjectPath(s)
        rawValue = s
    }

    init(unchecked s: String) { rawValue = s }

    /// The root path `/`.
    public static let root = ObjectPath(unchecked: "/")

    /// The path text.
    public var description: String { rawValue }

    /// Orders paths by their text.
    public static func < (a: ObjectPath, b: ObjectPath) -> Bool { a.rawValue < b.rawValue }

    /// The path's elements; empty for `/`.
    public var elements: [Substring] {
        rawValue.split(separator: "/")
    }

    /// Whether `self` is `other` or lies below it (`/a/b` is inside `/a` and `/`).
    ///
    /// - Parameter other: the candidate ancestor.
    /// - Returns: true when `other` is `self` or one of its ancestors.
    public func isInside(_ other: ObjectPath) -> Bool {
        if other.rawValue == "/" || other == self { return true }
        return rawValue.hasPrefix(other.rawValue + "/")
    }

    /// Appends one element.
    ///
    /// - Parameter element: a path element of `[A-Za-z0-9_]`.
    /// - Returns: the child path.
    /// - Throws: ``DBusError`` `InvalidArgs` if `element` is not a valid element.
    public func appending(_ element: String) throws(DBusError) -> ObjectPath {
        try ObjectPath(rawValue == "/" ? "/" + element : rawValue + "/" + element)
    }
}

/// A validated bus name: well-known (`org.freedesktop.DBus`) or unique (`:1.42`).
///
/// Rules (D-Bus specification, "Valid Names: Bus names"): at most 255 bytes; two or more
/// elements separated by `.` of `[A-Za-z0-9_-]`; unique names start with `:`; elements of
/// well-known names do not start with a digit.
public struct BusName: Hashable, Sendable, CustomStringConvertible {
    /// The name text.
    public let rawValue: String

    /// Validates a bus name.
    ///
    /// - Parameter s: the name text.
    /// - Throws: ``DBusError`` `InvalidArgs` saying what is wrong and quoting `s`.
    public init(_ s: String) throws(DBusError) {
        try NameRules.checkBusName(s)
        rawValue = s
    }

    init(unchecked s: String) { rawValue = s }

    /// `org.freedesktop.DBus`, the message bus itself.
    public static let bus = BusName(unchecked: "org.freedesktop.DBus")

    /// Whether this is a unique connection name (starts with `:`).
    public var isUnique: Bool { rawValue.hasPrefix(":") }

    /// The name text.
    public var description: String { rawValue }
}

/// A validated interface name such as `org.freedesktop.DBus.Peer`.
///
/// Rules (D-Bus specification, "Valid Names: Interface names"): at most 255 bytes; two or
/// more elements of `[A-Za-z0-9_]` separated by `.`; no element starts with a digit.
public struct InterfaceName: Hashable, Sendable, CustomStringConvertible {
    /// The name text.
    public let rawValue: String

    /// Validates an interface name.
    ///
    /// - Parameter s: the name text.
    /// - Throws: ``DBusError`` `InvalidArgs` saying what is wrong and quoting `s`.
    public init(_ s: String) throws(DBusError) {
        try NameRules.checkInterfaceLike(s, kind: "interface name")
        rawValue = s
    }

    init(unchecked s: String) { rawValue = s }

    /// `org.freedesktop.DBus.Introspectable`.
    public static let introspectable = InterfaceName(unchecked: "org.freedesktop.DBus.Introspectable")
    /// `org.freedesktop.DBus.Properties`.
    public static let properties = InterfaceName(unchecked: "org.freedesktop.DBus.Properties")
    /// `org.freedesktop.DBus.Peer`.
    public static let peer = InterfaceName(unchecked: "org.freedesktop.DBus.Peer")
    /// `org.freedesktop.DBus`, the message bus's own interface.
    public static let bus = InterfaceName(unchecked: "org.freedesktop.DBus")

    /// The name text.
    public var description: String { rawValue }
}

/// A validated member (method or signal) name such as `GetAll`.
///
/// Rules (D-Bus specification, "Valid Names: Member names"): 1 to 255 bytes of
/// `[A-Za-z0-9_]`, not starting with a digit, no `.`.
public struct MemberName: Hashable, Sendable, CustomStringConvertible {
    /// The name text.
    public let rawValue: String

    /// Validates a member name.
    ///
    /// - Parameter s: the name text.
    /// - Throws: ``DBusError`` `InvalidArgs` saying what is wrong and quoting `s`.
    public init(_ s: String) throws(DBusError) {
        try NameRules.checkMember(s)
        rawValue = s
    }

    init(unchecked s: String) { rawValue = s }

    /// The name text.
    public var description: String { rawValue }
}
