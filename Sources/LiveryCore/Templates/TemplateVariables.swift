import Foundation

/// The variables a template is rendered with for a scheme: those of the tinted-theming builder
/// specification 0.11, exactly as tinted-builder-rust makes them (every value a string).
///
/// `scheme-name`, `scheme-author`, `scheme-description`, `scheme-slug`,
/// `scheme-slug-underscored` (`-` as `_`), `scheme-system`, `scheme-variant`, and
/// `scheme-is-light-variant` or `scheme-is-dark-variant` (`true`, only the scheme's own);
/// for each slot `baseXX`: `-hex` (lower-case `rrggbb`), `-hex-bgr`, `-hex-r/g/b` (two
/// digits), `-rgb-r/g/b` (0–255), `-rgb16-r/g/b` (the value × 257) and `-dec-r/g/b` (the value
/// / 255, with 8 decimals).
public enum TemplateVariables {
    /// The variables of `scheme`.
    public static func of(_ scheme: TintedScheme) -> [String: String] {
        var v: [String: String] = [:]
        v.reserveCapacity(count(scheme))
        each(scheme) { v[$0] = $1 }
        return v
    }

    /// How many variables `scheme` has: 8, and 14 a slot.
    public static func count(_ scheme: TintedScheme) -> Int { 8 + scheme.palette.count * 14 }

    /// Calls `body` with each variable of `scheme` and its value, for callers that build their
    /// own table (a template's data) without an intermediate dictionary.
    public static func each(_ scheme: TintedScheme, _ body: (String, String) -> Void) {
        body("scheme-name", scheme.name)
        body("scheme-author", scheme.author)
        body("scheme-description", scheme.description)
        body("scheme-slug", scheme.slug)
        body("scheme-slug-underscored", scheme.slug.replacingOccurrences(of: "-", with: "_"))
        body("scheme-system", scheme.system)
        body("scheme-variant", scheme.variant)
        body("scheme-is-\(scheme.variant)-variant", "true")
        for (slot, c) in scheme.palette {
            let k = slotKeys[slot] ?? keys(of: slot)
            let (r, g, b) = (hex[Int(c.r)], hex[Int(c.g)], hex[Int(c.b)])
            body(k[0], r + g + b)
            body(k[1], b + g + r)
            body(k[2], r)
            body(k[3], g)
            body(k[4], b)
            body(k[5], decimal[Int(c.r)])
            body(k[6], decimal[Int(c.g)])
            body(k[7], decimal[Int(c.b)])
            body(k[8], decimal16[Int(c.r)])
            body(k[9], decimal16[Int(c.g)])
            body(k[10], decimal16[Int(c.b)])
            body(k[11], dec[Int(c.r)])
            body(k[12], dec[Int(c.g)])
            body(k[13], dec[Int(c.b)])
        }
    }

    /// A slot's 14 variable names, in the order `each` gives them.
    static func keys(of slot: String) -> [String] {
        [
            "-hex", "-hex-bgr", "-hex-r", "-hex-g", "-hex-b", "-rgb-r", "-rgb-g", "-rgb-b", "-rgb16-r",
            "-rgb16-g", "-rgb16-b", "-dec-r", "-dec-g", "-dec-b",
        ].map { slot + $0 }
    }

    /// The names of every base16 and base24 slot, made once (`livery build` asks for them
    /// for every slot of every scheme).
    static let slotKeys: [String: [String]] = Dictionary(
        uniqueKeysWithValues: Base16Format.slots.map { ($0, keys(of: $0)) })

    /// `0`…`255`.
    static let decimal: [String] = (0..<256).map { String($0) }
    /// `0`…`65535` in steps of 257: a channel at 16 bits.
    static let decimal16: [String] = (0..<256).map { String($0 * 257) }

    /// `00`…`ff`.
    static let hex: [String] = (0..<256).map { String(format: "%02x", $0) }
    /// `0.00000000`…`1.00000000`: n / 255 rounded to 8 decimals, as Rust's `{:.8}` rounds the
    /// double (correctly, to nearest).
    static let dec: [String] = (0..<256).map { String(format: "%.8f", Double($0) / 255) }
}
