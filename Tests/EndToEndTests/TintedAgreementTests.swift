import Foundation
import XCTest

/// The colours of the shipped i3, sway, dunst and rofi plugins against tinted-theming's
/// templates for the same programs (base16-i3, base16-dunst, base16-rofi): for every base16
/// scheme of the tinted-theming snapshot (`Tests/Fixtures/tinted/schemes/base16`), each role
/// (a window class's border, an urgency's background, a rofi property) has the colour of the
/// slot tinted-theming's template gives it there. The plugins' own templates are rendered by
/// `livery build`, which gives a base16 scheme the template data the daemon gives the plugins
/// ("Template data" in the README); tinted-theming's side is the role tables below, read from
/// their templates (base16-i3 at 5a4d83d, base16-dunst at 623fb18, base16-rofi at 549ab8d);
/// `livery build` of those templates gives their committed files byte for byte, but for the
/// schemes edited upstream since the snapshot.
final class TintedAgreementTests: EndToEndTestCase {
    /// base16-i3's window colours (`templates/default.mustache` and
    /// `templates/client-properties.mustache`): each `client.CLASS` line's columns (border,
    /// background, text, indicator, child_border, as i3's user guide names them) by slot, and
    /// `client.background`. Its `bar { colors { … } }` block is not compared: the i3 plugin writes
    /// no bar (an included file's `bar` block is a second bar, as base16-i3's README warns, and
    /// i3 lets no other file use the included file's variables), so i3bar keeps the user's.
    static let base16I3: [String: String] = {
        let columns = ["border", "background", "text", "indicator", "child_border"]
        var roles: [String: String] = ["client.background": "base07"]
        for (window, slots) in [
            ("focused", ["05", "0D", "00", "0D", "0C"]),
            ("focused_inactive", ["01", "01", "05", "03", "01"]),
            ("unfocused", ["01", "00", "05", "01", "01"]), ("urgent", ["08", "08", "00", "08", "08"]),
            ("placeholder", ["00", "00", "05", "00", "00"]),
        ] {
            for (column, slot) in zip(columns, slots) { roles["client.\(window) \(column)"] = "base" + slot }
        }
        // Its colors template: `set $base00 #…` … `$base0F`, for the user's own lines.
        for slot in slotNames { roles["$" + slot] = slot }
        return roles
    }()

    /// sway's roles are base16-i3's but `client.background`, which sway reads and ignores
    /// (sway(5): "This command is ignored and is only preserved for compatibility with i3"), so
    /// the sway plugin does not write it.
    static let base16Sway = base16I3.filter { $0.key != "client.background" }

    /// base16-dunst's colours (`templates/default.mustache`): `[global]`'s frame and separator,
    /// and each urgency's background and foreground. base16-dunst sets the urgencies in rules of
    /// its own (`[base16_low]` with `msg_urgency = "low"` …); the plugin's drop-in sets them in
    /// dunst's urgency sections (`[urgency_low]` …, dunst(5)), which take the same colours.
    static let base16Dunst: [String: String] = [
        "global frame_color": "base05", "global separator_color": "base05",
        "urgency_low background": "base01", "urgency_low foreground": "base03",
        "urgency_normal background": "base02", "urgency_normal foreground": "base05",
        "urgency_critical background": "base08", "urgency_critical foreground": "base06",
    ]

    /// base16-rofi's colours (`templates/default.mustache`): every property of its theme whose
    /// value is a colour, by selector and property, with its `@name` references followed to the
    /// slot (or `transparent`: its `* { background-color }` is base00 at 0 %). Its `inherit`
    /// values are no colour and not compared; the plugin's `element-text, element-icon
    /// { background-color: transparent }` shows the element's own background there, as
    /// base16-rofi's `inherit` paints it again. The plugin's `entry { placeholder-color }`
    /// (base03, base16's comment colour) has no counterpart in base16-rofi.
    static let base16Rofi: [String: String] = {
        var roles: [String: String] = [
            "* red": "base08", "* blue": "base0D", "* lightfg": "base06", "* lightbg": "base01",
            "* foreground": "base05", "* background": "base00", "* background-color": "transparent",
            "* separatorcolor": "base05", "* border-color": "base05",
            "window background-color": "base00", "message border-color": "base05",
            "textbox text-color": "base05", "listview border-color": "base05",
            "scrollbar handle-color": "base05", "sidebar border-color": "base05",
            "button text-color": "base05", "button selected background-color": "base06",
            "button selected text-color": "base01", "inputbar text-color": "base05",
            "case-indicator text-color": "base05", "entry text-color": "base05",
            "prompt text-color": "base05",
        ]
        // The element states: `*`'s STATE-foreground and STATE-background, and the element
        // selectors that use them.
        for (state, foreground, background) in [
            ("normal.normal", "05", "00"), ("normal.urgent", "08", "00"), ("normal.active", "0D", "00"),
            ("selected.normal", "01", "06"), ("selected.urgent", "00", "08"), ("selected.active", "00", "0D"),
            ("alternate.normal", "05", "01"), ("alternate.urgent", "08", "01"),
            ("alternate.active", "0D", "01"),
        ] {
            let name =
                state.hasPrefix("normal.")
                ? String(state.dropFirst(7)) : state.replacingOccurrences(of: ".", with: "-")
            roles["* \(name)-foreground"] = "base" + foreground
            roles["* \(name)-background"] = "base" + background
            roles["element \(state) text-color"] = "base" + foreground
            roles["element \(state) background-color"] = "base" + background
        }
        return roles
    }()

    static let slotNames = (0..<16).map { String(format: "base%02X", $0) }

    /// Every base16 scheme of the tinted-theming snapshot: its slots (`#rrggbb`) by its file's
    /// name without `.yaml`.
    func tintedSchemes() throws -> [String: [String: String]] {
        let directory = Locations.fixtures + "/tinted/schemes/base16"
        var schemes: [String: [String: String]] = [:]
        for file in try FileManager.default.contentsOfDirectory(atPath: directory)
        where file.hasSuffix(".yaml") {
            var slots: [String: String] = [:]
            for line in try String(contentsOfFile: directory + "/" + file, encoding: .utf8).split(
                separator: "\n")
            {
                let parts = line.split(separator: ":", maxSplits: 1).map {
                    $0.trimmingCharacters(in: .whitespaces)
                }
                guard parts.count == 2, Self.slotNames.contains(parts[0]) else { continue }
                // `"RRGGBB"`, then perhaps a comment (`# blue`).
                let value = parts[1].split(separator: "\"", omittingEmptySubsequences: false)
                guard value.count >= 3, value[0].isEmpty else { continue }
                slots[parts[0]] =
                    "#" + value[1].trimmingCharacters(in: CharacterSet(charactersIn: "#")).lowercased()
            }
            schemes[String(file.dropLast(".yaml".count))] = slots
        }
        return schemes
    }

    /// The shipped template `plugin`/`template` rendered by `livery build` for every scheme of
    /// the snapshot, from a template repository of its own; the text by scheme.
    func build(_ plugin: String, _ template: String) throws -> [String: String] {
        let repository = try makeDirectory("repository-" + plugin)
        try FileManager.default.createDirectory(
            atPath: repository + "/templates", withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: Locations.repo + "/plugins/\(plugin)/\(template)",
            toPath: repository + "/templates/plugin.mustache")
        try "plugin:\n  extension: .out\n  output: out\n".write(
            toFile: repository + "/templates/config.yaml", atomically: true, encoding: .utf8)
        let built = try run(
            Locations.livery,
            ["build", repository, "--themes-dir", Locations.fixtures + "/tinted/schemes/base16"], timeout: 60)
        XCTAssertEqual(built.status, 0, "\(built)")
        var out: [String: String] = [:]
        for file in try FileManager.default.contentsOfDirectory(atPath: repository + "/out") {
            let scheme = String(file.dropFirst("base16-".count).dropLast(".out".count))
            out[scheme] = try String(contentsOfFile: repository + "/out/" + file, encoding: .utf8)
        }
        return out
    }

    /// Checks that every scheme's `roles` (parsed from the plugin's output) are `table`'s slots
    /// of the scheme, role by role, and that the plugin writes no colour role the table lacks
    /// but those of `extra`.
    func assertAgrees(
        _ program: String, _ outputs: [String: String], _ table: [String: String], extra: Set<String> = [],
        parse: (String) -> [String: String], file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let schemes = try tintedSchemes()
        XCTAssertEqual(Set(outputs.keys), Set(schemes.keys), program, file: file, line: line)
        XCTAssertGreaterThanOrEqual(schemes.count, 270, file: file, line: line)
        var disagreements: [String] = []
        for (id, text) in outputs.sorted(by: { $0.key < $1.key }) {
            guard let slots = schemes[id] else { continue }
            let roles = parse(text)
            for (role, slot) in table.sorted(by: { $0.key < $1.key }) {
                let expected = slot == "transparent" ? slot : slots[slot]
                if roles[role] != expected {
                    disagreements.append(
                        "\(id): \(role) is \(roles[role] ?? "missing"), \(slot) is \(expected ?? "?")")
                }
            }
            for role in Set(roles.keys).subtracting(table.keys).subtracting(extra) {
                disagreements.append("\(id): \(role) (\(roles[role]!)) is no role of tinted-theming's")
            }
        }
        XCTAssertEqual(
            disagreements.prefix(20), [], "\(program): \(disagreements.count) disagreements", file: file,
            line: line)
    }

    /// An i3 or sway configuration's colours: `set $NAME #rrggbb` as `$NAME`, and each
    /// `client.CLASS` line's columns as `client.CLASS COLUMN` (i3's user guide, "Changing colors"),
    /// variables replaced by their values.
    func i3Roles(_ text: String) -> [String: String] {
        var variables: [String: String] = [:]
        var roles: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
            guard let first = words.first, !first.hasPrefix("#") else { continue }
            if first == "set", words.count == 3 {
                variables[words[1]] = words[2].lowercased()
                roles[words[1]] = words[2].lowercased()
            } else if first == "client.background", words.count == 2 {
                roles[first] = variables[words[1]] ?? words[1].lowercased()
            } else if first.hasPrefix("client.") {
                for (column, value) in zip(
                    ["border", "background", "text", "indicator", "child_border"], words.dropFirst())
                {
                    roles["\(first) \(column)"] = variables[value] ?? value.lowercased()
                }
            }
        }
        return roles
    }

    /// A dunstrc's values as `SECTION KEY` (dunst(5): `[section]`, `key = value`, a value in
    /// double quotes taken without them); lower-case.
    func dunstRoles(_ text: String) -> [String: String] {
        var section = ""
        var roles: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("#") || trimmed.isEmpty { continue }
            if trimmed.hasPrefix("[") && trimmed.hasSuffix("]") {
                section = String(trimmed.dropFirst().dropLast())
                continue
            }
            let parts = trimmed.split(separator: "=", maxSplits: 1).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard parts.count == 2 else { continue }
            roles["\(section) \(parts[0])"] = parts[1].trimmingCharacters(
                in: CharacterSet(charactersIn: "\"")
            ).lowercased()
        }
        return roles
    }

    /// A rasi theme's colour properties as `SELECTOR PROPERTY` (rofi-theme(5): comments
    /// `/* … */`, `SELECTOR, SELECTOR { PROPERTY: VALUE; … }`), each value followed through
    /// `var(NAME)` and `@NAME` to `*`'s property and read as a colour: `#rrggbb`,
    /// `rgba ( R, G, B, A % )` (opaque as `#rrggbb`), anything at alpha 0 and `transparent` as
    /// `transparent`. Values that are no colour (`inherit`, lengths) are left out.
    func rofiRoles(_ text: String) -> [String: String] {
        var source = text
        while let open = source.range(of: "/*"),
            let close = source.range(of: "*/", range: open.upperBound..<source.endIndex)
        {
            source.removeSubrange(open.lowerBound..<close.upperBound)
        }
        var properties: [String: String] = [:]
        for block in source.split(separator: "}") {
            let parts = block.split(separator: "{", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let selectors = parts[0].split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            for declaration in parts[1].split(separator: ";") {
                let pair = declaration.split(separator: ":", maxSplits: 1).map {
                    $0.trimmingCharacters(in: .whitespacesAndNewlines)
                }
                guard pair.count == 2 else { continue }
                for selector in selectors { properties["\(selector) \(pair[0])"] = pair[1] }
            }
        }
        func colour(_ value: String, depth: Int = 0) -> String? {
            var name: String?
            if value.hasPrefix("var(") && value.hasSuffix(")") {
                name = String(value.dropFirst(4).dropLast()).trimmingCharacters(in: .whitespaces)
            } else if value.hasPrefix("@") {
                name = String(value.dropFirst())
            }
            if let name {
                return depth < 10 ? properties["* " + name].flatMap { colour($0, depth: depth + 1) } : nil
            }
            if value == "transparent" { return value }
            if value.hasPrefix("#"), value.count == 7, Int(value.dropFirst(), radix: 16) != nil {
                return value.lowercased()
            }
            guard value.hasPrefix("rgba") else { return nil }
            let numbers = value.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
            guard numbers.count == 4 else { return nil }
            if numbers[3] == 0 { return "transparent" }
            let hex = "#" + numbers.prefix(3).map { String(format: "%02x", $0) }.joined()
            return numbers[3] == 100 ? hex : hex + " \(numbers[3]) %"
        }
        return properties.compactMapValues { colour($0) }
    }

    func testI3WritesBase16I3sWindowColoursForEveryScheme() throws {
        try assertAgrees("i3", try build("i3", "i3.mustache"), Self.base16I3, parse: i3Roles)
    }

    func testSwayWritesBase16I3sWindowColoursForEveryScheme() throws {
        try assertAgrees("sway", try build("sway", "sway.mustache"), Self.base16Sway, parse: i3Roles)
    }

    func testDunstWritesBase16DunstsColoursForEveryScheme() throws {
        try assertAgrees("dunst", try build("dunst", "dunst.mustache"), Self.base16Dunst, parse: dunstRoles)
    }

    func testRofiWritesBase16RofisColoursForEveryScheme() throws {
        try assertAgrees(
            "rofi", try build("rofi", "livery.rasi.mustache"), Self.base16Rofi,
            extra: [
                "entry placeholder-color", "element-text background-color", "element-icon background-color",
            ],
            parse: rofiRoles)
    }
}
