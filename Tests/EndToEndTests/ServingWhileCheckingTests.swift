import Foundation
import XCTest

/// One file of each shape whose cost grew faster than its size, installed beside the shipped
/// themes and never selected: liveryd owns its name and answers at once, checks them on a
/// thread of its own, lists each with the bound it passed, and activates the valid ones.
final class ServingWhileCheckingTests: EndToEndTestCase {
    func hostileThemesDirectory() throws -> String {
        let dir = try makeDirectory("hostile-themes")
        func write(_ name: String, _ text: String) throws {
            try text.write(toFile: dir + "/" + name, atomically: true, encoding: .utf8)
        }
        // A selector list of S selectors over S declarations (the index stored S × S).
        let s = 5_000
        try write(
            "product.css",
            "Button" + String(repeating: ", Button", count: s - 1) + " {"
                + String(repeating: " alpha: 0.5;", count: s) + " }\n")
        // Misspelt component types and palette names (did-you-mean for each against all).
        var components = ""
        for i in 0..<5_000 { components += String(format: "@component Comp%06d : View;\n", i) }
        for i in 0..<5_000 { components += String(format: "Cxmp%06d { alpha: 1; }\n", i) }
        try write("components.css", components)
        var palette = ""
        for i in 0..<5_000 { palette += String(format: "@define-color col%06d #102030;\n", i) }
        for i in 0..<5_000 { palette += String(format: "Button { tint-color: @cxl%06d; }\n", i) }
        try write("palette.css", palette)
        // 300 lines of 999 '}' (a diagnostic each, each copying its line).
        try write("braces.css", String(repeating: String(repeating: "}", count: 999) + "\n", count: 300))
        // Imports 4 wide and 16 deep (4^16 splices).
        try writeBundle("imports", in: dir, sheet: String(repeating: "@import \"f0.css\";\n", count: 4))
        for k in 0..<16 {
            var text = "Button { alpha: 0.25; }\n"
            if k < 15 { text += String(repeating: "@import \"f\(k + 1).css\";\n", count: 4) }
            try text.write(toFile: dir + "/imports/f\(k).css", atomically: true, encoding: .utf8)
        }
        // YAML: a valid scheme with 30,000 anchors, and one of 60,000 plain keys.
        var head = "system: \"base16\"\nname: \"Hostile\"\nauthor: \"test\"\nvariant: \"dark\"\npalette:\n"
        for i in 0..<16 { head += String(format: "  base0%X: \"#%02x%02x%02x\"\n", i, i * 16, i * 8, i * 4) }
        var anchors = head + "extra:\n"
        for i in 0..<30_000 { anchors += "  - &a\(i) x\n" }
        try write("anchors.yaml", anchors)
        var keys = head + "extra:\n"
        for i in 0..<60_000 { keys += "  k\(i): x\n" }
        try write("keys.yaml", keys)
        return dir
    }

    func testDaemonServesWhileHostileThemesAreChecked() throws {
        let dir = try hostileThemesDirectory()
        try startDaemon(extraThemesDirectories: [dir], waitForChecks: false)
        // Answering already: Peer.Ping from busctl, Resolve from gdbus, the active theme's value.
        let ping = try busctl([
            "call", Locations.busName, Locations.objectPath, "org.freedesktop.DBus.Peer", "Ping",
        ])
        XCTAssertEqual(ping.status, 0, "\(ping)")
        let resolved = try gdbusCall("Resolve", ["Window/NavigationBar", "['tint-color']", "{}"])
        XCTAssertEqual(resolved.status, 0, "\(resolved)")
        XCTAssertTrue(resolved.stdout.contains("'tint-color': <'#"), "\(resolved)")
        // The hostile themes take seconds to check (this build is a debug one): status says how
        // many are not checked yet, and does not count them as invalid.
        let early = try livery("status")
        XCTAssertEqual(early.status, 0, "\(early)")
        XCTAssertTrue(
            early.stdout.range(
                of: #"themes: \d+ installed, \d+ not checked yet"#, options: .regularExpression) != nil,
            early.stdout)

        // Every theme is checked in the end; each hostile one says which bound it passed.
        var byID: [String: [String: Any]] = [:]
        XCTAssertTrue(
            try waitUntil(timeout: 120) {
                let list = try self.livery("list", "--json")
                guard list.status == 0 else { return false }
                let themes =
                    try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]] ?? []
                byID = Dictionary(
                    themes.map { ($0["id"] as? String ?? "", $0) }, uniquingKeysWith: { a, _ in a })
                return !themes.isEmpty && themes.allSatisfy { $0["checked"] as? Bool == true }
            },
            "not every theme was checked: \(byID.filter { $0.value["checked"] as? Bool != true }.keys.sorted())"
        )
        func errors(_ id: String) -> [String] { byID[id]?["errors"] as? [String] ?? [] }
        XCTAssertEqual(byID["product"]?["valid"] as? Bool, true, "\(errors("product"))")
        XCTAssertEqual(byID["anchors"]?["valid"] as? Bool, true, "\(errors("anchors"))")
        for id in ["components", "palette"] {
            XCTAssertEqual(byID[id]?["valid"] as? Bool, false)
            XCTAssertEqual(errors(id).count, Int(101), id)
            XCTAssertEqual(
                errors(id).last?.hasSuffix(
                    "error: 4900 more problems in this file not shown (the first 100 are)"), true,
                "\(errors(id).last ?? "")")
        }
        XCTAssertEqual(
            errors("braces").last?.hasSuffix(
                "error: \(300 * 999 - 100) more problems in this file not shown (the first 100 are)"), true,
            "\(errors("braces").last ?? "")")
        XCTAssertTrue(
            !errors("imports").isEmpty
                && errors("imports").allSatisfy {
                    $0.contains("past 4194304 bytes") || $0.contains("more problems")
                },
            "\(errors("imports").prefix(3))")
        XCTAssertEqual(
            errors("keys").map { $0.contains("YAML document has more than 100000 nodes") }, [true],
            "\(errors("keys"))")

        // Still serving; the valid hostile themes activate and resolve.
        XCTAssertTrue(daemon.isRunning, "liveryd died: \(daemon.stderr)")
        try setTheme("product")
        XCTAssertEqual(try resolve("Window/Button", "alpha"), "0.5\n")
        // 5,000 selectors × 5,000 declarations match: the 1,000 nearest the winner are listed.
        let explained = try livery("explain", "Window/Button", "alpha")
        XCTAssertEqual(explained.status, 0, "\(explained)")
        let lines = explained.stdout.split(separator: "\n")
        XCTAssertEqual(
            lines.prefix(2), ["Window/Button alpha", "   (24999000 earlier candidates not shown)"])
        XCTAssertEqual(lines.count, 2 + 2 * 1000)
        try setTheme("anchors")
        XCTAssertEqual(try activeTheme(), "anchors\n")
        XCTAssertTrue(daemon.isRunning, "liveryd died: \(daemon.stderr)")
    }

    /// `SetTheme` of a theme that takes seconds to compile (a 1.3 MB selector list) is compiled
    /// away from the thread that answers the bus: calls sent meanwhile are answered, with the
    /// old theme's values, while the `SetTheme` call is still waiting for its reply.
    func testCallsAreAnsweredWhileSetThemeCompiles() throws {
        let dir = try makeDirectory("slow-themes")
        let s = 60_000
        try
            ("@theme { name: \"Slow\"; }\nButton" + String(repeating: ", Button", count: s - 1) + " {"
            + String(repeating: " alpha: 0.5;", count: s) + " }\n")
            .write(toFile: dir + "/slow.css", atomically: true, encoding: .utf8)
        try startDaemon(extraThemesDirectories: [dir])
        XCTAssertEqual(try resolve("Window/Button", "alpha"), "1\n")
        let set = try background(
            Locations.tool("gdbus"),
            [
                "call", "--address", address, "--dest", Locations.busName, "--object-path",
                Locations.objectPath,
                "--method", Locations.interface + ".SetTheme", "slow",
            ])
        // Before the change: every call waited for the compile, so at most one could come back
        // before gdbus had its SetTheme reply.
        var answeredMeanwhile: [String] = []
        while set.isRunning && answeredMeanwhile.count < 5 {
            let r = try gdbusCall("Resolve", ["Window/Button", "['alpha']", "{}"])
            let ping = try busctl([
                "call", Locations.busName, Locations.objectPath, "org.freedesktop.DBus.Peer", "Ping",
            ])
            XCTAssertEqual(ping.status, 0, "\(ping)")
            if set.isRunning { answeredMeanwhile.append(r.stdout) }
        }
        XCTAssertEqual(
            answeredMeanwhile.count, 5, "calls answered while SetTheme compiled: \(answeredMeanwhile)")
        XCTAssertEqual(
            Set(answeredMeanwhile), ["({'alpha': <1.0>},)\n"], "the old theme answers until the switch")
        XCTAssertTrue(set.waitForExit(timeout: 60), "SetTheme got no reply")
        XCTAssertEqual(set.process.terminationStatus, 0, set.stderr)
        XCTAssertEqual(try activeTheme(), "slow\n")
        XCTAssertEqual(try resolve("Window/Button", "alpha"), "0.5\n")
    }
}
