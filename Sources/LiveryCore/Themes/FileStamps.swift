import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// What reading or compiling a theme found on disk: every file it looked at, with the file's
/// identity (`stat(2)`, links followed: device, inode, mode, size, modification and change times
/// to the nanosecond) or the error `stat` gave, and every path it resolved (`realpath(3)`) with
/// where that led. When a look again finds the same everywhere (`isCurrent`), reading and
/// compiling again would read the same bytes from the same files and make the same theme, so
/// what they made before can be used instead (the daemon's kept compiles).
///
/// Recorded by the one layer theme files are read through, `BundleFiles` (sheets, `@import`s,
/// scheme files, images, the overrides), while `recording(_:)` runs on the calling thread: the
/// catalog records each theme's read (`ThemeSource.files`), the daemon a compile's (its images,
/// its palette picture) and the overrides'.
///
/// **Racy stamps.** The kernel stamps a file's times from a clock that advances a tick at a time
/// (a few milliseconds), and some filesystems keep whole seconds (two on FAT), so two writes of
/// the same size within one tick leave every field of the identity equal. An identity taken
/// less than `settling` after its file's last change could therefore match a later write, and
/// stamps holding one are never current: the next look reads and compiles again, and its
/// stamps, taken later, can be current. (The change time cannot be set back by a user:
/// `utimensat` sets it to now.)
public struct FileStamps: Sendable, Equatable {
    /// What was looked at: a file's identity, or where a path resolves.
    enum Look: Hashable, Sendable {
        case identity(String)
        case resolution(String)
    }

    /// What a look found.
    enum Found: Equatable, Sendable {
        /// `stat` succeeded: device, inode, mode, size, modification and change times (ns).
        case file(dev: UInt64, ino: UInt64, mode: UInt32, size: Int64, mtime: Int64, ctime: Int64)
        /// `stat` failed with this `errno` (`ENOENT` for a file not there).
        case failed(Int32)
        /// `realpath` gave this path, or nil (no such file).
        case resolved(String?)
    }

    /// How long after a file's last change its identity is trusted, in nanoseconds: 2 s, FAT's
    /// granularity, above the kernel's tick and a one-second filesystem's.
    public static let settling: Int64 = 2_000_000_000

    private var found: [Look: Found] = [:]
    /// Whether some identity was taken within `settling` of its file's change (or its times are
    /// in the future), or one file was found two ways in one recording: then never current.
    public private(set) var racy = false

    /// No stamps: current, and depending on nothing.
    public init() {}

    /// How many files and resolutions were looked at.
    public var count: Int { found.count }

    /// The paths looked at, sorted (for messages and tests).
    public var paths: [String] {
        found.keys.map { look in
            switch look {
            case .identity(let p), .resolution(let p): p
            }
        }.sorted()
    }

    /// Whether every file is as it was found and every path resolves where it did, and no stamp
    /// was racy. Costs one `stat` per file and one `realpath` per resolution.
    public var isCurrent: Bool {
        guard !racy else { return false }
        for (look, was) in found where FileStamps.look(look, now: nil).found != was { return false }
        return true
    }

    /// Adds `other`'s stamps; a file both hold with different findings makes the union racy
    /// (it changed between the two looks).
    public mutating func formUnion(_ other: FileStamps) {
        if other.racy { racy = true }
        for (look, was) in other.found { add(look, was) }
    }

    private mutating func add(_ look: Look, _ was: Found) {
        if let earlier = found.updateValue(was, forKey: look), earlier != was { racy = true }
    }

    // MARK: Recording

    /// The stamps of one `recording` call.
    private final class Recorder: Sendable {
        let stamps = Mutex(FileStamps())
    }

    @TaskLocal private static var recorder: Recorder?

    /// Runs `body`, recording every look `BundleFiles` makes on this thread meanwhile (an
    /// enclosing recording gets them too).
    /// - Returns: `body`'s result and the stamps.
    public static func recording<R>(_ body: () throws -> R) rethrows -> (R, FileStamps) {
        let recorder = Recorder()
        let result = try $recorder.withValue(recorder) { try body() }
        let stamps = recorder.stamps.withLock { $0 }
        if let outer = FileStamps.recorder { outer.stamps.withLock { $0.formUnion(stamps) } }
        return (result, stamps)
    }

    /// Notes the identity of the file at `path` as `st` (from `stat` or `fstat` of it, taken
    /// before its bytes were read).
    static func note(_ path: String, _ st: stat) {
        guard let recorder else { return }
        let (found, racy) = identity(st, now: now())
        recorder.stamps.withLock {
            $0.add(.identity(path), found)
            if racy { $0.racy = true }
        }
    }

    /// Notes what `stat` finds at `path` now: a file that could not be opened (its identity, or
    /// why `stat` fails), or one looked for that may not exist (the overrides).
    package static func noteIdentity(of path: String) {
        guard let recorder else { return }
        let (found, racy) = look(.identity(path), now: now())
        recorder.stamps.withLock {
            $0.add(.identity(path), found)
            if racy { $0.racy = true }
        }
    }

    /// Notes that `path` resolved to `real` (nil: it does not exist).
    static func noteResolution(_ path: String, _ real: String?) {
        guard let recorder else { return }
        recorder.stamps.withLock { $0.add(.resolution(path), .resolved(real)) }
    }

    /// What a look at `look` finds now, and whether it is racy at `now` (nanoseconds of
    /// `CLOCK_REALTIME`; nil: not judged).
    private static func look(_ look: Look, now: Int64?) -> (found: Found, racy: Bool) {
        switch look {
        case .identity(let path):
            var st = stat()
            guard stat(path, &st) == 0 else { return (.failed(errno), false) }
            return identity(st, now: now)
        case .resolution(let path):
            guard let r = realpath(path, nil) else { return (.resolved(nil), false) }
            defer { free(r) }
            return (.resolved(String(cString: r)), false)
        }
    }

    /// What `st` says of a file, and whether it is racy at `now` (nanoseconds of
    /// `CLOCK_REALTIME`; nil: not judged): changed, or dated, less than `settling` before it.
    static func identity(_ st: stat, now: Int64?) -> (found: Found, racy: Bool) {
        let mtime = Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec)
        let ctime = Int64(st.st_ctim.tv_sec) * 1_000_000_000 + Int64(st.st_ctim.tv_nsec)
        let found = Found.file(
            dev: UInt64(st.st_dev), ino: UInt64(st.st_ino), mode: UInt32(st.st_mode), size: Int64(st.st_size),
            mtime: mtime, ctime: ctime)
        return (found, now.map { max(mtime, ctime) > $0 - settling } ?? false)
    }

    /// `CLOCK_REALTIME` in nanoseconds: the clock file times are stamped from.
    private static func now() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }
}
