import CDBus

// Conversion between DBusValue trees and message bodies through DBusMessageIter, the only
// marshalling API of libdbus usable from Swift (dbus_message_append_args is variadic).
// Values are validated with DBusValue.validate() before any of this runs.

enum Marshalling {
    /// Appends `arguments` to the body of `message`.
    static func append(_ arguments: [DBusValue], to message: OpaquePointer) throws(DBusError) {
        for a in arguments { try a.validate() }
        let total = arguments.map(\.signatureText).joined()
        if total.utf8.count > Signature.maximumLength {
            throw .invalidArgs("the arguments' signature is longer than \(Signature.maximumLength) bytes")
        }
        var iter = DBusMessageIter()
        dbus_message_iter_init_append(message, &iter)
        let ok = withUnsafeMutablePointer(to: &iter) { iterPointer in
            arguments.allSatisfy { append($0, to: iterPointer) }
        }
        if !ok { throw DBusError(.noMemory, "out of memory while building a message") }
    }

    private static func appendBasic<T: BitwiseCopyable>(
        _ iter: UnsafeMutablePointer<DBusMessageIter>, _ type: Int32, _ value: T
    )
        -> Bool
    {
        var v = value
        return dbus_message_iter_append_basic(iter, type, &v) != 0
    }

    private static func appendString(
        _ iter: UnsafeMutablePointer<DBusMessageIter>, _ type: Int32, _ s: String
    )
        -> Bool
    {
        s.withCString { p in
            var pointer: UnsafePointer<CChar>? = p
            return dbus_message_iter_append_basic(iter, type, &pointer) != 0
        }
    }

    private static func container(
        _ iter: UnsafeMutablePointer<DBusMessageIter>, _ type: Int32, _ signature: String?,
        _ body: (UnsafeMutablePointer<DBusMessageIter>) -> Bool
    ) -> Bool {
        var sub = DBusMessageIter()
        return withUnsafeMutablePointer(to: &sub) { subPointer in
            let opened: Bool
            if let signature {
                opened =
                    signature.withCString { dbus_message_iter_open_container(iter, type, $0, subPointer) }
                    != 0
            } else {
                opened = dbus_message_iter_open_container(iter, type, nil, subPointer) != 0
            }
            guard opened else { return false }
            guard body(subPointer) else {
                dbus_message_iter_abandon_container(iter, subPointer)
                return false
            }
            return dbus_message_iter_close_container(iter, subPointer) != 0
        }
    }

    private static func append(_ value: DBusValue, to iter: UnsafeMutablePointer<DBusMessageIter>) -> Bool {
        switch value {
        case .byte(let v): return appendBasic(iter, CDBUS_TYPE_BYTE, v)
        case .boolean(let v): return appendBasic(iter, CDBUS_TYPE_BOOLEAN, dbus_bool_t(v ? 1 : 0))
        case .int16(let v): return appendBasic(iter, CDBUS_TYPE_INT16, v)
        case .uint16(let v): return appendBasic(iter, CDBUS_TYPE_UINT16, v)
        case .int32(let v): return appendBasic(iter, CDBUS_TYPE_INT32, v)
        case .uint32(let v): return appendBasic(iter, CDBUS_TYPE_UINT32, v)
        case .int64(let v): return appendBasic(iter, CDBUS_TYPE_INT64, v)
        case .uint64(let v): return appendBasic(iter, CDBUS_TYPE_UINT64, v)
        case .double(let v): return appendBasic(iter, CDBUS_TYPE_DOUBLE, v)
        case .unixFD(let v): return appendBasic(iter, CDBUS_TYPE_UNIX_FD, v)
        case .string(let s): return appendString(iter, CDBUS_TYPE_STRING, s)
        case .objectPath(let p): return appendString(iter, CDBUS_TYPE_OBJECT_PATH, p.rawValue)
        case .signature(let g): return appendString(iter, CDBUS_TYPE_SIGNATURE, g.rawValue)
        case .variant(let inner):
            return container(iter, CDBUS_TYPE_VARIANT, inner.signatureText) { append(inner, to: $0) }
        case .array(let element, let elements):
            return container(iter, CDBUS_TYPE_ARRAY, element.rawValue) { sub in
                elements.allSatisfy { append($0, to: sub) }
            }
        case .dictionary(let key, let value, let entries):
            return container(iter, CDBUS_TYPE_ARRAY, "{" + key.rawValue + value.rawValue + "}") { sub in
                entries.allSatisfy { entry in
                    container(sub, CDBUS_TYPE_DICT_ENTRY, nil) { entryIter in
                        append(entry.key, to: entryIter) && append(entry.value, to: entryIter)
                    }
                }
            }
        case .structure(let fields):
            return container(iter, CDBUS_TYPE_STRUCT, nil) { sub in
                fields.allSatisfy { append($0, to: sub) }
            }
        }
    }

    /// Reads the whole body of `message`. libdbus has validated received messages, so every
    /// string is valid UTF-8 and every signature well formed.
    static func read(_ message: OpaquePointer) -> [DBusValue] {
        var iter = DBusMessageIter()
        guard dbus_message_iter_init(message, &iter) != 0 else { return [] }
        return withUnsafeMutablePointer(to: &iter) { readAll($0) }
    }

    private static func readAll(_ iter: UnsafeMutablePointer<DBusMessageIter>) -> [DBusValue] {
        var values: [DBusValue] = []
        while dbus_message_iter_get_arg_type(iter) != CDBUS_TYPE_INVALID {
            values.append(readOne(iter))
            dbus_message_iter_next(iter)
        }
        return values
    }

    private static func basic<T: BitwiseCopyable>(_ iter: UnsafeMutablePointer<DBusMessageIter>, _ initial: T)
        -> T
    {
        var v = initial
        dbus_message_iter_get_basic(iter, &v)
        return v
    }

    private static func stringValue(_ iter: UnsafeMutablePointer<DBusMessageIter>) -> String {
        var p: UnsafePointer<CChar>? = nil
        dbus_message_iter_get_basic(iter, &p)
        return p.map { String(cString: $0) } ?? ""
    }

    private static func recurse<R>(
        _ iter: UnsafeMutablePointer<DBusMessageIter>, _ body: (UnsafeMutablePointer<DBusMessageIter>) -> R
    ) -> R {
        var sub = DBusMessageIter()
        return withUnsafeMutablePointer(to: &sub) { subPointer in
            dbus_message_iter_recurse(iter, subPointer)
            return body(subPointer)
        }
    }

    /// Signatures of the basic types by type code.
    private static let basicSignatures: [Int32: Signature] = [
        CDBUS_TYPE_BYTE: Signature(unchecked: "y"), CDBUS_TYPE_BOOLEAN: .boolean,
        CDBUS_TYPE_INT16: Signature(unchecked: "n"), CDBUS_TYPE_UINT16: Signature(unchecked: "q"),
        CDBUS_TYPE_INT32: Signature(unchecked: "i"), CDBUS_TYPE_UINT32: .uint32,
        CDBUS_TYPE_INT64: Signature(unchecked: "x"), CDBUS_TYPE_UINT64: Signature(unchecked: "t"),
        CDBUS_TYPE_DOUBLE: .double, CDBUS_TYPE_STRING: .string, CDBUS_TYPE_OBJECT_PATH: .objectPath,
        CDBUS_TYPE_SIGNATURE: Signature(unchecked: "g"), CDBUS_TYPE_UNIX_FD: Signature(unchecked: "h"),
        CDBUS_TYPE_VARIANT: .variant,
    ]

    private static func signatureOf(_ iter: UnsafeMutablePointer<DBusMessageIter>) -> String {
        guard let p = dbus_message_iter_get_signature(iter) else { return "" }
        defer { dbus_free(p) }
        return String(cString: p)
    }

    private static func readOne(_ iter: UnsafeMutablePointer<DBusMessageIter>) -> DBusValue {
        let type = dbus_message_iter_get_arg_type(iter)
        switch type {
        case CDBUS_TYPE_BYTE: return .byte(basic(iter, UInt8(0)))
        case CDBUS_TYPE_BOOLEAN: return .boolean(basic(iter, dbus_bool_t(0)) != 0)
        case CDBUS_TYPE_INT16: return .int16(basic(iter, Int16(0)))
        case CDBUS_TYPE_UINT16: return .uint16(basic(iter, UInt16(0)))
        case CDBUS_TYPE_INT32: return .int32(basic(iter, Int32(0)))
        case CDBUS_TYPE_UINT32: return .uint32(basic(iter, UInt32(0)))
        case CDBUS_TYPE_INT64: return .int64(basic(iter, Int64(0)))
        case CDBUS_TYPE_UINT64: return .uint64(basic(iter, UInt64(0)))
        case CDBUS_TYPE_DOUBLE: return .double(basic(iter, Double(0)))
        case CDBUS_TYPE_UNIX_FD: return .unixFD(basic(iter, Int32(-1)))
        case CDBUS_TYPE_STRING: return .string(stringValue(iter))
        case CDBUS_TYPE_OBJECT_PATH: return .objectPath(ObjectPath(unchecked: stringValue(iter)))
        case CDBUS_TYPE_SIGNATURE: return .signature(Signature(unchecked: stringValue(iter)))
        case CDBUS_TYPE_VARIANT:
            return .variant(recurse(iter) { readOne($0) })
        case CDBUS_TYPE_STRUCT:
            return .structure(recurse(iter) { readAll($0) })
        case CDBUS_TYPE_ARRAY:
            // Arrays of basic types and `a{sv}`, the common cases, skip asking libdbus for the
            // signature (a malloc) and parsing it.
            let elementType = dbus_message_iter_get_element_type(iter)
            if let basic = basicSignatures[elementType] {
                return .array(element: basic, recurse(iter) { readAll($0) })
            }
            let element = String(signatureOf(iter).dropFirst())
            if element.hasPrefix("{") {
                let inner =
                    element == "{sv}"
                    ? [Signature.string, Signature.variant]
                    : Signature(unchecked: String(element.dropFirst().dropLast())).completeTypes
                let entries = recurse(iter) { sub in
                    var entries: [DBusDictEntry] = []
                    while dbus_message_iter_get_arg_type(sub) == CDBUS_TYPE_DICT_ENTRY {
                        entries.append(
                            recurse(sub) { entryIter in
                                let key = readOne(entryIter)
                                dbus_message_iter_next(entryIter)
                                return DBusDictEntry(key: key, value: readOne(entryIter))
                            })
                        dbus_message_iter_next(sub)
                    }
                    return entries
                }
                return .dictionary(key: inner[0], value: inner[1], entries)
            }
            return .array(element: Signature(unchecked: element), recurse(iter) { readAll($0) })
        default:
            // Unreachable for messages libdbus has validated; keep the body's shape anyway.
            return .structure([])
        }
    }
}
