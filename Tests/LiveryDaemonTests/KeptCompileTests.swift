import Foundation
import Synchronization
import XCTest

@testable import LiveryCore
@testable import LiveryService

#if canImport(Glibc)
    import Glibc
#endif

/// A switch to a recently active theme whose files are all unchanged uses the compile kept of it
/// (`KeptCompile`): nothing is read or compiled. Any change to a file the theme's read or compile
/// looked at, made between two switches, is seen by the second, even one that leaves the size
/// and the modification time as they were.
final class KeptCompileTests: XCTestCase {
    private func tint(_ s: ThemeService, _ path: String = "Button") throws -> String {
        try s.resolve(path, properties: ["tint-color"], app: nil)[0].value.description
    }

    /// A service over `scratch` whose checker has replaced the catalog with its scan (a new
    /// scan is not one kept compiles were read from).
    private func service(_ scratch: Scratch, configFile: String? = nil, pictures: PalettePictures? = nil)
        throws -> ThemeService
    {
        var configuration = ThemeService.Configuration(
            searchPath: [scratch.themes.path, shippedThemes], stateFile: scratch.stateFile,
            overridesFile: scratch.overridesFile)
        configuration.configFile = configFile
        configuration.pictures = pictures
        let s = try ThemeService(configuration: configuration, log: Log(threshold: .error, sink: { _ in }))
        XCTAssertTrue(s.waitUntilChecked(timeout: 60))
        return s
    }

    /// Switches to `id`, asserting that it used a kept compile (or compiled: `kept` false).
    private func switchTo(
        _ s: ThemeService, _ id: String, kept: Bool, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let before = s.switchCounts
        _ = try s.setTheme(id)
        let after = s.switchCounts
        XCTAssertEqual(
            kept ? after.kept - before.kept : after.compiled - before.compiled, 1,
            "switch to \(id): \(kept ? "expected the kept compile" : "expected a compile"), \(before) → \(after)",
            file: file, line: line)
    }

    func testASwitchBackToAnUnchangedThemeUsesItsKeptCompile() throws {
        let lines = LogLines()
        let scratch = try Scratch()
        var configuration = ThemeService.Configuration(
            searchPath: [scratch.themes.path, shippedThemes], stateFile: scratch.stateFile,
            overridesFile: scratch.overridesFile)
        configuration.configFile = nil
        let s = try ThemeService(configuration: configuration, log: lines.log)
        XCTAssertTrue(s.waitUntilChecked(timeout: 60))
        try switchTo(s, "forest", kept: false)
        try switchTo(s, "crimson", kept: false)
        try switchTo(s, "forest", kept: true)
        XCTAssertEqual(try tint(s, "Window/TabBar"), "#008000ff")
        try switchTo(s, "crimson", kept: true)
        XCTAssertEqual(try tint(s, "Window/TabBar"), "#800000ff")
        XCTAssertEqual(s.serial, 4)
        // The per-step log says so, and the switch read nothing.
        let last = try XCTUnwrap(lines.all.last { $0.contains("switch to 'crimson'") })
        XCTAssertTrue(last.contains(" kept "), last)
        XCTAssertFalse(last.contains("read "), last)
        // The active theme again: nothing to publish.
        XCTAssertNil(try s.setTheme("crimson"))
    }

    func testToggleAndSetVariantUseTheKeptCompile() throws {
        let scratch = try Scratch()
        let config = scratch.root.appendingPathComponent("config.yaml").path
        try "light: forest\ndark: default-dark\n".write(toFile: config, atomically: true, encoding: .utf8)
        let s = try service(scratch, configFile: config)
        try switchTo(s, "forest", kept: false)
        var counts = s.switchCounts
        XCTAssertEqual(try s.toggle().theme, "default-dark")
        XCTAssertEqual(s.switchCounts.compiled, counts.compiled + 1)
        counts = s.switchCounts
        XCTAssertEqual(try s.toggle().theme, "forest")
        XCTAssertEqual(s.switchCounts.kept, counts.kept + 1, "Toggle back")
        XCTAssertEqual(try s.setVariant("dark").theme, "default-dark")
        XCTAssertEqual(s.switchCounts.kept, counts.kept + 2, "SetVariant")
        XCTAssertEqual(try s.setVariant("light").theme, "forest")
        XCTAssertEqual(s.switchCounts.kept, counts.kept + 3, "SetVariant")
        XCTAssertEqual(s.switchCounts.compiled, counts.compiled)
        XCTAssertEqual(try tint(s, "Window/TabBar"), "#008000ff")
    }

    /// The Service's variant switch, which the schedule and darkman's `Mode` call, goes through
    /// the same path.
    func testTheServicesVariantSwitchUsesTheKeptCompile() throws {
        let scratch = try Scratch()
        let config = scratch.root.appendingPathComponent("config.yaml").path
        try "light: forest\ndark: default-dark\n".write(toFile: config, atomically: true, encoding: .utf8)
        let themes = try service(scratch, configFile: config)
        let service = Service(themes: themes)
        func variant(_ v: String) throws -> String {
            let done = DispatchSemaphore(value: 0)
            let result = Mutex<Result<String, ServiceError>?>(nil)
            service.setVariant(v, logsFailure: true) { r in
                result.withLock { $0 = r }
                done.signal()
            }
            XCTAssertEqual(done.wait(timeout: .now() + 30), .success)
            return try XCTUnwrap(result.withLock { $0 }).get()
        }
        XCTAssertEqual(try variant("dark"), "default-dark")
        XCTAssertEqual(try variant("light"), "forest")
        let counts = themes.switchCounts
        XCTAssertEqual(try variant("dark"), "default-dark")
        XCTAssertEqual(try variant("light"), "forest")
        XCTAssertEqual(themes.switchCounts.kept, counts.kept + 2)
        XCTAssertEqual(themes.switchCounts.compiled, counts.compiled)
    }

    // MARK: Every kind of input, edited between two switches

    /// A theme `mine` (importing `colors.css`, inheriting `base`, with an image behind a link),
    /// switched to, away and back (the kept compile used), its files settled first.
    private func keptMine(
        _ scratch: Scratch, pictures: PalettePictures? = nil, metadata: String = "", rules: String = ""
    ) throws -> ThemeService {
        try scratch.write("base/theme.css", "@theme { abstract: true; }\nSlider { tint-color: #0a0a0a; }\n")
        try scratch.write(
            "mine/theme.css",
            "@theme { inherits: \"base\"; \(metadata)}\n@import \"colors.css\";\n"
                + "Button { background-image: url(\"images/pic.png\"); }\n" + rules)
        try scratch.write("mine/colors.css", "Button { tint-color: #010203; }\n")
        try writePNG(scratch.themes.appendingPathComponent("mine/images/a.png").path, seed: 1)
        XCTAssertEqual(link(mineImage(scratch, "a.png"), mineImage(scratch, "b.png")), 0)
        XCTAssertEqual(symlink("a.png", mineImage(scratch, "pic.png")), 0)
        try settle(scratch.root.path)
        let s = try service(scratch, pictures: pictures)
        try switchTo(s, "mine", kept: false)
        try switchTo(s, "forest", kept: false)
        try switchTo(s, "mine", kept: true)
        try switchTo(s, "forest", kept: true)
        return s
    }

    private func mineImage(_ scratch: Scratch, _ name: String) -> String {
        scratch.themes.appendingPathComponent("mine/images/\(name)").path
    }

    /// What a service that never switched before gives for `mine`: the value a compile of the
    /// files as they are now has.
    private func fresh(_ scratch: Scratch, _ path: String, _ property: String) throws -> String {
        let s = try scratch.service()
        _ = try s.setTheme("mine")
        return try s.resolve(path, properties: [property], app: nil)[0].value.description
    }

    func testAnEditedSheetOfTheSameSizeAndModificationTimeIsSeen() throws {
        let scratch = try Scratch()
        let s = try keptMine(scratch)
        let sheet = scratch.themes.appendingPathComponent("mine/theme.css").path
        let text = try String(contentsOfFile: sheet, encoding: .utf8)
        try rewriteInPlace(sheet, text.replacingOccurrences(of: "pic.png\"); }", with: "b.png\");   }"))
        try switchTo(s, "mine", kept: false)
        let image = try s.resolve("Button", properties: ["background-image"], app: nil)[0].value
        XCTAssertEqual(image, .image(BundleFiles.realPath(mineImage(scratch, "b.png"))))
    }

    func testAnEditedImportIsSeen() throws {
        let scratch = try Scratch()
        let s = try keptMine(scratch)
        try rewriteInPlace(
            scratch.themes.appendingPathComponent("mine/colors.css").path, "Button { tint-color: #040506; }\n"
        )
        try switchTo(s, "mine", kept: false)
        XCTAssertEqual(try tint(s), "#040506ff")
        XCTAssertEqual(try fresh(scratch, "Button", "tint-color"), "#040506ff")
    }

    func testAnEditedInheritedThemeIsSeen() throws {
        let scratch = try Scratch()
        let s = try keptMine(scratch)
        let base = scratch.themes.appendingPathComponent("base/theme.css").path
        let text = try String(contentsOfFile: base, encoding: .utf8)
        try rewriteInPlace(base, text.replacingOccurrences(of: "#0a0a0a", with: "#0b0b0b"))
        try switchTo(s, "mine", kept: false)
        XCTAssertEqual(try tint(s, "Slider"), "#0b0b0bff")
    }

    /// A parent the active theme's chain holds read is read again when its file changed: the
    /// theme switched to sees the parent as it is on disk, not as it was read for the other.
    func testAParentTheActiveThemeSharesIsReadAgainWhenEdited() throws {
        let scratch = try Scratch()
        let s = try keptMine(scratch)
        try scratch.write("other/theme.css", "@theme { inherits: \"base\"; }\n")
        try settle(scratch.themes.appendingPathComponent("other").path)
        _ = s.reload()
        XCTAssertTrue(s.waitUntilChecked(timeout: 60))
        try switchTo(s, "other", kept: false)  // base is read, as other's parent
        let base = scratch.themes.appendingPathComponent("base/theme.css").path
        let text = try String(contentsOfFile: base, encoding: .utf8)
        try rewriteInPlace(base, text.replacingOccurrences(of: "#0a0a0a", with: "#0c0c0c"))
        try switchTo(s, "mine", kept: false)
        XCTAssertEqual(try tint(s, "Slider"), "#0c0c0cff")
        try switchTo(s, "other", kept: false)
        XCTAssertEqual(try tint(s, "Slider"), "#0c0c0cff")
    }

    func testOverridesCreatedEditedAndRemovedAreSeen() throws {
        let scratch = try Scratch()
        let s = try keptMine(scratch)
        try scratch.writeOverrides("Button { tint-color: #0d0e0f; }\n")
        try switchTo(s, "mine", kept: false)
        XCTAssertEqual(try tint(s), "#0d0e0fff")
        try settle(scratch.overridesFile)
        try switchTo(s, "forest", kept: false)
        try switchTo(s, "mine", kept: false)  // the overrides had just been written when read
        try switchTo(s, "forest", kept: true)
        try switchTo(s, "mine", kept: true)
        try switchTo(s, "forest", kept: true)
        try rewriteInPlace(scratch.overridesFile, "Button { tint-color: #0f0e0d; }\n")
        try switchTo(s, "mine", kept: false)
        XCTAssertEqual(try tint(s), "#0f0e0dff")
        try switchTo(s, "forest", kept: false)
        try FileManager.default.removeItem(atPath: scratch.overridesFile)
        try switchTo(s, "mine", kept: false)
        XCTAssertEqual(try tint(s), "#010203ff")
    }

    /// The link to an image pointed at another name of the same file (a hard link: the same
    /// identity): the value is the path it resolves to now.
    func testAnImageLinkPointedElsewhereIsSeen() throws {
        let scratch = try Scratch()
        let s = try keptMine(scratch)
        try switchTo(s, "mine", kept: true)
        XCTAssertEqual(
            try s.resolve("Button", properties: ["background-image"], app: nil)[0].value,
            .image(BundleFiles.realPath(mineImage(scratch, "a.png"))))
        try FileManager.default.removeItem(atPath: mineImage(scratch, "pic.png"))
        XCTAssertEqual(symlink("b.png", mineImage(scratch, "pic.png")), 0)
        try switchTo(s, "forest", kept: true)
        try switchTo(s, "mine", kept: false)
        XCTAssertEqual(
            try s.resolve("Button", properties: ["background-image"], app: nil)[0].value,
            .image(BundleFiles.realPath(mineImage(scratch, "b.png"))))
    }

    /// An image rewritten in place is a change to publish (`editedImages`); one that is no
    /// longer an image is an error, not hidden by the kept compile.
    func testAnEditedImageIsPublishedAndABrokenOneRefused() throws {
        let scratch = try Scratch()
        let s = try keptMine(scratch)
        let real = try XCTUnwrap(BundleFiles.realPath(mineImage(scratch, "a.png")))
        let png = try Data(contentsOf: URL(fileURLWithPath: real))
        var other = png
        other[other.count - 1] ^= 0xff
        try switchTo(s, "mine", kept: true)
        try rewriteInPlace(real, other)
        // The active theme again, its image rewritten: a change to publish.
        let change = try XCTUnwrap(try s.setTheme("mine"))
        XCTAssertEqual(change.editedImages, [real])
        try switchTo(s, "forest", kept: true)
        try rewriteInPlace(real, Data(repeating: 0x20, count: png.count))
        XCTAssertThrowsError(try s.setTheme("mine")) { error in
            XCTAssertEqual((error as? ServiceError)?.kind, .invalidTheme)
            XCTAssertTrue("\(error)".contains("is not a PNG, JPEG, WebP or SVG image"), "\(error)")
        }
        XCTAssertEqual(s.activeTheme, "forest")
    }

    func testAnEditedPalettePictureIsSeen() throws {
        let scratch = try Scratch()
        // The decoder's one pixel is the file's last byte, as red or blue.
        let pictures = PalettePictures { path in
            guard let data = FileManager.default.contents(atPath: path) else {
                return .failure(BundleFiles.Refusal(message: "cannot be read"))
            }
            let pixel: UInt32 = data.last! == 1 ? 0xffd0_2020 : 0xff20_20d0
            return .success(.init(argb: [pixel], width: 1, height: 1))
        }
        let s = try keptMine(
            scratch, pictures: pictures, metadata: "palette-from: url(\"images/a.png\"); ",
            rules: "Slider { tint-color: @primary; }\n")
        try switchTo(s, "mine", kept: true)
        let red = try tint(s, "Slider")
        try switchTo(s, "forest", kept: true)
        let real = try XCTUnwrap(BundleFiles.realPath(mineImage(scratch, "a.png")))
        var blue = try Data(contentsOf: URL(fileURLWithPath: real))
        blue[blue.count - 1] = 2
        try rewriteInPlace(real, blue)
        try switchTo(s, "mine", kept: false)
        let now = try tint(s, "Slider")
        XCTAssertNotEqual(now, red)
        // What a service that never switched before makes of the picture as it is now.
        let fresh = try service(scratch, pictures: pictures)
        _ = try fresh.setTheme("mine")
        XCTAssertEqual(now, try tint(fresh, "Slider"))
    }

    // MARK: Errors and bounds

    /// A kept compile never hides a new error, the live reload's "last good version" included.
    func testABrokenEditIsRefusedAndTheLastGoodVersionIsNotServedBack() throws {
        let scratch = try Scratch()
        let s = try keptMine(scratch)
        let colors = scratch.themes.appendingPathComponent("mine/colors.css").path
        try rewriteInPlace(colors, "Button { tint-colr: #010203; }\n ")
        XCTAssertThrowsError(try s.setTheme("mine")) { error in
            XCTAssertEqual((error as? ServiceError)?.kind, .invalidTheme)
        }
        XCTAssertEqual(s.activeTheme, "forest")
        try rewriteInPlace(colors, "Button { tint-color: #010203; }\n")
        try switchTo(s, "mine", kept: false)
        // Broken while active: the reload keeps the last good version; a switch away and back
        // is refused, not served from the kept compile.
        try rewriteInPlace(colors, "Button { tint-colr: #010203; }\n ")
        XCTAssertNil(s.reload())
        XCTAssertTrue(s.problems.contains { $0.contains("tint-colr") }, "\(s.problems)")
        XCTAssertTrue(s.waitUntilChecked(timeout: 60))
        try switchTo(s, "forest", kept: false)
        XCTAssertThrowsError(try s.setTheme("mine"))
        XCTAssertEqual(s.activeTheme, "forest")
    }

    func testAtMostFourCompilesAreKept() throws {
        let scratch = try Scratch()
        for n in 1...5 { try scratch.write("t\(n)/theme.css", "Button { tint-color: #00000\(n); }\n") }
        try settle(scratch.themes.path)
        let s = try service(scratch)
        for n in 1...5 { try switchTo(s, "t\(n)", kept: false) }
        XCTAssertEqual(PreparedCascades.capacity, 4)
        for n in 2...5 { try switchTo(s, "t\(n)", kept: true) }
        try switchTo(s, "t1", kept: false)  // evicted
        XCTAssertEqual(try tint(s), "#000001ff")
    }
}

/// Waits until every file under `path` (or `path` itself) last changed more than
/// `FileStamps.settling` ago, so that stamps taken of it from now on are not racy.
func settle(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws {
    var paths = [path]
    if let under = FileManager.default.enumerator(atPath: path) {
        paths += under.compactMap { ($0 as? String).map { path + "/" + $0 } }
    }
    let deadline = Date().addingTimeInterval(30)
    while true {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        let now = Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
        let latest =
            paths.map { p -> Int64 in
                var st = stat()
                guard stat(p, &st) == 0 else { return 0 }
                return max(
                    Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec),
                    Int64(st.st_ctim.tv_sec) * 1_000_000_000 + Int64(st.st_ctim.tv_nsec))
            }.max() ?? 0
        if latest <= now - FileStamps.settling { return }
        guard Date() < deadline else {
            XCTFail("\(path) never settled", file: file, line: line)
            return
        }
        usleep(50_000)
    }
}

/// Writes `bytes` over the file at `path` in place (same inode), of the same size as before,
/// and sets its access and modification times back: only its change time and content differ.
func rewriteInPlace(_ path: String, _ bytes: Data, file: StaticString = #filePath, line: UInt = #line) throws
{
    var before = stat()
    XCTAssertEqual(stat(path, &before), 0, file: file, line: line)
    XCTAssertEqual(Int(before.st_size), bytes.count, "not the same size", file: file, line: line)
    let fd = open(path, O_WRONLY)
    XCTAssertGreaterThanOrEqual(fd, 0, file: file, line: line)
    let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    close(fd)
    XCTAssertEqual(written, bytes.count, file: file, line: line)
    var times = [before.st_atim, before.st_mtim]
    XCTAssertEqual(utimensat(AT_FDCWD, path, &times, 0), 0, file: file, line: line)
    var after = stat()
    XCTAssertEqual(stat(path, &after), 0, file: file, line: line)
    XCTAssertEqual(after.st_ino, before.st_ino, file: file, line: line)
    XCTAssertEqual(after.st_size, before.st_size, file: file, line: line)
    XCTAssertEqual(after.st_mtim.tv_sec, before.st_mtim.tv_sec, file: file, line: line)
    XCTAssertEqual(after.st_mtim.tv_nsec, before.st_mtim.tv_nsec, file: file, line: line)
}

/// `rewriteInPlace` with UTF-8 text.
func rewriteInPlace(_ path: String, _ text: String, file: StaticString = #filePath, line: UInt = #line) throws
{
    try rewriteInPlace(path, Data(text.utf8), file: file, line: line)
}

/// A small valid PNG (1 × 1, one byte of colour from `seed`) at `path`, its directory made.
func writePNG(_ path: String, seed: UInt8) throws {
    try FileManager.default.createDirectory(
        atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    // The signature is what the bundle check reads; the rest is opaque to the daemon.
    let bytes: [UInt8] = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0, seed]
    try Data(bytes).write(to: URL(fileURLWithPath: path))
}
