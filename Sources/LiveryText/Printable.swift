/// Text from a theme or a caller made safe for a terminal or a log: control characters (an
/// escape sequence in a theme's name could recolour or retitle the terminal, or forge a journal
/// record) become U+FFFD, but for line feeds and tabs when `keepingLines` (text of several lines).
/// - Parameters:
///   - s: The text.
///   - keepingLines: Whether `\n` and `\t` are kept.
/// - Returns: `s` with every other control character replaced by U+FFFD.
public func printable(_ s: String, keepingLines: Bool = false) -> String {
    // Printable ASCII (and tabs and line feeds when kept) is returned as it is, without the
    // per-scalar property lookups: nearly every log line is that.
    let clean = s.utf8.allSatisfy { b in
        (b >= 0x20 && b < 0x7F) || (keepingLines && (b == UInt8(ascii: "\n") || b == UInt8(ascii: "\t")))
    }
    if clean { return s }
    return String(
        String.UnicodeScalarView(
            s.unicodeScalars.map {
                $0.properties.generalCategory == .control && !(keepingLines && ($0 == "\n" || $0 == "\t"))
                    ? "\u{FFFD}" : $0
            }))
}
