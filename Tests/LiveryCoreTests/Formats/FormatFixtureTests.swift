import Foundation
import XCTest

@testable import LiveryCore

/// The terminal (iTerm2, pywal) and KDE fixture schemes read by their formats: every palette
/// colour exactly as `expected_scheme_colours.py` (beside this file) computes it from the
/// formats' rules with Python's own readers (plistlib, json) and a P3 → sRGB matrix derived
/// from the primaries; regenerate the table with `python3 Tests/LiveryCoreTests/Formats/expected_scheme_colours.py`.
final class FormatFixtureTests: XCTestCase {
    static let expected: [String: [String: String]] = [
        "iterm2/3024 Night.itermcolors": [
            "background": "#090300ff", "bold": "#a5a2a2ff", "color0": "#090300ff", "color1": "#db2d20ff",
            "color10": "#3a3432ff", "color11": "#4a4543ff", "color12": "#807d7cff", "color13": "#d6d5d4ff",
            "color14": "#cdab53ff", "color15": "#f7f7f7ff", "color2": "#01a252ff", "color3": "#fded02ff",
            "color4": "#01a0e4ff", "color5": "#a16a94ff", "color6": "#b5e4f4ff", "color7": "#a5a2a2ff",
            "color8": "#5c5855ff", "color9": "#e8bbd0ff", "cursor": "#a5a2a2ff", "cursor-text": "#090300ff",
            "foreground": "#a5a2a2ff", "selection-background": "#4a4543ff",
            "selection-foreground": "#a5a2a2ff",
        ],
        "iterm2/Aardvark Blue.itermcolors": [
            "background": "#102040ff", "bold": "#f7f7f7ff", "color0": "#191919ff", "color1": "#aa342eff",
            "color10": "#95dc55ff", "color11": "#ffe763ff", "color12": "#60a4ecff", "color13": "#e26be2ff",
            "color14": "#60b6cbff", "color15": "#f7f7f7ff", "color2": "#4b8c0fff", "color3": "#dbba00ff",
            "color4": "#1370d3ff", "color5": "#c43ac3ff", "color6": "#008eb0ff", "color7": "#bebebeff",
            "color8": "#454545ff", "color9": "#f05b50ff", "cursor": "#007accff", "cursor-text": "#bfdbfeff",
            "foreground": "#ddddddff", "selection-background": "#bfdbfeff",
            "selection-foreground": "#000000ff",
        ],
        "iterm2/Apple System Colors Light.itermcolors": [
            "background": "#feffffff", "bold": "#000000ff", "color0": "#1a1a1aff", "color1": "#cc372eff",
            "color10": "#32d74bff", "color11": "#ffd60aff", "color12": "#0a84ffff", "color13": "#bf5af2ff",
            "color14": "#76d6ffff", "color15": "#ffffffff", "color2": "#26a439ff", "color3": "#cdac08ff",
            "color4": "#0869cbff", "color5": "#9647bfff", "color6": "#479ec2ff", "color7": "#98989dff",
            "color8": "#464646ff", "color9": "#ff453aff", "cursor": "#98989dff", "cursor-text": "#ffffffff",
            "foreground": "#000000ff", "selection-background": "#abd8ffff",
            "selection-foreground": "#000000ff",
        ],
        "iterm2/Builtin Dark.itermcolors": [
            "background": "#000000ff", "bold": "#ffffffff", "color0": "#000000ff", "color1": "#bb0000ff",
            "color10": "#55ff55ff", "color11": "#ffff55ff", "color12": "#5555ffff", "color13": "#ff55ffff",
            "color14": "#55ffffff", "color15": "#ffffffff", "color2": "#00bb00ff", "color3": "#bbbb00ff",
            "color4": "#0000bbff", "color5": "#bb00bbff", "color6": "#00bbbbff", "color7": "#bbbbbbff",
            "color8": "#555555ff", "color9": "#ff5555ff", "cursor": "#bbbbbbff", "cursor-text": "#ffffffff",
            "foreground": "#bbbbbbff", "selection-background": "#b5d5ffff",
            "selection-foreground": "#000000ff",
        ],
        "iterm2/Builtin Light.itermcolors": [
            "background": "#ffffffff", "bold": "#000000ff", "color0": "#000000ff", "color1": "#bb0000ff",
            "color10": "#55ff55ff", "color11": "#ffff55ff", "color12": "#5555ffff", "color13": "#ff55ffff",
            "color14": "#55ffffff", "color15": "#ffffffff", "color2": "#00bb00ff", "color3": "#bbbb00ff",
            "color4": "#0000bbff", "color5": "#bb00bbff", "color6": "#00bbbbff", "color7": "#bbbbbbff",
            "color8": "#555555ff", "color9": "#ff5555ff", "cursor": "#000000ff", "cursor-text": "#ffffffff",
            "foreground": "#000000ff", "selection-background": "#b5d5ffff",
            "selection-foreground": "#000000ff",
        ],
        "iterm2/Cobalt Next.itermcolors": [
            "background": "#162c35ff", "bold": "#ffffffff", "color0": "#000000ff", "color1": "#ff527bff",
            "color10": "#baddbbff", "color11": "#ffdc91ff", "color12": "#7ac0ebff", "color13": "#f3ccefff",
            "color14": "#84e4e3ff", "color15": "#ffffffff", "color2": "#8cc98fff", "color3": "#ffc64cff",
            "color4": "#409dd4ff", "color5": "#cba3c7ff", "color6": "#37b6b4ff", "color7": "#d7deeaff",
            "color8": "#62747fff", "color9": "#e47e8bff", "cursor": "#ffc64cff", "cursor-text": "#d7deeaff",
            "foreground": "#d7deeaff", "selection-background": "#4c5b67ff",
            "selection-foreground": "#ffffffff",
        ],
        "iterm2/Dark Modern.itermcolors": [
            "background": "#1f1f1fff", "bold": "#ffffffff", "color0": "#272727ff", "color1": "#f74949ff",
            "color10": "#23d18bff", "color11": "#f5f543ff", "color12": "#3b8eeaff", "color13": "#d670d6ff",
            "color14": "#29b8dbff", "color15": "#e5e5e5ff", "color2": "#2ea043ff", "color3": "#9e6a03ff",
            "color4": "#0078d4ff", "color5": "#d01273ff", "color6": "#1db4d6ff", "color7": "#ccccccff",
            "color8": "#5d5d5dff", "color9": "#dc5452ff", "cursor": "#ffffffff", "cursor-text": "#000000ff",
            "foreground": "#ccccccff", "selection-background": "#3a3d41ff",
            "selection-foreground": "#e0e0e0ff",
        ],
        "pywal/dark/base16-nord.json": [
            "background": "#2e3440ff", "color0": "#2e3440ff", "color1": "#88c0d0ff", "color10": "#bf616aff",
            "color11": "#5e81acff", "color12": "#ebcb8bff", "color13": "#a3be8cff", "color14": "#d08770ff",
            "color15": "#8fbcbbff", "color2": "#bf616aff", "color3": "#5e81acff", "color4": "#ebcb8bff",
            "color5": "#a3be8cff", "color6": "#d08770ff", "color7": "#e5e9f0ff", "color8": "#4c566aff",
            "color9": "#88c0d0ff", "cursor": "#e5e9f0ff", "foreground": "#e5e9f0ff",
        ],
        "pywal/dark/monokai.json": [
            "background": "#272822ff", "color0": "#272822ff", "color1": "#f92672ff", "color10": "#a6e22eff",
            "color11": "#f4bf75ff", "color12": "#66d9efff", "color13": "#ae81ffff", "color14": "#a1efe4ff",
            "color15": "#f9f8f5ff", "color2": "#a6e22eff", "color3": "#f4bf75ff", "color4": "#66d9efff",
            "color5": "#ae81ffff", "color6": "#a1efe4ff", "color7": "#f8f8f2ff", "color8": "#75715eff",
            "color9": "#f92672ff", "cursor": "#f92672ff", "foreground": "#f8f8f2ff",
        ],
        "pywal/dark/sexy-gotham.json": [
            "background": "#0a0f14ff", "color0": "#0a0f14ff", "color1": "#c33027ff", "color10": "#26a98bff",
            "color11": "#edb54bff", "color12": "#195465ff", "color13": "#4e5165ff", "color14": "#33859dff",
            "color15": "#98d1ceff", "color16": "#10151bff", "color17": "#d26939ff", "color2": "#26a98bff",
            "color3": "#edb54bff", "color4": "#195465ff", "color5": "#4e5165ff", "color6": "#33859dff",
            "color7": "#98d1ceff", "color8": "#364b61ff", "color9": "#c33027ff", "cursor": "#d26939ff",
            "foreground": "#98d1ceff",
        ],
        "pywal/light/base16-github.json": [
            "background": "#ffffffff", "color0": "#ffffffff", "color1": "#ed6a43ff", "color10": "#183691ff",
            "color11": "#795da3ff", "color12": "#795da3ff", "color13": "#a71d5dff", "color14": "#183691ff",
            "color15": "#333333ff", "color2": "#183691ff", "color3": "#795da3ff", "color4": "#795da3ff",
            "color5": "#a71d5dff", "color6": "#183691ff", "color7": "#333333ff", "color8": "#969896ff",
            "color9": "#ed6a43ff", "cursor": "#333333ff", "foreground": "#333333ff",
        ],
        "pywal/light/solarized.json": [
            "background": "#eee8d5ff", "color0": "#eee8d5ff", "color1": "#dc322fff", "color10": "#859900ff",
            "color11": "#b58900ff", "color12": "#268bd2ff", "color13": "#d33682ff", "color14": "#2aa198ff",
            "color15": "#073642ff", "color2": "#859900ff", "color3": "#b58900ff", "color4": "#268bd2ff",
            "color5": "#d33682ff", "color6": "#2aa198ff", "color7": "#073642ff", "color8": "#6c7c80ff",
            "color9": "#dc322fff", "cursor": "#dc322fff", "foreground": "#002b36ff",
        ],
        "kde/BreezeDark.colors": [
            "button-background-alternate": "#1e5774ff", "button-background-normal": "#31363bff",
            "button-decoration-focus": "#3daee9ff", "button-decoration-hover": "#3daee9ff",
            "button-foreground-active": "#3daee9ff", "button-foreground-inactive": "#a1a9b1ff",
            "button-foreground-link": "#1d99f3ff", "button-foreground-negative": "#da4453ff",
            "button-foreground-neutral": "#f67400ff", "button-foreground-normal": "#fcfcfcff",
            "button-foreground-positive": "#27ae60ff", "button-foreground-visited": "#9b59b6ff",
            "complementary-background-alternate": "#ffffffff", "complementary-background-normal": "#eff0f1ff",
            "complementary-decoration-focus": "#3daee9ff", "complementary-decoration-hover": "#3daee9ff",
            "complementary-foreground-active": "#3daee9ff", "complementary-foreground-inactive": "#707d8aff",
            "complementary-foreground-link": "#1d99f3ff", "complementary-foreground-negative": "#da4453ff",
            "complementary-foreground-neutral": "#f67400ff", "complementary-foreground-normal": "#1b1e20ff",
            "complementary-foreground-positive": "#27ae60ff", "complementary-foreground-visited": "#9b59b6ff",
            "header-background-alternate": "#2a2e32ff", "header-background-normal": "#31363bff",
            "header-decoration-focus": "#3daee9ff", "header-decoration-hover": "#3daee9ff",
            "header-foreground-active": "#3daee9ff", "header-foreground-inactive": "#a1a9b1ff",
            "header-foreground-link": "#1d99f3ff", "header-foreground-negative": "#da4453ff",
            "header-foreground-neutral": "#f67400ff", "header-foreground-normal": "#fcfcfcff",
            "header-foreground-positive": "#27ae60ff", "header-foreground-visited": "#9b59b6ff",
            "header-inactive-background-alternate": "#31363bff",
            "header-inactive-background-normal": "#2a2e32ff", "header-inactive-decoration-focus": "#3daee9ff",
            "header-inactive-decoration-hover": "#3daee9ff", "header-inactive-foreground-active": "#3daee9ff",
            "header-inactive-foreground-inactive": "#a1a9b1ff",
            "header-inactive-foreground-link": "#1d99f3ff",
            "header-inactive-foreground-negative": "#da4453ff",
            "header-inactive-foreground-neutral": "#f67400ff",
            "header-inactive-foreground-normal": "#fcfcfcff",
            "header-inactive-foreground-positive": "#27ae60ff",
            "header-inactive-foreground-visited": "#9b59b6ff", "selection-background-alternate": "#1e5774ff",
            "selection-background-normal": "#3daee9ff", "selection-decoration-focus": "#3daee9ff",
            "selection-decoration-hover": "#3daee9ff", "selection-foreground-active": "#fcfcfcff",
            "selection-foreground-inactive": "#a1a9b1ff", "selection-foreground-link": "#fdbc4bff",
            "selection-foreground-negative": "#da4453ff", "selection-foreground-neutral": "#f67400ff",
            "selection-foreground-normal": "#fcfcfcff", "selection-foreground-positive": "#27ae60ff",
            "selection-foreground-visited": "#9b59b6ff", "tooltip-background-alternate": "#2a2e32ff",
            "tooltip-background-normal": "#31363bff", "tooltip-decoration-focus": "#3daee9ff",
            "tooltip-decoration-hover": "#3daee9ff", "tooltip-foreground-active": "#3daee9ff",
            "tooltip-foreground-inactive": "#a1a9b1ff", "tooltip-foreground-link": "#1d99f3ff",
            "tooltip-foreground-negative": "#da4453ff", "tooltip-foreground-neutral": "#f67400ff",
            "tooltip-foreground-normal": "#fcfcfcff", "tooltip-foreground-positive": "#27ae60ff",
            "tooltip-foreground-visited": "#9b59b6ff", "view-background-alternate": "#232629ff",
            "view-background-normal": "#1b1e20ff", "view-decoration-focus": "#3daee9ff",
            "view-decoration-hover": "#3daee9ff", "view-foreground-active": "#3daee9ff",
            "view-foreground-inactive": "#a1a9b1ff", "view-foreground-link": "#1d99f3ff",
            "view-foreground-negative": "#da4453ff", "view-foreground-neutral": "#f67400ff",
            "view-foreground-normal": "#fcfcfcff", "view-foreground-positive": "#27ae60ff",
            "view-foreground-visited": "#9b59b6ff", "window-background-alternate": "#31363bff",
            "window-background-normal": "#2a2e32ff", "window-decoration-focus": "#3daee9ff",
            "window-decoration-hover": "#3daee9ff", "window-foreground-active": "#3daee9ff",
            "window-foreground-inactive": "#a1a9b1ff", "window-foreground-link": "#1d99f3ff",
            "window-foreground-negative": "#da4453ff", "window-foreground-neutral": "#f67400ff",
            "window-foreground-normal": "#fcfcfcff", "window-foreground-positive": "#27ae60ff",
            "window-foreground-visited": "#9b59b6ff", "wm-active-background": "#31363bff",
            "wm-active-blend": "#fcfcfcff", "wm-active-foreground": "#fcfcfcff",
            "wm-inactive-background": "#2a2e32ff", "wm-inactive-blend": "#a1a9b1ff",
            "wm-inactive-foreground": "#a1a9b1ff",
        ],
        "kde/BreezeLight.colors": [
            "button-background-alternate": "#e0dfdeff", "button-background-normal": "#eff0f1ff",
            "button-decoration-focus": "#3daee9ff", "button-decoration-hover": "#8ecbe9ff",
            "button-foreground-active": "#ff80e0ff", "button-foreground-inactive": "#888786ff",
            "button-foreground-link": "#0057aeff", "button-foreground-negative": "#bf0303ff",
            "button-foreground-neutral": "#b08000ff", "button-foreground-normal": "#31363bff",
            "button-foreground-positive": "#006e28ff", "button-foreground-visited": "#452886ff",
            "complementary-background-alternate": "#3b4045ff", "complementary-background-normal": "#31363bff",
            "complementary-decoration-focus": "#1e92ffff", "complementary-decoration-hover": "#3daee6ff",
            "complementary-foreground-active": "#f67400ff", "complementary-foreground-inactive": "#afb0b3ff",
            "complementary-foreground-link": "#3daee6ff", "complementary-foreground-negative": "#ed1515ff",
            "complementary-foreground-neutral": "#c9ce3bff", "complementary-foreground-normal": "#eff0f1ff",
            "complementary-foreground-positive": "#11d116ff", "complementary-foreground-visited": "#3daee6ff",
            "selection-background-alternate": "#3e8accff", "selection-background-normal": "#3daee9ff",
            "selection-decoration-focus": "#3daee9ff", "selection-decoration-hover": "#8ecbe9ff",
            "selection-foreground-active": "#ff80e0ff", "selection-foreground-inactive": "#8ecbe9ff",
            "selection-foreground-link": "#00316eff", "selection-foreground-negative": "#9c0e0eff",
            "selection-foreground-neutral": "#ffdd00ff", "selection-foreground-normal": "#fcfcfcff",
            "selection-foreground-positive": "#80ff80ff", "selection-foreground-visited": "#452886ff",
            "tooltip-background-alternate": "#c4e0ffff", "tooltip-background-normal": "#fcfcfcff",
            "tooltip-decoration-focus": "#3daee9ff", "tooltip-decoration-hover": "#8ecbe9ff",
            "tooltip-foreground-active": "#ff80e0ff", "tooltip-foreground-inactive": "#607080ff",
            "tooltip-foreground-link": "#0057aeff", "tooltip-foreground-negative": "#bf0303ff",
            "tooltip-foreground-neutral": "#b08000ff", "tooltip-foreground-normal": "#31363bff",
            "tooltip-foreground-positive": "#006e28ff", "tooltip-foreground-visited": "#452886ff",
            "view-background-alternate": "#f8f7f6ff", "view-background-normal": "#fcfcfcff",
            "view-decoration-focus": "#3daee9ff", "view-decoration-hover": "#8ecbe9ff",
            "view-foreground-active": "#ff80e0ff", "view-foreground-inactive": "#888786ff",
            "view-foreground-link": "#0057aeff", "view-foreground-negative": "#bf0303ff",
            "view-foreground-neutral": "#b08000ff", "view-foreground-normal": "#31363bff",
            "view-foreground-positive": "#006e28ff", "view-foreground-visited": "#452886ff",
            "window-background-alternate": "#dad9d8ff", "window-background-normal": "#eff0f1ff",
            "window-decoration-focus": "#3daee9ff", "window-decoration-hover": "#8ecbe9ff",
            "window-foreground-active": "#ff80e0ff", "window-foreground-inactive": "#888786ff",
            "window-foreground-link": "#0057aeff", "window-foreground-negative": "#bf0303ff",
            "window-foreground-neutral": "#b08000ff", "window-foreground-normal": "#31363bff",
            "window-foreground-positive": "#006e28ff", "window-foreground-visited": "#452886ff",
            "wm-active-background": "#eff0f1ff", "wm-active-blend": "#ffffffff",
            "wm-active-foreground": "#31363bff", "wm-inactive-background": "#eff0f1ff",
            "wm-inactive-blend": "#4b4743ff", "wm-inactive-foreground": "#898e92ff",
        ],
    ]

    /// The palette a format read, `name` → `#rrggbbaa`.
    func palette(_ source: ThemeSource) -> [String: String] {
        var out: [String: String] = [:]
        for d in source.sheet.palette {
            guard case .hash(let h) = d.value.first?.kind, d.value.count == 1 else {
                XCTFail("\(d.name) is not one hex colour")
                continue
            }
            out[d.name] = "#" + h
        }
        return out
    }

    func read(_ relative: String) throws -> ThemeSource {
        let url = fixturesDirectory.appendingPathComponent("schemes/" + relative)
        let format = try XCTUnwrap(
            ThemeFormats.all.first { $0.claim(url, isDirectory: false) != nil }, relative)
        let id = try XCTUnwrap(format.claim(url, isDirectory: false))
        return format.read(url, id: id)
    }

    func testEveryFixtureSchemeReadsToTheExpectedPalette() throws {
        XCTAssertEqual(Self.expected.count, 14)
        for (relative, want) in Self.expected.sorted(by: { $0.key < $1.key }) {
            let source = try read(relative)
            XCTAssertEqual(source.sheet.diagnostics.map(\.description), [], relative)
            XCTAssertEqual(palette(source), want, relative)
        }
    }

    func testEveryFixtureSchemeCompilesWithItsMappingTheme() throws {
        let shipped = ThemeCatalog(searchPath: [themesDirectory.path])
        for relative in Self.expected.keys.sorted() {
            let source = try read(relative)
            var catalog = shipped
            catalog.add(source)
            let (theme, diagnostics) = catalog.compile(source.id, schema: shippedSchema)
            XCTAssertNotNil(theme, "\(relative): \(diagnostics.map(\.description))")
            XCTAssertEqual(diagnostics.filter { $0.severity == .error }.map(\.description), [], relative)
        }
    }

    func testFormatsNamesAndIdsComeFromTheFiles() throws {
        let cases: [(String, String, String, String, String)] = [
            ("iterm2/3024 Night.itermcolors", "3024-night", "iterm2", "3024 Night", "dark"),
            ("iterm2/Builtin Light.itermcolors", "builtin-light", "iterm2", "Builtin Light", "light"),
            ("pywal/light/solarized.json", "solarized", "pywal", "solarized", "light"),
            ("pywal/dark/base16-nord.json", "base16-nord", "pywal", "base16-nord", "dark"),
            ("kde/BreezeDark.colors", "breezedark", "kde", "Breeze Dark", "dark"),
            ("kde/BreezeLight.colors", "breezelight", "kde", "Breeze Light", "light"),
        ]
        for (relative, id, format, name, variant) in cases {
            let source = try read(relative)
            XCTAssertEqual(source.id, id, relative)
            XCTAssertEqual(source.format, format, relative)
            XCTAssertEqual(source.sheet.metadataString("name"), name, relative)
            XCTAssertEqual(source.sheet.metadataString("variant"), variant, relative)
            XCTAssertEqual(
                source.sheet.metadataString("inherits"), format == "kde" ? "kde" : "terminal", relative)
        }
    }
}
