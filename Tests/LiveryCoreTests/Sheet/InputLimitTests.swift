import Foundation
import XCTest

@testable import LiveryCore

/// Hostile input is refused with a diagnostic, never a crash or a hang.
final class InputLimitTests: XCTestCase {
    func testDeeplyNestedFunctionsAreRefused() throws {
        let css =
            "Button { tint-color: " + String(repeating: "alpha(", count: 10_000) + "#fff"
            + String(repeating: ", 0.5)", count: 10_000) + "; }"
        let d = try diagnostics(of: css)
        XCTAssertEqual(d.first?.message, "functions nested more than 32 deep")
    }

    func testOverlongSelectorsAreRefused() throws {
        let d = try diagnostics(of: String(repeating: "View ", count: 40) + "{ tint-color: red; }")
        XCTAssertEqual(d.map(\.message), ["selector has more than 32 compound selectors"])
    }

    func testLongPaletteChainsAreRefused() throws {
        var css = "@define-color c0 #123456;\n"
        for i in 1...200 { css += "@define-color c\(i) @c\(i - 1);\n" }
        css += "Button { tint-color: @c200; }\n"
        let d = try diagnostics(of: css)
        XCTAssertTrue(
            d.contains { $0.message.contains("is reached through more than 64 references") }, "\(d.prefix(3))"
        )
    }

    /// The limit is on a chain's length, whatever the colours' names: 64 references from a
    /// colour to a literal one are accepted and 65 refused, with the names running with the
    /// chain or against it (colours are evaluated in name order, and an evaluation depth was
    /// measured instead: a newcomer's 99-long chain passed, a 66-long one named the other way
    /// was refused at the wrong colour); the one error is at the colour 65 references away.
    func testPaletteChainLimitIsTheChainsLength() throws {
        for references in [64, 65] {
            for against in [false, true] {
                // Colour i refers to colour i − 1; colour 0 is a literal.
                func name(_ i: Int) -> String { String(format: "c%03d", against ? 999 - i : i) }
                var css = "@define-color \(name(0)) #123456;\n"
                for i in 1...references { css += "@define-color \(name(i)) @\(name(i - 1));\n" }
                css += "Button { tint-color: @\(name(references)); }\n"
                let d = try diagnostics(of: css).filter { $0.severity == .error }
                if references == 64 {
                    XCTAssertEqual(d.map(\.message), [], "against: \(against)")
                } else {
                    XCTAssertEqual(
                        d.map(\.message),
                        ["palette colour '@\(name(65))' is reached through more than 64 references"],
                        "against: \(against)")
                }
            }
        }
        // A chain and a cycle of 2,000 colours: refused, no recursion that deep.
        var css = "@define-color k0 #123456;\n"
        for i in 1..<2_000 { css += "@define-color k\(i) @k\(i - 1);\n" }
        css += "@define-color z0 @z1999;\n"
        for i in 1..<2_000 { css += "@define-color z\(i) @z\(i - 1);\n" }
        let d = try diagnostics(of: css).filter { $0.severity == .error }
        XCTAssertEqual(
            d.map(\.message).filter { $0.contains("@k") },
            ["palette colour '@k65' is reached through more than 64 references"])
        XCTAssertFalse(d.filter { $0.message.contains("@z") }.isEmpty)
    }

    func testYAMLAliasBombIsRefusedQuickly() throws {
        var yaml = "a0: &a0 [\"x\", \"x\", \"x\", \"x\", \"x\", \"x\", \"x\", \"x\", \"x\", \"x\"]\n"
        for i in 1...9 {
            yaml +=
                "a\(i): &a\(i) [" + Array(repeating: "*a\(i - 1)", count: 10).joined(separator: ", ") + "]\n"
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "livery-bomb-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let url = dir.appendingPathComponent("bomb.yaml")
        try yaml.write(to: url, atomically: true, encoding: .utf8)
        let source = Base16Format().read(url, id: "bomb")
        XCTAssertEqual(
            source.sheet.diagnostics.map(\.message),
            ["YAML document expands to more than 100000 nodes (aliases nested too far)"])
    }

    func testImportChainsAreBounded() throws {
        var files: [String: Data] = [:]
        for i in 0..<40 { files["i\(i).css"] = Data("@import \"i\(i + 1).css\";\n".utf8) }
        files["i40.css"] = Data("Button { tint-color: red; }\n".utf8)
        let d = try diagnostics(of: "@import \"i0.css\";\n", files: files)
        XCTAssertEqual(d.map(\.message), ["@import nested more than 16 files deep"])
    }

    func testDeeplyNestedYAMLIsRefusedBeforeLoading() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "livery-deep-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let url = dir.appendingPathComponent("deep.yaml")
        try
            ("scheme: " + String(repeating: "[", count: 20_000) + String(repeating: "]", count: 20_000) + "\n")
            .write(to: url, atomically: true, encoding: .utf8)
        let source = Base16Format().read(url, id: "deep")
        XCTAssertEqual(
            source.sheet.diagnostics.map(\.description),
            ["\(url.path):1:73: error: YAML nested more than 64 levels deep"])
    }
}
