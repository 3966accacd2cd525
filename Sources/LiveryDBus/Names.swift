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

/// The rule one kind of D-Bus name or path follows; the only difference between the kinds of
/// ``DBusName``.
public protocol NameRule: Sendable {
    /// Checks `text` against the rule.
    ///
    /// - Parameter text: the candidate name or path.
    /// - Throws: ``DBusError`` `InvalidArgs` saying what is wrong and quoting `text`.
    static func check(_ text: String) throws(DBusError)
}

/// A name or path whose text has been checked against `Rule` before any libdbus call sees it:
/// ``ObjectPath``, ``BusName``, ``InterfaceName``, ``MemberName`` and ``ErrorName`` are this
/// type with their rule of the D-Bus specification ("Valid Names", "Valid Object Paths").
public struct DBusName<Rule: NameRule>: Hashable, Sendable, CustomStringConvertible {
    /// The name text.
    public let rawValue: String

    /// Validates a name.
    ///
    /// - Parameter text: the name text.
    /// - Throws: ``DBusError`` `InvalidArgs` saying what is wrong and quoting `text`.
    public init(_ text: String) throws(DBusError) {
        try Rule.check(text)
        rawValue = text
    }

    /// A name known to be valid (a constant of this module, or text libdbus has validated).
    init(unchecked text: String) { rawValue = text }

    /// The name text.
    public var description: String { rawValue }
}

/// "Valid Object Paths": starts with `/`; elements of `[A-Za-z0-9_]` separated by single `/`;
/// no empty element; no trailing `/` except for the root path `/`.
public enum ObjectPathRule: NameRule {
    /// Checks an object path.
    /// - Throws: ``DBusError`` `InvalidArgs` saying what is wrong.
    public static func check(_ text: String) throws(DBusError) { try NameRules.checkObjectPath(text) }
}

/// "Valid Names: Bus names": at most 255 bytes; two or more elements separated by `.` of
/// `[A-Za-z0-9_-]`; unique names start with `:`; elements of well-known names do not start
/// with a digit.
public enum BusNameRule: NameRule {
    /// Checks a bus name.
    /// - Throws: ``DBusError`` `InvalidArgs` saying what is wrong.
    public static func check(_ text: String) throws(DBusError) { try NameRules.checkBusName(text) }
}

/// "Valid Names: Interface names": at most 255 bytes; two or more elements of `[A-Za-z0-9_]`
/// separated by `.`; no element starts with a digit.
public enum InterfaceNameRule: NameRule {
    /// Checks an interface name.
    /// - Throws: ``DBusError`` `InvalidArgs` saying what is wrong.
    public static func check(_ text: String) throws(DBusError) {
        try NameRules.checkInterfaceLike(text, kind: "interface name")
    }
}

/// "Valid Names: Member names": 1 to 255 bytes of `[A-Za-z0-9_]`, not starting with a digit,
/// no `.`.
public enum MemberNameRule: NameRule {
    /// Checks a member name.
    /// - Throws: ``DBusError`` `InvalidArgs` saying what is wrong.
    public static func check(_ text: String) throws(DBusError) { try NameRules.checkMember(text) }
}

/// "Valid Names: Error names": the rule of interface names.
public enum ErrorNameRule: NameRule {
    /// Checks an error name.
    /// - Throws: ``DBusError`` `InvalidArgs` saying what is wrong.
    public static func check(_ text: String) throws(DBusError) {
        try NameRules.checkInterfaceLike(text, kind: "error name")
    }
}

/// A validated object path such as `/org/freedesktop/DBus` (``ObjectPathRule``).
public typealias ObjectPath = DBusName<ObjectPathRule>
/// A validated bus name: well-known (`org.freedesktop.DBus`) or unique (`:1.42`) (``BusNameRule``).
public typealias BusName = DBusName<BusNameRule>
/// A validated interface name such as `org.freedesktop.DBus.Peer` (``InterfaceNameRule``).
public typealias InterfaceName = DBusName<InterfaceNameRule>
/// A validated member (method or signal) name such as `GetAll` (``MemberNameRule``).
public typealias MemberName = DBusName<MemberNameRule>

extension DBusName: Comparable where Rule == ObjectPathRule {
    /// Orders paths by their text.
    public static func < (a: ObjectPath, b: ObjectPath) -> Bool { a.rawValue < b.rawValue }
}

extension DBusName where Rule == ObjectPathRule {
    /// The root path `/`.
    public static var root: ObjectPath { ObjectPath(unchecked: "/") }

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

extension DBusName where Rule == BusNameRule {
    /// `org.freedesktop.DBus`, the message bus itself.
    public static var bus: BusName { BusName(unchecked: "org.freedesktop.DBus") }

    /// Whether this is a unique connection name (starts with `:`).
    public var isUnique: Bool { rawValue.hasPrefix(":") }
}

extension DBusName where Rule == InterfaceNameRule {
    /// `org.freedesktop.DBus.Introspectable`.
    public static var introspectable: InterfaceName {
        InterfaceName(unchecked: "org.freedesktop.DBus.Introspectable")
    }
    /// `org.freedesktop.DBus.Properties`.
    public static var properties: InterfaceName {
        InterfaceName(unchecked: "org.freedesktop.DBus.Properties")
    }
    /// `org.freedesktop.DBus.Peer`.
    public static var peer: InterfaceName { InterfaceName(unchecked: "org.freedesktop.DBus.Peer") }
    /// `org.freedesktop.DBus`, the message bus's own interface.
    public static var bus: InterfaceName { InterfaceName(unchecked: "org.freedesktop.DBus") }
}
