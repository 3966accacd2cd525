import Foundation
import XCTest

@testable import LiveryCore

/// Reading theme files keeps no memory once the result is gone, empty files included (found by
/// the bundle fuzz target's leak detection: an empty `@import`ed file or an empty `theme.css`).
final class FileReadingTests: XCTestCase {
    /// The process's resident set size in bytes, from `/proc/self/statm`; 0 where there is none.
    func residentBytes() -> Int {
        let statm = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? ""
        let pages = statm.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// How much the resident size grows over `count` calls of `body`, after a first call (which
    /// may fill caches that stay).
    func growth(_ count: Int, _ body: () -> Void) -> Int {
        body()
        let before = residentBytes()
        for _ in 0..<count { body() }
        return residentBytes() - before
    }

    func testReadingEmptySheetsAndImportsKeepsNoMemory() throws {
        // Linux, where the leak was: /proc/self/statm is always there.
        XCTAssertGreaterThan(residentBytes(), 0, "no /proc/self/statm to measure with")
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "livery-test-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let empty = dir.appendingPathComponent("empty")
        let importing = dir.appendingPathComponent("importing")
        for d in [empty, importing] {
            try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true)
        }
        try Data().write(to: empty.appendingPathComponent("theme.css"))
        try Data("@import \"nothing.css\";\n".utf8).write(to: importing.appendingPathComponent("theme.css"))
        try Data().write(to: importing.appendingPathComponent("nothing.css"))

        // 5,000 reads of each: a 4 KiB buffer kept per empty file would be 20 MB.
        let emptySheet = growth(5000) {
            XCTAssert(NativeFormat().read(empty, id: "e").sheet.diagnostics.isEmpty)
        }
        XCTAssertLessThan(emptySheet, 4 << 20, "an empty theme.css keeps memory after it is read")
        let emptyImport = growth(5000) {
            XCTAssert(NativeFormat().read(importing, id: "i").sheet.diagnostics.isEmpty)
        }
        XCTAssertLessThan(emptyImport, 4 << 20, "an empty imported sheet keeps memory after it is read")
    }
}
