import Foundation
import XCTest

@testable import LiveryCore

/// Every role of every scheme variant, light and dark, at five contrast levels, for 30 source
/// colours, against the `materialyoucolor` port of material-color-utilities (PyPI), Material spec
/// 2021. The table is `Tests/Fixtures/material/scheme-table-2021.txt`, printed by
/// `scripts/material-scheme-table.py` from the oracle in the test virtual environment.
final class MaterialSchemeOracleTests: XCTestCase {
    struct Row {
        let line: Int
        let source: UInt32
        let variant: MaterialVariant
        let contrastLevel: Double
        let isDark: Bool
        let colours: [UInt32]
    }

    /// The table's role names and rows.
    static func table() throws -> (roles: [String], rows: [Row]) {
        let url = fixturesDirectory.appendingPathComponent("material/scheme-table-2021.txt")
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
        var roles: [String] = []
        var rows: [Row] = []
        for (index, line) in lines.enumerated() where !line.hasPrefix("#") {
            let fields = line.split(separator: " ").map(String.init)
            if fields[0] == "roles" {
                roles = Array(fields.dropFirst())
                continue
            }
            guard fields.count == 4 + roles.count, let source = UInt32(fields[0], radix: 16),
                let variant = MaterialVariant(rawValue: fields[1]), let contrast = Double(fields[2]),
                ["light", "dark"].contains(fields[3])
            else { throw CocoaError(.fileReadCorruptFile, userInfo: ["line": index + 1]) }
            let colours = try fields.dropFirst(4).map { field in
                guard let rgb = UInt32(field, radix: 16) else {
                    throw CocoaError(.fileReadCorruptFile, userInfo: ["line": index + 1])
                }
                return 0xFF00_0000 | rgb
            }
            rows.append(
                Row(
                    line: index + 1, source: source, variant: variant, contrastLevel: contrast,
                    isDark: fields[3] == "dark", colours: colours))
        }
        return (roles, rows)
    }

    func testEveryRoleOfEverySchemeMatchesTheOracleExactly() throws {
        let (roles, rows) = try Self.table()
        XCTAssertEqual(roles, MaterialScheme.roles.map(\.snakeCaseName))
        // 30 sources x 9 variants x 5 contrast levels x light and dark.
        XCTAssertEqual(rows.count, 30 * 9 * 5 * 2)
        XCTAssertEqual(Set(rows.map(\.variant)), Set(MaterialVariant.allCases))
        XCTAssertEqual(Set(rows.map(\.contrastLevel)), [-1, -0.5, 0, 0.5, 1])

        var compared = 0
        var mismatches: [String] = []
        for row in rows {
            let scheme = MaterialScheme(
                source: Hct(argb: row.source), variant: row.variant, isDark: row.isDark,
                contrastLevel: row.contrastLevel)
            for (role, expected) in zip(MaterialScheme.roles, row.colours) {
                let actual = scheme.argb(of: role)
                compared += 1
                if actual != expected {
                    mismatches.append(
                        "line \(row.line): \(materialHex(row.source)) \(row.variant.name) \(row.contrastLevel) "
                            + "\(row.isDark ? "dark" : "light") \(role.snakeCaseName): "
                            + "\(materialHex(actual)), oracle \(materialHex(expected))")
                }
            }
        }
        XCTAssertEqual(compared, rows.count * MaterialScheme.roles.count)
        XCTAssertEqual(
            mismatches, [], "\(mismatches.count) of \(compared) colours differ from the oracle")
        print(
            "MaterialSchemeOracleTests: \(compared - mismatches.count) of \(compared) colours equal the oracle's"
        )
    }
}
