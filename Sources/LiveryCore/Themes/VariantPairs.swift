/// The naming rule that pairs a light theme with a dark one when neither the user's
/// `config.yaml` nor the theme's `@theme` (`light-variant`, `dark-variant`) says (the
/// README, "Light and dark"). It follows the names of the tinted-theming scheme collection
/// (`gruvbox-dark-medium` / `gruvbox-light-medium`, `catppuccin-mocha` / `catppuccin-latte`,
/// `rose-pine` / `rose-pine-dawn`, `tomorrow-night` / `tomorrow`, `atelier-cave` /
/// `atelier-cave-light`), in this order:
///
/// 1. each word of the id (split at `-`) that names the theme's own side dropped
///    (`rose-pine-dawn` → `rose-pine`, `tomorrow-night` → `tomorrow`,
///    `atelier-cave-light` → `atelier-cave`);
/// 2. that word replaced by each word of the other side, in the order of ``darkWords`` /
///    ``lightWords`` (`dark` → `light`, `night` → `day`, `latte` → `dark`, … `mocha` …), the
///    other words kept in place (`gruvbox-dark-medium` → `gruvbox-light-medium`);
/// 3. with no such word, each word of the other side appended (`atelier-cave` →
///    `atelier-cave-light`, `tomorrow` → `tomorrow-night`).
///
/// The first candidate that is installed and of the other variant wins.
public enum VariantPairs {
    /// Words that name a dark variant, in the order they are tried as replacements.
    public static let darkWords = [
        "dark", "night", "mocha", "black", "darker", "moon", "storm", "dusk", "dimmed", "mirage", "frappe",
        "macchiato",
    ]
    /// Words that name a light variant, in the order they are tried as replacements.
    public static let lightWords = ["light", "day", "latte", "white", "lighter", "dawn"]

    /// The ids the rule tries for the other variant of `id`, in order, without repeats.
    /// - Parameters:
    ///   - id: The active theme's id.
    ///   - variant: Its variant, `dark` or `light`.
    /// - Returns: Candidate ids; none equals `id`.
    public static func candidates(for id: String, variant: String) -> [String] {
        let own = variant == "dark" ? darkWords : lightWords
        let other = variant == "dark" ? lightWords : darkWords
        let words = id.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        var out: [String] = []
        func add(_ parts: [String]) {
            let candidate = parts.joined(separator: "-")
            if !candidate.isEmpty, candidate != id, !out.contains(candidate) { out.append(candidate) }
        }
        let positions = words.indices.filter { own.contains(words[$0]) }
        for i in positions where words.count > 1 {
            var parts = words
            parts.remove(at: i)
            add(parts)
        }
        for i in positions {
            for replacement in other {
                var parts = words
                parts[i] = replacement
                add(parts)
            }
        }
        if positions.isEmpty {
            for word in other { add(words + [word]) }
        }
        return out
    }
}
