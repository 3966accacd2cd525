import Foundation
import LiveryCore
import Mustache
import XCTest

@testable import LiveryDaemon
@testable import LiveryService

/// Every shipped plugin reads without errors and renders, for a base16 scheme, the scheme's own
/// colours in each program's syntax (the values read from the scheme file here, not from Livery).
final class ShippedPluginTests: XCTestCase {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// `baseXX` → lower-case hex, read from the fixture with a regular expression.
    func slots(_ scheme: String) throws -> [String: String] {
        let text = try String(contentsOf: root.appendingPathComponent(scheme), encoding: .utf8)
        var out: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard parts.count == 2, parts[0].hasPrefix("base"), parts[0].count == 6 else { continue }
            out[parts[0]] = parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"#")).lowercased()
        }
        return out
    }

    func testEveryShippedPluginRendersTheSchemesColoursInItsProgramsSyntax() throws {
        let s = try slots("Tests/Fixtures/schemes/base16/nord.yaml")
        XCTAssertEqual(s["base00"], "2e3440")
        let catalog = ThemeCatalog(searchPath: [
            root.appendingPathComponent("themes").path,
            root.appendingPathComponent("Tests/Fixtures/schemes/base16").path,
        ])
        let schema = try Schema.load(from: root.appendingPathComponent("themes/schema.json"))
        let theme = try XCTUnwrap(catalog.compile("nord", schema: schema).theme)
        let snapshot = ThemeSnapshot(cascade: Cascade(theme: theme), serial: 1)
        let expected: [String: [String]] = [
            "foot": ["background=\(s["base00"]!)", "regular1=\(s["base08"]!)", "bright7=\(s["base07"]!)"],
            "alacritty": [
                "background = \"#\(s["base00"]!)\"", "blue = \"#\(s["base0D"]!)\"",
                "white = \"#\(s["base07"]!)\"",
            ],
            // alacritty 0.11 and 0.12 read YAML: the same colours, two spaces a level.
            "alacritty/alacritty-yaml.mustache": [
                "    background: \"#\(s["base00"]!)\"", "    blue: \"#\(s["base0D"]!)\"",
                "    white: \"#\(s["base07"]!)\"",
            ],
            "ghostty": [
                "background = #\(s["base00"]!)", "palette = 1=#\(s["base08"]!)",
                "palette = 15=#\(s["base07"]!)",
            ],
            "xresources": ["*.background: #\(s["base00"]!)", "*.color4: #\(s["base0D"]!)"],
            // The gtk plugin's exports, each by its template: libadwaita's named colours for
            // gtk.css, the GTK theme's colours (GTK 3's names and libadwaita's), and its gtk.css
            // for each GTK: the built-in theme of the scheme's variant, then the colours.
            "gtk/libadwaita.mustache": [
                "@define-color accent_bg_color #\(s["base0D"]!);",
                "@define-color window_bg_color #\(s["base00"]!);",
            ],
            "gtk/colors.mustache": [
                "@define-color theme_bg_color #\(s["base00"]!);",
                "@define-color theme_fg_color #\(s["base05"]!);",
                "@define-color theme_selected_bg_color #\(s["base0D"]!);",
                "@define-color window_bg_color #\(s["base00"]!);",
            ],
            "gtk/gtk3.mustache": [
                "@import url(\"resource:///org/gtk/libgtk/theme/Adwaita/gtk-contained-dark.css\");",
                "@import url(\"../colors.css\");",
            ],
            "gtk/gtk4.mustache": [
                "@import url(\"resource:///org/gtk/libgtk/theme/Default/Default-dark.css\");",
                "@import url(\"../colors.css\");",
            ],
            // libadwaita's own stylesheet and defaults of the scheme's variant, then libadwaita's
            // named colours (libadwaita.mustache's, beside it).
            "gtk/adwaita.mustache": [
                "@import url(\"resource:///org/gnome/Adwaita/styles/base.css\");",
                "@import url(\"resource:///org/gnome/Adwaita/styles/defaults-dark.css\");",
                "@import url(\"../colors.css\");",
            ],
            "kitty": [
                "background #\(s["base00"]!)", "color1 #\(s["base08"]!)",
                "tab_bar_background #\(s["base01"]!)",
            ],
            "tmux": [
                "set-option -g status-style \"fg=#\(s["base04"]!),bg=#\(s["base01"]!)\"",
                "set-window-option -g pane-border-style \"fg=#\(s["base01"]!)\"",
            ],
            "waybar": ["@define-color base00 #\(s["base00"]!);", "@define-color base0D #\(s["base0D"]!);"],
            "rofi": [
                "    background:                  #\(s["base00"]!);",
                "    red:                         #\(s["base08"]!);",
            ],
            "mako": ["background-color=#\(s["base00"]!)", "border-color=#\(s["base0D"]!)"],
            // base16-i3's window colours: border, background, text, indicator, child border.
            "sway": [
                "set $base0D #\(s["base0D"]!)",
                "client.focused          $base05 $base0D    $base00 $base0D   $base0C",
            ],
            "i3": ["set $base08 #\(s["base08"]!)", "client.background       $base07"],
            // base16-dunst's urgencies.
            "dunst": [
                "    background = \"#\(s["base02"]!)\"", "    background = \"#\(s["base08"]!)\"",
                "    frame_color = \"#\(s["base05"]!)\"",
            ],
            // QPalette's 21 roles in order: WindowText, Button, … Window (11th), … Highlight (13th).
            "qt": [
                "active_colors="
                    + [
                        "05", "01", "02", "02", "03", "03", "05", "07", "05", "00", "00", "00", "0D", "00",
                        "0D", "0E", "01", "00", "01", "05", "04",
                    ].map { "#ff" + s["base" + $0]! }.joined(separator: ", ")
            ],
            // The slots in the table the highlight groups are set from.
            "vim": [
                "      \\ '00': '\(s["base00"]!)', '01': '\(s["base01"]!)', '02': '\(s["base02"]!)', '03': '\(s["base03"]!)',"
            ],
        ]
        // A home for `~/` in outputs; nothing is written there.
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("livery-shipped-\(getpid())")
        let dir = root.appendingPathComponent("plugins").path
        let names = try FileManager.default.contentsOfDirectory(atPath: dir).filter { !$0.hasPrefix(".") }
            .sorted()
        XCTAssertEqual(
            names,
            [
                "alacritty", "bspwm", "btop", "cava", "dunst", "feh", "foot", "fuzzel",
                "fzf", "ghostty", "gnome", "gnome-terminal", "gtk", "hyprland", "i3", "kitty",
                "konsole", "mako", "plasma", "plasma-colors", "polybar", "pywal", "qt", "rofi",
                "shell", "sway", "swaybg", "swaync", "tmux", "vim", "waybar", "wofi",
                "xresources", "zathura",
            ])
        for name in names {
            let plugin = PluginCatalog.load(
                name: name, origin: "shipped", directory: dir + "/" + name,
                manifest: dir + "/" + name + "/plugin.yaml", home: home.path)
            XCTAssertEqual(plugin.errors, [], name)
            XCTAssertEqual(plugin.templates.count, plugin.manifest.exports.count, name)
            for (export, templates) in zip(plugin.manifest.exports, plugin.templates) {
                if export.syntax == .pywal {
                    // pywal's templates (their output is checked against wal's in PywalCacheTests).
                    for (relative, template) in templates.pywal {
                        XCTAssertNoThrow(
                            try template.get().render(
                                PywalColors(
                                    colors: [], background: "#000000", foreground: "#ffffff",
                                    cursor: "#ffffff")), relative)
                    }
                    continue
                }
                let template = try XCTUnwrap(
                    templates.template(named: export.template, system: "base16"), name)
                let text = try template.render(snapshot.variables)
                let sequences = export.template == "sequences.mustache"
                // The theme's name in a comment, but where the file is run as commands (fzf,
                // bspwm, Hyprland) or has no comment to hold it.
                let unnamed: Set = [
                    "pywal", "shell", "gtk", "xresources", "waybar", "rofi", "bspwm", "btop", "cava",
                    "fuzzel",
                    "fzf", "gnome-terminal", "hyprland", "konsole", "plasma-colors", "polybar", "swaync",
                    "wofi",
                    "zathura",
                ]
                if !unnamed.contains(name) && !sequences {
                    XCTAssertTrue(text.contains("Nord"), "\(name): \(text.prefix(200))")
                }
                if name == "xresources" {
                    // xrdb runs the file through cpp, where a name could open a comment: the id.
                    XCTAssertTrue(text.hasPrefix("! Written by Livery for the theme nord (dark)"), text)
                }
                if ["gtk", "waybar", "rofi"].contains(name) {
                    // CSS has only block comments, which a name could end: the id is named.
                    XCTAssertTrue(text.hasPrefix("/* Written by Livery for the theme nord (dark)"), text)
                }
                if name == "pywal" && !sequences {
                    // pywal's own colors.json: JSON with special and colors.
                    let json = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
                    XCTAssertEqual((json?["special"] as? [String: String])?["background"], "#\(s["base00"]!)")
                    XCTAssertEqual((json?["colors"] as? [String: String])?["color1"], "#\(s["base08"]!)")
                    XCTAssertEqual((json?["colors"] as? [String: String])?.count, 16)
                }
                if name == "qt" {
                    // qt5ct and qt6ct read a group only with QPalette::NColorRoles colours: 21.
                    let groups = text.split(separator: "\n").filter { $0.contains("_colors=") }
                    XCTAssertEqual(
                        groups.map { $0.split(separator: "=")[0] },
                        ["active_colors", "disabled_colors", "inactive_colors"])
                    for group in groups {
                        XCTAssertEqual(group.split(separator: ",").count, 21, String(group))
                    }
                }
                if sequences {
                    // OSC 4 sets palette entry 1, OSC 11 the background (ESC ] … ESC \).
                    XCTAssertTrue(text.contains("\u{1B}]4;1;#\(s["base08"]!)\u{1B}\\"), name)
                    XCTAssertTrue(text.contains("\u{1B}]11;#\(s["base00"]!)\u{1B}\\"), name)
                }
                let lines = sequences ? [] : expected[name + "/" + export.template] ?? expected[name] ?? []
                for line in lines {
                    XCTAssertTrue(
                        text.split(separator: "\n").contains(Substring(line)), "\(name) lacks '\(line)'")
                }
            }
        }
    }
}

/// Plugins are read again at every change; the file cache reuses a parse only for the same bytes.
final class PluginFileCacheTests: XCTestCase {
    func testAnEditOfTheSameLengthIsReadAgainAndUnchangedBytesAreReused() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "livery-cache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        let manifest = dir.appendingPathComponent("plugin.yaml")
        try "exports:\n  - template: t.mustache\n    outptu: /tmp/x\n".write(
            to: manifest, atomically: true, encoding: .utf8)
        try "{{base00-hex}}\n".write(
            to: dir.appendingPathComponent("t.mustache"), atomically: true, encoding: .utf8)
        let cache = PluginFileCache()
        func load() -> LoadedPlugin {
            PluginCatalog.load(
                name: "p", origin: "user", directory: dir.path, manifest: manifest.path, home: dir.path,
                cache: cache)
        }
        XCTAssertTrue(load().errors.joined().contains("unknown key 'outptu'"))
        // The same length, at once: within one timestamp tick, so only the bytes tell.
        try "exports:\n  - template: t.mustache\n    output: /tmp/xy\n".write(
            to: manifest, atomically: true, encoding: .utf8)
        let fixed = load()
        XCTAssertEqual(fixed.errors, [])
        XCTAssertEqual(fixed.manifest.exports.map(\.output), ["/tmp/xy"])
        let template = try XCTUnwrap(fixed.templates[0].template(named: "t.mustache", system: "base16"))
        XCTAssertEqual(try template.render(["base00-hex": "2e3440"]), "2e3440\n")
        try "{{#base00-hex}\n".write(
            to: dir.appendingPathComponent("t.mustache"), atomically: true, encoding: .utf8)
        XCTAssertEqual(load().errors.count, 1)
        XCTAssertEqual(load().errors, load().errors)
    }
}

/// Outputs are written atomically through symbolic links, and never over anything but a regular
/// file. Found by a newcomer's trial: a link was replaced by a file, and a link to /dev/null
/// became a file of mode 0666.
final class OutputWritingTests: XCTestCase {
    func testALinkIsWrittenThroughAndADeviceIsRefused() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "livery-out-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(atPath: dir + "/dotfiles", withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: dir) }
        try "old\n".write(toFile: dir + "/dotfiles/colors.conf", atomically: true, encoding: .utf8)
        chmod(dir + "/dotfiles/colors.conf", 0o600)
        try FileManager.default.createSymbolicLink(
            atPath: dir + "/colors.conf", withDestinationPath: "dotfiles/colors.conf")
        XCTAssertTrue(try OutputFile.write(Array("new\n".utf8), to: dir + "/colors.conf"))
        XCTAssertEqual(
            try FileManager.default.destinationOfSymbolicLink(atPath: dir + "/colors.conf"),
            "dotfiles/colors.conf",
            "the link stays a link")
        XCTAssertEqual(try String(contentsOfFile: dir + "/dotfiles/colors.conf", encoding: .utf8), "new\n")
        var st = stat()
        XCTAssertEqual(stat(dir + "/dotfiles/colors.conf", &st), 0)
        XCTAssertEqual(st.st_mode & 0o777, 0o600, "a rewritten file keeps its mode")
        try FileManager.default.createSymbolicLink(atPath: dir + "/null", withDestinationPath: "/dev/null")
        XCTAssertThrowsError(try OutputFile.write(Array("x\n".utf8), to: dir + "/null")) { e in
            XCTAssertTrue("\(e)".contains("not a regular file"), "\(e)")
        }
        XCTAssertEqual(stat("/dev/null", &st), 0)
        XCTAssertEqual(st.st_mode & S_IFMT, S_IFCHR, "/dev/null is untouched")
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: dir + "/null"), "/dev/null")
    }
}
