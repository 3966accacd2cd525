import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension ProcessRunner {
    /// Why a program could not be started.
    struct StartError: Error {
        var why: String
    }

    /// The pipes of one run: standard input, standard output (and error, unless kept apart),
    /// standard error when kept apart; each `[read end, write end]`, close-on-exec, −1 when
    /// there is none.
    struct Pipes {
        var input: [Int32] = [-1, -1]
        var output: [Int32] = [-1, -1]
        var errors: [Int32] = [-1, -1]
        var separateErrors: Bool

        /// Opens the pipes, or none of them.
        static func open(separateErrors: Bool) -> Result<Pipes, StartError> {
            var p = Pipes(separateErrors: separateErrors)
            func failure() -> Result<Pipes, StartError> {
                let why = "pipe: \(String(cString: strerror(errno)))"
                for fd in p.input + p.output where fd >= 0 { close(fd) }
                return .failure(StartError(why: why))
            }
            guard sysPipe2(&p.input, O_CLOEXEC) == 0 else { return failure() }
            guard sysPipe2(&p.output, O_CLOEXEC) == 0 else { return failure() }
            if separateErrors && sysPipe2(&p.errors, O_CLOEXEC) != 0 { return failure() }
            return .success(p)
        }

        /// Closes the program's ends (this process keeps only its own).
        func closeChildEnds() {
            close(input[0])
            close(output[1])
            if separateErrors { close(errors[1]) }
        }

        /// Closes this process's ends (when the program did not start).
        func closeParentEnds() {
            close(input[1])
            close(output[0])
            if separateErrors { close(errors[0]) }
        }
    }

    /// Starts `argv` with its standard streams on `pipes`: in `directory`, with exactly
    /// `environment`, in a process group of its own (so that the timeout reaches its children
    /// too), with default signal dispositions and an empty signal mask whatever the caller's
    /// threads have, and no descriptor of ours but the pipes. The program's ends of the pipes
    /// are closed here, and on failure ours too.
    /// - Returns: The program's process id, or why it did not start.
    static func spawn(
        _ argv: [String], environment: [String: String], directory: String, _ pipes: Pipes
    ) -> Result<pid_t, StartError> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipes.input[0], 0)
        posix_spawn_file_actions_adddup2(&actions, pipes.output[1], 1)
        posix_spawn_file_actions_adddup2(
            &actions, pipes.separateErrors ? pipes.errors[1] : pipes.output[1], 2)
        // Nothing else of ours reaches the program: descriptors the caller inherited without
        // close-on-exec included.
        _ = sysAddCloseFrom(&actions, 3)
        _ = sysAddChdir(&actions, directory)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
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
        pipes.closeChildEnds()
        guard spawned == 0 else {
            pipes.closeParentEnds()
            return .failure(StartError(why: String(cString: strerror(spawned))))
        }
        return .success(pid)
    }

    /// Runs `body` with SIGPIPE blocked on this thread. Writing to a program that exited
    /// without reading its input raises SIGPIPE, which would end a caller that has not ignored
    /// it (the client does not): blocked, the write fails with EPIPE instead, and a signal left
    /// pending is taken before the mask is restored.
    static func withPipeSignalBlocked<T>(_ body: () -> T) -> T {
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
        return body()
    }
}
