import Foundation
import XCTest

@testable import LiveryCore

#if canImport(Glibc)
    import Glibc
#endif

/// `FileStamps`: what a read looked at, and whether a look again finds the same.
final class FileStampsTests: XCTestCase {
    private var dir = ""

    override func setUpWithError() throws {
        dir =
            FileManager.default.temporaryDirectory.appendingPathComponent(
                "livery-stamps-\(UUID().uuidString)"
            )
            .path
        try FileManager.default.createDirectory(atPath: dir + "/b/images", withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: dir)
    }

    private func write(_ relative: String, _ text: String) throws {
        try text.write(toFile: dir + "/" + relative, atomically: true, encoding: .utf8)
    }

    /// Waits until every file under the directory last changed more than `settling` ago.
    private func settle() {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            let paths =
                [dir]
                + (FileManager.default.enumerator(atPath: dir)?.compactMap { $0 as? String } ?? [])
                .map { dir + "/" + $0 }
            var ts = timespec()
            clock_gettime(CLOCK_REALTIME, &ts)
            let now = Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
            let latest = paths.map { p -> Int64 in
                var st = stat()
                guard lstat(p, &st) == 0 else { return 0 }
                return max(nanoseconds(st.st_mtim), nanoseconds(st.st_ctim))
            }.max()!
            if latest <= now - FileStamps.settling { return }
            usleep(50_000)
        }
        XCTFail("never settled")
    }

    private func nanoseconds(_ t: timespec) -> Int64 { Int64(t.tv_sec) * 1_000_000_000 + Int64(t.tv_nsec) }

    func testAReadRecordsEveryFileAndResolutionItLookedAt() throws {
        try write(
            "b/theme.css", "@import \"colors.css\";\nButton { background-image: url(\"images/a.png\"); }\n")
        try write("b/colors.css", "Button { tint-color: #010203; }\n")
        try Data([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1]).write(
            to: URL(fileURLWithPath: dir + "/b/images/a.png"))
        let catalog = ThemeCatalog(searchPath: [dir])
        let files = try XCTUnwrap(catalog.sources["b"]).files
        let real = try XCTUnwrap(BundleFiles.realPath(dir))
        XCTAssertTrue(files.paths.contains(dir + "/b/theme.css"), "\(files.paths)")
        XCTAssertTrue(files.paths.contains(real + "/b/colors.css"), "\(files.paths)")
        // The image is checked by the compile, not the read.
        XCTAssertFalse(files.paths.contains { $0.hasSuffix("a.png") }, "\(files.paths)")
        let (theme, compiled) = FileStamps.recording {
            catalog.compile("b", schema: shippedSchema).theme
        }
        XCTAssertNotNil(theme)
        XCTAssertTrue(compiled.paths.contains(real + "/b/images/a.png"), "\(compiled.paths)")
    }

    /// Changed less than `settling` before the look, or dated in the future: racy, since a later
    /// write in the same tick of the file clock would leave every field equal.
    func testAnIdentityTakenSoonAfterItsChangeIsRacy() throws {
        try write("f", "one")
        var st = stat()
        XCTAssertEqual(stat(dir + "/f", &st), 0)
        let changed = max(nanoseconds(st.st_ctim), nanoseconds(st.st_mtim))
        XCTAssertTrue(FileStamps.identity(st, now: changed).racy)
        XCTAssertTrue(FileStamps.identity(st, now: changed + FileStamps.settling - 1).racy)
        XCTAssertFalse(FileStamps.identity(st, now: changed + FileStamps.settling).racy)
        // A recording of a file dated an hour ahead is racy, so never current.
        let ahead = timespec(tv_sec: time(nil) + 3600, tv_nsec: 0)
        var times = [ahead, ahead]
        XCTAssertEqual(utimensat(AT_FDCWD, dir + "/f", &times, 0), 0)
        let (_, stamps) = FileStamps.recording { BundleFiles.contents(of: dir + "/f") }
        XCTAssertTrue(stamps.racy)
        XCTAssertFalse(stamps.isCurrent)
    }

    func testAnInPlaceRewriteOfTheSameSizeAndModificationTimeIsNotCurrent() throws {
        try write("f", "one")
        settle()
        let (_, stamps) = FileStamps.recording { BundleFiles.contents(of: dir + "/f") }
        XCTAssertFalse(stamps.racy)
        XCTAssertTrue(stamps.isCurrent)
        var before = stat()
        XCTAssertEqual(stat(dir + "/f", &before), 0)
        let fd = open(dir + "/f", O_WRONLY)
        XCTAssertEqual(Glibc.write(fd, "two", 3), 3)
        close(fd)
        var times = [before.st_atim, before.st_mtim]
        XCTAssertEqual(utimensat(AT_FDCWD, dir + "/f", &times, 0), 0)
        var after = stat()
        XCTAssertEqual(stat(dir + "/f", &after), 0)
        XCTAssertEqual(
            [after.st_ino, UInt(after.st_size)], [before.st_ino, UInt(before.st_size)], "same inode and size")
        XCTAssertEqual(nanoseconds(after.st_mtim), nanoseconds(before.st_mtim))
        XCTAssertFalse(stamps.isCurrent)
    }

    func testAFileThatAppearsOrGoesIsNotCurrent() throws {
        let (_, missing) = FileStamps.recording { BundleFiles.contents(of: dir + "/new") }
        XCTAssertTrue(missing.isCurrent)
        try write("new", "x")
        XCTAssertFalse(missing.isCurrent)
        settle()
        let (_, present) = FileStamps.recording { BundleFiles.contents(of: dir + "/new") }
        XCTAssertTrue(present.isCurrent)
        try FileManager.default.removeItem(atPath: dir + "/new")
        XCTAssertFalse(present.isCurrent)
    }

    /// A link pointed at another name of the same file (a hard link: the same identity) resolves
    /// elsewhere, which is a change.
    func testALinkPointedAtAnotherNameOfTheSameFileIsNotCurrent() throws {
        try write("b/images/a.png", "png")
        XCTAssertEqual(link(dir + "/b/images/a.png", dir + "/b/images/b.png"), 0)
        XCTAssertEqual(symlink("a.png", dir + "/b/images/pic.png"), 0)
        settle()
        let (_, stamps) = FileStamps.recording { BundleFiles.confine("images/pic.png", in: dir + "/b") }
        XCTAssertTrue(stamps.isCurrent)
        try FileManager.default.removeItem(atPath: dir + "/b/images/pic.png")
        XCTAssertEqual(symlink("b.png", dir + "/b/images/pic.png"), 0)
        XCTAssertFalse(stamps.isCurrent)
    }

    func testARecordingWithinAnotherReachesItAndAFileFoundTwoWaysIsRacy() throws {
        try write("f", "one")
        try write("g", "two")
        settle()
        let (inner, outer) = FileStamps.recording {
            FileStamps.recording { BundleFiles.contents(of: dir + "/f") }.1
        }
        XCTAssertEqual(inner.paths, [dir + "/f"])
        XCTAssertEqual(outer.paths, [dir + "/f"])
        let (_, g) = FileStamps.recording { BundleFiles.contents(of: dir + "/g") }
        var both = inner
        both.formUnion(g)
        XCTAssertEqual(both.paths, [dir + "/f", dir + "/g"])
        XCTAssertTrue(both.isCurrent)
        try write("f", "three")
        let (_, again) = FileStamps.recording { BundleFiles.contents(of: dir + "/f") }
        both.formUnion(again)
        XCTAssertTrue(both.racy, "one file, two identities")
    }

    /// The catalog reads a theme it holds read again only when asked to and its files changed.
    func testTheCatalogReadsAChangedThemeAgainWhenAsked() throws {
        try write("b/theme.css", "Button { tint-color: #010203; }\n")
        settle()
        var catalog = ThemeCatalog(searchPath: [dir], readingOnly: ["b"])
        func tint() throws -> String {
            try resolved(
                Cascade(theme: XCTUnwrap(catalog.compile("b", schema: shippedSchema).theme)), "Button",
                "tint-color")
        }
        try write("b/theme.css", "Button { tint-color: #040506; }\n")
        catalog.read("b")
        XCTAssertEqual(try tint(), "#010203ff")
        catalog.read("b", again: true)
        XCTAssertEqual(try tint(), "#040506ff")
    }
    /// A source read from one entry is not adopted by a catalog whose entry of that id is another
    /// file (a theme of the same id added earlier on the search path between the read and the
    /// commit): the catalog reads its own entry, so the shadowing theme is compiled.
    func testASourceOfAShadowedEntryIsNotAdopted() throws {
        try FileManager.default.createDirectory(atPath: dir + "/first/b", withIntermediateDirectories: true)
        try write("b/theme.css", "Button { tint-color: #010203; }\n")
        let old = ThemeCatalog(searchPath: [dir + "/first", dir], readingOnly: ["b"])
        let read = try XCTUnwrap(old.sources["b"])
        try write("first/b/theme.css", "Button { tint-color: #040506; }\n")
        var catalog = ThemeCatalog(searchPath: [dir + "/first", dir], readingOnly: [])
        catalog.adopt(read: [read])
        catalog.read("b")
        let theme = try XCTUnwrap(catalog.compile("b", schema: shippedSchema).theme)
        XCTAssertEqual(try resolved(Cascade(theme: theme), "Button", "tint-color"), "#040506ff")
    }
}
