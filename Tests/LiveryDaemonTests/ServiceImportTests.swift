import Foundation
import XCTest

/// LiveryService is what Livery does, reached through adapters: neither its sources nor its
/// target's dependencies may name a bus module (LiveryDBus, CDBus, or LiveryAPI, which is the
/// bus contract and depends on LiveryDBus).
final class ServiceImportTests: XCTestCase {
    static let busModules = ["LiveryDBus", "CDBus", "LiveryAPI"]
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    func testNoSourceOfLiveryServiceImportsABusModule() throws {
        let directory = root.appendingPathComponent("Sources/LiveryService")
        let enumerator = try XCTUnwrap(FileManager.default.enumerator(atPath: directory.path))
        var files = 0
        for case let file as String in enumerator where file.hasSuffix(".swift") {
            files += 1
            let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") {
                let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
                guard let i = words.firstIndex(of: "import"), i + 1 < words.count else { continue }
                // `@testable import`, `@_exported import`, `import struct M.T` and `import M.T` too.
                let named = words[(i + 1)...].map { String($0.split(separator: ".").first ?? "") }
                for module in ServiceImportTests.busModules where named.contains(module) {
                    XCTFail("Sources/LiveryService/\(file) imports \(module): \(line)")
                }
            }
        }
        XCTAssertGreaterThan(files, 10, "the module's sources were found")
    }

    func testLiveryServiceTargetDependsOnNoBusModule() throws {
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let start = try XCTUnwrap(manifest.range(of: "name: \"LiveryService\""), "the target is declared")
        let rest = manifest[start.upperBound...]
        let end = rest.range(of: ".target(")?.lowerBound ?? rest.endIndex
        let declaration = rest[..<end]
        XCTAssertTrue(declaration.contains("dependencies:"), String(declaration))
        for module in ServiceImportTests.busModules {
            XCTAssertFalse(declaration.contains("\"\(module)\""), "LiveryService depends on \(module)")
        }
    }
}
