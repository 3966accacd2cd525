import Foundation
import XCTest

/// `livery gallery`: the page it writes, opened in Debian's headless Chromium, shows every
/// installed theme's picture in the theme's own colours, read by the test from the theme files
/// themselves; a theme with errors is listed with its error and no picture while the others are
/// still drawn.
final class GalleryTests: EndToEndTestCase {
    /// A quarter of the sample screen's 360 × 640 points, so that the cards of the shipped themes
    /// and the tinted-theming collection (about 300) fit one screenshot. Whole canvas points fall
    /// on quarter pixels: the inside of every solid region keeps its exact colour.
    static let size = (width: 90, height: 160)
    /// Chromium's window, one device pixel per CSS pixel: 28 cards a row.
    static let window = (width: 3000, height: 3600)

    var tintedSchemes: [String] { ["base16", "base24"].map { Locations.fixtures + "/tinted/schemes/" + $0 } }

    func testGalleryOfShippedThemesAndTintedSchemesShowsEveryPictureInItsThemesColours() throws {
        try Chromium.requireTools()
        let directories = [Locations.themes] + tintedSchemes
        let expected = try ExpectedTheme.installed(in: directories)
        let gallery = root + "/gallery"
        let r = try run(
            Locations.livery,
            ["gallery", gallery, "--size", "\(Self.size.width)x\(Self.size.height)"]
                + directories.flatMap { ["--themes-dir", $0] }, timeout: 120)
        XCTAssertEqual(r.status, 0, "\(r)")
        XCTAssertEqual(r.stderr, "", "no warnings: every image of the shipped themes drawn")

        let chromium = Chromium(test: self, width: Self.window.width, height: Self.window.height)
        let page = gallery + "/index.html"
        let layout = try chromium.figureLayout(of: page)
        XCTAssertEqual(layout.figures.map(\.id).sorted(), expected.map(\.id).sorted(), "the themes listed")
        XCTAssertLessThanOrEqual(layout.pageWidth, Self.window.width, "the page is wider than the window")
        XCTAssertLessThanOrEqual(layout.pageHeight, Self.window.height, "the page is taller than the window")
        let shot = try chromium.screenshot(of: page)
        XCTAssertEqual([shot.width, shot.height], [Self.window.width, Self.window.height])

        let figures = Dictionary(layout.figures.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        var problems: [String] = []
        for theme in expected {
            guard let figure = figures[theme.id] else { continue }  // the id list above says so
            guard figure.hasImage, figure.loaded else {
                problems.append("\(theme.id): no picture loaded (image present: \(figure.hasImage))")
                continue
            }
            guard figure.naturalWidth == Self.size.width, figure.naturalHeight == Self.size.height else {
                problems.append("\(theme.id): picture is \(figure.naturalWidth)×\(figure.naturalHeight)")
                continue
            }
            // The image's box less one pixel on each side, where its edges may fall between pixels.
            let (w, h) = (Self.size.width - 2, Self.size.height - 2)
            let counts = shot.histogram(
                x: Int(figure.left.rounded()) + 1, y: Int(figure.top.rounded()) + 1, width: w, height: h)
            // Regions of one colour add up (a scheme whose bars are its window colour).
            var wanted: [UInt32: (share: Double, regions: [String])] = [:]
            for region in theme.regions {
                wanted[region.colour, default: (0, [])].share += region.share
                wanted[region.colour, default: (0, [])].regions.append(region.name)
            }
            for (colour, want) in wanted.sorted(by: { $0.key < $1.key }) {
                let found = counts[colour] ?? 0
                let least = Int((want.share * Double(w * h)).rounded(.up))
                if found < least {
                    problems.append(
                        "\(theme.id): \(hex(colour)) (\(want.regions.joined(separator: ", "))) in \(found) pixels, expected at least \(least)"
                    )
                }
            }
        }
        XCTAssertEqual(problems, [], "\(problems.count) of \(expected.count) themes")
        XCTAssertTrue(
            expected.allSatisfy { $0.regions.contains { $0.name.hasPrefix("Window ") } },
            "every theme's window colour was read from its files")
    }

    func testThemeWithErrorsIsListedWithItsErrorAndNoPictureWhileTheOthersAreDrawn() throws {
        try Chromium.requireTools()
        let themes = try makeDirectory("themes")
        let broken = try writeBundle(
            "broken", in: themes,
            sheet:
                "@theme { name: \"Broken\"; inherits: \"default\"; }\nNavigationBar { tint-colour: #ff0000; }\n"
        )
        // A PNG that passes the bundle's check (its signature) but cannot be decoded: drawn without.
        let back = try Data(contentsOf: URL(fileURLWithPath: Locations.themes + "/forest/images/back1.png"))
        let undecodable = try writeBundle(
            "undecodable", in: themes,
            sheet: "@theme { name: \"Undecodable\"; inherits: \"default\"; }\n"
                + "Button { background-image: url(\"images/cut.png\"); }\n",
            files: ["images/cut.png": back.prefix(100)])
        let gallery = root + "/gallery"
        // As long as the gallery of every theme takes: it draws the themes on the search path too.
        let r = try run(
            Locations.livery, ["gallery", gallery, "--size", "90x160", "--themes-dir", themes], timeout: 120)
        XCTAssertEqual(r.status, 1, "\(r)")
        let diagnostic =
            "\(broken)/theme.css:2:17: error: unknown property 'tint-colour' (did you mean 'tint-color'?)"
        XCTAssertTrue(r.stderr.contains(diagnostic + "\n"), "\(r)")
        XCTAssertTrue(
            r.stderr.contains("\(undecodable)/images/cut.png: warning: cannot decode the png image: "), "\(r)"
        )

        let shipped = try ExpectedTheme.installed(in: [Locations.themes]).map(\.id)
        let html = try String(contentsOfFile: gallery + "/index.html", encoding: .utf8)
        let brokenFigure = try XCTUnwrap(figure("broken", in: html), html)
        XCTAssertTrue(
            brokenFigure.contains("<div class=\"error\">" + escapeHTML(diagnostic) + "\n"), brokenFigure)
        XCTAssertFalse(brokenFigure.contains("<img"), brokenFigure)
        XCTAssertFalse(FileManager.default.fileExists(atPath: gallery + "/broken.png"))
        for id in shipped + ["undecodable"] {
            let card = try XCTUnwrap(figure(id, in: html), "\(id) is not listed")
            XCTAssertTrue(card.contains("<img src=\"\(id).png\""), card)
            XCTAssertFalse(card.contains("class=\"error\""), card)
            let picture = try PixelMap(png: gallery + "/" + id + ".png", test: self)
            XCTAssertEqual([picture.width, picture.height], [90, 160], id)
        }
        // Chromium shows the drawn pictures and none for the broken theme.
        let layout = try Chromium(test: self, width: 1600, height: 1200).figureLayout(
            of: gallery + "/index.html")
        XCTAssertEqual(
            layout.figures.filter { $0.loaded }.map(\.id).sorted(), (shipped + ["undecodable"]).sorted())
        XCTAssertEqual(layout.figures.filter { !$0.hasImage }.map(\.id), ["broken"])
    }

    /// The `<figure id="ID">…</figure>` card of `id` in the gallery's page.
    private func figure(_ id: String, in html: String) -> String? {
        guard let start = html.range(of: "<figure id=\"\(id)\">"),
            let end = html.range(of: "</figure>", range: start.upperBound..<html.endIndex)
        else { return nil }
        return String(html[start.lowerBound..<end.upperBound])
    }

    private func escapeHTML(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "'", with: "&#39;")
    }
}

private func hex(_ colour: UInt32) -> String { "#" + String(format: "%06x", colour) }

/// A theme the gallery must show, with the regions of its picture whose colour the test knows
/// from the theme's own files.
struct ExpectedTheme {
    /// A solid region of the sample screen, its colour, and the least share of the picture it
    /// covers.
    struct Region {
        var name: String
        var colour: UInt32
        var share: Double
    }

    var id: String
    var regions: [Region]

    /// The regions checked, each a declaration of one shipped selector (the sample screen's
    /// frames are in `Sources/LiveryCore/Screen/SampleScreen.swift`, canvas 360 × 640 points):
    /// - `Window` background-color: the whole canvas; the empty bands between the controls alone
    ///   (y 44–60, 92–110, 116–128, 156–168, 200–212, 352–368, 444–468, 572–584) are 122 of its
    ///   640 points' height, 19 % of the picture.
    /// - `NavigationBar` bar-tint-color: 44 points of 640, 6.9 %, less three titles.
    /// - `TabBar` bar-tint-color: 56 points, 8.75 %, less four 24-point icons and their titles.
    /// - `TableViewCell:selected` background-color: the second row, 44 points at the table's
    ///   row height of 44 (the schema's initial value), 6.9 %, less its title.
    static let checked: [(selector: String, property: String, share: Double)] = [
        ("Window", "background-color", 0.10),
        ("NavigationBar", "bar-tint-color", 0.03),
        ("TabBar", "bar-tint-color", 0.04),
        ("TableViewCell:selected", "background-color", 0.03),
    ]

    /// The themes of `directories`, as the README's rule lists them: a bundle `ID/theme.css` by
    /// its name; a scheme `ID.yaml` under its plain id, or its prefixed id (`base24-ID`) when an
    /// earlier theme has the plain one, or not at all when the prefixed one is taken too (every
    /// scheme claims both). Its colours: a bundle's from its sheets (following `inherits`), a
    /// base16 or base24 scheme's slots as the shipped mapping theme `themes/base16` places them.
    static func installed(in directories: [String]) throws -> [ExpectedTheme] {
        let mapping = try Sheet(file: Locations.themes + "/base16/theme.css")
        var taken = Set<String>()
        var themes: [ExpectedTheme] = []
        var scanned = Set<String>()
        // A directory that is no bundle is a folder of themes, two folders deep at most, each
        // scanned once, in place among its siblings (the README, "Folders of themes").
        func scan(_ directory: String, depth: Int) throws {
            let real = URL(fileURLWithPath: directory).resolvingSymlinksInPath().path
            guard scanned.insert(real).inserted else { return }
            for entry in try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
            where !entry.hasPrefix(".") {
                let path = directory + "/" + entry
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: path + "/theme.css") {
                    guard taken.insert(entry).inserted else { continue }
                    themes.append(
                        ExpectedTheme(id: entry, regions: try regions(of: bundleChain(entry, in: directory))))
                } else if entry.hasSuffix(".yaml") {
                    let scheme = try Scheme(file: path)
                    let plain = String(entry.dropLast(5))
                    let prefixed = scheme.system + "-" + plain
                    let id: String
                    if !taken.contains(plain) {
                        id = plain
                    } else if !taken.contains(prefixed) {
                        id = prefixed
                    } else {
                        continue
                    }
                    taken.formUnion([plain, prefixed])
                    themes.append(ExpectedTheme(id: id, regions: regions(of: [scheme.sheet, mapping])))
                } else if depth < 2, FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
                    isDirectory.boolValue
                {
                    try scan(path, depth: depth + 1)
                }
            }
        }
        for directory in directories { try scan(directory, depth: 0) }
        return themes
    }

    /// The sheets of bundle `id`, the theme first and then each `inherits` ancestor.
    private static func bundleChain(_ id: String, in directory: String) throws -> [Sheet] {
        var chain: [Sheet] = []
        var next: String? = id
        while let name = next, chain.count < 16 {
            let file = [directory, Locations.themes].map { $0 + "/" + name + "/theme.css" }
                .first { FileManager.default.fileExists(atPath: $0) }
            guard let file else { throw HarnessFailure("theme '\(name)' (inherited by '\(id)') not found") }
            let sheet = try Sheet(file: file)
            chain.append(sheet)
            next = sheet.parent
        }
        return chain
    }

    /// The checked regions whose colour the chain declares as a plain hex colour; the table's
    /// selected row only at the 44-point row height the share assumes.
    private static func regions(of chain: [Sheet]) -> [Region] {
        let rowHeight = Sheet.declaration(in: chain, "TableView", "row-height") ?? "44"
        return checked.compactMap { c in
            if c.selector == "TableViewCell:selected", rowHeight != "44" { return nil }
            guard let value = Sheet.declaration(in: chain, c.selector, c.property),
                let colour = Sheet.colour(value, in: chain)
            else { return nil }
            return Region(name: c.selector + " " + c.property, colour: colour, share: c.share)
        }
    }
}

/// The little the test reads from a sheet: its `@define-color`s, the `inherits` of its `@theme`,
/// and the declarations of its top-level rules by selector text. The shipped sheets colour the
/// checked regions with rules of exactly those selectors, so a theme's own rule beats its
/// parent's and no other lookup is needed.
struct Sheet {
    var parent: String?
    var colours: [String: String] = [:]
    var rules: [String: [String: String]] = [:]

    init(colours: [String: String]) { self.colours = colours }

    init(file: String) throws {
        var text = try String(contentsOfFile: file, encoding: .utf8)
        while let open = text.range(of: "/*") {
            let close = text.range(of: "*/", range: open.upperBound..<text.endIndex)
            text.removeSubrange(open.lowerBound..<(close?.upperBound ?? text.endIndex))
        }
        var prelude = ""
        var body = ""
        var depth = 0
        for c in text {
            switch (c, depth) {
            case (";", 0):
                let words = prelude.trimmingCharacters(in: .whitespacesAndNewlines)
                    .split(separator: " ", maxSplits: 2).map(String.init)
                if words.count == 3, words[0] == "@define-color" { colours[words[1]] = words[2] }
                prelude = ""
            case ("{", _):
                if depth > 0 { body.append(c) }
                depth += 1
            case ("}", 1):
                depth = 0
                rule(prelude.trimmingCharacters(in: .whitespacesAndNewlines), body)
                (prelude, body) = ("", "")
            case ("}", _):
                depth -= 1
                body.append(c)
            case (_, 0): prelude.append(c)
            default: body.append(c)
            }
        }
    }

    private mutating func rule(_ selectors: String, _ body: String) {
        guard !body.contains("{") else { return }  // @app and other blocks of rules
        var declarations: [String: String] = [:]
        for d in body.split(separator: ";") {
            guard let colon = d.firstIndex(of: ":") else { continue }
            declarations[d[..<colon].trimmingCharacters(in: .whitespacesAndNewlines)] =
                d[d.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
        }
        if selectors == "@theme" {
            parent = declarations["inherits"]?.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            return
        }
        for selector in selectors.split(separator: ",") {
            let s = selector.trimmingCharacters(in: .whitespacesAndNewlines)
            rules[s, default: [:]].merge(declarations) { _, later in later }
        }
    }

    /// The value the nearest sheet of `chain` declares for `property` in a rule of `selector`.
    static func declaration(in chain: [Sheet], _ selector: String, _ property: String) -> String? {
        chain.lazy.compactMap { $0.rules[selector]?[property] }.first
    }

    /// `value` as `0xRRGGBB` when it is `#rgb`, `#rrggbb`, an opaque `#rrggbbaa` or `@name` of
    /// one (looked up from the theme outwards, as palettes bind late); nil for anything else.
    static func colour(_ value: String, in chain: [Sheet], depth: Int = 0) -> UInt32? {
        if value.hasPrefix("@"), depth < 16 {
            let name = String(value.dropFirst())
            return chain.lazy.compactMap { $0.colours[name] }.first.flatMap {
                colour($0, in: chain, depth: depth + 1)
            }
        }
        guard value.hasPrefix("#") else { return nil }
        var digits = String(value.dropFirst()).lowercased()
        if digits.count == 3 { digits = digits.map { "\($0)\($0)" }.joined() }
        if digits.count == 8, digits.hasSuffix("ff") { digits = String(digits.prefix(6)) }
        guard digits.count == 6 else { return nil }
        return UInt32(digits, radix: 16)
    }
}

/// A tinted-theming scheme file (the modern layout the fixtures use): its system and its slots,
/// read line by line (`  base0D: "81A1C1"  # blue`: a quoted or plain scalar, then a comment).
struct Scheme {
    var system = "base16"
    var sheet = Sheet(colours: [:])

    init(file: String) throws {
        for line in try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let key = line[..<colon].trimmingCharacters(in: .whitespaces)
            let value = Self.scalar(line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" })
            if key == "system" { system = value }
            if key.count == 6, key.hasPrefix("base"), value.count == 6 || value.count == 7 {
                sheet.colours[key] = "#" + value.drop { $0 == "#" }
            }
        }
        guard sheet.colours["base00"] != nil else { throw HarnessFailure("\(file): no base00") }
    }

    /// A YAML scalar on one line: up to its closing quote, or up to a comment (` #`).
    private static func scalar(_ text: Substring) -> String {
        if let quote = text.first, quote == "\"" || quote == "'" {
            return String(text.dropFirst().prefix { $0 != quote })
        }
        let plain = text.range(of: " #").map { text[..<$0.lowerBound] } ?? text
        return plain.trimmingCharacters(in: .whitespaces)
    }
}
