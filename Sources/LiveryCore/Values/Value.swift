import Foundation

/// A resolved property value, typed by the schema.
public enum Value: Hashable, Sendable, CustomStringConvertible {
    /// An sRGB colour, channels 0–1.
    case color(RGBA)
    /// The absolute path of an image inside its bundle, or nil for `none`.
    case image(String?)
    /// Pixels.
    case length(Double)
    /// A unitless number.
    case number(Double)
    /// Seconds.
    case duration(Double)
    /// One of the property's keywords.
    case keyword(String)
    /// Free text, escapes resolved.
    case string(String)
    /// Width and height in pixels.
    case size(Double, Double)
    /// Top, right, bottom, left in pixels (CSS order).
    case insets(Double, Double, Double, Double)

    /// The value as a person reads it: `#008000ff`, `80`, `0.6s`, a path, a keyword.
    public var description: String {
        switch self {
        case .color(let c): c.hex
        case .image(let p): p ?? "none"
        case .length(let v), .number(let v): v.formatted
        case .duration(let v): v.formatted + "s"
        case .keyword(let k): k
        case .string(let s): "\"\(s)\""
        case .size(let w, let h): "\(w.formatted) \(h.formatted)"
        case .insets(let t, let r, let b, let l):
            "\(t.formatted) \(r.formatted) \(b.formatted) \(l.formatted)"
        }
    }

    /// The value as JSON: strings for colours (`#rrggbbaa`), images, keywords and strings,
    /// numbers for lengths, numbers and durations (seconds), arrays for sizes and insets.
    public var jsonObject: Any {
        switch self {
        case .color(let c): c.hex
        case .image(let p): p ?? ""
        case .length(let v), .number(let v), .duration(let v): v
        case .keyword(let k): k
        case .string(let s): s
        case .size(let w, let h): [w, h]
        case .insets(let t, let r, let b, let l): [t, r, b, l]
        }
    }
}
