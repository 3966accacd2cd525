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

    /// A call's marshalled body (`MethodInvocation.marshalledBody`), hashed as one run of bytes.
    struct Key: Hashable {
        let bytes: [UInt8]
        init(_ bytes: [UInt8]) { self.bytes = bytes }
        func hash(into hasher: inout Hasher) {
            bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }

    func lookup(_ g: AnyObject & Sendable, _ key: Key) -> PreparedValues? {
        state.withLock { $0.generation === g ? $0.replies[key] : nil }
    }

    func store(_ g: AnyObject & Sendable, _ key: Key, _ reply: PreparedValues) {
        guard key.bytes.count <= ReplyCache.maximumKeyBytes else { return }
        state.withLock {
            if $0.generation !== g || $0.replies.count >= ReplyCache.capacity {
                $0.replies.removeAll(keepingCapacity: true)
                $0.generation = g
            }
            $0.replies[key] = reply
        }
    }
}
