import Foundation
import XCTest

@testable import LiveryCore

/// The repository root, found from this file's path.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
let themesDirectory = repositoryRoot.appendingPathComponent("themes")
/// `Tests/Fixtures`: the real schemes and the seed cases (Tests/Fixtures/README.md).
let fixturesDirectory = repositoryRoot.appendingPathComponent("Tests/Fixtures")

/// The shipped schema, loaded once.
let shippedSchema: Schema = {
    do { return try Schema.load(from: themesDirectory.appendingPathComponent("schema.json")) } catch {
        fatalError("cannot load the shipped schema: \(error)")
    }
}()

/// Writes a bundle directory with `theme.css` and `files`, and reads it.
func bundle(_ css: String, files: [String: Data]) throws -> ThemeSource {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
        "livery-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    for (name, data) in files {
        let url = dir.appendingPathComponent(name)
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
    }
    try css.write(to: dir.appendingPathComponent("theme.css"), atomically: true, encoding: .utf8)
    return NativeFormat().read(dir, id: "test")
}

/// Compiles sheet text as a theme (in a temporary bundle directory when `files` are given).
func compileSheet(
    _ css: String, overrides: String? = nil, files: [String: Data] = [:], file: StaticString = #filePath,
    line: UInt = #line
) throws -> Cascade {
    let source = try bundle(css, files: files)
    let over = overrides.map { SheetParser().parse($0, file: "overrides.css") }
    let (theme, diagnostics) = ThemeCompiler.compile(chain: [source], overrides: over, schema: shippedSchema)
    guard let theme else {
        XCTFail("sheet has errors: \(diagnostics.map(\.description))", file: file, line: line)
        throw CocoaError(.featureUnsupported)
    }
    return Cascade(theme: theme)
}

/// Resolves one property and returns its printed form (`#rrggbbaa` for colours).
func resolved(_ cascade: Cascade, _ path: String, _ property: String, app: String? = nil) throws -> String {
    try cascade.resolve(ComponentPath(path, schema: cascade.theme.schema), properties: [property], app: app)[
        0
    ].value.description
}

/// The schema's initial value of a property, printed.
func initial(_ property: String) -> String { shippedSchema.properties[property]!.initial.description }

/// Diagnostics for a sheet checked as a bundle.
func diagnostics(of css: String, files: [String: Data] = [:]) throws -> [Diagnostic] {
    let source = try bundle(css, files: files)
    return ThemeCompiler.compile(chain: [source], schema: shippedSchema).diagnostics
}

/// A real, minimal PNG (1×1) for image tests.
let tinyPNG = Data(
    base64Encoded:
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")!
