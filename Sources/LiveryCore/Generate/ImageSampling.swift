/// The sampling step of the image pipeline: an image of any size resized to exactly
/// ``side`` × ``side`` pixels, aspect not kept, as matugen samples a wallpaper before quantizing
/// it (the Rust `image` crate's `resize_exact(112, 112, FilterType::Triangle)`).
///
/// The resize is the crate's `imageops::resize` (0.25, `src/imageops/sample.rs`), step for step
/// and in 32-bit floats as it computes: the columns first, into floats, then the rows, rounded
/// to the nearest integer (halves away from zero) and clamped to 0…255. For each output row
/// `y` of a side scaled by `ratio = old / new`, the filter's support is `max(ratio, 1)`, the
/// centre `(y + 0.5) × ratio`, the input pixels `floor(centre − support)` up to
/// `ceil(centre + support)` (clamped to the image, at least one), each weighted by the triangle
/// `max(0, 1 − |i − (centre − 0.5)| / max(ratio, 1))`, the weights divided by their sum. The four
/// channels (alpha too) are filtered alike and unpremultiplied, as the crate does.
public enum ImageSampling {
    /// The side, in pixels, of the image the quantizer sees (matugen's).
    public static let side = 112

    /// `pixels` resized to `newWidth` × `newHeight` with the triangle filter, as above.
    /// - Parameters:
    ///   - pixels: `width × height` ARGB pixels (0xAARRGGBB), row by row.
    ///   - width: pixels per row, at least 1.
    ///   - height: rows, at least 1.
    ///   - newWidth: the new width, at least 1 (``side`` by default).
    ///   - newHeight: the new height, at least 1 (``side`` by default).
    /// - Returns: `newWidth × newHeight` ARGB pixels; `pixels` itself when the size is the same.
    public static func resizeExact(
        _ pixels: [UInt32], width: Int, height: Int, newWidth: Int = side, newHeight: Int = side
    ) -> [UInt32] {
        precondition(
            width > 0 && height > 0 && pixels.count == width * height, "pixels must fill width × height")
        precondition(newWidth > 0 && newHeight > 0, "the new size must be at least 1 × 1")
        if width == newWidth && height == newHeight { return pixels }

        // Columns first: height → newHeight, four float channels (A, R, G, B) per pixel.
        let rows = weights(from: height, to: newHeight)
        var middle = [Float](repeating: 0, count: width * newHeight * 4)
        for (outY, row) in rows.enumerated() {
            for x in 0..<width {
                var a: Float = 0
                var r: Float = 0
                var g: Float = 0
                var b: Float = 0
                for (i, w) in row.weights.enumerated() {
                    let p = pixels[(row.first + i) * width + x]
                    a += Float(p >> 24) * w
                    r += Float(p >> 16 & 255) * w
                    g += Float(p >> 8 & 255) * w
                    b += Float(p & 255) * w
                }
                let o = (outY * width + x) * 4
                middle[o] = a
                middle[o + 1] = r
                middle[o + 2] = g
                middle[o + 3] = b
            }
        }

        // Then rows: width → newWidth, rounded to 8 bits.
        let columns = weights(from: width, to: newWidth)
        var out = [UInt32](repeating: 0, count: newWidth * newHeight)
        for y in 0..<newHeight {
            for (outX, column) in columns.enumerated() {
                var t: SIMD4<Float> = .zero
                for (i, w) in column.weights.enumerated() {
                    let o = (y * width + column.first + i) * 4
                    t += SIMD4(middle[o], middle[o + 1], middle[o + 2], middle[o + 3]) * w
                }
                out[y * newWidth + outX] =
                    eightBit(t[0]) << 24 | eightBit(t[1]) << 16 | eightBit(t[2]) << 8 | eightBit(t[3])
            }
        }
        return out
    }

    /// The opaque pixels of `pixels`, in order: the quantizer's input (matugen keeps only
    /// pixels of alpha 255).
    public static func opaque(_ pixels: [UInt32]) -> [UInt32] {
        pixels.filter { $0 >> 24 == 255 }
    }

    /// One output position's input range and normalized triangle weights.
    struct Taps {
        var first: Int
        var weights: [Float]
    }

    /// The taps of each output position when `old` positions become `new` (the crate's
    /// `vertical_sample` / `horizontal_sample` weights, in `Float`).
    static func weights(from old: Int, to new: Int) -> [Taps] {
        let ratio = Float(old) / Float(new)
        let sratio: Float = ratio < 1 ? 1 : ratio
        let support = sratio  // the triangle's support is 1
        return (0..<new).map { outIndex in
            let centre = (Float(outIndex) + 0.5) * ratio
            let left = min(max(Int((centre - support).rounded(.down)), 0), old - 1)
            let right = min(max(Int((centre + support).rounded(.up)), left + 1), old)
            let shifted = centre - 0.5
            var weights: [Float] = []
            weights.reserveCapacity(right - left)
            var sum: Float = 0
            for i in left..<right {
                let x = abs((Float(i) - shifted) / sratio)
                let w: Float = x < 1 ? 1 - x : 0
                weights.append(w)
                sum += w
            }
            return Taps(first: left, weights: weights.map { $0 / sum })
        }
    }

    /// A filtered channel as 8 bits: clamped to 0…255, rounded half away from zero (Rust's
    /// `f32::round`).
    @inline(__always)
    static func eightBit(_ value: Float) -> UInt32 {
        UInt32(min(max(value, 0), 255).rounded(.toNearestOrAwayFromZero))
    }
}
