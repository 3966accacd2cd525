import Foundation

/// A number written as a method's argument in a pywal template, as pywal's parser reads it
/// (`Parser.parse_number`: `-?\d+(\.\d+)?`, an `int` without a fraction, else a `float`).
enum PywalNumber: Sendable, Equatable {
    /// A Python `int`: its sign and its decimal digits, ASCII, without leading zeros.
    case int(negative: Bool, digits: String)
    case float(Double)

    /// `str(n)`.
    var text: String {
        switch self {
        case .int(let negative, let digits): return (negative && digits != "0" ? "-" : "") + digits
        case .float(let x): return PywalPython.repr(x)
        }
    }

    /// `float(n)`, or nil where Python raises (an `int` too large for a float).
    var double: Double? {
        switch self {
        case .int(let negative, let digits):
            guard let x = Double(digits), x.isFinite else { return nil }
            return negative ? -x : x
        case .float(let x): return x
        }
    }

    /// pywal16's reading of a percentage (`Color.lighten`, `darken`, `saturate`):
    /// `float(re.sub(r"[\D\.]", "", str(n)))`: every character of `str(n)` that is not a digit is
    /// dropped, sign and decimal point included, so `10` is 10 but `10.0` is 100 and `-5` is 5.
    var percent: Double? {
        let digits = String(text.unicodeScalars.filter { $0.value >= 0x30 && $0.value <= 0x39 })
        guard let x = Double(digits), x.isFinite else { return nil }
        return x
    }
}

/// pywal's `util.Color` (pywal 3.8.15, which is pywal16): a value of the colour dictionary, the
/// text `colors.json` holds (`#rrggbb`, or the wallpaper's path, the checksum, the alpha), and
/// the alpha its alpha properties use. Every property and method is computed as pywal does;
/// where pywal raises, this gives a message instead.
struct PywalColor {
    /// `hex_color`: the text.
    var hex: [Unicode.Scalar]
    /// `alpha_num`: the theme's alpha (text from `colors.json`) or `adjust_alpha`'s argument.
    var alpha: Alpha
    /// The theme's alpha, `Color.alpha_num` of the class: every `Color` a method makes has it.
    var themeAlpha: String

    /// The value `text` of the colour dictionary, with the theme's alpha.
    init(_ text: String, alpha: String) {
        hex = Array(text.unicodeScalars)
        self.alpha = .text(alpha)
        themeAlpha = alpha
    }

    private init(_ text: String, of other: PywalColor) {
        self.init(text, alpha: other.themeAlpha)
    }

    enum Alpha {
        case text(String)
        case number(PywalNumber)
    }

    /// The properties of `util.Color` (and its plain attributes `hex_color`, `alpha_num`,
    /// `passed_alpha_num`), by name.
    static let properties: Set<String> = [
        "rgb", "rgbspace", "xrgba", "rgba", "hex_argb", "alpha", "alpha_dec", "alpha_hex", "decimal",
        "decimal_strip", "octal", "octal_strip", "strip", "red", "green", "blue", "red_hex", "green_hex",
        "blue_hex", "red_dec", "green_dec", "blue_dec", "w3_luminance", "hex_color", "alpha_num",
        "passed_alpha_num",
    ]
    /// The methods of `util.Color`, with the numbers of arguments each takes.
    static let methods: [String: ClosedRange<Int>] = [
        "lighten": 1...1, "darken": 1...1, "saturate": 1...1, "foxify": 1...1, "adjust_alpha": 0...1,
    ]

    struct Failure: Error {
        var message: String
    }

    private func fail(_ message: String) -> Failure { Failure(message: message) }

    private var text: String { String(String.UnicodeScalarView(hex)) }

    /// `hex_to_rgb`: `tuple(bytes.fromhex(hex.strip("#")))`: pairs of hex digits, ASCII
    /// whitespace allowed before each pair.
    func bytes() throws(Failure) -> [Int] {
        var s = hex[...]
        while s.first == "#" { s = s.dropFirst() }
        while s.last == "#" { s = s.dropLast() }
        var out: [Int] = []
        var i = s.startIndex
        func nibble(_ c: Unicode.Scalar) -> Int? { c.isASCII ? Int(String(c), radix: 16) : nil }
        while i < s.endIndex {
            if s[i] == " " || (s[i].value >= 9 && s[i].value <= 13) {
                i += 1
                continue
            }
            guard i + 1 < s.endIndex, let hi = nibble(s[i]), let lo = nibble(s[i + 1]) else {
                throw fail("'\(text)' is not a colour (pywal's bytes.fromhex fails on it)")
            }
            out.append(hi << 4 | lo)
            i += 2
        }
        return out
    }

    /// The colour's three channels, or a failure when it has another number of bytes.
    func rgb() throws(Failure) -> [Int] {
        let b = try bytes()
        guard b.count == 3 else { throw fail("'\(text)' is not a colour of three channels") }
        return b
    }

    /// `alpha_integrify(alpha_num)`: the alpha as a whole percentage, 0…100.
    func alphaPercent() throws(Failure) -> Int {
        let value: Double?
        switch alpha {
        case .text(let s): value = PywalPython.float(s)
        case .number(let n): value = n.double
        }
        guard var a = value else { throw fail("the alpha '\(alphaText)' is not a number") }
        if a < 0 { a = abs(a) }
        if a < 1 { a *= 100 }
        if a > 100 { a = 100 }
        guard !a.isNaN else { throw fail("the alpha '\(alphaText)' is not a number") }
        return Int(a)
    }

    private var alphaText: String {
        switch alpha {
        case .text(let s): return s
        case .number(let n): return n.text
        }
    }

    /// `"%.3f" % (v / 255.0)`, exactly: v·1000/255 is never halfway between two thousandths.
    static func fraction(_ v: Int) -> String {
        let thousandths = (v * 2000 + 255) / 510
        let frac = String(thousandths % 1000)
        return "\(thousandths / 1000)." + String(repeating: "0", count: 3 - frac.count) + frac
    }

    private func channel(_ i: Int) throws(Failure) -> Int {
        let b = try bytes()
        guard i < b.count else { throw fail("'\(text)' has no channel \(i + 1)") }
        return b[i]
    }

    private func slice(_ from: Int, _ to: Int?) -> String {
        let lo = min(from, hex.count)
        let hi = max(lo, min(to ?? hex.count, hex.count))
        return String(String.UnicodeScalarView(hex[lo..<hi]))
    }

    private func integer() throws(Failure) -> (negative: Bool, magnitude: [UInt32]) {
        guard let n = PywalPython.hexInteger(hex.dropFirst()) else {
            throw fail("'\(text)' is not a colour (pywal's int(…, 16) fails on it)")
        }
        return n
    }

    /// The property `name` (one of `properties`), as `str()` of pywal's value.
    func property(_ name: String) throws(Failure) -> String {
        switch name {
        case "rgb": return try rgb().map(String.init).joined(separator: ",")
        case "rgbspace": return try rgb().map(String.init).joined(separator: " ")
        case "xrgba":
            var col = Array(text.lowercased().unicodeScalars)[...]
            while col.first == "#" { col = col.dropFirst() }
            while col.last == "#" { col = col.dropLast() }
            guard col.count == 6 else { throw fail("'\(text)' is not a colour of six hex digits") }
            let p = col.map { String($0) } as [String]
            return "\(p[0])\(p[1])/\(p[2])\(p[3])/\(p[4])\(p[5])/ff"
        case "rgba":
            let c = try rgb()
            return "rgba(\(c[0]),\(c[1]),\(c[2]),\(PywalPython.repr(Double(try alphaPercent()) / 100)))"
        case "hex_argb":
            return "#" + hex02(try alphaPercent() * 255 / 100, upper: true) + slice(1, nil)
        case "alpha": return "[\(try alphaPercent())]\(text)"
        case "alpha_dec": return PywalPython.repr(Double(try alphaPercent()) / 100)
        case "alpha_hex": return hex02(try alphaPercent() * 255 / 100, upper: true)
        case "decimal", "decimal_strip":
            let n = try integer()
            return (name == "decimal" ? "#" : "") + PywalPython.decimal(n.magnitude, negative: n.negative)
        case "octal", "octal_strip":
            let n = try integer()
            // oct(n)[2:]: for a negative n that cuts "-0", leaving "o…".
            let octal = (n.negative ? "-0o" : "0o") + PywalPython.octal(n.magnitude)
            return (name == "octal" ? "#" : "") + String(octal.dropFirst(2))
        case "strip": return slice(1, nil)
        case "red", "green", "blue":
            return PywalColor.fraction(try channel(["red": 0, "green": 1, "blue": 2][name]!))
        case "red_hex": return slice(1, 3)
        case "green_hex": return slice(3, 5)
        case "blue_hex": return slice(5, nil)
        case "red_dec", "green_dec", "blue_dec":
            return String(try channel(["red_dec": 0, "green_dec": 1, "blue_dec": 2][name]!))
        case "w3_luminance":
            var c: [Double] = []
            for i in 0..<3 {
                let v = Double(PywalColor.fraction(try channel(i)))!
                c.append(v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4))
            }
            return PywalPython.repr(0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2])
        case "hex_color": return text
        case "alpha_num": return alphaText
        default: return "None"  // passed_alpha_num: Livery never passes `wal -a`.
        }
    }

    private func hex02(_ v: Int, upper: Bool) -> String {
        let s = String(v, radix: 16, uppercase: upper)
        return s.count < 2 ? "0" + s : s
    }

    /// `rgb_to_hex` of the channels computed from each of the colour's three: `"#%02x%02x%02x"`,
    /// a new `Color` whose alpha is the theme's again (pywal's methods return `Color(hex)`, so an
    /// `adjust_alpha` before them does not carry over).
    private func mapped(_ f: (Int) -> Double) throws(Failure) -> PywalColor {
        var out = "#"
        for v in try rgb() {
            guard let h = PywalPython.hex2(f(v)) else {
                throw fail("a channel of '\(text)' is out of range (pywal's int() fails on it)")
            }
            out += h
        }
        return PywalColor(out, of: self)
    }

    /// The method `name` (one of `methods`) with `arguments` (as many as it takes).
    func call(_ name: String, _ arguments: [PywalNumber]) throws(Failure) -> PywalColor {
        func percent() throws(Failure) -> Double {
            guard let p = arguments[0].percent else {
                throw fail("the percentage \(arguments[0].text) is out of range")
            }
            return p / 100
        }
        switch name {
        case "lighten":
            let amount = try percent()
            return try mapped { Double($0) + Double(255 - $0) * amount }
        case "darken":
            let amount = try percent()
            return try mapped { Double($0) * (1 - amount) }
        case "saturate":
            let amount = try percent()
            let c = try rgb()
            let (h, l, _) = PywalPython.rgbToHLS(
                Double(c[0]) / 255.0, Double(c[1]) / 255.0, Double(c[2]) / 255.0)
            let (r, g, b) = PywalPython.hlsToRGB(h, l, amount)
            var out = "#"
            for x in [r * 255.0, g * 255.0, b * 255.0] {
                guard let s = PywalPython.hex2(x) else {
                    throw fail("saturate(\(arguments[0].text)) puts a channel of '\(text)' out of range")
                }
                out += s
            }
            return PywalColor(out, of: self)
        case "foxify":
            guard let f = arguments[0].double else {
                throw fail("foxify(\(arguments[0].text)) is out of range")
            }
            return try mapped { v in
                let b = Double(max(v, 10))
                let x = b + b * f
                return x.isFinite ? Swift.min(Swift.max(0, x.rounded(.towardZero)), 255) : x
            }
        default:  // adjust_alpha
            var copy = self
            copy.alpha = arguments.first.map { .number($0) } ?? .text("100")
            return copy
        }
    }
}
