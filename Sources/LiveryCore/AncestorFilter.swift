/// A Bloom filter over the types (with their supertypes), `#name`s and `.class`es of a node's
/// containers, used to reject descendant and child selectors without walking the path (the
/// "ancestor filter" of Servo's and Blink's style engines).
///
/// False positives only cost a full match; there are no false negatives, so results never change.
/// The walker keeps one filter per level in a buffer and reads and writes them in place
/// (`insert(_:into:)`, `mayContain(_:in:)`): a filter held by value and indexed by a variable
/// would be copied to the stack for every probe.
public struct AncestorFilter: Sendable {
    /// 512 bits, as eight 64-bit words.
    private var bits = SIMD8<UInt64>(repeating: 0)

    /// An empty filter: the one for a root node, which has no containers.
    public init() {}

    /// FNV-1a over the UTF-8 of a tag byte and the text: distinct spaces for types, names,
    /// classes.
    /// - Parameters:
    ///   - tag: `T` for a type, `#` for a name, `.` for a class.
    ///   - text: The type, name or class.
    /// - Returns: The 32-bit hash to `insert` or test with `mayContain`.
    @inlinable
    public static func hash(_ tag: UInt8, _ text: String) -> UInt32 {
        var h: UInt32 = 2_166_136_261
        h = (h ^ UInt32(tag)) &* 16_777_619
        for b in text.utf8 { h = (h ^ UInt32(b)) &* 16_777_619 }
        return h
    }

    static let typeTag: UInt8 = 0x54
    static let nameTag: UInt8 = 0x23
    static let classTag: UInt8 = 0x2e

    /// Adds one hash (two bits, from the low and high halves) to the filter at `filter`.
    /// - Parameters:
    ///   - h: The hash.
    ///   - filter: The address of an `AncestorFilter`.
    @inline(__always)
    static func insert(_ h: UInt32, into filter: UnsafeMutableRawPointer) {
        set(Int(h & 511), in: filter)
        set(Int((h >> 16) & 511), in: filter)
    }

    /// Whether the hash may have been inserted into the filter at `filter`.
    /// - Parameters:
    ///   - h: The hash.
    ///   - filter: The address of an `AncestorFilter`.
    @inline(__always)
    static func mayContain(_ h: UInt32, in filter: UnsafeRawPointer) -> Bool {
        let a = Int(h & 511)
        let b = Int((h >> 16) & 511)
        let wa = filter.load(fromByteOffset: (a >> 6) << 3, as: UInt64.self)
        let wb = filter.load(fromByteOffset: (b >> 6) << 3, as: UInt64.self)
        return (wa >> UInt64(a & 63)) & (wb >> UInt64(b & 63)) & 1 != 0
    }

    @inline(__always)
    private static func set(_ bit: Int, in filter: UnsafeMutableRawPointer) {
        let offset = (bit >> 6) << 3
        let word = filter.load(fromByteOffset: offset, as: UInt64.self)
        filter.storeBytes(of: word | UInt64(1) << UInt64(bit & 63), toByteOffset: offset, as: UInt64.self)
    }
}
