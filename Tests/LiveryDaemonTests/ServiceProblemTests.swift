import Foundation
import LiveryAPI
import LiveryCore
import LiveryDBus
import XCTest

@testable import LiveryDaemon
@testable import LiveryService

/// What the daemon tells the user about the themes it finds, beyond errors in a sheet.
final class ServiceProblemTests: XCTestCase {
    func testControlCharactersInLoggedTextAreShownAsReplacementCharacters() {
        let lines = LogLines()
        let log = Log(threshold: .info, sink: lines.log.sinkForTests)
        log(.info, "theme 'a\u{1B}[2Jb'\tnext\nline\u{07}")
        XCTAssertEqual(lines.all, ["<6>theme 'a\u{FFFD}[2Jb'\tnext\n", "<6>line\u{FFFD}\n"])
    }

    func testASchemaWithoutComponentTypesIsSaidToBeEmpty() throws {
        let scratch = try Scratch()
        let schema = scratch.root.appendingPathComponent("schema.json").path
        try #"{"states": ["normal"], "properties": {}, "types": {}}"#.write(
            toFile: schema, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(
            try ThemeService(
                configuration: .init(
                    searchPath: [scratch.themes.path, shippedThemes], schemaFile: schema,
                    stateFile: scratch.stateFile, overridesFile: scratch.overridesFile),
                log: Log(threshold: .error, sink: { _ in }))
        ) { error in
            XCTAssertEqual(
                (error as? ServiceError)?.message,
                "\(schema): the schema has no component types, so no theme can be valid")
        }
    }

    func testADeclaredVariantThatIsNotInstalledIsAProblemOfTheActiveTheme() throws {
        let scratch = try Scratch()
        let sheet = "@theme { inherits: \"default\"; dark-variant: \"nonexistent\"; }\n"
        try scratch.write("mine/theme.css", sheet)
        let s = try scratch.service()
        XCTAssertEqual(s.problems, [])
        _ = try s.setTheme("mine")
        let column =
            sheet.distance(from: sheet.startIndex, to: sheet.range(of: "\"nonexistent\"")!.lowerBound) + 1
        XCTAssertEqual(
            s.problems,
            [
                "\(scratch.themes.path)/mine/theme.css:1:\(column): warning: 'dark-variant' names theme 'nonexistent', which is not installed"
            ])
        _ = try s.setTheme("default")
        XCTAssertEqual(s.problems, [])
    }

    func testTwoBundlesWithOneIdInOneDirectoryAreAProblem() throws {
        let scratch = try Scratch()
        try scratch.write("mine/theme.css", "@theme { inherits: \"default\"; }\n")
        try FileManager.default.copyItem(
            atPath: repositoryRoot.appendingPathComponent("Tests/Fixtures/schemes/base16/dracula.yaml").path,
            toPath: scratch.themes.appendingPathComponent("mine.yaml").path)
        let s = try scratch.service()
        let dir = scratch.themes.path
        XCTAssertEqual(
            s.problems,
            [
                "\(dir)/mine.yaml: skipped: theme 'mine' is also provided by \(dir)/mine in the same directory; rename one"
            ])
    }
}
