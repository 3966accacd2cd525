import Foundation
import XCTest

@testable import LiveryService

/// `when-running`'s question, which programs of the user run, answered from `/proc`: a fake
/// procfs for the kernel's rules (names cut to 15 bytes, zombies, other users), and the real one
/// for a process this test starts under a name of its own.
final class RunningProgramsTests: XCTestCase {
    var proc = ""

    override func setUpWithError() throws {
        proc = NSTemporaryDirectory() + "livery-proc-\(getpid())-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: proc, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: proc)
    }

    /// A process directory as procfs has it: `comm` ends with a newline; `status` has the state
    /// and the real, effective, saved and file-system uids.
    func process(_ pid: Int, comm: String, state: String = "S (sleeping)", uid: uid_t = 1000) throws {
        let dir = proc + "/\(pid)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try (comm + "\n").write(toFile: dir + "/comm", atomically: true, encoding: .utf8)
        try
            "Name:\t\(comm)\nUmask:\t0022\nState:\t\(state)\nTgid:\t\(pid)\nUid:\t\(uid)\t\(uid)\t\(uid)\t\(uid)\n"
            .write(toFile: dir + "/status", atomically: true, encoding: .utf8)
    }

    func testNamesAreMatchedAsTheKernelCutsThemForLiveProcessesOfTheUser() throws {
        try process(10, comm: "waybar")
        // TASK_COMM_LEN is 16 with the NUL: the kernel keeps "qt5ct-long-prog" of this name.
        try process(11, comm: "qt5ct-long-prog")
        try process(12, comm: "mako", state: "Z (zombie)")
        try process(13, comm: "sway", uid: 1001)
        try "".write(toFile: proc + "/self", atomically: true, encoding: .utf8)  // not a pid
        try process(14, comm: "i3bar")
        let found = RunningPrograms.running(
            ["waybar", "qt5ct-long-program-name", "mako", "sway", "i3", "dunst"], uid: 1000, proc: proc)
        XCTAssertEqual(found, ["waybar", "qt5ct-long-program-name"])
    }

    func testAProcessStartedUnderANameOfItsOwnIsFoundAndNotAfterItEnds() throws {
        let name = "lvy-\(getpid())"
        let program = proc + "/" + name
        try FileManager.default.copyItem(atPath: "/bin/sleep", toPath: program)
        XCTAssertEqual(RunningPrograms.running([name]), [])
        let sleeper = Process()
        sleeper.executableURL = URL(fileURLWithPath: program)
        sleeper.arguments = ["30"]
        try sleeper.run()
        defer { if sleeper.isRunning { sleeper.terminate() } }
        // The kernel sets comm at exec: wait for it, as the child runs the copy.
        XCTAssertTrue(waitFor { RunningPrograms.running([name, "not-running-\(getpid())"]) == [name] })
        sleeper.terminate()
        sleeper.waitUntilExit()
        XCTAssertEqual(RunningPrograms.running([name]), [])
    }

    func testTheReasonNamesWhatIsNotRunning() {
        XCTAssertEqual(RunningPrograms.notRunning(["waybar"]), "waybar not running")
        XCTAssertEqual(RunningPrograms.notRunning(["sway", "i3"]), "none of sway, i3 running")
    }

    /// Polls `condition` every 10 ms for up to 10 s.
    func waitFor(_ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while !condition() {
            if Date() >= deadline { return false }
            usleep(10_000)
        }
        return true
    }
}
