import Foundation

/// `NameTable`'s hash seed, drawn once per process.
private let nameHashSeed = UInt64.random(in: .min ... .max)

/// A read-only hash table from the names a compiled theme knows (types, `#name`s, `.class`es,
/// `:state`s) to their ids, for looking up each node's strings as it is pushed
/// (`StyleWalker.enter`, what `Resolve` does for every node of a path).
///
/// Open addressing with linear probing over a power-of-two table at most half full; the hash
/// reads the UTF-8 bytes eight at a time with a multiply–xorshift mix (as wyhash and
/// FxHash do), far cheaper on short names than the standard library's SipHash. Names are
/// equal as Swift strings are, by canonical equivalence (`é` written as one scalar or as `e`
/// and a combining accent): a name past ASCII is hashed by the standard library (after
/// Foundation's NFC, for a name whose NFC form is ASCII), so that equal names hash alike. The
/// hash starts from a seed drawn once per process, so a theme cannot be written with names that
/// all collide; lookups of strings a caller chooses cannot degrade it either, since only the
/// theme's own names are inserted, once. The keys are held in buffers of the table's own, read
/// without reference counting or bounds checks.
final class NameTable<Value>: @unchecked Sendable {
    // Safe to share: nothing changes after init.
    /// Per slot: 0 when empty, else 1 + the index of its key in `keys` and `values`.
    private let slots: UnsafeMutablePointer<Int32>
    private let mask: Int
    /// The process's hash seed, held here so that a lookup does not check a global's
    /// initialisation.
    private let seed = nameHashSeed
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
            var s = hash(key) & mask
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
        var s = hash(name) & mask
        while true {
            let k = Int(slots[s])
            if k == 0 { return nil }
            if keys[k - 1] == name { return values[k - 1] }
            s = (s + 1) & mask
        }
    }

    /// A 64-bit hash of `name`, equal for names equal as Swift strings: of its UTF-8 bytes
    /// when they are ASCII, or when its NFC form is (the Kelvin sign is `K`); otherwise the
    /// standard library's hash, which agrees with `==` by contract (Foundation's NFC can lag
    /// the standard library's Unicode version, so its bytes alone would not).
    @inline(__always)
    func hash(_ name: String) -> Int {
        var name = name
        let (h, ascii) = name.withUTF8 { bytesHash($0) }
        if ascii { return h }
        var normal = name.precomposedStringWithCanonicalMapping
        let (n, normalASCII) = normal.withUTF8 { bytesHash($0) }
        if normalASCII { return n }
        var hasher = Hasher()
        hasher.combine(seed)
        hasher.combine(name)
        return hasher.finalize()
    }

    /// A hash of `bytes`, and whether they are all ASCII.
    @inline(__always)
    private func bytesHash(_ bytes: UnsafeBufferPointer<UInt8>) -> (hash: Int, ascii: Bool) {
        let k: UInt64 = 0x9E37_79B9_7F4A_7C15
        var h = (seed ^ UInt64(truncatingIfNeeded: bytes.count)) &* k
        guard let base = bytes.baseAddress else { return (Int(truncatingIfNeeded: h), true) }
        let raw = UnsafeRawPointer(base)
        var high: UInt64 = 0
        var i = 0
        while i + 8 <= bytes.count {
            let word = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            high |= word
            h = (h ^ word) &* k
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
        high |= tail
        h = (h ^ tail) &* k
        h ^= h &>> 32
        return (Int(truncatingIfNeeded: h), high & 0x8080_8080_8080_8080 == 0)
    }
}
