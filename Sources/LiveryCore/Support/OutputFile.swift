import Foundation
import Synchronization

/// Writing a file Livery makes for the user (a plugin's output, a preview, a gallery page, a
/// template repository's build) whole or not at all, and only ever a file: the one mechanism
/// behind every such write.
///
/// Every write is the same steps, in one directory opened as a descriptor: the entry is looked
/// at without following it (a regular file is replaced, anything else refused, never written
/// into), a temporary `.NAME.livery-XXXXXX` is created beside it (`O_CREAT | O_EXCL`, locked
/// with `flock` for as long as its writer lives), written, and renamed over the entry. Two
/// kinds of path reach those steps:
/// - a path the user names (`write(_:to:)`: a plugin's `output`, `livery preview -o FILE`) is
///   the user's own: links in it are followed, and a final link is written through, so that a
///   dotfile manager's link stays a link;
/// - a path Livery makes beneath a root (`OutputRoot`: a repository's outputs, the gallery's
///   pictures) stays beneath it: every directory under the root is opened relative to its
///   parent without following a link, so a link in the tree is refused, never written through.
public enum OutputFile {
    /// Why a file could not be written: what and where.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// Writes `bytes` to `path` atomically: a temporary file in the same directory, written,
    /// optionally fsynced, and renamed over `path`. Nothing is written when `path` holds these
    /// bytes already. A symbolic link is written through (its final target is the file replaced,
    /// so a link kept by a dotfile manager stays a link); anything but a regular file there (a
    /// device such as `/dev/null`, a directory, a pipe) is refused, never replaced. A rewritten
    /// file keeps its permission bits; a new one is 0644 less the umask.
    /// - Parameters:
    ///   - makingDirectories: Whether missing directories above `path` are made (a plugin's
    ///     `~/.config/kitty/…`); otherwise a missing one is an error naming it.
    ///   - durable: Whether the file is fsynced before the rename, so that it survives a power
    ///     loss too; the rename alone already keeps a crash of the process from leaving half a file.
    /// - Returns: whether the file changed.
    /// - Throws: `Failure` naming the path: not a regular file, a dangling link, a missing
    ///   directory, or the system's reason for a failed write.
    public static func write(
        _ bytes: [UInt8], to output: String, makingDirectories: Bool = true, durable: Bool = true
    )
        throws(Failure) -> Bool
    {
        let path = try target(of: output)
        let (dir, name) = split(path)
        var fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd < 0 && errno == ENOENT {
            guard makingDirectories else { throw Failure(description: "no such directory \(dir)") }
            do {
                try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            } catch {
                throw Failure(description: "cannot make the directory \(dir)")
            }
            fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        }
        guard fd >= 0 else {
            throw Failure(
                description: errno == ENOTDIR
                    ? "\(dir) is not a directory" : "cannot open \(dir): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        return try replace(name, in: fd, shownAs: path, with: bytes, durable: durable)
    }

    /// Removes the temporary files that writers of `output` (as `write(_:to:)` resolves it)
    /// left behind when they were killed: `.NAME.livery-XXXXXX` beside it that no living writer
    /// holds locked. Errors are ignored: a temporary that cannot be removed stays.
    /// - Returns: The paths removed.
    @discardableResult
    public static func removeAbandonedTemporaries(of output: String) -> [String] {
        guard let path = try? target(of: output) else { return [] }
        let (dir, name) = split(path)
        let fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        let prefix = temporaryPrefix(Array(name.utf8))
        return removeAbandonedTemporaries(in: fd) { $0.count == prefix.count + 6 && $0.starts(with: prefix) }
            .map { dir + "/" + $0 }
    }

    // MARK: The steps every write takes

    /// The file `output` names: itself, or the final target of a link.
    static func target(of output: String) throws(Failure) -> String {
        var st = stat()
        guard lstat(output, &st) == 0, st.st_mode & S_IFMT == S_IFLNK else { return output }
        guard let resolved = realpath(output, nil) else {
            throw Failure(description: "\(output) is a symbolic link to nothing")
        }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The directory (`.` when none is given) and the last component of `path`.
    static func split(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let dir = String(path[..<slash])
        return (dir.isEmpty ? "/" : dir, String(path[path.index(after: slash)...]))
    }

    /// Replaces the entry `name` of the open directory `directory` with a regular file holding
    /// `bytes`, atomically, unless it holds them already; `path` is how errors name it.
    /// - Returns: whether the file changed.
    /// - Throws: `Failure` when the entry is a link, a directory or anything but a regular file,
    ///   or the system refuses a step.
    static func replace(
        _ name: String, in directory: Int32, shownAs path: String, beneath root: String? = nil,
        with bytes: [UInt8],
        durable: Bool
    ) throws(Failure) -> Bool {
        var st = stat()
        var mode: mode_t?
        if fstatat(directory, name, &st, AT_SYMLINK_NOFOLLOW) == 0 {
            switch st.st_mode & S_IFMT {
            case S_IFREG: mode = st.st_mode & 0o7777
            case S_IFLNK: throw linkRefused(path, beneath: root)
            case S_IFDIR: throw Failure(description: "\(path) is a directory; Livery writes only files")
            default: throw Failure(description: "\(path) is not a regular file; Livery writes only files")
            }
            if st.st_size == bytes.count, holds(bytes, name, in: directory) { return false }
        } else if errno != ENOENT {
            throw Failure(description: "cannot read \(path): \(String(cString: strerror(errno)))")
        }
        let (fd, temp) = try temporary(for: name, in: directory, shownAs: path)
        func fail(_ what: String) -> Failure {
            let e = Failure(description: "\(what) \(path): \(String(cString: strerror(errno)))")
            unlinkat(directory, temp, 0)
            close(fd)
            return e
        }
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes {
                Foundation.write(fd, $0.baseAddress! + offset, $0.count - offset)
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw fail("cannot write")
            }
            offset += n
        }
        if let mode { guard fchmod(fd, mode) == 0 else { throw fail("cannot set the mode of") } }
        if durable { guard fsync(fd) == 0 else { throw fail("cannot sync") } }
        // Renamed while the lock is held, so that a sweep never takes a finished temporary for
        // an abandoned one.
        guard renameat(directory, temp, directory, name) == 0 else {
            throw fail("cannot rename onto")
        }
        guard close(fd) == 0 else {
            throw Failure(description: "cannot close \(path): \(String(cString: strerror(errno)))")
        }
        return true
    }

    /// The error of a link found where Livery does not follow one.
    static func linkRefused(_ path: String, beneath root: String?) -> Failure {
        Failure(
            description:
                "\(path) is a symbolic link; Livery writes only beneath \(root ?? split(path).directory), never through a link in it"
        )
    }

    /// Whether the regular file `name` of `directory` holds exactly `bytes`.
    private static func holds(_ bytes: [UInt8], _ name: String, in directory: Int32) -> Bool {
        let fd = openat(directory, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG, st.st_size == bytes.count else {
            return false
        }
        var existing = [UInt8](repeating: 0, count: bytes.count + 1)
        var count = 0
        while count < existing.count {
            let n = existing.withUnsafeMutableBytes { read(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            count += n
        }
        return count == bytes.count && existing.prefix(count).elementsEqual(bytes)
    }

    /// The longest part of an entry's name kept in its temporary's: `.` + 240 bytes +
    /// `.livery-XXXXXX` is 255 bytes, the longest name Linux's file systems take (`NAME_MAX`).
    static let nameBytesKept = 240

    /// The start of the temporaries' names of an entry named `name`: `.NAME.livery-`.
    static func temporaryPrefix(_ name: [UInt8]) -> [UInt8] {
        [UInt8(ascii: ".")] + name.prefix(nameBytesKept) + Array(".livery-".utf8)
    }

    private static let suffixCharacters = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)

    /// Whether `entry` is the name of some entry's temporary: `.` NAME `.livery-` and six letters
    /// or digits.
    static func isTemporary(_ entry: [UInt8]) -> Bool {
        let tag = Array(".livery-".utf8)
        guard entry.count >= 1 + tag.count + 6, entry.first == UInt8(ascii: ".") else { return false }
        let suffix = entry.suffix(6)
        return entry.dropLast(6).suffix(tag.count).elementsEqual(tag)
            && suffix.allSatisfy { suffixCharacters.contains($0) }
    }

    /// A new temporary file beside `name` in `directory`, open for writing and locked (`flock`,
    /// exclusive) for as long as the descriptor is open; its name as a C string (bytes, as a name
    /// cut inside a character is no longer UTF-8).
    private static func temporary(for name: String, in directory: Int32, shownAs path: String)
        throws(Failure) -> (fd: Int32, name: [CChar])
    {
        let prefix = temporaryPrefix(Array(name.utf8))
        for _ in 0..<100 {
            var bits = suffixBits()
            var bytes = prefix
            for _ in 0..<6 {
                bytes.append(suffixCharacters[Int(bits % UInt64(suffixCharacters.count))])
                bits /= UInt64(suffixCharacters.count)
            }
            let temp = cString(bytes)
            let fd = openat(directory, temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            if fd < 0 {
                if errno == EEXIST || errno == EINTR { continue }
                throw Failure(
                    description:
                        "cannot write in \(split(path).directory): \(String(cString: strerror(errno)))")
            }
            while flock(fd, LOCK_EX) != 0 && errno == EINTR {}
            return (fd, temp)
        }
        throw Failure(description: "cannot make a temporary file beside \(path)")
    }

    /// A process-wide counter from a random start, stepped by the golden-ratio increment.
    private static let suffixState = Atomic<UInt64>(UInt64.random(in: .min ... .max))

    /// 64 bits for a temporary's suffix, with no system call: the counter's next value through
    /// SplitMix64's finalizer (Steele, Lea and Flood 2014), so that one process's names do not
    /// follow one another. Unpredictability is not needed: `O_EXCL` turns away a name taken.
    private static func suffixBits() -> UInt64 {
        var z = suffixState.wrappingAdd(0x9E37_79B9_7F4A_7C15, ordering: .relaxed).newValue
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// `bytes` and a terminating zero.
    static func cString(_ bytes: [UInt8]) -> [CChar] { bytes.map { CChar(bitPattern: $0) } + [0] }

    /// Removes the entries of `directory` that `isWanted` and `isTemporary` accept and that no
    /// process holds locked: temporaries whose writer was killed. A writer locks its temporary
    /// the instant after creating it; a sweep runs where no writer of its own is at work.
    /// - Returns: The names removed.
    static func removeAbandonedTemporaries(in directory: Int32, where isWanted: ([UInt8]) -> Bool) -> [String]
    {
        let listing = dup(directory)
        guard listing >= 0, let stream = fdopendir(listing) else { return [] }
        defer { closedir(stream) }
        var names: [[UInt8]] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            if isTemporary(name) && isWanted(name) { names.append(name) }
        }
        var removed: [String] = []
        for bytes in names {
            let name = cString(bytes)
            let fd = openat(directory, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
            guard fd >= 0 else { continue }
            defer { close(fd) }
            var st = stat()
            guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG, flock(fd, LOCK_EX | LOCK_NB) == 0
            else {
                continue
            }
            if unlinkat(directory, name, 0) == 0 { removed.append(String(decoding: bytes, as: UTF8.self)) }
        }
        return removed
    }
}
