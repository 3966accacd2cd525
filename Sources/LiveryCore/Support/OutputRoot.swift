import Foundation
import Synchronization

/// A directory Livery writes files beneath and never outside of, whatever links the tree under
/// it holds: `livery build`'s output directory (the repository, or `--out`) and `livery
/// gallery`'s. Names below the root come from outside input (a repository's `filename`, a
/// theme's id), and so may the tree (a repository's committed links), so nothing below the root
/// is followed.
///
/// The root itself is the user's path: opened following links, and made when missing. Every
/// directory below it is opened relative to its parent with `O_NOFOLLOW | O_DIRECTORY` (made
/// with `mkdirat` when missing), and the file is written there as `OutputFile` writes every file,
/// except that a link where the file goes is refused too. A link anywhere under the root is an
/// error naming it, and what it leads to is never touched.
///
/// The directories opened stay open (up to `cachedDirectories` of them) for the root's life, so
/// that thousands of files in a few directories cost one `openat` per directory; each is swept
/// of the temporaries that killed writers left (`OutputFile.removeAbandonedTemporaries`) when it
/// is first opened. Writes from several threads at once are safe.
public final class OutputRoot: Sendable {
    /// The root as given: how messages name it and the files under it.
    public let path: String
    private let fd: Int32
    /// The directories below the root opened so far, by their path relative to it. A descriptor
    /// in here stays open until `deinit`, so it may be used outside the lock.
    private let directories = Mutex<[String: Int32]>([:])

    /// Directories kept open at most; more are opened and closed for each file.
    static let cachedDirectories = 256

    /// Opens the directory at `path` (following links: it is the user's).
    /// - Parameter making: Whether a missing directory is made, with its missing parents.
    /// - Throws: `OutputFile.Failure` naming the path: not a directory, or the system's reason.
    public init(_ path: String, making: Bool = true) throws(OutputFile.Failure) {
        self.path = path
        var fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd < 0 && errno == ENOENT && making {
            do {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            } catch {
                throw OutputFile.Failure(description: "cannot make the directory \(path)")
            }
            fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        }
        guard fd >= 0 else {
            throw OutputFile.Failure(
                description: errno == ENOTDIR
                    ? "\(path) is not a directory"
                    : "cannot open \(path): \(String(cString: strerror(errno)))")
        }
        self.fd = fd
        OutputFile.removeAbandonedTemporaries(in: fd) { _ in true }
    }

    deinit {
        directories.withLock { for (_, d) in $0 { close(d) } }
        close(fd)
    }

    /// Writes `bytes` to the file `relative` names beneath the root, as `OutputFile.write` does
    /// (whole or not at all; unchanged bytes are not written again; a rewritten file keeps its
    /// mode, a new one is 0644 less the umask), making its missing directories.
    /// - Parameters:
    ///   - relative: `/`-separated, relative to the root; empty and `.` components are skipped.
    ///   - durable: Whether the file is fsynced before its rename.
    /// - Returns: whether the file changed.
    /// - Throws: `OutputFile.Failure` naming the path: a `..` or no name, a link or anything but a
    ///   directory on the way, a link or anything but a regular file where the file goes, or the
    ///   system's reason.
    @discardableResult
    public func write(_ bytes: [UInt8], to relative: String, durable: Bool = false) throws(OutputFile.Failure)
        -> Bool
    {
        let parts = relative.split(separator: "/").filter { $0 != "." }
        guard let name = parts.last, !parts.contains("..") else {
            throw OutputFile.Failure(description: "\(path)/\(relative) is not a file beneath \(path)")
        }
        let shown = path + "/" + parts.joined(separator: "/")
        let (directory, owned) = try self.directory(parts.dropLast())
        defer { if owned { close(directory) } }
        return try OutputFile.replace(
            String(name), in: directory, shownAs: shown, beneath: path, with: bytes, durable: durable)
    }

    /// The open directory `parts` names below the root, made where missing; `owned` when the
    /// caller must close it (the cache was full).
    private func directory(_ parts: ArraySlice<Substring>) throws(OutputFile.Failure) -> (
        fd: Int32, owned: Bool
    ) {
        if parts.isEmpty { return (fd, false) }
        return try directories.withLock {
            (cache: inout [String: Int32]) throws(OutputFile.Failure) -> (fd: Int32, owned: Bool) in
            // From the deepest directory already open.
            var depth = parts.count
            var current = fd
            while depth > 0 {
                if let known = cache[parts.prefix(depth).joined(separator: "/")] {
                    current = known
                    break
                }
                depth -= 1
            }
            var owned = false
            while depth < parts.count {
                let name = String(parts[parts.startIndex + depth])
                let shown = path + "/" + parts.prefix(depth + 1).joined(separator: "/")
                let opened = Result { () throws(OutputFile.Failure) in
                    try openDirectory(name, in: current, shownAs: shown)
                }
                if owned { close(current) }
                let child = try opened.get()
                depth += 1
                current = child
                owned = cache.count >= OutputRoot.cachedDirectories
                if !owned {
                    cache[parts.prefix(depth).joined(separator: "/")] = child
                    OutputFile.removeAbandonedTemporaries(in: child) { _ in true }
                }
            }
            return (current, owned)
        }
    }

    /// Opens (making it when missing) the directory `name` of `parent`, never through a link.
    private func openDirectory(_ name: String, in parent: Int32, shownAs shown: String) throws(OutputFile
        .Failure) -> Int32
    {
        let flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC
        var child = openat(parent, name, flags)
        if child < 0 && errno == ENOENT {
            if mkdirat(parent, name, 0o777) != 0 && errno != EEXIST {
                throw OutputFile.Failure(
                    description: "cannot make the directory \(shown): \(String(cString: strerror(errno)))")
            }
            child = openat(parent, name, flags)
        }
        guard child < 0 else { return child }
        let reason = errno
        var st = stat()
        if fstatat(parent, name, &st, AT_SYMLINK_NOFOLLOW) == 0 {
            if st.st_mode & S_IFMT == S_IFLNK { throw OutputFile.linkRefused(shown, beneath: path) }
            if st.st_mode & S_IFMT != S_IFDIR {
                throw OutputFile.Failure(description: "\(shown) is not a directory")
            }
        }
        throw OutputFile.Failure(description: "cannot open \(shown): \(String(cString: strerror(reason)))")
    }
}
