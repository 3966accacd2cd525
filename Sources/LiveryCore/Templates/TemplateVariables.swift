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
        var v: [String: String] = [
            "scheme-name": scheme.name,
            "scheme-author": scheme.author,
            "scheme-description": scheme.description,
            "scheme-slug": scheme.slug,
            "scheme-slug-underscored": scheme.slug.replacingOccurrences(of: "-", with: "_"),
            "scheme-system": scheme.system,
            "scheme-variant": scheme.variant,
            "scheme-is-\(scheme.variant)-variant": "true",
        ]
        v.reserveCapacity(8 + scheme.palette.count * 15)
        for (slot, c) in scheme.palette {
            let (r, g, b) = (hex[Int(c.r)], hex[Int(c.g)], hex[Int(c.b)])
            v[slot + "-hex"] = r + g + b
            v[slot + "-hex-bgr"] = b + g + r
            v[slot + "-hex-r"] = r
            v[slot + "-hex-g"] = g
            v[slot + "-hex-b"] = b
            v[slot + "-rgb-r"] = String(c.r)
            v[slot + "-rgb-g"] = String(c.g)
            v[slot + "-rgb-b"] = String(c.b)
            v[slot + "-rgb16-r"] = String(Int(c.r) * 257)
            v[slot + "-rgb16-g"] = String(Int(c.g) * 257)
            v[slot + "-rgb16-b"] = String(Int(c.b) * 257)
            v[slot + "-dec-r"] = dec[Int(c.r)]
            v[slot + "-dec-g"] = dec[Int(c.g)]
            v[slot + "-dec-b"] = dec[Int(c.b)]
        }
        return v
    }

    /// `00`…`ff`.
    static let hex: [String] = (0..<256).map { String(format: "%02x", $0) }
    /// `0.00000000`…`1.00000000`: n / 255 rounded to 8 decimals, as Rust's `{:.8}` rounds the
    /// double (correctly, to nearest).
    static let dec: [String] = (0..<256).map { String(format: "%.8f", Double($0) / 255) }
}
