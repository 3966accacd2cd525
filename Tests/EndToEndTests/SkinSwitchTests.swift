import Foundation
import XCTest

/// Seed case 2 and the fixture schemes, through a running liveryd: switching skins at run time
/// changes what every client resolves.
final class SkinSwitchTests: EndToEndTestCase {
    /// The seven values the forest and crimson accents colour (seed case 2).
    static let accentedProperties: [(path: String, property: String)] = [
        ("Window/NavigationBar", "tint-color"),
        ("Window/SegmentedControl", "tint-color"),
        ("Window/ProgressView", "progress-tint-color"),
        ("Window/Slider", "minimum-track-tint-color"),
        ("Window/Switch", "on-tint-color"),
        ("Window/ActivityIndicatorView", "color"),
        ("Window/TabBar", "tint-color"),
    ]

    func testForestThenCrimsonRecoloursAllSevenAccentedProperties() throws {
        try startDaemon()
        try setTheme("forest")
        XCTAssertEqual(try activeTheme(), "forest\n")
        XCTAssertEqual(try resolve("Window/NavigationBar", "tint-color"), "#008000ff\n")

        let call = try gdbusCall("Resolve", ["Window/NavigationBar", "['tint-color']", "{}"])
        XCTAssertEqual(call.status, 0, "\(call)")
        XCTAssertTrue(call.stdout.contains("'tint-color': <'#008000ff'>"), "\(call)")

        for (path, property) in Self.accentedProperties {
            XCTAssertEqual(try resolve(path, property), "#008000ff\n", "forest: \(path) \(property)")
        }

        try setTheme("crimson")
        XCTAssertEqual(try activeTheme(), "crimson\n")
        for (path, property) in Self.accentedProperties {
            XCTAssertEqual(try resolve(path, property), "#800000ff\n", "crimson: \(path) \(property)")
        }
        let after = try gdbusCall("Resolve", ["Window/TabBar", "['tint-color']", "{}"])
        XCTAssertEqual(after.stdout, "({'tint-color': <'#800000ff'>},)\n", "\(after)")
    }

    func testResolveManyAnswersAWholeWindowInOneCall() throws {
        try startDaemon()
        try setTheme("forest")
        let items = Self.accentedProperties.map {
            "dbus.Struct((\"\($0.path)\", [\"\($0.property)\"]), signature=\"sas\")"
        }
        let result = try python(
            """
            import sys, dbus
            conn = dbus.bus.BusConnection(sys.argv[1])
            obj = conn.get_object("org.livery.Livery1", "/org/livery/Livery1")
            items = dbus.Array([\(items.joined(separator: ", "))], signature="(sas)")
            for values in obj.ResolveMany(items, dbus.Dictionary({}, signature="sv"), dbus_interface="org.livery.Livery1"):
                print(";".join("%s=%s" % (k, v) for k, v in sorted(values.items())))
            """)
        XCTAssertEqual(result.status, 0, "\(result)")
        XCTAssertEqual(
            result.stdout,
            Self.accentedProperties.map { "\($0.property)=#008000ff\n" }.joined(), "\(result)")
    }

    /// The fixture schemes: `<folder>/<name>.yaml|yml` → id and the base0D (accent) colour.
    func fixtureSchemes() throws -> [(id: String, accent: String)] {
        var out: [(String, String)] = []
        for folder in ["base16", "base24", "legacy"] {
            let dir = Locations.schemes + "/" + folder
            for file in try FileManager.default.contentsOfDirectory(atPath: dir).sorted() {
                let ext = (file as NSString).pathExtension
                guard ext == "yaml" || ext == "yml" else { continue }
                let id = (file as NSString).deletingPathExtension.lowercased()
                let text = try String(contentsOfFile: dir + "/" + file, encoding: .utf8)
                // `base0D: "80bfff"`, `base0D: "#5dd7b9"` or `base0D: "5D92C2" # comment`
                let line = text.split(separator: "\n").first {
                    $0.trimmingCharacters(in: .whitespaces).hasPrefix("base0D:")
                }
                let value = line?.split(separator: ":", maxSplits: 1).last?.split(separator: " ").first ?? ""
                let hex = value.filter { $0 != "\"" && $0 != "#" }.lowercased()
                out.append((id, hex))
            }
        }
        return out
    }

    func testListThemesOffersEveryFixtureSchemeAndEachActivates() throws {
        try startDaemon()
        let schemes = try fixtureSchemes()
        XCTAssertEqual(schemes.count, 12, "\(schemes)")

        let list = try busctl([
            "--json=short", "call", Locations.busName, Locations.objectPath, Locations.interface,
            "ListThemes",
        ])
        XCTAssertEqual(list.status, 0, "\(list)")
        let json = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [String: Any]
        XCTAssertEqual(json?["type"] as? String, "a(ssa{sv})")
        let themes = ((json?["data"] as? [Any])?.first as? [[Any]]) ?? []
        var byID: [String: [String: Any]] = [:]
        for t in themes {
            guard t.count == 3, let id = t[0] as? String, let meta = t[2] as? [String: Any] else {
                XCTFail("malformed ListThemes entry \(t)")
                continue
            }
            byID[id] = meta
        }
        for id in ["default", "forest", "crimson", "debug"] {
            XCTAssertNotNil(byID[id], "shipped theme \(id) missing from ListThemes")
        }
        for (id, _) in schemes {
            guard let meta = byID[id] else {
                XCTFail("fixture scheme \(id) missing from ListThemes: \(byID.keys.sorted())")
                continue
            }
            XCTAssertEqual((meta["valid"] as? [String: Any])?["data"] as? Bool, true, "\(id): \(meta)")
            XCTAssertEqual(
                ((meta["errors"] as? [String: Any])?["data"] as? [Any])?.count, 0, "\(id): \(meta)")
        }

        for (id, accent) in schemes {
            try setTheme(id)
            XCTAssertEqual(try activeTheme(), id + "\n")
            XCTAssertEqual(accent.count, 6, "base0D of \(id)")
            XCTAssertEqual(
                try resolve("Window/NavigationBar", "tint-color"), "#\(accent)ff\n", "accent of \(id)")
        }

        try setTheme("dracula")
        XCTAssertEqual(try resolve("Window/NavigationBar", "tint-color"), "#80bfffff\n")
    }
}
