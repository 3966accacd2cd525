import Foundation
import XCTest

/// The terminal colours every shipped terminal exporter writes, through `livery export` (the
/// README, "Terminal colours of every theme"): an imported terminal scheme's own colours, read
/// here from its file by Python's json and plistlib; a base16 or base24 scheme's slots as
/// tinted-theming's terminal templates map them, read here from the YAML by hand; for every other
/// theme, sixteen colours that are pairwise distinct, each at least 3:1 against the background
/// and of its conventional hue, with the foreground at least 4.5:1. Contrast (WCAG 2) and hue
/// (OKLCH) are computed here, from the published formulas.
final class TerminalPaletteTests: EndToEndTestCase {
    /// The terminal colours one exporter wrote: `colors[n]` is ANSI colour n, every value
    /// lower-case `rrggbb`.
    struct Terminal: Equatable, CustomStringConvertible {
        var colors: [Int: String] = [:]
        var background = ""
        var foreground = ""
        var cursor = ""
        var description: String {
            "bg \(background) fg \(foreground) cursor \(cursor) "
                + (0..<16).map { "\($0):\(colors[$0] ?? "-")" }.joined(separator: " ")
        }
    }

    /// Every shipped template that writes the sixteen ANSI colours, and how to read them back
    /// (foot's is read with an empty cursor: it writes none, as foot's `[cursor] color` of one
    /// version is an error in another).
    static let exporters: [(template: String, read: @Sendable (String) throws -> Terminal)] = [
        ("kitty/kitty.mustache", kitty), ("alacritty/alacritty.mustache", alacritty),
        ("foot/foot.mustache", foot), ("ghostty/ghostty.mustache", ghostty),
        ("xresources/Xresources.mustache", xresources), ("shell/sequences.mustache", sequences),
        ("pywal/colors.json.mustache", pywalJSON), ("alacritty/alacritty-yaml.mustache", alacrittyYAML),
        ("foot/sequences.mustache", sequences), ("konsole/livery.colorscheme.mustache", konsole),
        ("konsole/sequences.mustache", sequences), ("gnome-terminal/profile.mustache", gnomeTerminal),
        ("pywal/sequences.mustache", pywalSequences),
    ]

    /// `want` as `template` writes it: without the cursor for foot and Konsole's scheme.
    static func expected(_ want: Terminal, in template: String) -> Terminal {
        var t = want
        if template == "foot/foot.mustache" || template == "konsole/livery.colorscheme.mustache" {
            t.cursor = ""
        }
        return t
    }

    /// The plugins whose templates write no terminal colours: GTK's and libadwaita's named
    /// colours, vim's colour scheme, and the base16 slots of tmux's status line, of bars,
    /// launchers, notifications, window managers, Qt, KDE, system monitors and viewers.
    static let slotPlugins: Set<String> = [
        "gtk", "vim", "tmux", "waybar", "rofi", "mako", "sway", "i3", "dunst", "qt", "polybar", "fzf", "btop",
        "cava", "zathura", "fuzzel", "wofi", "swaync", "hyprland", "plasma-colors", "bspwm",
    ]

    /// Every shipped template but those of ``slotPlugins`` is one of ``exporters``.
    func testEveryTerminalTemplateIsChecked() throws {
        var templates: [String] = []
        let plugins = Locations.repo + "/plugins"
        for plugin in try FileManager.default.contentsOfDirectory(atPath: plugins) {
            for file in try FileManager.default.contentsOfDirectory(atPath: plugins + "/" + plugin)
            where file.hasSuffix(".mustache") && !TerminalPaletteTests.slotPlugins.contains(plugin) {
                templates.append(plugin + "/" + file)
            }
        }
        XCTAssertEqual(
            Set(templates), Set(TerminalPaletteTests.exporters.map(\.template)))
    }

    // MARK: Imported terminal schemes

    /// pywal's and iTerm2's schemes, the fixtures and pywal's own dracula (the issue's example:
    /// its color9 is #ff6e67, not its color1 #ff5555): every exporter writes the file's sixteen
    /// colours, background, foreground and cursor.
    func testImportedTerminalSchemesKeepTheirOwnColoursInEveryExporter() throws {
        var files: [String] = []
        for dir in ["pywal/dark", "pywal/light", "iterm2"] {
            let path = Locations.schemes + "/" + dir
            files += try FileManager.default.contentsOfDirectory(atPath: path).sorted().map {
                path + "/" + $0
            }
        }
        // pywal's own dracula, from the pywal `make test` installs (Makefile, TEST_VENV).
        let pywalDirectory = try run(
            Locations.repo + "/.build/test-venv/bin/python",
            ["-c", "import os, pywal; print(os.path.dirname(pywal.__file__))"])
        XCTAssertEqual(
            pywalDirectory.status, 0,
            "pywal is not installed in .build/test-venv (make test does it): \(pywalDirectory)")
        let dracula = try makeDirectory("pywal") + "/dracula.json"
        try FileManager.default.copyItem(
            atPath: pywalDirectory.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                + "/colorschemes/dark/dracula.json", toPath: dracula)
        files.append(dracula)
        let expected = try expectedColours(files)
        XCTAssertEqual(expected[dracula]?["color9"], "ff6e67")
        XCTAssertEqual(expected[dracula]?["color1"], "ff5555")
        for file in files {
            let scheme = try XCTUnwrap(expected[file], file)
            // A scheme without a cursor colour gets its foreground (`themes/terminal`).
            var want = Terminal(
                background: scheme["background"]!, foreground: scheme["foreground"]!,
                cursor: scheme["cursor"] ?? scheme["foreground"]!)
            for n in 0..<16 { want.colors[n] = scheme["color\(n)"] }
            for (got, (template, _)) in zip(try export(file), TerminalPaletteTests.exporters) {
                XCTAssertEqual(
                    got, TerminalPaletteTests.expected(want, in: template), "\(file) through \(template)")
            }
        }
    }

    /// What each scheme file says, by Python's plistlib and json through the readers of
    /// `expected_scheme_colours.py`: file → terminal name (`color9`, `background` …) → `rrggbb`.
    func expectedColours(_ files: [String]) throws -> [String: [String: String]] {
        let script = """
            import json, sys
            sys.path.insert(0, sys.argv[2])
            from expected_scheme_colours import iterm, pywal
            out = {}
            for path in sys.argv[3:]:
                colours = iterm(path) if path.endswith(".itermcolors") else pywal(path)
                for name, value in colours.items():
                    assert value.endswith("ff"), (path, name, value)  # opaque: nothing to lay over
                out[path] = {name: value[1:7] for name, value in colours.items()}
            print(json.dumps(out))
            """
        let r = try python(script, [Locations.repo + "/Tests/LiveryCoreTests/Formats"] + files)
        XCTAssertEqual(r.status, 0, "\(r)")
        return try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: [String: String]])
    }

    // MARK: base16 and base24 schemes

    /// base16 schemes: color0 base00, color1 base08, color2 base0B, color3 base0A, color4
    /// base0D, color5 base0E, color6 base0C, color7 base05, color8 base03, colors 9–14 as 1–6,
    /// color15 base07; base24 schemes: color7 base06 and their own bright colours, color9
    /// base12, color10 base14, color11 base13, color12 base16, color13 base17, color14 base15.
    func testBase16AndBase24SchemesKeepTintedThemingsTerminalMapping() throws {
        let base16 = [
            "00", "08", "0B", "0A", "0D", "0E", "0C", "05", "03", "08", "0B", "0A", "0D", "0E", "0C", "07",
        ]
        let base24 = [
            "00", "08", "0B", "0A", "0D", "0E", "0C", "06", "03", "12", "14", "13", "16", "17", "15", "07",
        ]
        var checked = 0
        for system in ["base16", "base24"] {
            let dir = Locations.schemes + "/" + system
            for name in try FileManager.default.contentsOfDirectory(atPath: dir).sorted() {
                let file = dir + "/" + name
                let slots = try schemeSlots(file)
                XCTAssertEqual(slots.count, system == "base24" ? 24 : 16, file)
                var want = Terminal(background: slots["00"]!, foreground: slots["05"]!, cursor: slots["05"]!)
                for (n, slot) in (system == "base24" ? base24 : base16).enumerated() {
                    want.colors[n] = slots[slot]
                }
                for (got, (template, _)) in zip(try export(file), TerminalPaletteTests.exporters) {
                    XCTAssertEqual(
                        got, TerminalPaletteTests.expected(want, in: template), "\(file) through \(template)")
                }
                checked += 1
            }
        }
        XCTAssertEqual(checked, 10)
    }

    /// `baseXX:` lines of a scheme's YAML: `"0D"` → `rrggbb`, read by hand.
    func schemeSlots(_ file: String) throws -> [String: String] {
        var out: [String: String] = [:]
        for line in try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard parts.count == 2, parts[0].hasPrefix("base"), parts[0].count == 6 else { continue }
            out[String(parts[0].dropFirst(4))] =
                parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"'#")).lowercased()
        }
        return out
    }

    // MARK: Every other theme

    /// OKLCH hues of sRGB's red, green, yellow, blue, magenta and cyan (`#ff0000` …), in
    /// degrees, for ANSI colours 1–6 (and 9–14).
    static let conventionalHues: [Double] = [29.23, 142.50, 109.77, 264.05, 328.36, 194.77]

    /// The shipped native themes, KDE's Breeze schemes, and two made here to be hard: a
    /// mid-grey background (neither black nor white text reaches 5:1 on it) with grey text, and
    /// a white one with pale text and a yellow accent.
    func testDerivedPalettesAreDistinctReadableAndOfTheirHues() throws {
        let made = try makeDirectory("themes")
        try writeBundle(
            "grey", in: made,
            sheet: """
                @theme { name: "Grey"; variant: dark; inherits: "default"; accent-color: @accent; }
                @define-color window_bg #767676;
                @define-color view_bg #767676;
                @define-color text #808080;
                @define-color accent #7a7a7a;
                """)
        try writeBundle(
            "pale", in: made,
            sheet: """
                @theme { name: "Pale"; variant: light; inherits: "default"; accent-color: @accent; }
                @define-color text #eeeeee;
                @define-color accent #ffff00;
                @define-color destructive #ffcccc;
                """)
        let themes = [
            "default", "default-dark", "forest", "crimson", "debug", "kde", "base16", "breezedark",
            "breezelight", "grey", "pale",
        ]
        var palettes: [String: Terminal] = [:]
        for id in themes {
            let dirs = ["--themes-dir", Locations.schemes + "/kde", "--themes-dir", made]
            let terminals = try export(id, dirs)
            let kitty = terminals[0]
            for (t, (template, _)) in zip(terminals, TerminalPaletteTests.exporters) {
                XCTAssertEqual(
                    t, TerminalPaletteTests.expected(kitty, in: template),
                    "\(id): \(template) and kitty differ")
            }
            palettes[id] = kitty
            let colors = (0..<16).map { kitty.colors[$0] ?? "" }
            XCTAssertEqual(Set(colors).count, 16, "\(id): not pairwise distinct: \(kitty)")
            for (n, c) in colors.enumerated() {
                let ratio = contrast(c, kitty.background)
                XCTAssertGreaterThanOrEqual(
                    ratio, 3, "\(id): color\(n) \(c) on \(kitty.background): \(ratio)")
            }
            let ratio = contrast(kitty.foreground, kitty.background)
            XCTAssertGreaterThanOrEqual(ratio, 4.5, "\(id): foreground \(kitty.foreground): \(ratio)")
            for n in [1, 2, 3, 4, 5, 6, 9, 10, 11, 12, 13, 14] {
                let (chroma, hue) = oklch(colors[n])
                let distances = TerminalPaletteTests.conventionalHues.map { angle(hue, $0) }
                let own = distances[(n - 1) % 8]
                // 0.03 is visibly tinted; the mid-grey background leaves its dark bright cyan no more.
                XCTAssertGreaterThanOrEqual(chroma, 0.03, "\(id): color\(n) \(colors[n]) is grey")
                XCTAssertLessThanOrEqual(own, 25, "\(id): color\(n) \(colors[n]) has hue \(hue)")
                XCTAssertEqual(
                    own, distances.min(), "\(id): color\(n) \(colors[n]) is nearer another hue: \(hue)")
            }
        }
        // The issue's report: default's black was its white background.
        XCTAssertNotEqual(palettes["default"]?.colors[0], "ffffff")
        // A theme colour of a conventional hue that is readable is that ANSI colour as it is:
        // forest's accent rgb(0 128 0) is its green, crimson's rgb(128 0 0) its red, default's
        // accent #007aff its blue and its destructive #ff3b30 its red (each above 3:1 on white).
        XCTAssertEqual(palettes["forest"]?.colors[2], "008000")
        XCTAssertEqual(palettes["crimson"]?.colors[1], "800000")
        XCTAssertEqual(palettes["default"]?.colors[4], "007aff")
        XCTAssertEqual(palettes["default"]?.colors[1], "ff3b30")
    }

    // MARK: Colour arithmetic of the test's own

    /// WCAG 2 contrast ratio of two `rrggbb` colours: (L1 + 0.05) / (L2 + 0.05), L the relative
    /// luminance, L1 the lighter.
    func contrast(_ a: String, _ b: String) -> Double {
        let (la, lb) = (luminance(a), luminance(b))
        return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
    }

    /// The sRGB channels of `rrggbb`, linear light (IEC 61966-2-1).
    func linear(_ hex: String) -> [Double] {
        let v = Int(hex, radix: 16) ?? 0
        let channels: [Int] = [v >> 16, (v >> 8) & 255, v & 255]
        return channels.map { (c: Int) -> Double in
            let x = Double(c) / 255
            return x <= 0.04045 ? x / 12.92 : pow((x + 0.055) / 1.055, 2.4)
        }
    }

    /// WCAG 2 relative luminance.
    func luminance(_ hex: String) -> Double {
        let c = linear(hex)
        return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]
    }

    /// OKLCH chroma and hue (degrees) of `rrggbb`, by Björn Ottosson's published matrices.
    func oklch(_ hex: String) -> (Double, Double) {
        let c = linear(hex)
        let l = cbrt(0.4122214708 * c[0] + 0.5363325363 * c[1] + 0.0514459929 * c[2])
        let m = cbrt(0.2119034982 * c[0] + 0.6806995451 * c[1] + 0.1073969566 * c[2])
        let s = cbrt(0.0883024619 * c[0] + 0.2817188376 * c[1] + 0.6299787005 * c[2])
        let a = 1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s
        let b = 0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s
        let hue = atan2(b, a) * 180 / .pi
        return (hypot(a, b), hue < 0 ? hue + 360 : hue)
    }

    /// The distance of two hues in degrees, 0–180.
    func angle(_ a: Double, _ b: Double) -> Double {
        let d = abs(a - b).truncatingRemainder(dividingBy: 360)
        return min(d, 360 - d)
    }

    // MARK: Exports and their readers

    /// Each exporter's colours for `theme`, read from `livery export THEME TEMPLATE --themes-dir
    /// themes …`'s output. One export renders all: the template is ``exporters``' templates
    /// joined by a line of their own, and Mustache renders a concatenation as the concatenation
    /// of the renderings (they set no delimiters).
    func export(_ theme: String, _ dirs: [String] = []) throws -> [Terminal] {
        let separator = "\n=== next template ===\n"
        let all = root + "/all.mustache"
        if !FileManager.default.fileExists(atPath: all) {
            try TerminalPaletteTests.exporters.map {
                try String(contentsOfFile: Locations.repo + "/plugins/" + $0.template, encoding: .utf8)
            }.joined(separator: separator).write(toFile: all, atomically: true, encoding: .utf8)
        }
        let r = try run(Locations.livery, ["export", theme, all, "--themes-dir", Locations.themes] + dirs)
        XCTAssertEqual(r.status, 0, "\(r)")
        let outputs = r.stdout.components(separatedBy: separator)
        XCTAssertEqual(outputs.count, TerminalPaletteTests.exporters.count, r.stdout)
        return try zip(TerminalPaletteTests.exporters, outputs).map { try $0.0.read($0.1) }
    }

    /// `#rrggbb` or `rrggbb` (any case) → `rrggbb`, or nil for anything else.
    static func hex(_ s: Substring) -> String? {
        let t = s.trimmingCharacters(in: CharacterSet(charactersIn: " \"#"))
        return t.count == 6 && Int(t, radix: 16) != nil ? t.lowercased() : nil
    }

    /// Lines `key value`, `key = value`, `key=value` or `key: value`, as (key, value).
    static func pairs(_ text: String, separator: Character) -> [(String, Substring)] {
        text.split(separator: "\n").compactMap { line in
            guard !line.hasPrefix("#"), !line.hasPrefix("!"), let i = line.firstIndex(of: separator) else {
                return nil
            }
            return (line[..<i].trimmingCharacters(in: .whitespaces), line[line.index(after: i)...])
        }
    }

    /// kitty.conf: `colorN #rrggbb`, `background`, `foreground`, `cursor`.
    static func kitty(_ text: String) throws -> Terminal {
        var t = Terminal()
        for (key, value) in pairs(text, separator: " ") {
            guard let v = hex(value) else { continue }
            switch key {
            case "background": t.background = v
            case "foreground": t.foreground = v
            case "cursor": t.cursor = v
            default:
                if key.hasPrefix("color"), let n = Int(key.dropFirst(5)) { t.colors[n] = v }
            }
        }
        return t
    }

    /// alacritty's TOML: `[colors.primary]`, `[colors.cursor]`, `[colors.normal]` and
    /// `[colors.bright]` with `black` … `white`.
    static func alacritty(_ text: String) throws -> Terminal {
        let names = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"]
        var t = Terminal()
        var table = ""
        for line in text.split(separator: "\n") {
            if line.hasPrefix("[") {
                table = String(line)
                continue
            }
            guard let i = line.firstIndex(of: "="), let v = hex(line[line.index(after: i)...]) else {
                continue
            }
            let key = line[..<i].trimmingCharacters(in: .whitespaces)
            switch (table, key) {
            case ("[colors.primary]", "background"): t.background = v
            case ("[colors.primary]", "foreground"): t.foreground = v
            case ("[colors.cursor]", "cursor"): t.cursor = v
            case ("[colors.normal]", _): if let n = names.firstIndex(of: key) { t.colors[n] = v }
            case ("[colors.bright]", _): if let n = names.firstIndex(of: key) { t.colors[8 + n] = v }
            default: break
            }
        }
        return t
    }

    /// alacritty.yml (0.11, 0.12): `colors:` with `primary`, `cursor`, `normal` and `bright`
    /// mappings two spaces in, their keys four.
    static func alacrittyYAML(_ text: String) throws -> Terminal {
        let names = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"]
        var t = Terminal()
        var section = ""
        for line in text.split(separator: "\n") {
            if line.hasPrefix("  ") && !line.hasPrefix("    ") {
                section = line.trimmingCharacters(in: .whitespaces)
                continue
            }
            guard line.hasPrefix("    "), let i = line.firstIndex(of: ":"),
                let v = hex(line[line.index(after: i)...])
            else { continue }
            let key = line[..<i].trimmingCharacters(in: .whitespaces)
            switch (section, key) {
            case ("primary:", "background"): t.background = v
            case ("primary:", "foreground"): t.foreground = v
            case ("cursor:", "cursor"): t.cursor = v
            case ("normal:", _): if let n = names.firstIndex(of: key) { t.colors[n] = v }
            case ("bright:", _): if let n = names.firstIndex(of: key) { t.colors[8 + n] = v }
            default: break
            }
        }
        return t
    }

    /// foot.ini: `[colors]` `regularN=`, `brightN=`, `background=`, `foreground=`.
    static func foot(_ text: String) throws -> Terminal {
        var t = Terminal()
        for (key, value) in pairs(text, separator: "=") {
            guard let v = hex(value) else { continue }
            switch key {
            case "background": t.background = v
            case "foreground": t.foreground = v
            default:
                if key.hasPrefix("regular"), let n = Int(key.dropFirst(7)) { t.colors[n] = v }
                if key.hasPrefix("bright"), let n = Int(key.dropFirst(6)) { t.colors[8 + n] = v }
            }
        }
        return t
    }

    /// ghostty's theme: `palette = N=#rrggbb`, `background`, `foreground`, `cursor-color`.
    static func ghostty(_ text: String) throws -> Terminal {
        var t = Terminal()
        for (key, value) in pairs(text, separator: "=") {
            if key == "palette" {
                let parts = value.split(separator: "=")
                if parts.count == 2, let n = Int(parts[0].trimmingCharacters(in: .whitespaces)) {
                    t.colors[n] = hex(parts[1])
                }
                continue
            }
            guard let v = hex(value) else { continue }
            switch key {
            case "background": t.background = v
            case "foreground": t.foreground = v
            case "cursor-color": t.cursor = v
            default: break
            }
        }
        return t
    }

    /// X resources: `*.colorN: #rrggbb`, `*.background`, `*.foreground`, `*.cursorColor`.
    static func xresources(_ text: String) throws -> Terminal {
        var t = Terminal()
        for (key, value) in pairs(text, separator: ":") {
            guard let v = hex(value) else { continue }
            switch key {
            case "*.background": t.background = v
            case "*.foreground": t.foreground = v
            case "*.cursorColor": t.cursor = v
            default:
                if key.hasPrefix("*.color"), let n = Int(key.dropFirst(7)) { t.colors[n] = v }
            }
        }
        return t
    }

    /// Konsole's colour scheme: `[ColorN]` (N 0–7) and `[ColorNIntense]` (8 + N) sections, and
    /// `[Background]` and `[Foreground]`, each with `Color=#rrggbb`; the faint and intense
    /// background and foreground must be the same as the plain ones.
    static func konsole(_ text: String) throws -> Terminal {
        var t = Terminal()
        var section = ""
        for line in text.split(separator: "\n") {
            if line.hasPrefix("[") {
                section = String(line.dropFirst().dropLast())
                continue
            }
            guard line.hasPrefix("Color="), let v = hex(line.dropFirst(6)) else { continue }
            switch section {
            case "Background": t.background = v
            case "Foreground": t.foreground = v
            case "BackgroundIntense", "BackgroundFaint": XCTAssertEqual(v, t.background, section)
            case "ForegroundIntense", "ForegroundFaint": XCTAssertEqual(v, t.foreground, section)
            default:
                guard section.hasPrefix("Color"), let n = Int(String(section.dropFirst(5).prefix(1))) else {
                    continue
                }
                if section.hasSuffix("Intense") {
                    t.colors[8 + n] = v
                } else if section.hasSuffix("Faint") {
                    XCTAssertEqual(v, t.colors[n], section)
                } else {
                    t.colors[n] = v
                }
            }
        }
        return t
    }

    /// GNOME Terminal's profile keys as the plugin writes them, `KEY GVARIANT`: `palette` a list
    /// of sixteen `'#rrggbb'`, `background-color`, `foreground-color`, `cursor-background-color`.
    static func gnomeTerminal(_ text: String) throws -> Terminal {
        var t = Terminal()
        for (key, value) in pairs(text, separator: " ") {
            switch key {
            case "palette":
                for (n, entry) in value.split(separator: ",").enumerated() {
                    t.colors[n] = hex(entry.trimmingCharacters(in: CharacterSet(charactersIn: " []'"))[...])
                }
            case "background-color":
                t.background = hex(value.trimmingCharacters(in: CharacterSet(charactersIn: " '"))[...]) ?? ""
            case "foreground-color":
                t.foreground = hex(value.trimmingCharacters(in: CharacterSet(charactersIn: " '"))[...]) ?? ""
            case "cursor-background-color":
                t.cursor = hex(value.trimmingCharacters(in: CharacterSet(charactersIn: " '"))[...]) ?? ""
            default: break
            }
        }
        return t
    }

    /// Escape sequences `ESC ] 4 ; N ; #rrggbb ESC \` (palette entry N), `ESC ] 10 ; …` (foreground),
    /// `11` (background), `12` (cursor).
    static func sequences(_ text: String) throws -> Terminal {
        var t = Terminal()
        for sequence in text.components(separatedBy: "\u{1B}\\") where sequence.hasPrefix("\u{1B}]") {
            let fields = sequence.dropFirst(2).split(separator: ";")
            switch (fields.first, fields.count) {
            case ("4", 3): if let n = Int(fields[1]) { t.colors[n] = hex(fields[2]) }
            case ("10", 2): t.foreground = hex(fields[1]) ?? ""
            case ("11", 2): t.background = hex(fields[1]) ?? ""
            case ("12", 2): t.cursor = hex(fields[1]) ?? ""
            default: XCTFail("unexpected sequence \(sequence.debugDescription)")
            }
        }
        return t
    }

    /// pywal's sequences (its sequences.py on Linux): OSC 4 for colours 0 to 15, 10, 11 and 12,
    /// as the shell's, and the copies pywal adds, each the colour it copies: OSC 13 and 17 and
    /// colour 256 the foreground, OSC 19 and 708 and colours 232 and 257 the background.
    static func pywalSequences(_ text: String) throws -> Terminal {
        var t = Terminal()
        var copies: [String: String] = [:]
        for sequence in text.components(separatedBy: "\u{1B}\\") where sequence.hasPrefix("\u{1B}]") {
            let fields = sequence.dropFirst(2).split(separator: ";")
            switch (fields.first, fields.count) {
            case ("4", 3):
                guard let n = Int(fields[1]) else {
                    XCTFail(sequence.debugDescription)
                    continue
                }
                if n < 16 { t.colors[n] = hex(fields[2]) } else { copies["4;\(n)"] = hex(fields[2]) ?? "" }
            case ("10", 2): t.foreground = hex(fields[1]) ?? ""
            case ("11", 2): t.background = hex(fields[1]) ?? ""
            case ("12", 2): t.cursor = hex(fields[1]) ?? ""
            case (let n?, 2): copies[String(n)] = hex(fields[1]) ?? ""
            default: XCTFail("unexpected sequence \(sequence.debugDescription)")
            }
        }
        XCTAssertEqual(
            copies,
            [
                "13": t.foreground, "17": t.foreground, "4;256": t.foreground, "19": t.background,
                "708": t.background, "4;232": t.background, "4;257": t.background,
            ])
        return t
    }

    /// pywal's colors.json: `special` (`background`, `foreground`, `cursor`) and `colors`
    /// (`color0` … `color15`).
    static func pywalJSON(_ text: String) throws -> Terminal {
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let special = try XCTUnwrap(json["special"] as? [String: String])
        let colors = try XCTUnwrap(json["colors"] as? [String: String])
        var t = Terminal(
            background: hex(special["background"]?[...] ?? "") ?? "",
            foreground: hex(special["foreground"]?[...] ?? "") ?? "",
            cursor: hex(special["cursor"]?[...] ?? "") ?? "")
        for (key, value) in colors {
            if let n = Int(key.dropFirst(5)) { t.colors[n] = hex(value[...]) }
        }
        return t
    }
}
