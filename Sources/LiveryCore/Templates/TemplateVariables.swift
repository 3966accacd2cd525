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
            let (r, g, b) = (hex[Int(c.r)], hex[Int(c.g)], hex[Int(c.b)])
            body(slot + "-hex", r + g + b)
            body(slot + "-hex-bgr", b + g + r)
            body(slot + "-hex-r", r)
            body(slot + "-hex-g", g)
            body(slot + "-hex-b", b)
            body(slot + "-rgb-r", String(c.r))
            body(slot + "-rgb-g", String(c.g))
            body(slot + "-rgb-b", String(c.b))
            body(slot + "-rgb16-r", String(Int(c.r) * 257))
            body(slot + "-rgb16-g", String(Int(c.g) * 257))
            body(slot + "-rgb16-b", String(Int(c.b) * 257))
            body(slot + "-dec-r", dec[Int(c.r)])
            body(slot + "-dec-g", dec[Int(c.g)])
            body(slot + "-dec-b", dec[Int(c.b)])
        }
    }

    /// `00`…`ff`.
    static let hex: [String] = (0..<256).map { String(format: "%02x", $0) }
    /// `0.00000000`…`1.00000000`: n / 255 rounded to 8 decimals, as Rust's `{:.8}` rounds the
    /// double (correctly, to nearest).
    static let dec: [String] = (0..<256).map { String(format: "%.8f", Double($0) / 255) }
}
