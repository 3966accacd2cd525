import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension ProcessRunner {
    /// A pipe this process reads a program's output from: at most `limit` bytes kept, the rest
    /// read and dropped (so the program never blocks on a full pipe), the total counted.
    struct Sink {
        /// The read end, non-blocking; −1 once closed (or when there is none).
        var fd: Int32
        let limit: Int
        var kept: [UInt8] = []
        var total = 0

        init(fd: Int32, limit: Int) {
            self.fd = fd
            self.limit = limit
            if fd >= 0 { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        }

        /// Reads what the pipe has into `buffer`, keeping what fits; closes the pipe at its
        /// end or on an error.
        mutating func drain(_ buffer: UnsafeMutableRawBufferPointer) {
            let n = read(fd, buffer.baseAddress, buffer.count)
            if n > 0 {
                total += n
                let room = limit - kept.count
                if room > 0 { kept.append(contentsOf: buffer.prefix(min(room, n))) }
            } else if n == 0 || (errno != EAGAIN && errno != EINTR) {
                close(fd)
                fd = -1
            }
        }
    }

    /// The pipe of a program's standard input: `input` written as the program reads it, then
    /// closed (at once when `input` is empty).
    struct Feed {
        /// The write end, non-blocking; −1 once closed.
        var fd: Int32
        let input: [UInt8]
        var written = 0

        init(fd: Int32, input: [UInt8]) {
            self.input = input
            if input.isEmpty {
                close(fd)
                self.fd = -1
            } else {
                self.fd = fd
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            }
        }

        /// Writes what the pipe takes; closes it when all is written, the program closed its
        /// end (`revents` has POLLERR or POLLHUP) or on an error.
        mutating func write(revents: Int16) {
            let n = input.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, $0.count - written) }
            if n > 0 { written += n }
            if (n < 0 && errno != EAGAIN && errno != EINTR) || written >= input.count
                || revents & Int16(POLLERR | POLLHUP) != 0
            {
                close(fd)
                fd = -1
            }
        }
    }

    /// A running program's pipes, served until it ends.
    struct Exchange {
        var feed: Feed
        var output: Sink
        var errors: Sink

        init(_ pipes: Pipes, input: [UInt8], outputLimit: Int) {
            feed = Feed(fd: pipes.input[1], input: input)
            output = Sink(fd: pipes.output[0], limit: outputLimit)
            errors = Sink(fd: pipes.separateErrors ? pipes.errors[0] : -1, limit: ProcessRunner.outputLimit)
        }

        /// Serves the pipes of `pid` until it has exited and closed its output (or, when a child
        /// it left behind keeps the output open, until the kill deadline has passed too),
        /// sending SIGTERM to its group at `timeout` and SIGKILL `killGrace` later; then closes
        /// the pipes and reaps it.
        /// - Returns: Its wait status, and whether it was still running at the timeout.
        mutating func supervise(_ pid: pid_t, timeout: Double) -> (status: Int32, timedOut: Bool) {
            var status: Int32 = 0
            var reaped = false
            var deadlines = Deadlines(pid: pid, timeout: timeout)
            var buffer = [UInt8](repeating: 0, count: 16 << 10)
            var idleWait: useconds_t = 500
            while true {
                if !reaped && waitpid(pid, &status, WNOHANG) == pid { reaped = true }
                if reaped && ((output.fd < 0 && errors.fd < 0) || deadlines.killSent) { break }
                if deadlines.enforce(reaped: reaped) { break }
                var fds: [pollfd] = []
                if output.fd >= 0 { fds.append(pollfd(fd: output.fd, events: Int16(POLLIN), revents: 0)) }
                if errors.fd >= 0 { fds.append(pollfd(fd: errors.fd, events: Int16(POLLIN), revents: 0)) }
                if feed.fd >= 0 { fds.append(pollfd(fd: feed.fd, events: Int16(POLLOUT), revents: 0)) }
                if fds.isEmpty {
                    // Nothing to read or write: wait for the exit, soon at first (a program that
                    // closed its output is most often exiting), then every 20 ms.
                    usleep(idleWait)
                    idleWait = min(idleWait * 2, 20_000)
                    continue
                }
                _ = poll(&fds, nfds_t(fds.count), 50)
                buffer.withUnsafeMutableBytes { buffer in
                    for f in fds where f.revents != 0 {
                        if f.fd == output.fd {
                            output.drain(buffer)
                        } else if f.fd == errors.fd {
                            errors.drain(buffer)
                        } else if f.fd == feed.fd {
                            feed.write(revents: f.revents)
                        }
                    }
                }
            }
            for fd in [feed.fd, output.fd, errors.fd] where fd >= 0 { close(fd) }
            if !reaped {
                kill(-pid, SIGKILL)
                waitpid(pid, &status, 0)
            }
            return (status, deadlines.timedOut)
        }
    }

    /// The timeout of one run: SIGTERM to the program's group at `timeout`, SIGKILL
    /// `killGrace` later.
    struct Deadlines {
        let pid: pid_t
        let timeout: Double
        let start = DispatchTime.now().uptimeNanoseconds
        var termSent = false
        var killSent = false
        /// Whether the program was still running when SIGTERM was sent.
        var timedOut = false

        /// Sends the signal whose time has come.
        /// - Returns: Whether to stop waiting: the program was reaped and a second grace
        ///   period has passed since SIGKILL (a child it left behind holds its output open).
        mutating func enforce(reaped: Bool) -> Bool {
            let t = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            if !termSent && t >= timeout {
                termSent = true
                if !reaped { timedOut = true }
                kill(-pid, SIGTERM)
            }
            if termSent && !killSent && t >= timeout + killGrace {
                killSent = true
                kill(-pid, SIGKILL)
            }
            return killSent && reaped && t >= timeout + 2 * killGrace
        }
    }
}
