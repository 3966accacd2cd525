/// Counts the opaque colours of an image (MCU's `QuantizerMap`): every distinct ARGB value with
/// alpha 255 and how many pixels have it; translucent pixels are left out.
public enum QuantizerMap {
    /// The opaque colours of `pixels` with their pixel counts.
    /// - Parameter pixels: ARGB pixels.
    /// - Returns: opaque colour → count.
    public static func quantize(_ pixels: [UInt32]) -> [UInt32: Int] {
        var countByColor: [UInt32: Int] = [:]
        for pixel in pixels where pixel >> 24 == 255 {
            countByColor[pixel, default: 0] += 1
        }
        return countByColor
    }
}

/// java.util.Random's linear congruential generator (its documented algorithm), so that
/// `QuantizerWsmeans` draws the same numbers as MCU's Java quantizer for the same seed.
struct JavaRandom {
    private var seed: UInt64
    private static let multiplier: UInt64 = 0x5_DEEC_E66D
    private static let mask: UInt64 = (1 << 48) - 1

    init(seed: Int64) {
        self.seed = (UInt64(bitPattern: seed) ^ JavaRandom.multiplier) & JavaRandom.mask
    }

    mutating func next(_ bits: Int) -> Int32 {
        seed = (seed &* JavaRandom.multiplier &+ 0xB) & JavaRandom.mask
        return Int32(truncatingIfNeeded: seed >> UInt64(48 - bits))
    }

    /// Uniform in 0..<bound, as `Random.nextInt(int bound)` (bound > 0).
    mutating func nextInt(_ bound: Int32) -> Int32 {
        var r = next(31)
        let m = bound &- 1
        if bound & m == 0 {
            return Int32(truncatingIfNeeded: (Int64(bound) &* Int64(r)) >> 31)
        }
        var u = r
        r = u % bound
        while u &- r &+ m < 0 {
            u = next(31)
            r = u % bound
        }
        return r
    }

    /// Uniform in [0, 1), as `Random.nextDouble()`.
    mutating func nextDouble() -> Double {
        let high = Int64(next(26)) << 27
        return Double(high + Int64(next(27))) * 0x1.0p-53
    }
}
