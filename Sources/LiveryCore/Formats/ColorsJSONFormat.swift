import Foundation

/// pywal and wallust colour schemes (`colors.json`, and pywal's theme files `<name>.json`): a
/// JSON object with `special` (`background`, `foreground`, `cursor`) and `colors` (`color0`…
/// `color15`, and any further `colorN` such as wallust's and some pywal themes' `color16`,
/// `color17`), each a hex colour. Other keys (`wallpaper`, `alpha`, `checksum`) are ignored. The
/// scheme becomes a theme whose palette holds the colours and which inherits the mapping theme
/// `terminal`.
public struct ColorsJSONFormat: ThemeFormat {
    /// The `colors.json` format; it has no settings.
    public init() {}
    /// `pywal`, for wallust's files too (one layout).
    public var name: String { "pywal" }

    /// Claims a `.json` file whose first 4 KiB begin (after white space) with `{` and hold both
    /// `"special"` and `"colors"`: claimed by name and content, so that `schema.json` and other
    /// JSON files beside the themes are left alone. The id is made from the file name as a
    /// scheme's (`colors.json` → `colors`, `base16-nord.json` → `base16-nord`).
    public func claim(_ url: URL, isDirectory: Bool) -> String? {
        guard !isDirectory, url.pathExtension.lowercased() == "json", let head = ThemeFormats.head(url) else {
            return nil
        }
        let text = String(decoding: head, as: UTF8.self)
        guard text.drop(while: { $0.isWhitespace }).first == "{", text.contains("\"special\""),
            text.contains("\"colors\"")
        else { return nil }
        return ThemeFormats.schemeID(for: url)
    }

    /// The special colours and the palette names they become.
    static let special = ["background", "foreground", "cursor"]

    /// Reads the JSON (at most 1 MiB) into a sheet whose palette holds its colours. The name is
    /// the file's base name.
    public func read(_ url: URL, id: String) -> ThemeSource {
        var out = ImportedSheet(url: url)
        guard let data = out.readData() else { return out.source(id: id, format: name) }
        let text = String(decoding: data, as: UTF8.self)
        out = ImportedSheet(url: url, text: text)
        let places = KeyPlaces(text)
        let json: Any
        do {
            json = try JSONSerialization.jsonObject(with: data, options: [])
        } catch {
            out.error("not JSON: \(ItermFormat.reason(error))")
            return out.source(id: id, format: name)
        }
        guard let top = json as? [String: Any] else {
            out.error("a colors.json file is a JSON object with 'special' and 'colors'")
            return out.source(id: id, format: name)
        }
        var background: RGBA?
        for group in ["special", "colors"] {
            let groupAt = places.find("\"\(group)\"")
            guard let value = top[group] else {
                out.error("missing '\(group)' (a colors.json file has 'special' and 'colors')")
                continue
            }
            guard let colours = value as? [String: Any] else {
                let (line, column) = groupAt.map(places.place) ?? (1, 1)
                out.error("'\(group)' must be an object of colours", line: line, column: column)
                continue
            }
            let names =
                group == "special"
                ? Self.special.filter { colours[$0] != nil }
                : colours.keys.filter(Self.isColorName).sorted {
                    (Int($0.dropFirst(5)) ?? 0) < (Int($1.dropFirst(5)) ?? 0)
                }
            if group == "colors" {
                for n in 0..<16 where colours["color\(n)"] == nil {
                    let (line, column) = groupAt.map(places.place) ?? (1, 1)
                    out.error(
                        "'colors' has no 'color\(n)' (a scheme has color0…color15)", line: line,
                        column: column)
                }
            }
            for key in names {
                let at = places.find("\"\(key)\"", from: groupAt ?? 0) ?? groupAt
                let (line, column) = at.map(places.place) ?? (1, 1)
                guard let s = colours[key] as? String else {
                    out.error("'\(group).\(key)' must be a hex colour string", line: line, column: column)
                    continue
                }
                let hex = s.hasPrefix("#") ? s.dropFirst() : Substring(s)
                guard [3, 6, 8].contains(hex.count), let color = RGBA(hexDigits: hex) else {
                    out.error(
                        "'\(group).\(key)' is '\(s)', not a colour: expected #rrggbb", line: line,
                        column: column)
                    continue
                }
                out.define(key, color, line: line, column: column)
                if key == "background" { background = color }
            }
        }
        for key in Self.special.dropLast() where (top["special"] as? [String: Any])?[key] == nil {
            if top["special"] is [String: Any] { out.error("'special' has no '\(key)'") }
        }
        out.describe(
            name: url.deletingPathExtension().lastPathComponent, description: "pywal colour scheme",
            background: background, inherits: TerminalMapping.theme)
        return out.source(id: id, format: name)
    }

    /// Whether `key` is `color` and a number 0–255 without leading zeros (`color0`, `color17`).
    static func isColorName(_ key: String) -> Bool {
        guard key.hasPrefix("color"), let n = Int(key.dropFirst(5)), (0...255).contains(n) else {
            return false
        }
        return String(n) == key.dropFirst(5)
    }
}
