import Foundation
import XCTest

@testable import LiveryCore

/// Jasmine's `toBeCloseTo(expected, digits)`, as MCU's TypeScript tests use it:
/// |actual − expected| < 10^−digits / 2.
func assertCloseTo(
    _ actual: Double, _ expected: Double, _ digits: Int, _ what: String = "",
    file: StaticString = #filePath, line: UInt = #line
) {
    let tolerance = pow(10.0, Double(-digits)) / 2
    XCTAssertLessThan(
        abs(actual - expected), tolerance, "\(what): \(actual) is not \(expected) to \(digits) digits",
        file: file, line: line)
}

/// `0xAARRGGBB` as MCU's tests print it.
func hex(_ argb: UInt32) -> String {
    String(format: "%08x", argb)
}

/// The table `scripts/material-oracle.py` writes from the materialyoucolor package.
struct MaterialOracle: Decodable {
    struct Seed: Decodable {
        let argb: UInt32
        let hct: [String]
        let tones: [String: UInt32]
        let keyColor: UInt32
        let keyedTones: [String: UInt32]
    }
    struct Solve: Decodable {
        let hue: String
        let chroma: String
        let tone: String
        let argb: UInt32
        let hct: [String]
    }
    struct KeyColorCase: Decodable {
        let hue: String
        let chroma: String
        let keyColor: UInt32
    }
    struct TemperatureCase: Decodable {
        let argb: UInt32
        let complement: UInt32
        let analogous: [UInt32]
        let analogous36: [UInt32]
        let relative: String
    }
    struct ScoreCase: Decodable {
        let population: [[UInt32]]
        let desired: Int
        let filter: Bool
        let fallback: UInt32
        let ranked: [UInt32]
    }
    let materialyoucolor: String
    let seeds: [Seed]
    let solve: [Solve]
    let keyColors: [KeyColorCase]
    let temperature: [TemperatureCase]
    let score: [ScoreCase]

    static let shared: MaterialOracle = {
        let url = fixturesDirectory.appendingPathComponent("material/oracle.json")
        do {
            let decoder = JSONDecoder()
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            return try decoder.decode(MaterialOracle.self, from: Data(contentsOf: url))
        } catch {
            fatalError("cannot read \(url.path): \(error)")
        }
    }()
}

/// A double written by `float.hex()` (C99 hexadecimal), read back to the same bits.
func double(hex text: String) -> Double {
    guard let value = Double(text) else {
        fatalError("not a hexadecimal double: \(text)")
    }
    return value
}
