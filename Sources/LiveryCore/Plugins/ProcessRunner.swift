import Foundation

#if canImport(Glibc)
    import Glibc
#endif

// glibc has both (2.9 and 2.29); Swift's Glibc module does not export them.
@_silgen_name("pipe2")
private func sysPipe2(_ fds: UnsafeMutablePointer<Int32>, _ flags: Int32) -> Int32
@_silgen_name("posix_spawn_file_actions_addclosefrom_np")
private func sysAddCloseFrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ from: Int32)
    -> Int32
@_silgen_name("posix_spawn_file_actions_addchdir_np")
private func sysAddChdir(
    _ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ path: UnsafePointer<CChar>
)
    -> Int32

/// The one place Livery starts a process (every plugin command, hook, darkman script and
/// outside format importer goes through `ProcessRunner.run`): `posix_spawn`, no shell, its own
/// process group, the given environment only, standard input from `input`, standard output and
/// error into one pipe (or, for an importer, each into its own) of which at most a limit is
/// kept (the rest is read and dropped), SIGTERM to the group at the timeout and SIGKILL two
/// seconds later.
package enum ProcessRunner {
    /// What one run did.
    package struct Outcome: Sendable {
        package enum End: Sendable, Equatable {
            /// Exited with this status.
            case exited(Int32)
            /// Killed by this signal (not by us).
            case signalled(Int32)
            /// Still running at the timeout: terminated by us.
            case timedOut
            /// Could not be started: why.
            case notStarted(String)
        }
        package var end: End
        /// Standard output (and error, interleaved, unless they were kept apart), at most
        /// `outputLimit` bytes.
        package var output: [UInt8]
        /// How many bytes it wrote there in all.
        package var total: Int
        /// Standard error when kept apart from the output, at most `ProcessRunner.outputLimit`
        /// bytes.
        package var errors: [UInt8] = []
        /// How many bytes it wrote to standard error in all, when kept apart.
        package var errorTotal = 0

        package var succeeded: Bool { end == .exited(0) }

        /// The first line of `errors` that is not blank, control characters as spaces and at
        /// most `errorLineLimit` characters; nil when standard error was interleaved or empty.
        package var firstErrorLine: String? {
            let line = errors.split(separator: UInt8(ascii: "\n")).lazy
                .map {
                    TemplateText.clean(String(decoding: $0, as: UTF8.self)).trimmingCharacters(
                        in: .whitespaces)
                }
                .first { !$0.isEmpty }
            return line.map { String($0.prefix(ProcessRunner.errorLineLimit)) }
        }

        /// What happened, for a problem or the log: `exited with status 3`.
        package var summary: String {
            switch end {
            case .exited(let s): return s == 0 ? "succeeded" : "exited with status \(s)"
            case .signalled(let s): return "was killed by signal \(s) (\(signalName(s)))"
            case .timedOut: return "timed out and was killed"
            case .notStarted(let why): return "could not be started: \(why)"
            }
        }
    }

    /// Characters of standard error's first line kept in `Outcome.firstErrorLine`.
    package static let errorLineLimit = 200
    /// Bytes of output kept per run unless the caller says otherwise: 64 KiB.
    package static let outputLimit = 64 << 10
    /// Seconds between SIGTERM and SIGKILL.
    package static let killGrace: Double = 2

    package static func signalName(_ s: Int32) -> String {
        switch s {
        case SIGTERM: return "SIGTERM"
        case SIGKILL: return "SIGKILL"
        case SIGSEGV: return "SIGSEGV"
        case SIGABRT: return "SIGABRT"
        case SIGINT: return "SIGINT"
        case SIGPIPE: return "SIGPIPE"
        default: return "signal \(s)"
        }
    }

    /// Runs `argv` to its end (or the timeout's) and returns what it did; blocks the caller.
    /// - Parameters:
    ///   - argv: The program (a path, or a name looked up on the daemon's `PATH`) and arguments.
    ///   - environment: The whole environment of the program.
    ///   - directory: Its working directory.
    ///   - input: Written to its standard input, which is then closed.
    ///   - timeout: Seconds before SIGTERM.
    ///   - outputLimit: Bytes of standard output kept.
    ///   - separateErrors: Whether standard error goes to `Outcome.errors` (at most
    ///     `ProcessRunner.outputLimit` bytes kept) instead of being interleaved with the output.
    package static func run(
        _ argv: [String], environment: [String: String], directory: String, input: [UInt8], timeout: Double,
        outputLimit: Int = ProcessRunner.outputLimit, separateErrors: Bool = false
    ) -> Outcome {
        var inPipe: [Int32] = [-1, -1]
        var outPipe: [Int32] = [-1, -1]
        var errPipe: [Int32] = [-1, -1]
        guard sysPipe2(&inPipe, O_CLOEXEC) == 0 else {
            return failed("pipe: \(String(cString: strerror(errno)))")
        }
        guard sysPipe2(&outPipe, O_CLOEXEC) == 0 else {
            close(inPipe[0])
            close(inPipe[1])
            return failed("pipe: \(String(cString: strerror(errno)))")
        }
        if separateErrors && sysPipe2(&errPipe, O_CLOEXEC) != 0 {
            for fd in inPipe + outPipe { close(fd) }
            return failed("pipe: \(String(cString: strerror(errno)))")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, separateErrors ? errPipe[1] : outPipe[1], 2)
        // Nothing else of ours reaches the program: descriptors the caller inherited without
        // close-on-exec included (glibc 2.34).
        _ = sysAddCloseFrom(&actions, 3)
        _ = sysAddChdir(&actions, directory)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Its own process group (so the timeout reaches its children too), default signal
        // dispositions and an empty mask, whatever the daemon's threads have.
        var all = sigset_t()
        sigfillset(&all)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        let cEnv: [UnsafeMutablePointer<CChar>?] =
            environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for p in cArgs { free(p) }
            for p in cEnv { free(p) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, argv[0], &actions, &attributes, cArgs, cEnv)
        close(inPipe[0])
        close(outPipe[1])
        if separateErrors { close(errPipe[1]) }
        guard spawned == 0 else {
            close(inPipe[1])
            close(outPipe[0])
            if separateErrors { close(errPipe[0]) }
            return failed(String(cString: strerror(spawned)))
        }
        _ = fcntl(inPipe[1], F_SETFL, fcntl(inPipe[1], F_GETFL) | O_NONBLOCK)
        _ = fcntl(outPipe[0], F_SETFL, fcntl(outPipe[0], F_GETFL) | O_NONBLOCK)
        var stderrFD: Int32 = separateErrors ? errPipe[0] : -1
        if stderrFD >= 0 { _ = fcntl(stderrFD, F_SETFL, fcntl(stderrFD, F_GETFL) | O_NONBLOCK) }
        var errorsKept: [UInt8] = []
        var errorTotal = 0

        // Writing to a program that exited without reading its input raises SIGPIPE, which
        // would end a caller that has not ignored it (the client does not): blocked on this
        // thread while it writes, the write fails with EPIPE instead, and the pending signal is
        // taken before the mask is restored.
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        var previousMask = sigset_t()
        pthread_sigmask(SIG_BLOCK, &pipeSignal, &previousMask)
        defer {
            var pending = sigset_t()
            sigpending(&pending)
            if sigismember(&pending, SIGPIPE) == 1 && sigismember(&previousMask, SIGPIPE) == 0 {
                var zero = timespec(tv_sec: 0, tv_nsec: 0)
                _ = sigtimedwait(&pipeSignal, nil, &zero)
            }
            pthread_sigmask(SIG_SETMASK, &previousMask, nil)
        }
        var stdinFD: Int32 = inPipe[1]
        var stdoutFD: Int32 = outPipe[0]
        var written = 0
        if input.isEmpty {
            close(stdinFD)
            stdinFD = -1
        }
        var kept: [UInt8] = []
        var total = 0
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        var status: Int32 = 0
        var reaped = false
        var timedOut = false
        let start = DispatchTime.now().uptimeNanoseconds
        func elapsed() -> Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
        var termSent = false
        var killSent = false
        var idleWait: useconds_t = 500
        while true {
            if !reaped {
                let r = waitpid(pid, &status, WNOHANG)
                if r == pid { reaped = true }
            }
            // Done when it has exited and its output is closed; when a child it left behind
            // keeps the pipe open, when the kill deadline has passed too.
            if reaped && ((stdoutFD < 0 && stderrFD < 0) || killSent) { break }
            let t = elapsed()
            if !termSent && t >= timeout {
                termSent = true
                if !reaped { timedOut = true }
                kill(-pid, SIGTERM)
            }
            if termSent && !killSent && t >= timeout + killGrace {
                killSent = true
                kill(-pid, SIGKILL)
            }
            if killSent && reaped && t >= timeout + 2 * killGrace { break }
            var fds: [pollfd] = []
            if stdoutFD >= 0 { fds.append(pollfd(fd: stdoutFD, events: Int16(POLLIN), revents: 0)) }
            if stderrFD >= 0 { fds.append(pollfd(fd: stderrFD, events: Int16(POLLIN), revents: 0)) }
            if stdinFD >= 0 { fds.append(pollfd(fd: stdinFD, events: Int16(POLLOUT), revents: 0)) }
            if fds.isEmpty {
                // Nothing to read or write: wait for the exit, soon at first (a program that
                // closed its output is most often exiting), then every 20 ms.
                usleep(idleWait)
                idleWait = min(idleWait * 2, 20_000)
                continue
            }
            _ = poll(&fds, nfds_t(fds.count), 50)
            for f in fds where f.revents != 0 {
                if f.fd == stdoutFD {
                    let n = buffer.withUnsafeMutableBytes { read(stdoutFD, $0.baseAddress, $0.count) }
                    if n > 0 {
                        total += n
                        let room = outputLimit - kept.count
                        if room > 0 { kept.append(contentsOf: buffer[0..<min(room, n)]) }
                    } else if n == 0 || (errno != EAGAIN && errno != EINTR) {
                        close(stdoutFD)
                        stdoutFD = -1
                    }
                } else if f.fd == stderrFD {
                    let n = buffer.withUnsafeMutableBytes { read(stderrFD, $0.baseAddress, $0.count) }
                    if n > 0 {
                        errorTotal += n
                        let room = ProcessRunner.outputLimit - errorsKept.count
                        if room > 0 { errorsKept.append(contentsOf: buffer[0..<min(room, n)]) }
                    } else if n == 0 || (errno != EAGAIN && errno != EINTR) {
                        close(stderrFD)
                        stderrFD = -1
                    }
                } else if f.fd == stdinFD {
                    let n = input.withUnsafeBytes {
                        write(stdinFD, $0.baseAddress! + written, $0.count - written)
                    }
                    if n > 0 { written += n }
                    if (n < 0 && errno != EAGAIN && errno != EINTR) || written >= input.count
                        || f.revents & Int16(POLLERR | POLLHUP) != 0
                    {
                        close(stdinFD)
                        stdinFD = -1
                    }
                }
            }
        }
        if stdinFD >= 0 { close(stdinFD) }
        if stdoutFD >= 0 { close(stdoutFD) }
        if stderrFD >= 0 { close(stderrFD) }
        if !reaped {
            kill(-pid, SIGKILL)
            waitpid(pid, &status, 0)
        }
        let end: Outcome.End
        if timedOut {
            end = .timedOut
        } else if status & 0x7f == 0 {
            end = .exited((status >> 8) & 0xff)
        } else {
            end = .signalled(status & 0x7f)
        }
        return Outcome(end: end, output: kept, total: total, errors: errorsKept, errorTotal: errorTotal)
    }

    /// The environment of every plugin program: `PATH` (`/usr/local/bin:/usr/bin:/bin` when
    /// unset), `HOME`, `USER`, `LOGNAME`, `LANG`, `LC_*`, `XDG_*`, `DISPLAY`, `WAYLAND_DISPLAY`,
    /// `DBUS_SESSION_BUS_ADDRESS` and `TMUX_TMPDIR` (where the user's tmux servers listen) of
    /// `environment`, with `home` as `HOME`.
    package static func environment(from environment: [String: String], home: String) -> [String: String] {
        let kept: Set<String> = [
            "PATH", "HOME", "USER", "LOGNAME", "LANG", "DISPLAY", "WAYLAND_DISPLAY",
            "DBUS_SESSION_BUS_ADDRESS", "TMUX_TMPDIR",
        ]
        var env = environment.filter {
            kept.contains($0.key) || $0.key.hasPrefix("XDG_") || $0.key.hasPrefix("LC_")
        }
        if env["PATH"] == nil { env["PATH"] = "/usr/local/bin:/usr/bin:/bin" }
        env["HOME"] = home
        return env
    }

    static func failed(_ why: String) -> Outcome { Outcome(end: .notStarted(why), output: [], total: 0) }
}
