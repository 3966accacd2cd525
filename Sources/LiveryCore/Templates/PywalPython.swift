import Foundation

/// The parts of Python's own behaviour that pywal's templates show in their output: how Python
/// writes a float (`repr`), reads one (`float(str)`), strips whitespace, reads a hex integer
/// (`int(s, 16)`) and formats an integer with `%02x`. pywal's `Color` class (`pywal/util.py`) is
/// built on them, so matching pywal byte for byte means matching them.
enum PywalPython {
    /// `str.isspace()`: Python's whitespace (`_PyUnicode_IsWhitespace`), which `str.strip()`
    /// removes: Unicode's spaces plus the information separators U+001C–U+001F.
    static func isSpace(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x09...0x0D, 0x1C...0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F,
            0x3000:
            return true
        default: return false
        }
    }

    /// `s.strip()`: Python whitespace removed from both ends.
    static func strip(_ s: [Unicode.Scalar]) -> ArraySlice<Unicode.Scalar> {
        var lo = 0
        var hi = s.count
        while lo < hi, isSpace(s[lo]) { lo += 1 }
        while hi > lo, isSpace(s[hi - 1]) { hi -= 1 }
        return s[lo..<hi]
    }

    /// The value of a decimal digit as Python's `int()`, `float()` and the regular expression
    /// `\d` read it: any character of Unicode's category Nd, not only ASCII's.
    static func digit(_ s: Unicode.Scalar) -> UInt8? {
        if s.value >= 0x30 && s.value <= 0x39 { return UInt8(s.value - 0x30) }
        guard s.value > 0x7F, s.properties.generalCategory == .decimalNumber,
            let v = s.properties.numericValue, v >= 0, v <= 9
        else { return nil }
        return UInt8(v)
    }

    /// `repr(x)` of a Python float: the shortest digits that read back as `x`, in fixed notation
    /// for exponents from -4 to 15 (`0.0001`, `1000000000000000.0`) and `1e+16`, `1e-05` beyond.
    /// Swift's `description` of a `Double` is the same text (`PywalTemplateTests` checks it
    /// against Python for many values).
    static func repr(_ x: Double) -> String { x.description }

    /// `float(s)` of a Python string, or nil where Python raises `ValueError`: whitespace around,
    /// a sign, `inf`, `infinity` or `nan` in any case, or decimal digits (any Nd digits) with
    /// single `_` between digits, an optional fraction and exponent.
    static func float(_ text: String) -> Double? {
        let s = strip(Array(text.unicodeScalars))
        var ascii = ""
        var i = s.startIndex
        if i < s.endIndex, s[i] == "+" || s[i] == "-" {
            ascii.unicodeScalars.append(s[i])
            i += 1
        }
        let rest = String(String.UnicodeScalarView(s[i...])).lowercased()
        if rest == "inf" || rest == "infinity" { return ascii == "-" ? -.infinity : .infinity }
        if rest == "nan" { return .nan }
        // digits ('_' digits)*, read from i; nil when there are none.
        func digits() -> String? {
            var out = ""
            while i < s.endIndex {
                if let d = digit(s[i]) {
                    out.append(Character(Unicode.Scalar(0x30 + d)))
                    i += 1
                } else if s[i] == "_", !out.isEmpty, i + 1 < s.endIndex, digit(s[i + 1]) != nil {
                    i += 1
                } else {
                    break
                }
            }
            return out.isEmpty ? nil : out
        }
        let whole = digits()
        var fraction: String?
        if i < s.endIndex, s[i] == "." {
            i += 1
            fraction = digits()
        }
        guard whole != nil || fraction != nil else { return nil }
        ascii += (whole ?? "0") + "." + (fraction ?? "0")
        if i < s.endIndex, s[i] == "e" || s[i] == "E" {
            i += 1
            ascii += "e"
            if i < s.endIndex, s[i] == "+" || s[i] == "-" {
                ascii.unicodeScalars.append(s[i])
                i += 1
            }
            guard let e = digits() else { return nil }
            ascii += e
        }
        guard i == s.endIndex else { return nil }
        return Double(ascii)
    }

    /// `int(s, 16)` of a Python string as its sign and magnitude (big-endian 32-bit limbs), or nil
    /// where Python raises `ValueError`: whitespace around, a sign, an optional `0x`, hex digits
    /// with single `_` between them (and after the `0x`).
    static func hexInteger(_ text: ArraySlice<Unicode.Scalar>) -> (negative: Bool, magnitude: [UInt32])? {
        let s = strip(Array(text))
        var i = s.startIndex
        var negative = false
        if i < s.endIndex, s[i] == "+" || s[i] == "-" {
            negative = s[i] == "-"
            i += 1
        }
        var afterPrefix = false
        if i + 1 < s.endIndex, s[i] == "0", s[i + 1] == "x" || s[i + 1] == "X" {
            i += 2
            afterPrefix = true
        }
        var nibbles: [UInt8] = []
        var underscoreAllowed = afterPrefix
        while i < s.endIndex {
            let c = s[i]
            if c == "_" {
                guard underscoreAllowed, i + 1 < s.endIndex, hexValue(s[i + 1]) != nil else { return nil }
                underscoreAllowed = false
            } else if let v = hexValue(c) {
                nibbles.append(v)
                underscoreAllowed = true
            } else {
                return nil
            }
            i += 1
        }
        guard !nibbles.isEmpty else { return nil }
        var limbs: [UInt32] = []
        var value: UInt32 = 0
        var count = 0
        for n in nibbles.reversed() {
            value |= UInt32(n) << (4 * UInt32(count))
            count += 1
            if count == 8 {
                limbs.append(value)
                (value, count) = (0, 0)
            }
        }
        if count > 0 { limbs.append(value) }
        while limbs.count > 1 && limbs.last == 0 { limbs.removeLast() }
        return (negative && limbs != [0], limbs.reversed())
    }

    private static func hexValue(_ c: Unicode.Scalar) -> UInt8? {
        if let d = digit(c) { return d }
        switch c {
        case "a"..."f": return UInt8(c.value - 0x61 + 10)
        case "A"..."F": return UInt8(c.value - 0x41 + 10)
        default: return nil
        }
    }

    /// `str(n)` of the integer with these big-endian 32-bit limbs.
    static func decimal(_ limbs: [UInt32], negative: Bool) -> String {
        var n = limbs
        var chunks: [UInt32] = []
        while !(n.count == 1 && n[0] == 0) && !n.isEmpty {
            var remainder: UInt64 = 0
            var quotient: [UInt32] = []
            for limb in n {
                let v = remainder << 32 | UInt64(limb)
                let q = UInt32(v / 1_000_000_000)
                remainder = v % 1_000_000_000
                if !quotient.isEmpty || q != 0 { quotient.append(q) }
            }
            chunks.append(UInt32(remainder))
            n = quotient.isEmpty ? [0] : quotient
        }
        guard let top = chunks.last else { return "0" }
        var out = negative ? "-" + String(top) : String(top)
        for chunk in chunks.dropLast().reversed() {
            let part = String(chunk)
            out += String(repeating: "0", count: 9 - part.count) + part
        }
        return out
    }

    /// `oct(n)`'s digits of the integer with these big-endian 32-bit limbs, without `0o`.
    static func octal(_ limbs: [UInt32]) -> String {
        var bits: [Bool] = []
        for limb in limbs { for b in (0..<32).reversed() { bits.append(limb >> UInt32(b) & 1 == 1) } }
        while bits.count % 3 != 0 { bits.insert(false, at: 0) }
        var out = ""
        for g in stride(from: 0, to: bits.count, by: 3) {
            let v = (bits[g] ? 4 : 0) + (bits[g + 1] ? 2 : 0) + (bits[g + 2] ? 1 : 0)
            if out.isEmpty && v == 0 { continue }
            out += String(v)
        }
        return out.isEmpty ? "0" : out
    }

    /// `"%02x" % int(x)`: `x` truncated towards zero, in lower-case hex, a `-` before a negative
    /// one, zero-padded to two characters; nil where `int(x)` raises (`x` infinite or NaN).
    /// Python's integers have no size limit, so a float beyond 2^64 is written in full.
    static func hex2(_ x: Double) -> String? {
        guard x.isFinite else { return nil }
        let t = x.rounded(.towardZero)
        let m = abs(t)
        var digits: String
        if m < 0x1p63 {
            digits = String(UInt64(m), radix: 16)
        } else {
            // m = significand · 2^e exactly, with e ≥ 11: the significand shifted by e mod 4
            // bits, then e div 4 zero digits.
            let e = Int(m.exponent) - 52
            let significand = UInt64(m.significandBitPattern | (1 << 52))
            let shifted = significand << UInt64(e % 4)
            digits = String(shifted, radix: 16) + String(repeating: "0", count: e / 4)
        }
        if digits.count < 2 && t >= 0 { digits = "0" + digits }
        return t < 0 ? "-" + digits : digits
    }

    /// `x % 1.0` of Python floats: the sign of the divisor (CPython's `float_rem`).
    static func mod1(_ x: Double) -> Double {
        let m = fmod(x, 1.0)
        if m != 0 { return m < 0 ? m + 1.0 : m }
        return 0.0
    }

    /// `colorsys.rgb_to_hls` of Python 3.11, operation for operation.
    static func rgbToHLS(_ r: Double, _ g: Double, _ b: Double) -> (h: Double, l: Double, s: Double) {
        let maxc = max(r, g, b)
        let minc = min(r, g, b)
        let sumc = maxc + minc
        let rangec = maxc - minc
        let l = sumc / 2.0
        if minc == maxc { return (0.0, l, 0.0) }
        let s = l <= 0.5 ? rangec / sumc : rangec / (2.0 - sumc)
        let rc = (maxc - r) / rangec
        let gc = (maxc - g) / rangec
        let bc = (maxc - b) / rangec
        let h: Double
        if r == maxc {
            h = bc - gc
        } else if g == maxc {
            h = 2.0 + rc - bc
        } else {
            h = 4.0 + gc - rc
        }
        return (mod1(h / 6.0), l, s)
    }

    /// `colorsys.hls_to_rgb` of Python 3.11, operation for operation.
    static func hlsToRGB(_ h: Double, _ l: Double, _ s: Double) -> (Double, Double, Double) {
        if s == 0.0 { return (l, l, l) }
        let m2 = l <= 0.5 ? l * (1.0 + s) : l + s - (l * s)
        let m1 = 2.0 * l - m2
        let third = 1.0 / 3.0
        func v(_ hue: Double) -> Double {
            let hue = mod1(hue)
            if hue < 1.0 / 6.0 { return m1 + (m2 - m1) * hue * 6.0 }
            if hue < 0.5 { return m2 }
            if hue < 2.0 / 3.0 { return m1 + (m2 - m1) * (2.0 / 3.0 - hue) * 6.0 }
            return m1
        }
        return (v(h + third), v(h), v(h - third))
    }
}
