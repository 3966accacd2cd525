import Foundation
import XCTest

@testable import LiveryCore

/// `OutputRoot`: files written beneath a directory never leave it, whatever links the tree under
/// it holds; and the temporaries of killed writers are swept.
final class OutputRootTests: XCTestCase {
    var dir = ""

    override func setUpWithError() throws {
        dir =
            FileManager.default.temporaryDirectory.appendingPathComponent("livery-root-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: dir + "/outside", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir + "/root", withIntermediateDirectories: true)
        try "kept\n".write(toFile: dir + "/outside/kept.txt", atomically: true, encoding: .utf8)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: dir)
    }

    func contents(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }

    func failure(_ body: () throws -> Void) -> String {
        do {
            try body()
            return "no error"
        } catch { return "\(error)" }
    }

    func testFilesAndTheirDirectoriesAreMadeBeneathTheRoot() throws {
        let root = try OutputRoot(dir + "/root/made")
        XCTAssertTrue(try root.write(Array("a\n".utf8), to: "x/y/a.txt"))
        XCTAssertTrue(try root.write(Array("b\n".utf8), to: "./x//y/b.txt"))
        XCTAssertEqual(contents(dir + "/root/made/x/y/a.txt"), "a\n")
        XCTAssertEqual(contents(dir + "/root/made/x/y/b.txt"), "b\n")
        // The same bytes again: nothing written.
        XCTAssertFalse(try root.write(Array("a\n".utf8), to: "x/y/a.txt"))
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: dir + "/root/made/x/y").sorted(),
            ["a.txt", "b.txt"])
    }

    func testALinkedDirectoryUnderTheRootIsRefusedAndItsTargetUntouched() throws {
        try FileManager.default.createSymbolicLink(
            atPath: dir + "/root/scripts", withDestinationPath: dir + "/outside")
        try FileManager.default.createSymbolicLink(atPath: dir + "/root/up", withDestinationPath: "..")
        let root = try OutputRoot(dir + "/root")
        XCTAssertEqual(
            failure { try root.write(Array("x".utf8), to: "scripts/kept.txt") },
            "\(dir)/root/scripts is a symbolic link; Livery writes only beneath \(dir)/root, never through a link in it"
        )
        XCTAssertTrue(
            failure { try root.write(Array("x".utf8), to: "up/outside/new.txt") }.hasPrefix(
                "\(dir)/root/up is a symbolic link"))
        XCTAssertTrue(
            failure { try root.write(Array("x".utf8), to: "../outside/new.txt") }.contains(
                "is not a file beneath"))
        XCTAssertTrue(failure { try root.write(Array("x".utf8), to: "./") }.contains("is not a file beneath"))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir + "/outside"), ["kept.txt"])
        XCTAssertEqual(contents(dir + "/outside/kept.txt"), "kept\n")
    }

    func testALinkedFileAPipeAndADirectoryWhereTheFileGoesAreRefused() throws {
        try FileManager.default.createSymbolicLink(
            atPath: dir + "/root/bashrc", withDestinationPath: dir + "/outside/kept.txt")
        XCTAssertEqual(mkfifo(dir + "/root/pipe", 0o644), 0)
        try FileManager.default.createDirectory(
            atPath: dir + "/root/folder", withIntermediateDirectories: true)
        try "file\n".write(toFile: dir + "/root/plain", atomically: true, encoding: .utf8)
        let root = try OutputRoot(dir + "/root")
        XCTAssertTrue(
            failure { try root.write(Array("x".utf8), to: "bashrc") }.hasPrefix(
                "\(dir)/root/bashrc is a symbolic link"))
        XCTAssertEqual(
            failure { try root.write(Array("x".utf8), to: "pipe") },
            "\(dir)/root/pipe is not a regular file; Livery writes only files")
        XCTAssertEqual(
            failure { try root.write(Array("x".utf8), to: "folder") },
            "\(dir)/root/folder is a directory; Livery writes only files")
        XCTAssertEqual(
            failure { try root.write(Array("x".utf8), to: "plain/x") }, "\(dir)/root/plain is not a directory"
        )
        XCTAssertEqual(contents(dir + "/outside/kept.txt"), "kept\n")
        var st = stat()
        XCTAssertEqual(lstat(dir + "/root/pipe", &st), 0)
        XCTAssertEqual(st.st_mode & S_IFMT, S_IFIFO)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: dir + "/root").sorted(),
            ["bashrc", "folder", "pipe", "plain"], "no temporary left")
    }

    func testTheRootItselfMayBeALink() throws {
        try FileManager.default.createSymbolicLink(
            atPath: dir + "/root/out", withDestinationPath: dir + "/outside")
        let root = try OutputRoot(dir + "/root/out")
        XCTAssertTrue(try root.write(Array("new\n".utf8), to: "new.txt"))
        XCTAssertEqual(contents(dir + "/outside/new.txt"), "new\n")
    }

    func testARewrittenFileKeepsItsMode() throws {
        try "old\n".write(toFile: dir + "/root/a.sh", atomically: true, encoding: .utf8)
        XCTAssertEqual(chmod(dir + "/root/a.sh", 0o750), 0)
        XCTAssertTrue(try OutputRoot(dir + "/root").write(Array("new\n".utf8), to: "a.sh"))
        var st = stat()
        XCTAssertEqual(stat(dir + "/root/a.sh", &st), 0)
        XCTAssertEqual(st.st_mode & 0o777, 0o750)
        XCTAssertEqual(contents(dir + "/root/a.sh"), "new\n")
    }

    /// Leftovers of killed writers (`.NAME.livery-XXXXXX`, no lock held) are removed when the
    /// root or a directory under it is first opened; one a living writer holds locked is kept.
    func testAbandonedTemporariesUnderTheRootAreSwept() throws {
        try FileManager.default.createDirectory(
            atPath: dir + "/root/scripts", withIntermediateDirectories: true)
        for path in [
            "/root/.index.html.livery-Ab12Cd", "/root/scripts/.a.sh.livery-Q1w2E3",
            "/root/scripts/.b.sh.livery-Z9y8X7", "/root/scripts/notes.livery-Ab12Cd",
        ] {
            try "left\n".write(toFile: dir + path, atomically: false, encoding: .utf8)
        }
        let writer = open(dir + "/root/scripts/.b.sh.livery-Z9y8X7", O_RDONLY | O_CLOEXEC)
        XCTAssertEqual(flock(writer, LOCK_EX), 0)
        defer { close(writer) }
        let root = try OutputRoot(dir + "/root")
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: dir + "/root").sorted(), ["scripts"])
        try root.write(Array("a\n".utf8), to: "scripts/a.sh")
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: dir + "/root/scripts").sorted(),
            [".b.sh.livery-Z9y8X7", "a.sh", "notes.livery-Ab12Cd"])
    }

    /// Beside a path the user names (a plugin's output), only that file's temporaries are swept,
    /// beside the file a link leads to.
    func testAbandonedTemporariesOfOneOutputAreSweptBesideItsTarget() throws {
        try FileManager.default.createSymbolicLink(
            atPath: dir + "/root/colors.conf", withDestinationPath: dir + "/outside/colors.conf")
        try "colors\n".write(toFile: dir + "/outside/colors.conf", atomically: true, encoding: .utf8)
        for name in [".colors.conf.livery-Ab12Cd", ".colors.conf.livery-Ab12Cd.bak", ".other.livery-Ab12Cd"] {
            try "left\n".write(toFile: dir + "/outside/" + name, atomically: false, encoding: .utf8)
        }
        XCTAssertEqual(
            OutputFile.removeAbandonedTemporaries(of: dir + "/root/colors.conf"),
            [dir + "/outside/.colors.conf.livery-Ab12Cd"])
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: dir + "/outside").sorted(),
            [".colors.conf.livery-Ab12Cd.bak", ".other.livery-Ab12Cd", "colors.conf", "kept.txt"])
    }

    /// A name too long to take `.` and `.livery-XXXXXX` around it is cut in its temporary's name
    /// (at a byte, inside a character if need be), and the file is still written and swept.
    func testALongNameIsWrittenAndItsTemporariesSwept() throws {
        let name = String(repeating: "é", count: 127)  // 254 bytes
        let root = try OutputRoot(dir + "/root")
        XCTAssertTrue(try root.write(Array("x\n".utf8), to: name))
        XCTAssertEqual(contents(dir + "/root/" + name), "x\n")
        let temporary = OutputFile.cString(
            Array((dir + "/root/").utf8) + OutputFile.temporaryPrefix(Array(name.utf8)) + Array("Ab12Cd".utf8)
        )
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        XCTAssertGreaterThanOrEqual(fd, 0)
        close(fd)
        XCTAssertEqual(OutputFile.removeAbandonedTemporaries(of: dir + "/root/" + name).count, 1)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir + "/root"), [name])
    }
}
