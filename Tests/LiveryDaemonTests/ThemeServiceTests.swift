import Foundation
import LiveryAPI
import LiveryCore
import LiveryDBus
import XCTest

@testable import LiveryDaemon
@testable import LiveryService

let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
let shippedThemes = repositoryRoot.appendingPathComponent("themes").path

/// A scratch home: a themes directory of its own next to the shipped one, state and overrides.
struct Scratch {
    let root: URL
    var themes: URL { root.appendingPathComponent("themes") }
    var stateFile: String { root.appendingPathComponent("state/livery/state.json").path }
    var overridesFile: String { root.appendingPathComponent("config/livery/overrides.css").path }

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "livery-svc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("themes"), withIntermediateDirectories: true)
    }

    func write(_ relative: String, _ text: String, in base: URL? = nil) throws {
        let url = (base ?? themes).appendingPathComponent(relative)
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    func writeOverrides(_ text: String) throws {
        try write("overrides.css", text, in: URL(fileURLWithPath: overridesFile).deletingLastPathComponent())
    }

    func service(log: Log = Log(threshold: .error, sink: { _ in }), configFile: String? = nil) throws
        -> ThemeService
    {
        var configuration = ThemeService.Configuration(
            searchPath: [themes.path, shippedThemes], stateFile: stateFile, overridesFile: overridesFile)
        configuration.configFile = configFile
        return try ThemeService(configuration: configuration, log: log)
    }
}

/// Collects log lines for assertions.
final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    var all: [String] { lock.withLock { lines } }
    var log: Log { Log(threshold: .debug, sink: { s in self.lock.withLock { self.lines.append(s) } }) }
}

final class ThemeServiceTests: XCTestCase {
    func testStartsWithDefaultAndSerialZero() throws {
        let s = try Scratch().service()
        XCTAssertEqual(s.activeTheme, "default")
        XCTAssertEqual(s.serial, 0)
    }

    func testSetThemeSwitchesPublishesOneSerialAndPersists() throws {
        let scratch = try Scratch()
        let s = try scratch.service()
        XCTAssertEqual(try s.setTheme("forest"), ThemeService.Change(theme: "forest", serial: 1))
        XCTAssertEqual(
            try s.resolve("Window/TabBar", properties: ["tint-color"], app: nil)[0].value,
            .color(RGBA(red8: 0, green8: 128, blue8: 0)))
        XCTAssertEqual(try s.setTheme("crimson"), ThemeService.Change(theme: "crimson", serial: 2))
        XCTAssertEqual(
            try s.resolve("Window/TabBar", properties: ["tint-color"], app: nil)[0].value.description,
            "#800000ff")
        // Setting the active theme again changes nothing and publishes nothing.
        XCTAssertNil(try s.setTheme("crimson"))
        XCTAssertEqual(s.serial, 2)
        XCTAssertEqual(
            try String(contentsOfFile: scratch.stateFile, encoding: .utf8), "{\"theme\":\"crimson\"}\n")
        XCTAssertEqual(try scratch.service().activeTheme, "crimson")
    }

    func testUnknownAndInvalidThemesChangeNothing() throws {
        let scratch = try Scratch()
        try scratch.write("broken/theme.css", "Buton { tint-colour: #zz; }\n")
        let s = try scratch.service()
        _ = try s.setTheme("forest")
        XCTAssertThrowsError(try s.setTheme("forrest")) { e in
            XCTAssertEqual(
                e as? ServiceError,
                ServiceError(.unknownTheme, "no theme 'forrest' is installed (did you mean 'forest'?)"))
        }
        XCTAssertThrowsError(try s.setTheme("broken")) { e in
            let error = e as! ServiceError
            XCTAssertEqual(error.kind, .invalidTheme)
            XCTAssertTrue(error.message.hasPrefix("theme 'broken' has 2 errors: "), error.message)
            XCTAssertTrue(
                error.message.contains(
                    "theme.css:1:1: error: unknown component type 'Buton' (did you mean 'Button'?)"),
                error.message)
            XCTAssertEqual(error.dbusError.name.rawValue, "org.livery.Livery1.Error.InvalidTheme")
        }
        XCTAssertEqual(s.activeTheme, "forest")
        XCTAssertEqual(s.serial, 1)
        // Installed themes are checked on a thread of their own after start-up.
        XCTAssertTrue(s.waitUntilChecked())
        let listing = try XCTUnwrap(s.listThemes().first { $0.metadata.id == "broken" })
        XCTAssertTrue(listing.checked)
        XCTAssertFalse(listing.valid)
        XCTAssertEqual(listing.errors.count, 2)
    }

    func testBrokenStateFileFallsBackToDefaultWithWarning() throws {
        let scratch = try Scratch()
        try scratch.write(
            "state.json", "{not json", in: URL(fileURLWithPath: scratch.stateFile).deletingLastPathComponent()
        )
        let lines = LogLines()
        let s = try scratch.service(log: lines.log)
        XCTAssertEqual(s.activeTheme, "default")
        XCTAssertTrue(
            lines.all.contains { $0.hasPrefix("<4>") && $0.contains("not a valid state file") },
            "\(lines.all)")
    }

    func testSavedThemeThatNoLongerValidatesFallsBackToDefault() throws {
        let scratch = try Scratch()
        try scratch.write("mine/theme.css", "Button { tint-color: #010203; }\n")
        _ = try scratch.service().setTheme("mine")
        try scratch.write("mine/theme.css", "Button { tint-color: nope; }\n")
        let lines = LogLines()
        XCTAssertEqual(try scratch.service(log: lines.log).activeTheme, "default")
        XCTAssertTrue(lines.all.contains { $0.hasPrefix("<4>saved theme 'mine' has errors") }, "\(lines.all)")
    }

    /// A replacement reads `state.json` again once its predecessor has left: it starts from
    /// what was saved since it was made, with nothing published.
    func testRestoreSavedThemeStartsFromWhatAnotherInstanceSavedSince() throws {
        let scratch = try Scratch()
        let replacement = try scratch.service()
        XCTAssertEqual(replacement.activeTheme, "default")
        _ = try scratch.service().setTheme("crimson")  // the instance being replaced
        replacement.restoreSavedTheme()
        XCTAssertEqual(replacement.activeTheme, "crimson")
        XCTAssertEqual(replacement.serial, 0)
        XCTAssertEqual(
            try replacement.resolve("Window/TabBar", properties: ["tint-color"], app: nil)[0].value
                .description,
            "#800000ff")
        // A saved theme that no longer validates falls back as at start-up.
        try scratch.write("mine/theme.css", "Button { tint-color: #010203; }\n")
        _ = try scratch.service().setTheme("mine")
        try scratch.write("mine/theme.css", "Button { tint-color: nope; }\n")
        replacement.restoreSavedTheme()
        XCTAssertEqual(replacement.activeTheme, "default")
        XCTAssertEqual(replacement.serial, 0)
    }

    func testReloadPicksUpGoodEditKeepsLastGoodOnBadEdit() throws {
        let scratch = try Scratch()
        try scratch.write("mine/theme.css", "Button { tint-color: #010203; }\n")
        let s = try scratch.service()
        _ = try s.setTheme("mine")
        try scratch.write("mine/theme.css", "Button { tint-color: #040506; }\n")
        XCTAssertEqual(s.reload(), ThemeService.Change(theme: "mine", serial: 2))
        XCTAssertEqual(
            try s.resolve("Button", properties: ["tint-color"], app: nil)[0].value.description, "#040506ff")
        try scratch.write("mine/theme.css", "Button { tint-color: #0405; text-colr: red; }\n")
        XCTAssertNil(s.reload())
        XCTAssertEqual(
            try s.resolve("Button", properties: ["tint-color"], app: nil)[0].value.description, "#040506ff")
        XCTAssertEqual(s.problems.count, 1)
        XCTAssertTrue(
            s.problems[0].contains("theme.css:1:29: error: unknown property 'text-colr'"), s.problems[0])
        // An unchanged reload publishes nothing.
        try scratch.write("mine/theme.css", "Button { tint-color: #040506; }\n")
        XCTAssertNil(s.reload())
        XCTAssertEqual(s.problems, [])
    }

    /// Edits that change no rule still change what the daemon answers: a `@component`'s
    /// supertype (which rules match it) and where rules are written (what `Explain` reports).
    /// Both used to be missed by the reload, which compared rules only, until the theme was
    /// switched away and back.
    func testReloadPicksUpComponentAndLocationOnlyEdits() throws {
        let scratch = try Scratch()
        try scratch.write(
            "comp/theme.css",
            "@component ColorWell : Control { part dot: View; }\nControl { tint-color: #ff0000; }\n")
        try scratch.write("mine/theme.css", "Button { tint-color: #010203; }\n")
        let s = try scratch.service()
        _ = try s.setTheme("comp")
        func tint() throws -> String {
            try s.resolve("Window/ColorWell", properties: ["tint-color"], app: nil)[0].value.description
        }
        XCTAssertEqual(try tint(), "#ff0000ff")
        try scratch.write(
            "comp/theme.css",
            "@component ColorWell : View { part dot: View; }\nControl { tint-color: #ff0000; }\n")
        XCTAssertEqual(s.reload(), ThemeService.Change(theme: "comp", serial: 2))
        XCTAssertNotEqual(try tint(), "#ff0000ff")
        // The same rule two lines lower.
        _ = try s.setTheme("mine")
        func origin() throws -> Int? {
            try s.explain("Window/Button", property: "tint-color", app: nil).candidates.last?.location.line
        }
        XCTAssertEqual(try origin(), 1)
        try scratch.write("mine/theme.css", "\n\nButton { tint-color: #010203; }\n")
        XCTAssertEqual(s.reload(), ThemeService.Change(theme: "mine", serial: 4))
        XCTAssertEqual(try origin(), 3)
    }

    func testShadowedThemesAreLoggedOnceNotOnEveryReload() throws {
        let scratch = try Scratch()
        // `forest` here shadows the shipped one (the scratch directory comes first).
        try scratch.write("forest/theme.css", "Button { tint-color: #010203; }\n")
        let lines = LogLines()
        let s = try scratch.service(log: lines.log)
        let shadowed = {
            lines.all.filter { $0.contains("skipped: theme 'forest' is already provided") }.count
        }
        XCTAssertEqual(shadowed(), 1)
        _ = s.reload()
        _ = s.reload()
        XCTAssertEqual(shadowed(), 1)
        // A new one is logged when it appears.
        try scratch.write("crimson/theme.css", "Button { tint-color: #010203; }\n")
        _ = s.reload()
        XCTAssertEqual(
            lines.all.filter { $0.contains("skipped: theme 'crimson' is already provided") }.count, 1)
    }

    func testOverridesFormTheUserLayerAndBrokenOverridesAreSetAside() throws {
        let scratch = try Scratch()
        try scratch.writeOverrides("Button { tint-color: #333333; }\n")
        let s = try scratch.service()
        XCTAssertEqual(
            try s.resolve("Window/Button", properties: ["tint-color"], app: nil)[0].value.description,
            "#333333ff")
        try scratch.writeOverrides("Button { tint-color: #33; }\n")
        XCTAssertEqual(s.reload(), ThemeService.Change(theme: "default", serial: 1))
        XCTAssertNotEqual(
            try s.resolve("Window/Button", properties: ["tint-color"], app: nil)[0].value.description,
            "#333333ff")
        XCTAssertEqual(s.problems.count, 1)
        XCTAssertTrue(s.problems[0].contains("overrides.css:1:22: error:"), s.problems[0])
    }

    func testLimitsAreEnforcedWithLimitExceeded() throws {
        let s = try Scratch().service()
        func kind(_ body: () throws -> Void) -> ServiceError.Kind? {
            do { try body() } catch { return (error as? ServiceError)?.kind }
            return nil
        }
        let long = "Window/" + String(repeating: "A", count: 1100)
        XCTAssertEqual(kind { _ = try s.resolve(long, properties: [], app: nil) }, .limitExceeded)
        let deep = Array(repeating: "View", count: 33).joined(separator: "/")
        XCTAssertEqual(kind { _ = try s.resolve(deep, properties: [], app: nil) }, .limitExceeded)
        XCTAssertEqual(
            kind {
                _ = try s.resolve(
                    Array(repeating: "View", count: 32).joined(separator: "/"), properties: [], app: nil)
            }, nil)
        XCTAssertEqual(
            kind {
                _ = try s.resolve("Button", properties: Array(repeating: "tint-color", count: 257), app: nil)
            }, .limitExceeded)
        let items = Array(repeating: (path: "Button", properties: [String]()), count: 1025)
        XCTAssertEqual(kind { _ = try s.resolveMany(items, app: nil) }, .limitExceeded)
        XCTAssertEqual(try s.resolveMany(Array(items.prefix(1024)), app: nil).count, 1024)
        XCTAssertEqual(kind { _ = try s.resolve("Window/Buton", properties: [], app: nil) }, .invalidPath)
        XCTAssertEqual(
            kind { _ = try s.resolve("Window/Button", properties: ["tint"], app: nil) }, .unknownProperty)
        // A property name past 256 bytes is refused before any lookup (a 10 MB name once held
        // the daemon for seconds in the "did you mean" search); 256 bytes is an unknown name.
        let huge = String(repeating: "a", count: 10_000_000)
        XCTAssertEqual(
            kind { _ = try s.resolve("Window/Button", properties: [huge], app: nil) }, .limitExceeded)
        XCTAssertEqual(kind { _ = try s.explain("Window/Button", property: huge, app: nil) }, .limitExceeded)
        XCTAssertEqual(
            kind {
                _ = try s.resolve("Window/Button", properties: [String(repeating: "a", count: 256)], app: nil)
            },
            .unknownProperty)
    }

    func testAPropertyAskedTwiceIsAnsweredOnce() throws {
        let s = try Scratch().service()
        let values = try s.resolve(
            "Window/TabBar", properties: ["tint-color", "alpha", "tint-color"], app: nil)
        XCTAssertEqual(values.map(\.property), ["tint-color", "alpha"])
        let many = try s.resolveMany([("Window/TabBar", ["alpha", "alpha"])], app: nil)
        XCTAssertEqual(many.first?.map(\.property), ["alpha"])
    }

    func testResolveManyReportsTheFailingItem() throws {
        let s = try Scratch().service()
        XCTAssertThrowsError(try s.resolveMany([("Button", []), ("Nope", [])], app: nil)) { e in
            XCTAssertEqual((e as? ServiceError)?.message.hasPrefix("item 1: segment 1 'Nope'"), true, "\(e)")
        }
    }

    func testStateStoreLeavesNoTemporaryFiles() throws {
        let scratch = try Scratch()
        let store = StateStore(path: scratch.stateFile)
        for id in ["a", "b", "c"] { try store.save(.init(theme: id)) }
        XCTAssertEqual(try store.load().theme, "c")
        let dir = URL(fileURLWithPath: scratch.stateFile).deletingLastPathComponent().path
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), ["state.json"])
    }

    func testValuesMapToTheirDBusTypes() {
        XCTAssertEqual(Value.color(RGBA(red8: 0, green8: 128, blue8: 0)).dbusValue, .string("#008000ff"))
        XCTAssertEqual(Value.image(nil).dbusValue, .string(""))
        XCTAssertEqual(Value.duration(0.6).dbusValue, .double(0.6))
        XCTAssertEqual(Value.size(1, 2).dbusValue, .structure([.double(1), .double(2)]))
        XCTAssertEqual(Value.insets(1, 2, 3, 4).dbusValue.signature.rawValue, "(dddd)")
    }

    func testDaemonOptionsParse() throws {
        let o = try XCTUnwrap(
            DaemonOptions.parse([
                "--themes-dir", "a", "--themes-dir=b", "--replace", "--address", "unix:path=/x",
                "--log-level", "debug",
            ]))
        XCTAssertEqual(o.themesDirectories, ["a", "b"])
        XCTAssertTrue(o.replace)
        XCTAssertEqual(o.address, "unix:path=/x")
        XCTAssertEqual(o.logLevel, .debug)
        XCTAssertThrowsError(try DaemonOptions.parse(["--bogus"]))
        XCTAssertThrowsError(try DaemonOptions.parse(["--system", "--address", "x"]))
        XCTAssertNil(try DaemonOptions.parse(["--help"]))
    }

    func testSearchPathFollowsXDG() {
        let p = Paths(environment: ["HOME": "/h", "XDG_DATA_DIRS": "/a:/b:relative"])
        XCTAssertEqual(
            p.themeSearchPath(extra: ["x"]),
            ["x", "/h/.local/share/livery/themes", "/a/livery/themes", "/b/livery/themes"])
        XCTAssertEqual(p.stateFile, "/h/.local/state/livery/state.json")
        XCTAssertEqual(
            Paths(environment: ["HOME": "/h", "XDG_CONFIG_HOME": "/c"]).overridesFile,
            "/c/livery/overrides.css")
    }

    func testLogLinesCarryPriorityPrefixes() {
        let lines = LogLines()
        let log = Log(threshold: .info, sink: lines.log.sinkForTests)
        log(.error, "bad\nsecond")
        log(.debug, "dropped")
        log(.info, "fine")
        XCTAssertEqual(lines.all, ["<3>bad\n", "<3>second\n", "<6>fine\n"])
    }
}
