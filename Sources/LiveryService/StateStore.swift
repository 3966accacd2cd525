import Foundation
import LiveryCore

/// Saves and restores the active theme id in `state.json`, atomically: write a temporary file in
/// the same directory, fsync it, rename it over the old one, fsync the directory. A crash at any
/// point leaves either the old file or the new one, never a half-written one.
public struct StateStore: Sendable {
    /// The state file, normally `$XDG_STATE_HOME/livery/state.json`.
    public let path: String

    /// A store for the file at `path`; nothing is read or written until asked.
    public init(path: String) { self.path = path }

    /// The saved state.
    public struct State: Codable, Equatable, Sendable {
        /// The active theme's id.
        public var theme: String
    }

    /// Why the saved state cannot be used; the description says what and where.
    public struct LoadError: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// Reads the saved state.
    /// - Returns: The state the last `save` wrote.
    /// - Throws: `LoadError` saying why the file is missing or unusable.
    public func load() throws -> State {
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue {
            throw LoadError(description: "\(path) is a directory, not a state file")
        }
        guard FileManager.default.fileExists(atPath: path) else {
            throw LoadError(description: "\(path): no saved state")
        }
        let data: Data
        switch BundleFiles.contents(of: path) {
        case .failure(let e): throw LoadError(description: "\(path): \(e.message)")
        case .success(let d): data = d
        }
        do { return try JSONDecoder().decode(State.self, from: data) } catch {
            throw LoadError(description: "\(path): not a valid state file")
        }
    }

    /// Removes temporary files that a crash in the middle of `save` left behind.
    public func removeStaleTemporaryFiles() {
        let dir = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: dir) else { return }
        for e in entries where e.hasPrefix("." + name + ".") && e.hasSuffix(".tmp") {
            try? FileManager.default.removeItem(atPath: dir + "/" + e)
        }
    }

    /// Writes the state atomically.
    /// - Parameter state: The state to keep, written as JSON with sorted keys.
    /// - Throws: `POSIXError`-style `NSError` when the directory cannot be created or written.
    public func save(_ state: State) throws {
        let dir = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var data = try encoder.encode(state)
        data.append(0x0a)
        let tmp = dir + "/." + (path as NSString).lastPathComponent + ".\(getpid()).tmp"
        let fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var ok = data.withUnsafeBytes { buf in
            var offset = 0
            while offset < buf.count {
                let n = write(fd, buf.baseAddress! + offset, buf.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += n
            }
            return true
        }
        ok = ok && fsync(fd) == 0
        let code = errno
        close(fd)
        guard ok, rename(tmp, path) == 0 else {
            let e = ok ? errno : code
            unlink(tmp)
            throw POSIXError(POSIXErrorCode(rawValue: e) ?? .EIO)
        }
        let dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dfd >= 0 {
            fsync(dfd)
            close(dfd)
        }
    }
}
