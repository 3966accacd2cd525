import Foundation
import LiveryCore
import LiveryDBus

/// `s` padded with spaces to `w` characters.
func pad(_ s: String, _ w: Int) -> String { s + String(repeating: " ", count: max(0, w - s.count)) }

/// A value for people: colours with a swatch on a terminal, numbers without trailing `.0`,
/// sizes and insets as their numbers separated by spaces.
/// - Parameters:
///   - v: A resolved value as the bus carries it.
///   - terminal: Whether standard output is a colour terminal.
func display(_ v: DBusValue, terminal: Bool) -> String {
    switch v {
    case .string(let s):
        if terminal, s.hasPrefix("#"), s.count == 9, let c = RGBA(hexDigits: s.dropFirst()) {
            // A fully transparent colour has nothing to show.
            guard c.alpha > 0 else { return "     \(s)" }
            let (r, g, b) = (RGBA.eightBit(c.red), RGBA.eightBit(c.green), RGBA.eightBit(c.blue))
            return "\u{1B}[48;2;\(r);\(g);\(b)m    \u{1B}[0m \(s)"
        }
        return printable(s)
    case .double(let d): return d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d)
    case .structure(let fields): return fields.map { display($0, terminal: terminal) }.joined(separator: " ")
    default: return "\(json(v))"
    }
}

/// One JSON value, keys sorted and slashes unescaped, and a newline.
func jsonLine(_ object: Any) -> String {
    let data =
        (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
        ?? Data()
    return String(decoding: data, as: UTF8.self) + "\n"
}

/// A D-Bus value as a JSON-compatible object.
func json(_ v: DBusValue) -> Any {
    switch v {
    case .string(let s): return s
    case .double(let d): return d
    case .boolean(let b): return b
    case .byte(let u): return Int(u)
    case .int16(let i): return Int(i)
    case .uint16(let u): return Int(u)
    case .uint32(let u): return Int(u)
    case .int32(let i): return Int(i)
    case .int64(let i): return i
    // JSON numbers past 2^63 are still numbers; JSONSerialization writes UInt64 exactly.
    case .uint64(let u): return u
    case .objectPath(let p): return p.description
    case .signature(let g): return g.description
    case .variant(let inner): return json(inner)
    case .structure(let fields): return fields.map(json)
    case .array(_, let items): return items.map(json)
    case .dictionary(_, _, let entries):
        var o: [String: Any] = [:]
        for e in entries { o[e.key.string ?? "\(e.key)"] = json(e.value) }
        return o
    case .unixFD(let fd): return Int(fd)
    }
}
