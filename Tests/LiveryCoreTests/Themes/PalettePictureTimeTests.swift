import Foundation
import XCTest

@testable import LiveryCore

/// The bound on checking a theme's rules (`ThemeCompiler.timeLimit`, the daemon's 10 s) is the
/// rules' own: reading the theme's palette picture, bounded by the picture's limits and done
/// once per version of the file, does not count against it, so a slow picture never makes a rule
/// of another sheet of the chain (its root's, `default`'s in a real theme) an error.
final class PalettePictureTimeTests: XCTestCase {
    /// A bundle directory `id` holding `theme.css` and a file that begins as a PNG does.
    func source(_ id: String, _ css: String, in directory: URL) throws -> ThemeSource {
        let dir = directory.appendingPathComponent(id)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try Data([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]).write(
            to: dir.appendingPathComponent("wall.png"))
        try css.write(to: dir.appendingPathComponent("theme.css"), atomically: true, encoding: .utf8)
        return NativeFormat().read(dir, id: id)
    }

    func testAPictureSlowerThanTheBoundLeavesTheRulesTheirBound() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "livery-test-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let root = try source("root", "Button { alpha: 0.5; }\n", in: directory)
        let child = try source(
            "child",
            "@theme { inherits: \"root\"; palette-from: url(\"wall.png\"); }\nLabel { text-color: @primary; }\n",
            in: directory)
        let limit = Duration.milliseconds(50)
        // A decoder that works (without sleeping) for twice the bound, then gives one blue pixel.
        let pictures = PalettePictures { _ in
            let clock = ContinuousClock()
            let until = clock.now + limit * 2
            while clock.now < until {}
            return .success(.init(argb: [0xff00_00ff], width: 1, height: 1))
        }
        let (theme, diagnostics) = ThemeCompiler.compile(
            chain: [root, child], schema: shippedSchema, timeLimit: limit, pictures: pictures)
        XCTAssertEqual(diagnostics.filter { $0.severity == .error }.map(\.description), [])
        XCTAssertNotNil(theme)
    }
}
