/// Text from a theme or a caller made safe for a terminal or a log: control characters (an
/// escape sequence in a theme's name could recolour or retitle the terminal, or forge a journal
/// record) become U+FFFD, but for line feeds and tabs when `keepingLines` (text of several lines).
/// - Parameters:
///   - s: The text.
///   - keepingLines: Whether `\n` and `\t` are kept.
/// - Returns: `s` with every other control character replaced by U+FFFD.
public func printable(_ s: String, keepingLines: Bool = false) -> String {
    String(
        String.UnicodeScalarView(
            s.unicodeScalars.map {
                $0.properties.generalCategory == .control && !(keepingLines && ($0 == "\n" || $0 == "\t"))
                    ? "\u{FFFD}" : $0
            }))
}
