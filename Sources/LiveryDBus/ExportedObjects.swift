import CDBus

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The objects a connection exports, by path, found from a received call's header without
/// making `String`s of it: the path is looked up as the message's own bytes, and the
/// interface and member are compared with the exported names' bytes.
struct ExportedObjects {
    /// One exported object.
    struct Object {
        let path: ObjectPath
        let interfaces: [Interface]
        /// Every method of `interfaces`, in their order.
        let methods: [ExportedMethod]

        init(path: ObjectPath, interfaces: [Interface]) {
            self.path = path
            self.interfaces = interfaces
            methods = interfaces.flatMap { i in
                i.methods.map { ExportedMethod(path: path, interface: i, method: $0) }
            }
        }

        /// The method named `member` of the interface named `interface` (NUL-terminated names
        /// from a message header).
        func method(interface: UnsafePointer<CChar>, member: UnsafePointer<CChar>) -> ExportedMethod? {
            let (interfaceLength, memberLength) = (strlen(interface), strlen(member))
            return methods.first {
                sameName($0.method.name, member, count: memberLength)
                    && sameName($0.interface.name.rawValue, interface, count: interfaceLength)
            }
        }
    }

    private var byPath: [PathKey: Object] = [:]

    var paths: [ObjectPath] { byPath.values.map(\.path) }

    subscript(path: ObjectPath) -> Object? { byPath[PathKey(path)] }

    /// Adds `interfaces` at `path`; false (and nothing changed) when something is there already.
    mutating func insert(_ interfaces: [Interface], at path: ObjectPath) -> Bool {
        let key = PathKey(path)
        if byPath[key] != nil { return false }
        byPath[key] = Object(path: path, interfaces: interfaces)
        return true
    }

    /// Removes the object at `path`; false when there was none.
    mutating func remove(at path: ObjectPath) -> Bool { byPath.removeValue(forKey: PathKey(path)) != nil }

    /// The object at the path `path` (a NUL-terminated path libdbus has validated).
    func object(atPath path: UnsafePointer<CChar>) -> Object? {
        path.withMemoryRebound(to: UInt8.self, capacity: 1) {
            byPath[PathKey(borrowing: UnsafeBufferPointer(start: $0, count: strlen(path)))]
        }
    }
}

/// An object path as a dictionary key, hashed and compared as its UTF-8 bytes, so that a
/// received message's path can be looked up as it lies in the message (`borrowing`), valid for
/// the lookup only.
struct PathKey: Hashable, @unchecked Sendable {
    // @unchecked: a borrowed key lives only for one lookup on the thread that made it; a stored
    // key holds a String.
    private enum Storage {
        case owned(String)
        case borrowed(UnsafeBufferPointer<UInt8>)
    }
    private let storage: Storage

    init(_ path: ObjectPath) { storage = .owned(path.rawValue) }

    /// A key over `bytes`, which must outlive every use of the key.
    init(borrowing bytes: UnsafeBufferPointer<UInt8>) { storage = .borrowed(bytes) }

    private func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        switch storage {
        case .borrowed(let b): return body(b)
        case .owned(let s):
            if let r = s.utf8.withContiguousStorageIfAvailable(body) { return r }
            return Array(s.utf8).withUnsafeBufferPointer(body)
        }
    }

    func hash(into hasher: inout Hasher) {
        withBytes { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    static func == (a: PathKey, b: PathKey) -> Bool {
        a.withBytes { x in
            b.withBytes { y in
                x.count == y.count && (x.isEmpty || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0)
            }
        }
    }
}

/// One method of an exported object with its object's path and its interface, made once when
/// the object is exported, so that a call's routing holds one reference.
final class ExportedMethod: Sendable {
    let path: ObjectPath
    let interface: Interface
    let method: Method

    init(path: ObjectPath, interface: Interface, method: Method) {
        self.path = path
        self.interface = interface
        self.method = method
    }
}

/// Whether `name`'s UTF-8 bytes are the NUL-terminated `text`'s.
func sameName(_ name: String, _ text: UnsafePointer<CChar>) -> Bool {
    sameName(name, text, count: strlen(text))
}

/// Whether `name`'s UTF-8 bytes are the `count` bytes at `text`.
func sameName(_ name: String, _ text: UnsafePointer<CChar>, count: Int) -> Bool {
    guard name.utf8.count == count else { return false }
    if count == 0 { return true }
    return name.utf8.withContiguousStorageIfAvailable { memcmp($0.baseAddress!, text, count) == 0 }
        ?? (name == String(cString: text))
}
