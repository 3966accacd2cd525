import Foundation

#if canImport(Glibc)
    import Glibc
#endif

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
            return line.map(ProcessRunner.shortened)
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

    /// `line` when it has at most `errorLineLimit` characters; otherwise cut at the last space
    /// within the limit (or at the limit when a word is longer) and ended with "…", so that a
    /// reason is never cut inside a word.
    static func shortened(_ line: String) -> String {
        guard line.count > errorLineLimit else { return line }
        let kept = line.prefix(errorLineLimit - 1)
        let cut = kept.lastIndex(of: " ").map { kept[..<$0] } ?? kept
        return cut.trimmingCharacters(in: .whitespaces) + "…"
    }

    /// Characters of standard error's first line kept in `Outcome.firstErrorLine`.
    package static let errorLineLimit = 200
    /// Bytes of output kept per run unless the caller says otherwise: 64 KiB.
    package static let outputLimit = 64 << 10
    /// Seconds between SIGTERM and SIGKILL.
    package static let killGrace: Double = 2

    /// The signal's name (`SIGSEGV`), or `signal N` for one not named here.
    package static func signalName(_ s: Int32) -> String {
        switch s {
        case SIGTERM: return "SIGTERM"
        case SIGKILL: return "SIGKILL"
        case SIGSEGV: return "SIGSEGV"
        case SIGABRT: return "SIGABRT"
        case SIGINT: return "SIGINT"
        case SIGPIPE: return "SIGPIPE"
        // What a crash raises besides SIGSEGV and SIGABRT (a bad address, a trap of the Swift
        // runtime or of GLib, arithmetic), and what a process's limits raise.
        case SIGBUS: return "SIGBUS"
        case SIGILL: return "SIGILL"
        case SIGTRAP: return "SIGTRAP"
        case SIGFPE: return "SIGFPE"
        case SIGXCPU: return "SIGXCPU"
        case SIGXFSZ: return "SIGXFSZ"
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
        let pipes: Pipes
        switch Pipes.open(separateErrors: separateErrors) {
        case .failure(let e): return failed(e.why)
        case .success(let p): pipes = p
        }
        let pid: pid_t
        switch spawn(argv, environment: environment, directory: directory, pipes) {
        case .failure(let e): return failed(e.why)
        case .success(let p): pid = p
        }
        return withPipeSignalBlocked {
            var exchange = Exchange(pipes, input: input, outputLimit: outputLimit)
            let (status, timedOut) = exchange.supervise(pid, timeout: timeout)
            let end: Outcome.End
            if timedOut {
                end = .timedOut
            } else if status & 0x7f == 0 {
                end = .exited((status >> 8) & 0xff)
            } else {
                end = .signalled(status & 0x7f)
            }
            return Outcome(
                end: end, output: exchange.output.kept, total: exchange.output.total,
                errors: exchange.errors.kept, errorTotal: exchange.errors.total)
        }
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
