/// SplitMix64 (Steele, Lea and Flood 2014): small, fast and the same on every machine, so that a
/// seed names a generated workload or a fuzz input's choices. For benchmarks, fuzz targets and
/// tests only, hence `package`.
package struct SplitMix64 {
    /// The generator's state; each value advances it by the golden-ratio increment.
    package var state: UInt64

    /// A generator starting at `seed`.
    package init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    package mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }

    /// Uniform in 0..<n; 0 when n is not positive.
    package mutating func below(_ n: Int) -> Int { n <= 0 ? 0 : Int(next() % UInt64(n)) }

    /// An element of `a`, which must not be empty.
    package mutating func pick<T>(_ a: [T]) -> T { a[below(a.count)] }
}
