import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Watches the theme directories and the overrides file with inotify(7) and calls back after a
/// quiet period, so that an editor's several writes (temporary file, rename, chmod) make one
/// reload.
///
/// inotify is not recursive: each search-path directory, each bundle directory inside it (to a
/// depth of three, for `images/` and imported sheets) and the overrides file's directory (or its
/// nearest existing ancestor, to see it created) get a watch; the set is refreshed after every
/// callback, so new bundles are followed too.
public final class ThemeWatcher: @unchecked Sendable {
    // Safe to share: `fd`, `stopPipe` are immutable after init; `watches` is only used on the
    // watcher thread.
    private let fd: Int32
    private let stopPipe: (read: Int32, write: Int32)
    private let directories: @Sendable () -> [String]
    private let onChange: @Sendable () -> Void
    /// Quiet time before a callback, in milliseconds.
    public let debounce: Int32
    private var watches: [Int32: String] = [:]

    /// - Parameters:
    ///   - directories: the roots to watch, asked again after each change.
    ///   - debounce: milliseconds of quiet after the last event before `onChange` runs.
    ///   - onChange: runs on the watcher's thread.
    /// - Throws: `POSIXError` when inotify is unavailable.
    public init(
        directories: @escaping @Sendable () -> [String], debounce: Int32 = 250,
        onChange: @escaping @Sendable () -> Void
    ) throws {
        fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var p: [Int32] = [0, 0]
        guard pipe(&p) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        stopPipe = (p[0], p[1])
        self.directories = directories
        self.debounce = debounce
        self.onChange = onChange
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
            | IN_ATTRIB)

    /// Makes the watch set match the directories now on disk.
    func refresh() {
        var wanted = Set<String>()
        func add(_ dir: String, depth: Int) {
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDir), isDir.boolValue else {
                return
            }
            wanted.insert(dir)
            guard depth > 0, let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else {
                return
            }
            for n in names where !n.hasPrefix(".") { add(dir + "/" + n, depth: depth - 1) }
        }
        for root in directories() {
            var r = root
            // A root that does not exist yet is seen through its nearest existing ancestor.
            while !FileManager.default.fileExists(atPath: r), r != "/" {
                r = (r as NSString).deletingLastPathComponent
            }
            add(r, depth: r == root ? 3 : 0)
        }
        for (wd, path) in watches where !wanted.contains(path) {
            inotify_rm_watch(fd, wd)
            watches[wd] = nil
        }
        let have = Set(watches.values)
        for path in wanted where !have.contains(path) {
            let wd = inotify_add_watch(fd, path, ThemeWatcher.mask)
            if wd >= 0 { watches[wd] = path }
        }
    }

    private func drain() {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while read(fd, &buffer, buffer.count) > 0 {}
    }

    private func run() {
        refresh()
        var fds = [
            pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
            pollfd(fd: stopPipe.read, events: Int16(POLLIN), revents: 0),
        ]
        var pending = false
        while true {
            let n = poll(&fds, 2, pending ? debounce : -1)
            if n < 0 {
                if errno == EINTR { continue }
                return
            }
            if fds[1].revents != 0 { return }
            if fds[0].revents != 0 {
                drain()
                pending = true
                continue
            }
            if n == 0 && pending {
                pending = false
                onChange()
                refresh()
            }
        }
    }
}
