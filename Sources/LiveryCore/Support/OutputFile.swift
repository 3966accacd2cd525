import Foundation

/// Writing a file Livery makes for the user (a plugin's output, a preview, a gallery page) whole or
/// not at all, and only ever a file: the one mechanism behind every such write.
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
    /// file keeps its permission bits; a new one is 0644.
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
        var path = output
        var st = stat()
        var exists = false
        if lstat(output, &st) == 0 {
            if st.st_mode & S_IFMT == S_IFLNK {
                guard let resolved = realpath(output, nil) else {
                    throw Failure(description: "\(output) is a symbolic link to nothing")
                }
                path = String(cString: resolved)
                free(resolved)
                guard stat(path, &st) == 0 else {
                    throw Failure(description: "cannot read \(path): \(String(cString: strerror(errno)))")
                }
            }
            guard st.st_mode & S_IFMT == S_IFREG else {
                let what = st.st_mode & S_IFMT == S_IFDIR ? "is a directory" : "is not a regular file"
                throw Failure(description: "\(path) \(what); Livery writes only files")
            }
            exists = true
        }
        if exists, let existing = FileManager.default.contents(atPath: path), existing.count == bytes.count,
            Array(existing) == bytes
        {
            return false
        }
        let mode: mode_t = exists ? st.st_mode & 0o7777 : 0o644
        let dir =
            (path as NSString).deletingLastPathComponent.isEmpty
            ? "." : (path as NSString).deletingLastPathComponent
        var isDir: ObjCBool = false
        if !FileManager.default.fileExists(atPath: dir, isDirectory: &isDir) {
            guard makingDirectories else { throw Failure(description: "no such directory \(dir)") }
            do {
                try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            } catch {
                throw Failure(description: "cannot make the directory \(dir)")
            }
        } else if !isDir.boolValue {
            throw Failure(description: "\(dir) is not a directory")
        }
        var template = Array(
            (dir + "/." + (path as NSString).lastPathComponent + ".livery-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw Failure(description: "cannot write in \(dir): \(String(cString: strerror(errno)))")
        }
        let temp = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        func fail(_ what: String) -> Failure {
            let e = Failure(description: "\(what) \(path): \(String(cString: strerror(errno)))")
            close(fd)
            unlink(temp)
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
        guard fchmod(fd, mode) == 0 else { throw fail("cannot set the mode of") }
        if durable { guard fsync(fd) == 0 else { throw fail("cannot sync") } }
        guard close(fd) == 0 else {
            unlink(temp)
            throw Failure(description: "cannot close \(path): \(String(cString: strerror(errno)))")
        }
        guard rename(temp, path) == 0 else {
            let e = Failure(description: "cannot rename onto \(path): \(String(cString: strerror(errno)))")
            unlink(temp)
            throw e
        }
        return true
    }
}
