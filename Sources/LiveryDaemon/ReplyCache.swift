import Glibc
import LiveryDBus
import Synchronization

/// Replies to `Resolve` by the call's marshalled body (its path, properties and options, so
/// the application too), marshalled once, for one theme generation at a time and bounded in
/// size; a new generation empties it.
final class ReplyCache: Sendable {
    private struct State {
        /// Held, not just identified, so that a freed generation's address cannot be mistaken
        /// for a new one.
        var generation: (AnyObject & Sendable)?
        var replies: [Key: PreparedValues] = [:]
    }
    private let state = Mutex(State())
    /// Replies kept at most before the cache starts over.
    static let capacity = 4096
    /// Bodies longer than this are answered but not kept (a path of `Limits.pathBytes` and a
    /// few properties fit): at most `capacity` × this many bytes of keys.
    static let maximumKeyBytes = 4096

    /// A call's marshalled body (`MethodInvocation.marshalledBody`), hashed and compared as one
    /// run of bytes, whether kept (`init(_:)`) or looked up where it lies (`borrowing`).
    struct Key: Hashable, @unchecked Sendable {
        // @unchecked: a borrowed key lives only for one lookup, under the cache's lock, on the
        // thread that made it; a stored key holds its array.
        private enum Storage {
            case owned([UInt8])
            case borrowed(UnsafeRawBufferPointer)
        }
        private let storage: Storage

        init(_ bytes: [UInt8]) { storage = .owned(bytes) }

        /// A key over `bytes`, which must outlive every use of the key.
        fileprivate init(borrowing bytes: UnsafeRawBufferPointer) { storage = .borrowed(bytes) }

        /// The number of bytes.
        var count: Int { withBytes(\.count) }

        @inline(__always)
        private func withBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
            switch storage {
            case .owned(let a): return a.withUnsafeBytes(body)
            case .borrowed(let b): return body(b)
            }
        }

        func hash(into hasher: inout Hasher) { withBytes { hasher.combine(bytes: $0) } }

        static func == (a: Key, b: Key) -> Bool {
            a.withBytes { x in
                b.withBytes { y in
                    x.count == y.count && (x.isEmpty || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0)
                }
            }
        }
    }

    func lookup(_ g: AnyObject & Sendable, _ key: Key) -> PreparedValues? {
        state.withLock { $0.generation === g ? $0.replies[key] : nil }
    }

    /// ``lookup(_:_:)`` by a body's bytes as they lie (`MethodInvocation.withMarshalledBody`),
    /// without copying them into a key.
    func lookup(_ g: AnyObject & Sendable, body: UnsafeRawBufferPointer) -> PreparedValues? {
        lookup(g, Key(borrowing: body))
    }

    func store(_ g: AnyObject & Sendable, _ key: Key, _ reply: PreparedValues) {
        guard key.count <= ReplyCache.maximumKeyBytes else { return }
        state.withLock {
            if $0.generation !== g || $0.replies.count >= ReplyCache.capacity {
                $0.replies.removeAll(keepingCapacity: true)
                $0.generation = g
            }
            $0.replies[key] = reply
        }
    }
}
