import Foundation

/// What a PNG, JPEG or WebP file's own structure says, read from its bytes without decoding: its
/// size, from its header, and whether it is whole, by walking its chunks or segments to their end.
///
/// gdk-pixbuf's loaders answer neither soon enough: a size refused in `size-prepared` does not
/// stop a PNG's full-size buffer from being allocated and decoded, and the JPEG loader completes
/// a file cut short in grey when it is closed, reporting every row decoded and no error.
enum ImageHeader {
    /// The width and height the header of an image of `kind` (`png`, `jpeg` or `webp`) states, or
    /// nil when `bytes` has no such header (left to the loader to refuse).
    static func size(_ bytes: UnsafeRawBufferPointer, kind: String) -> (width: Int, height: Int)? {
        switch kind {
        case "png": return pngSize(bytes)
        case "jpeg": return jpegSize(bytes)
        case "webp": return webpSize(bytes)
        default: return nil
        }
    }

    /// Whether an image of `kind` is whole: a PNG's chunks reach a whole `IEND` chunk, a JPEG's
    /// segments and entropy-coded scans reach its end-of-image marker, a WebP's RIFF container
    /// holds the bytes it states. Bytes after the end are allowed.
    static func isWhole(_ bytes: UnsafeRawBufferPointer, kind: String) -> Bool {
        switch kind {
        case "png": return pngIsWhole(bytes)
        case "jpeg": return jpegIsWhole(bytes)
        case "webp": return webpIsWhole(bytes)
        default: return true
        }
    }

    private static func bigEndian(_ b: UnsafeRawBufferPointer, _ at: Int, _ count: Int) -> Int {
        (at..<at + count).reduce(0) { $0 << 8 | Int(b[$1]) }
    }

    private static func littleEndian(_ b: UnsafeRawBufferPointer, _ at: Int, _ count: Int) -> Int {
        (at..<at + count).reversed().reduce(0) { $0 << 8 | Int(b[$1]) }
    }

    private static func matches(_ b: UnsafeRawBufferPointer, _ at: Int, _ text: String) -> Bool {
        let ascii = Array(text.utf8)
        return b.count >= at + ascii.count && (0..<ascii.count).allSatisfy { b[at + $0] == ascii[$0] }
    }

    // MARK: PNG: an 8-byte signature, then chunks of length (4), type (4), data, CRC (4); IHDR first.

    private static func pngSize(_ b: UnsafeRawBufferPointer) -> (width: Int, height: Int)? {
        guard b.count >= 24, matches(b, 12, "IHDR") else { return nil }
        return (bigEndian(b, 16, 4), bigEndian(b, 20, 4))
    }

    private static func pngIsWhole(_ b: UnsafeRawBufferPointer) -> Bool {
        var at = 8
        while at + 8 <= b.count {
            let end = at + 12 + bigEndian(b, at, 4)
            if matches(b, at + 4, "IEND") { return end <= b.count }
            at = end
        }
        return false
    }

    // MARK: JPEG: markers FF xx, optionally preceded by fill FFs; all but SOI, EOI, TEM and RSTn
    // are followed by a big-endian length that counts itself. Entropy-coded data follows each SOS
    // segment; in it an FF is followed by a stuffed 00 or an RSTn, or it begins the next marker.

    /// The marker at or after `at` (skipping fill bytes) and the index of its code byte, or nil
    /// when `at` is not a marker or runs past the end.
    private static func marker(_ b: UnsafeRawBufferPointer, _ at: Int) -> (code: UInt8, index: Int)? {
        guard at < b.count, b[at] == 0xFF else { return nil }
        var i = at + 1
        while i < b.count && b[i] == 0xFF { i += 1 }
        return i < b.count ? (b[i], i) : nil
    }

    private static func standalone(_ code: UInt8) -> Bool {
        code == 0xD8 || code == 0x01 || (0xD0...0xD7).contains(code)
    }

    private static func jpegSize(_ b: UnsafeRawBufferPointer) -> (width: Int, height: Int)? {
        var at = 2
        while let (code, i) = marker(b, at) {
            if standalone(code) {
                at = i + 1
                continue
            }
            guard code != 0xD9, code != 0xDA, i + 3 <= b.count else { return nil }
            // SOF0…SOF15 but DHT (C4), JPG (C8) and DAC (CC): P (1), Y (2), X (2) after the length.
            if (0xC0...0xCF).contains(code) && ![0xC4, 0xC8, 0xCC].contains(code) {
                guard i + 8 <= b.count else { return nil }
                return (bigEndian(b, i + 6, 2), bigEndian(b, i + 4, 2))
            }
            at = i + 1 + bigEndian(b, i + 1, 2)
        }
        return nil
    }

    private static func jpegIsWhole(_ b: UnsafeRawBufferPointer) -> Bool {
        var at = 2
        while let (code, i) = marker(b, at) {
            if code == 0xD9 { return true }
            if standalone(code) {
                at = i + 1
                continue
            }
            guard i + 3 <= b.count else { return false }
            at = i + 1 + bigEndian(b, i + 1, 2)
            guard code == 0xDA else { continue }
            // Entropy-coded data up to the next marker that is neither stuffing nor RSTn.
            while at < b.count {
                if b[at] != 0xFF {
                    at += 1
                    continue
                }
                guard at + 1 < b.count else { return false }
                let next = b[at + 1]
                if next == 0x00 || (0xD0...0xD7).contains(next) {
                    at += 2
                } else if next == 0xFF {
                    at += 1
                } else {
                    break
                }
            }
        }
        return false
    }

    // MARK: WebP: "RIFF", size (4, little-endian), "WEBP", then the first chunk: VP8X (canvas
    // size minus one, 24 bits each, after 4 bytes of flags), VP8L (signature 0x2F, then 14 bits
    // each of width and height minus one) or "VP8 " (a frame tag of 3 bytes, a start code of 3,
    // then 14 bits each of width and height in 16-bit words).

    private static func webpSize(_ b: UnsafeRawBufferPointer) -> (width: Int, height: Int)? {
        guard b.count >= 30, matches(b, 0, "RIFF"), matches(b, 8, "WEBP") else { return nil }
        if matches(b, 12, "VP8X") {
            return (littleEndian(b, 24, 3) + 1, littleEndian(b, 27, 3) + 1)
        }
        if matches(b, 12, "VP8L"), b[20] == 0x2F {
            let bits = littleEndian(b, 21, 4)
            return ((bits & 0x3FFF) + 1, (bits >> 14 & 0x3FFF) + 1)
        }
        if matches(b, 12, "VP8 "), b[23] == 0x9D, b[24] == 0x01, b[25] == 0x2A {
            return (littleEndian(b, 26, 2) & 0x3FFF, littleEndian(b, 28, 2) & 0x3FFF)
        }
        return nil
    }

    private static func webpIsWhole(_ b: UnsafeRawBufferPointer) -> Bool {
        b.count >= 12 && b.count >= 8 + littleEndian(b, 4, 4)
    }
}
