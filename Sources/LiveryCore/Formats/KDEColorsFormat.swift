import Foundation

/// KDE Plasma colour schemes (`.colors`, INI as KConfig writes it): the colour groups
/// `[Colors:Window]`, `[Colors:View]`, `[Colors:Button]`, `[Colors:Selection]`,
/// `[Colors:Header]` (and `[Colors:Header][Inactive]`), `[Colors:Tooltip]`,
/// `[Colors:Complementary]` and `[WM]`, each key an `r,g,b` or `r,g,b,a` colour (0–255). The
/// palette name is the group's and the key's, lower-case, words joined by `-`:
/// `[Colors:Window] BackgroundNormal` → `window-background-normal`, `[Colors:Header][Inactive]
/// ForegroundNormal` → `header-inactive-foreground-normal`, `[WM] activeBackground` →
/// `wm-active-background`. `[General] Name` names the theme (translations such as `Name[de]`
/// are ignored). Other groups (`[ColorEffects:…]`, `[KDE]`) hold no colours Livery uses and are
/// skipped. The scheme inherits the mapping theme `kde`.
public struct KDEColorsFormat: ThemeFormat {
    /// The KDE format; it has no settings.
    public init() {}
    /// `kde`.
    public var name: String { "kde" }
    /// The theme that says which KDE colour reaches which component.
    public static let mappingTheme = "kde"

    /// Claims a `.colors` file; the id is made from its file name as a scheme's
    /// (`BreezeDark.colors` → `breezedark`).
    public func claim(_ url: URL, isDirectory: Bool) -> String? {
        guard !isDirectory, url.pathExtension.lowercased() == "colors" else { return nil }
        return ThemeFormats.schemeID(for: url)
    }

    /// The palette-name prefix of a group header's inside (`Colors:Header][Inactive` →
    /// `header-inactive`, `WM` → `wm`), or nil for a group without colours.
    static func prefix(ofGroup group: String) -> String? {
        if group == "WM" { return "wm" }
        guard group.hasPrefix("Colors:") else { return nil }
        let parts = group.dropFirst(7).split(separator: "][", omittingEmptySubsequences: false)
        let words = parts.map { kebab(String($0)) }
        guard !words.contains(where: \.isEmpty) else { return nil }
        return words.joined(separator: "-")
    }

    /// `BackgroundNormal` → `background-normal`, `activeBackground` → `active-background`;
    /// characters other than ASCII letters and digits become `-`.
    static func kebab(_ word: String) -> String {
        var out = ""
        for s in word.unicodeScalars {
            let isUpper = ("A"..."Z").contains(s)
            if isUpper && !out.isEmpty && out.last != "-" { out.append("-") }
            if isUpper || ("a"..."z").contains(s) || ("0"..."9").contains(s) {
                out.append(Character(s).lowercased())
            } else if !out.isEmpty && out.last != "-" {
                out.append("-")
            }
        }
        while out.hasSuffix("-") { out.removeLast() }
        return out
    }

    /// Reads the file (at most 1 MiB), line by line; a colour that is not `r,g,b` or `r,g,b,a`
    /// with each number 0–255 is an error at its value.
    public func read(_ url: URL, id: String) -> ThemeSource {
        var out = ImportedSheet(url: url)
        let text: String
        switch ThemeFormats.readText(url, limit: ThemeFormats.maximumSchemeSize) {
        case .failure(let d):
            var sheet = Stylesheet(file: url.path)
            sheet.diagnostics = [d]
            return ThemeSource(id: id, format: name, path: url.path, sheet: sheet)
        case .success(let t): text = t
        }
        out = ImportedSheet(url: url, text: text)
        var group: String?
        var prefix: String?
        var schemeName: String?
        var seen: [String: Int] = [:]
        var colours: [String: RGBA] = [:]
        var lineNumber = 0
        for raw in text.split(
            omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
        {
            lineNumber += 1
            let line = raw.trimmingCharacters(in: .whitespaces)
            let indent = raw.prefix { $0 == " " || $0 == "\t" }.count
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]") else {
                    out.error(
                        "a group header is '[Name]'; this line has no closing ']'", line: lineNumber,
                        column: indent + 1)
                    group = nil
                    prefix = nil
                    continue
                }
                let inside = String(line.dropFirst().dropLast())
                group = inside
                prefix = Self.prefix(ofGroup: inside)
                continue
            }
            guard let eq = line.firstIndex(of: "=") else {
                out.error("expected 'Key=value' or a '[Group]' header", line: lineNumber, column: indent + 1)
                continue
            }
            let key = line[..<eq].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: eq)...].trimmingCharacters(in: .whitespaces)
            if group == "General" && key == "Name" {
                schemeName = value
                continue
            }
            guard let prefix, !key.contains("[") else { continue }
            let paletteName = prefix + "-" + Self.kebab(key)
            let valueColumn = indent + (line.utf8.distance(from: line.startIndex, to: eq)) + 2
            guard let color = Self.color(value) else {
                out.error(
                    "'\(key)' is '\(value)', not a colour: expected r,g,b or r,g,b,a with each number 0–255",
                    line: lineNumber, column: valueColumn)
                continue
            }
            if let first = seen[paletteName] {
                out.report(
                    .warning,
                    "'\(key)' is given twice in [\(group ?? "")] (first on line \(first)); the last wins",
                    line: lineNumber, column: indent + 1)
            }
            seen[paletteName] = lineNumber
            colours[paletteName] = color
            out.define(paletteName, color, line: lineNumber, column: valueColumn)
        }
        let background = colours["window-background-normal"]
        out.describe(
            name: schemeName ?? url.deletingPathExtension().lastPathComponent,
            description: "KDE colour scheme",
            background: background, inherits: Self.mappingTheme)
        return out.source(id: id, format: name)
    }

    /// `r,g,b` or `r,g,b,a`, each a decimal integer 0–255 (spaces around the commas allowed).
    static func color(_ value: String) -> RGBA? {
        let parts = value.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 3 || parts.count == 4 else { return nil }
        var n: [Int] = []
        for p in parts {
            let t = p.trimmingCharacters(in: .whitespaces)
            guard !t.isEmpty, t.count <= 3, t.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let v = Int(t),
                v <= 255
            else { return nil }
            n.append(v)
        }
        return RGBA(red8: n[0], green8: n[1], blue8: n[2], alpha8: n.count == 4 ? n[3] : 255)
    }
}
