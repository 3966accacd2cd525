/// The one rule for text a theme file hands a template or a client (the README, "Template
/// variables"): a theme's name, description and `gtk-theme`, a tinted scheme's name, author and
/// description, and every string value a component resolves to carry no control character.
///
/// Templates put such text inside their own syntax (a `#` comment, a string, a CSS comment), and
/// a line break there would let a theme file write lines of the template's output that the
/// template's author did not write (a `[terminal.shell]` table in alacritty's TOML, a command in
/// a sourced shell script). Escaping for HTML does not stop that, and no one escaping fits every
/// program's syntax, so the characters that end or rewrite a line are taken out where the text
/// is read: each Unicode control character (general category Cc: U+0000–U+001F, U+007F–U+009F,
/// tabs, escapes and NEL included) and the line and paragraph separators U+2028 and U+2029
/// become one space each, as names are shown on one line anyway.
public enum TemplateText {
    /// `text` with each control character and each line or paragraph separator replaced by a
    /// space; `text` itself when it has none.
    public static func clean(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isLineBreaking) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { out.append(isLineBreaking(scalar) ? " " : scalar) }
        return String(out)
    }

    /// Whether `scalar` is a control character or a line or paragraph separator.
    static func isLineBreaking(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        return v < 0x20 || (0x7F...0x9F).contains(v) || v == 0x2028 || v == 0x2029
    }
}
