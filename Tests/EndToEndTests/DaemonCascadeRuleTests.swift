import Foundation
import XCTest

/// Seed cases 5, 8 and 10 (Tests/Fixtures/seed-cases.md) with bundles installed for a running
/// liveryd and resolved through `livery resolve` over the bus.
final class DaemonCascadeRuleTests: EndToEndTestCase {
    func testSubviewsOwnSettingWinsWhateverTheOrder() throws {
        let themes = try makeDirectory("themes")
        // Bundles inherit nothing unless they say so: these hold exactly the sheets of case 5.
        try writeBundle(
            "case-five-a", in: themes,
            sheet: "NavigationBar { tint-color: #008000; } BarButtonItem { tint-color: #0000ff; }\n")
        try writeBundle(
            "case-five-b", in: themes,
            sheet: "BarButtonItem { tint-color: #0000ff; }\nNavigationBar { tint-color: #008000; }\n")
        try writeBundle(
            "case-five-c", in: themes,
            sheet: "Window NavigationBar { tint-color: #008000; } BarButtonItem { tint-color: #0000ff; }\n")
        try startDaemon(extraThemesDirectories: [themes])

        for id in ["case-five-a", "case-five-b", "case-five-c"] {
            try setTheme(id)
            XCTAssertEqual(try activeTheme(), id + "\n")
            XCTAssertEqual(try resolve("Window/NavigationBar/BarButtonItem", "tint-color"), "#0000ffff\n", id)
            XCTAssertEqual(try resolve("Window/NavigationBar", "tint-color"), "#008000ff\n", id)
        }
    }

    func testBackgroundImagePerStateIsTheAbsolutePathInsideTheBundle() throws {
        let themes = try makeDirectory("themes")
        let bundle = try writeBundle(
            "buttons", in: themes,
            sheet: """
                Button { background-image: url("images/back1.png"); }
                Button:highlighted { background-image: url("images/back2.png"); }

                """,
            files: ["images/back1.png": onePixelPNG, "images/back2.png": onePixelPNG])
        try startDaemon(extraThemesDirectories: [themes])
        try setTheme("buttons")

        XCTAssertEqual(try resolve("Window/Button", "background-image"), bundle + "/images/back1.png\n")
        XCTAssertEqual(
            try resolve("Window/Button:highlighted", "background-image"), bundle + "/images/back2.png\n")
        let call = try gdbusCall("Resolve", ["Window/Button:highlighted", "['background-image']", "{}"])
        XCTAssertEqual(call.stdout, "({'background-image': <'\(bundle)/images/back2.png'>},)\n", "\(call)")
    }

    func testImageOutsideTheBundleOrNotAnImageKeepsTheThemeFromActivating() throws {
        let themes = try makeDirectory("themes")
        try onePixelPNG.write(to: URL(fileURLWithPath: themes + "/outside.png"))
        try writeBundle(
            "escape", in: themes, sheet: "Button { background-image: url(\"../outside.png\"); }\n")
        let linked = try writeBundle(
            "linked", in: themes, sheet: "Button { background-image: url(\"images/link.png\"); }\n",
            files: ["images/.keep": Data()])
        try FileManager.default.createSymbolicLink(
            atPath: linked + "/images/link.png", withDestinationPath: themes + "/outside.png")
        try writeBundle(
            "fake", in: themes, sheet: "Button { background-image: url(\"images/fake.png\"); }\n",
            files: ["images/fake.png": Data("not a picture\n".utf8)])
        try startDaemon(extraThemesDirectories: [themes])
        try setTheme("forest")

        for id in ["escape", "linked", "fake"] {
            let r = try livery("set", id)
            XCTAssertEqual(r.status, 1, "\(id): \(r)")
            XCTAssertTrue(r.stderr.contains("InvalidTheme"), "\(id): \(r)")
        }
        XCTAssertEqual(try activeTheme(), "forest\n")
    }

    func testUserOverridesBeatAMoreSpecificThemeRule() throws {
        let themes = try makeDirectory("themes")
        try writeBundle(
            "layers", in: themes, sheet: "Window Button.destructive:highlighted { tint-color: #111111; }\n")
        try startDaemon(extraThemesDirectories: [themes])
        try setTheme("layers")
        XCTAssertEqual(
            try resolve("Window/Button.destructive:highlighted", "tint-color"), "#111111ff\n",
            "theme layer alone")

        let overrides = configHome + "/livery/overrides.css"
        try FileManager.default.createDirectory(
            atPath: configHome + "/livery", withIntermediateDirectories: true)
        try "Button { tint-color: #333333; }\n".write(toFile: overrides, atomically: true, encoding: .utf8)
        let reload = try livery("reload")
        XCTAssertEqual(reload.status, 0, "\(reload)")
        XCTAssertEqual(try resolve("Window/Button.destructive:highlighted", "tint-color"), "#333333ff\n")
        XCTAssertEqual(try serial(), 2, "setting the theme and reloading the overrides are two changes")

        // A daemon that starts with the overrides file in place applies it from the start.
        daemon.stop()
        try startDaemon(extraThemesDirectories: [themes])
        XCTAssertEqual(try activeTheme(), "layers\n")
        XCTAssertEqual(try resolve("Window/Button.destructive:highlighted", "tint-color"), "#333333ff\n")
    }

    func testAppBlockAppliesOnlyToTheAskingApplication() throws {
        let themes = try makeDirectory("themes")
        try writeBundle(
            "mail", in: themes,
            sheet:
                "@app \"org.example.Mail\" { Switch { on-tint-color: #ff8800; } } Switch { on-tint-color: #00ff00; }\n"
        )
        try startDaemon(extraThemesDirectories: [themes])
        try setTheme("mail")

        XCTAssertEqual(try resolve("Window/Switch", "on-tint-color", app: "org.example.Mail"), "#ff8800ff\n")
        XCTAssertEqual(try resolve("Window/Switch", "on-tint-color"), "#00ff00ff\n")
        XCTAssertEqual(try resolve("Window/Switch", "on-tint-color", app: "org.example.Other"), "#00ff00ff\n")
        let call = try gdbusCall(
            "Resolve", ["Window/Switch", "['on-tint-color']", "{'app': <'org.example.Mail'>}"])
        XCTAssertEqual(call.stdout, "({'on-tint-color': <'#ff8800ff'>},)\n", "\(call)")

        // The application's layer is above the user's overrides, which are above the theme.
        try FileManager.default.createDirectory(
            atPath: configHome + "/livery", withIntermediateDirectories: true)
        try
            "Switch { on-tint-color: #333333; } @app \"org.example.Other\" { Switch { on-tint-color: #444444; } }\n"
            .write(toFile: configHome + "/livery/overrides.css", atomically: true, encoding: .utf8)
        XCTAssertEqual(try livery("reload").status, 0)
        XCTAssertEqual(try resolve("Window/Switch", "on-tint-color", app: "org.example.Mail"), "#ff8800ff\n")
        XCTAssertEqual(try resolve("Window/Switch", "on-tint-color", app: "org.example.Other"), "#444444ff\n")
        XCTAssertEqual(try resolve("Window/Switch", "on-tint-color"), "#333333ff\n")
    }

    func testBrokenOverridesAreReportedAndLeftOut() throws {
        let themes = try makeDirectory("themes")
        try writeBundle("plain", in: themes, sheet: "Button { tint-color: #111111; }\n")
        try FileManager.default.createDirectory(
            atPath: configHome + "/livery", withIntermediateDirectories: true)
        let overrides = configHome + "/livery/overrides.css"
        try "Button { tint-colour: #333333; }\n".write(toFile: overrides, atomically: true, encoding: .utf8)
        try startDaemon(extraThemesDirectories: [themes])
        try setTheme("plain")
        XCTAssertEqual(try activeTheme(), "plain\n", "broken overrides do not block a theme")
        XCTAssertEqual(try resolve("Window/Button", "tint-color"), "#111111ff\n")
        let status = try livery("status", "--json")
        let json = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any]
        let problems = json?["problems"] as? [String] ?? []
        XCTAssertTrue(problems.contains { $0.hasPrefix(overrides + ":1:10: error: ") }, "\(status)")

        try "Button { tint-color: #333333; }\n".write(toFile: overrides, atomically: true, encoding: .utf8)
        XCTAssertEqual(try livery("reload").status, 0)
        XCTAssertEqual(try resolve("Window/Button", "tint-color"), "#333333ff\n")
        let fixed = try livery("status", "--json")
        let fixedJSON = try JSONSerialization.jsonObject(with: Data(fixed.stdout.utf8)) as? [String: Any]
        XCTAssertEqual(fixedJSON?["problems"] as? [String], [], "\(fixed)")
    }
}
