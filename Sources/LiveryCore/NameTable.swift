/// A read-only hash table from the names a compiled theme knows (types, `#name`s, `.class`es,
/// `:state`s) to their ids, for looking up each node's strings as it is pushed
/// (`StyleWalker.enter`, what `Resolve` does for every node of a path).
///
/// Open addressing with linear probing over a power-of-two table at most half full; the hash
/// reads the UTF-8 bytes eight at a time with a multiply–xorshift mix (as wyhash and
/// FxHash do), far cheaper on short names than the standard library's SipHash. Lookups of
/// strings a caller chooses cannot degrade it: only the theme's own names are inserted, once,
/// so every probe sequence is bounded by the clusters those make. The keys are held in
/// buffers of the table's own, read without reference counting or bounds checks.
final class NameTable<Value>: @unchecked Sendable {
    // Safe to share: nothing changes after init.
    /// Per slot: 0 when empty, else 1 + the index of its key in `keys` and `values`.
    private let slots: UnsafeMutablePointer<Int32>
    private let mask: Int
    private let keys: UnsafeMutablePointer<String>
    private let values: UnsafeMutablePointer<Value>
    /// The number of names.
    let count: Int

    /// - Parameter pairs: each name once, with its value.
    init(_ pairs: [String: Value]) {
        count = pairs.count
        var capacity = 8
        while capacity < 2 * pairs.count { capacity *= 2 }
        mask = capacity - 1
        slots = .allocate(capacity: capacity)
        slots.initialize(repeating: 0, count: capacity)
        keys = .allocate(capacity: max(1, pairs.count))
        values = .allocate(capacity: max(1, pairs.count))
        for (i, (key, value)) in pairs.enumerated() {
            (keys + i).initialize(to: key)
            (values + i).initialize(to: value)
            var s = NameTable.hash(key) & mask
            while slots[s] != 0 { s = (s + 1) & mask }
            slots[s] = Int32(i + 1)
        }
    }

    deinit {
        keys.deinitialize(count: count)
        keys.deallocate()
        values.deinitialize(count: count)
        values.deallocate()
        slots.deallocate()
    }

    /// The value of `name`, or nil when the table lacks it.
    @inline(__always)
    subscript(name: String) -> Value? {
        var s = NameTable.hash(name) & mask
        while true {
            let k = Int(slots[s])
            if k == 0 { return nil }
            if keys[k - 1] == name { return values[k - 1] }
            s = (s + 1) & mask
        }
    }

    /// A 64-bit hash of `name`'s UTF-8 bytes.
    @inline(__always)
    static func hash(_ name: String) -> Int {
        var name = name
        return name.withUTF8 { bytes in
            let k: UInt64 = 0x9E37_79B9_7F4A_7C15
            var h = UInt64(truncatingIfNeeded: bytes.count) &* k
            var i = 0
            guard let base = bytes.baseAddress else { return Int(truncatingIfNeeded: h) }
            let raw = UnsafeRawPointer(base)
            while i + 8 <= bytes.count {
                h = (h ^ raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* k
                h ^= h &>> 29
                i += 8
            }
            var tail: UInt64 = 0
            var shift: UInt64 = 0
            while i < bytes.count {
                tail |= UInt64(bytes[i]) &<< shift
                shift &+= 8
                i += 1
            }
            h = (h ^ tail) &* k
            h ^= h &>> 32
            return Int(truncatingIfNeeded: h)
        }
    }
}
