import Foundation
import Synchronization
import XCTest

// glibc's pseudo-terminal calls, which Swift's Glibc module does not export (the tests' pseudo
// terminals, here and in PluginTests).
@_silgen_name("posix_openpt") func sysOpenPT(_ flags: Int32) -> Int32
@_silgen_name("grantpt") func sysGrantPT(_ fd: Int32) -> Int32
@_silgen_name("unlockpt") func sysUnlockPT(_ fd: Int32) -> Int32
@_silgen_name("ptsname_r") func sysPTSName(
    _ fd: Int32, _ buf: UnsafeMutablePointer<CChar>, _ len: Int
)
    -> Int32

/// A program on a pseudo-terminal of its own, as a terminal emulator runs it: its standard
/// input, output and error are the terminal (100×30); everything it draws is read from the
/// terminal's other side on a thread of its own and kept, so that a test reads what a user
/// would see (24-bit colours as `ESC [ 48;2;R;G;B m`).
final class TerminalProgram {
    /// What the reader thread has read, and its end.
    private final class Screen: Sendable {
        let bytes = Mutex<[UInt8]>([])
        let done = DispatchSemaphore(value: 0)
    }

    let process = Process()
    private let master: Int32
    private let screen = Screen()

    /// Starts `executable` with `arguments` and `environment` (plus `TERM=xterm-256color`), in
    /// `workingDirectory` (the test process's own when nil).
    /// - Throws: `HarnessFailure` when the terminal cannot be made, or what `Process.run` throws.
    init(
        _ executable: String, _ arguments: [String], environment: [String: String],
        workingDirectory: String? = nil
    ) throws {
        master = sysOpenPT(O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard master >= 0, sysGrantPT(master) == 0, sysUnlockPT(master) == 0 else {
            throw HarnessFailure("no pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        var name = [CChar](repeating: 0, count: 128)
        guard sysPTSName(master, &name, name.count) == 0 else {
            throw HarnessFailure("ptsname: \(String(cString: strerror(errno)))")
        }
        let path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var size = winsize(ws_row: 30, ws_col: 100, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
        let slave = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard slave >= 0 else {
            throw HarnessFailure("cannot open \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(slave) }
        let handle = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment.merging(["TERM": "xterm-256color"]) { $1 }
        if let workingDirectory { process.currentDirectoryURL = URL(fileURLWithPath: workingDirectory) }
        process.standardInput = handle
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        let (fd, screen) = (master, screen)
        let thread = Thread {
            var buffer = [UInt8](repeating: 0, count: 16 << 10)
            while true {
                let n = read(fd, &buffer, buffer.count)
                if n <= 0 && errno == EINTR { continue }
                if n <= 0 { break }
                screen.bytes.withLock { $0 += buffer[0..<n] }
            }
            screen.done.signal()
        }
        thread.start()
    }

    var pid: pid_t { process.processIdentifier }

    /// How many bytes it has drawn so far: a mark for `shows(_:since:)`.
    var drawnCount: Int { screen.bytes.withLock { $0.count } }

    /// Whether what it drew after the first `mark` bytes contains `text`.
    func shows(_ text: String, since mark: Int = 0) -> Bool {
        let needle = Array(text.utf8)
        return screen.bytes.withLock { bytes in
            guard bytes.count - mark >= needle.count else { return false }
            return (mark...(bytes.count - needle.count)).contains {
                bytes[$0..<$0 + needle.count].elementsEqual(needle)
            }
        }
    }

    /// Whether it drew `#rrggbb` as a 24-bit background after the first `mark` bytes.
    func showsBackground(_ hex: String, since mark: Int = 0) -> Bool {
        let v = Int(hex.dropFirst(), radix: 16) ?? 0
        let sgr = "48;2;\(v >> 16);\((v >> 8) & 0xff);\(v & 0xff)"
        return shows(sgr + "m", since: mark) || shows(sgr + ";", since: mark)
    }

    /// What it drew, for a failure message: the last `count` bytes, escapes visible.
    func tail(_ count: Int = 600) -> String {
        screen.bytes.withLock { String(decoding: $0.suffix(count), as: UTF8.self).debugDescription }
    }

    /// SIGTERM (and SIGCONT, should it be stopped), SIGKILL after two seconds; then the
    /// terminal is closed.
    func stop() {
        if process.isRunning {
            kill(pid, SIGTERM)
            kill(pid, SIGCONT)
            if !waitUntil(timeout: 2, { !process.isRunning }) {
                kill(pid, SIGKILL)
                waitUntil(timeout: 10) { !process.isRunning }
            }
        }
        // The program has closed its side: the reader sees the end of it.
        _ = screen.done.wait(timeout: .now() + 5)
        close(master)
    }
}
