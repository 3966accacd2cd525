import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Watches directories (the theme directories, the plugin directories), the files read with them
/// (the overrides file) and the targets of the links among them with inotify(7), and calls back
/// when a changed file has settled.
///
/// What is watched is a `WatchPlan` (the trees to a depth of three, each link's target by name in
/// its own directory, a missing path through its nearest existing ancestor), made again after
/// every callback, so new bundles and moved links are followed. When a callback follows is a
/// `FileDebounce`: each file 250 ms after its own last event, or 1 s after its first, whichever
/// comes first (the README's "Live reload"). A directory watched anew counts as changed, since
/// files may have been written in it before its watch existed.
public final class ThemeWatcher: @unchecked Sendable {
    // Safe to share: `fd`, `stopPipe` and the closures are immutable after init; `plan`,
    // `watches`, `watchOf`, `debounce` and `reportedUnfollowed` are only used on the watcher
    // thread.
    private let fd: Int32
    private let stopPipe: (read: Int32, write: Int32)
    private let directories: @Sendable () -> [String]
    private let files: @Sendable () -> [String]
    private let notice: @Sendable (String) -> Void
    private let onChange: @Sendable () -> Void
    private var plan = WatchPlan()
    /// The paths each watch descriptor was added under (two paths may name one directory).
    private var watches: [Int32: Set<String>] = [:]
    private var watchOf: [String: Int32] = [:]
    private var debounce: FileDebounce
    private var reportedUnfollowed: [String] = []

    /// - Parameters:
    ///   - directories: the theme directories, watched with their contents; asked again after
    ///     each change.
    ///   - files: single files, watched by name in their directories; asked again after each
    ///     change.
    ///   - quiet: milliseconds after a file's last event before it has settled.
    ///   - bound: milliseconds after a file's first event by which it has settled at most.
    ///   - notice: receives a line for the log when links are left unfollowed.
    ///   - onChange: runs on the watcher's thread when a file has settled.
    /// - Throws: `POSIXError` when inotify or a pipe is unavailable.
    public init(
        directories: @escaping @Sendable () -> [String], files: @escaping @Sendable () -> [String] = { [] },
        quiet: Int64 = 250, bound: Int64 = 1000, notice: @escaping @Sendable (String) -> Void = { _ in },
        onChange: @escaping @Sendable () -> Void
    ) throws {
        fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var p: [Int32] = [0, 0]
        guard pipe(&p) == 0 else {
            close(fd)
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        stopPipe = (p[0], p[1])
        self.directories = directories
        self.files = files
        self.notice = notice
        self.onChange = onChange
        debounce = FileDebounce(quiet: quiet, bound: bound)
    }

    deinit {
        close(fd)
        close(stopPipe.read)
        close(stopPipe.write)
    }

    /// Starts the watcher thread.
    public func start() {
        let thread = Thread { [self] in self.run() }
        thread.name = "livery-inotify"
        thread.start()
    }

    /// Stops the watcher thread.
    public func stop() {
        var b: UInt8 = 1
        _ = write(stopPipe.write, &b, 1)
    }

    static let mask = UInt32(
        IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF
            | IN_ATTRIB | IN_ONLYDIR)

    /// Makes the watches match a new plan of what is on disk now.
    /// - Parameter now: when a directory watched anew counts as changed; nil for none (the first
    ///   plan, before which nothing was read).
    private func refresh(countingNewAt now: Int64?) {
        plan = WatchPlan(trees: directories(), files: files())
        for (path, wd) in watchOf where plan.directories[path] == nil {
            forget(path, wd)
            if watches[wd]?.isEmpty ?? true {
                inotify_rm_watch(fd, wd)
                watches[wd] = nil
            }
        }
        for path in plan.directories.keys where watchOf[path] == nil {
            let wd = inotify_add_watch(fd, path, ThemeWatcher.mask)
            guard wd >= 0 else { continue }
            watchOf[path] = wd
            watches[wd, default: []].insert(path)
            if let now { debounce.record(path, at: now) }
        }
        if plan.unfollowed != reportedUnfollowed {
            reportedUnfollowed = plan.unfollowed
            if !plan.unfollowed.isEmpty {
                notice(
                    "live reload follows links into \(WatchPlan.linkDirectoryLimit) directories at most; "
                        + "not following \(plan.unfollowed.joined(separator: ", "))")
            }
        }
    }

    private func forget(_ path: String, _ wd: Int32) {
        watchOf[path] = nil
        watches[wd]?.remove(path)
    }

    /// Reads every queued event and records the files they name.
    private func readEvents(at now: Int64) {
        let header = MemoryLayout<inotify_event>.size
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = read(fd, &buffer, buffer.count)
            guard n > 0 else { return }
            buffer.withUnsafeBytes { bytes in
                var offset = 0
                while offset + header <= n {
                    let wd = bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                    let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                    let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                    // The kernel returns whole events only; a length past the end would be a bug.
                    guard offset + header + length <= n else { return }
                    let name = String(
                        decoding: bytes[(offset + header)..<(offset + header + length)].prefix { $0 != 0 },
                        as: UTF8.self)
                    offset += header + length
                    record(wd: wd, mask: mask, name: name, at: now)
                }
            }
        }
    }

    private func record(wd: Int32, mask: UInt32, name: String, at now: Int64) {
        if mask & UInt32(IN_Q_OVERFLOW) != 0 {
            // Events were lost: anything may have changed.
            debounce.record("", at: now)
            return
        }
        guard let paths = watches[wd] else { return }
        if mask & UInt32(IN_IGNORED) != 0 {
            // The directory went away (or was replaced): the next plan watches it again.
            for path in paths { forget(path, wd) }
            watches[wd] = nil
            debounce.record(paths.min()!, at: now)
            return
        }
        if name.isEmpty {
            debounce.record(paths.min()!, at: now)
        } else if let path = paths.first(where: { plan.admits(name, in: $0) }) {
            debounce.record(path + "/" + name, at: now)
        }
    }

    private func run() {
        refresh(countingNewAt: nil)
        var fds = [
            pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
            pollfd(fd: stopPipe.read, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            let timeout = debounce.deadline().map { Int32(clamping: max(0, $0 - ThemeWatcher.now())) } ?? -1
            let n = poll(&fds, 2, timeout)
            if n < 0 {
                if errno == EINTR { continue }
                return
            }
            if fds[1].revents != 0 { return }
            if fds[0].revents != 0 { readEvents(at: ThemeWatcher.now()) }
            // Checked after every wake-up, not only on a quiet one: events of other files never
            // hold back a file that has settled.
            let now = ThemeWatcher.now()
            if debounce.settle(at: now) {
                onChange()
                refresh(countingNewAt: now)
            }
        }
    }

    /// Milliseconds on `CLOCK_MONOTONIC`.
    private static func now() -> Int64 {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Int64(t.tv_sec) * 1000 + Int64(t.tv_nsec) / 1_000_000
    }
}
