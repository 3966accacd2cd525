import Foundation

/// Confines the files a bundle names (`url()` images, `@import`ed sheets) to the bundle
/// directory, and checks images by content.
public enum BundleFiles {
    /// Why a named file is refused.
    public struct Refusal: Error, Sendable {
        /// What is wrong with the file, one line, e.g. `empty file name`.
        public var message: String

        /// A refusal saying `message`.
        public init(message: String) { self.message = message }
    }

    /// The largest image a bundle may hold, in bytes.
    public static let maximumImageSize = 16 << 20
    /// The largest sheet file, in bytes.
    public static let maximumSheetSize = 4 << 20

    /// Resolves `path` inside the bundle `root`: no absolute paths, no `..` escape, no symlink
    /// leading outside, and a regular file at the end.
    /// - Parameters:
    ///   - path: The file name as the sheet wrote it, relative to the bundle.
    ///   - root: The bundle directory.
    /// - Returns: the absolute, symlink-free path.
    public static func confine(_ path: String, in root: String) -> Result<String, Refusal> {
        guard !path.isEmpty else { return .failure(Refusal(message: "empty file name")) }
        guard !path.hasPrefix("/") else {
            return .failure(Refusal(message: "'\(path)' is absolute; name files relative to the bundle"))
        }
        guard let realRoot = realPath(root) else {
            return .failure(Refusal(message: "bundle directory '\(root)' cannot be read"))
        }
        let joined = (realRoot as NSString).appendingPathComponent(path)
        guard let real = realPath(joined) else {
            // A name that climbs out of the bundle is refused for that, whether or not a file is
            // there (`../other-theme/x.png`).
            let escapes = path.split(separator: "/").reduce(into: (depth: 0, out: false)) { walk, part in
                if part == ".." { walk.depth -= 1 } else if part != "." { walk.depth += 1 }
                if walk.depth < 0 { walk.out = true }
            }.out
            return .failure(
                Refusal(
                    message: "'\(path)' "
                        + (escapes ? "leads outside the bundle" : "does not exist in the bundle")))
        }
        guard real.hasPrefix(realRoot + "/") else {
            return .failure(Refusal(message: "'\(path)' leads outside the bundle"))
        }
        var st = stat()
        guard stat(real, &st) == 0 else {
            FileStamps.noteIdentity(of: real)
            return .failure(Refusal(message: "'\(path)' is not a regular file"))
        }
        FileStamps.note(real, st)
        guard (st.st_mode & S_IFMT) == S_IFREG else {
            return .failure(Refusal(message: "'\(path)' is not a regular file"))
        }
        return .success(real)
    }

    /// Checks an image named by `url()`: confined to the bundle, under `maximumImageSize`, and a
    /// PNG, JPEG, WebP or SVG by its first bytes (whatever its extension says).
    /// - Parameters:
    ///   - path: The file name inside `url()`, relative to the bundle.
    ///   - root: The bundle directory.
    /// - Returns: the absolute path published over D-Bus.
    public static func checkImage(_ path: String, in root: String) -> Result<String, Refusal> {
        let real: String
        switch confine(path, in: root) {
        case .failure(let e): return .failure(e)
        case .success(let r): real = r
        }
        guard let size = fileSize(real) else { return .failure(Refusal(message: "'\(path)' cannot be read")) }
        guard size <= maximumImageSize else {
            return .failure(
                Refusal(
                    message:
                        "'\(path)' is \(size) bytes; images are limited to \(maximumImageSize >> 20) MiB (\(maximumImageSize) bytes)"
                ))
        }
        guard let handle = FileHandle(forReadingAtPath: real) else {
            return .failure(Refusal(message: "'\(path)' cannot be read"))
        }
        defer { try? handle.close() }
        let head = [UInt8]((try? handle.read(upToCount: 4096)) ?? Data())
        guard imageKind(head) != nil else {
            return .failure(Refusal(message: "'\(path)' is not a PNG, JPEG, WebP or SVG image"))
        }
        return .success(real)
    }

    /// The size in bytes of the file at `path` (links followed), or nil when it cannot be
    /// stat'ed. A `stat(2)`, where `FileManager.attributesOfItem` also looks up the owner's
    /// user and group names (reading `/etc/passwd` and `/etc/group` on every call, five times a
    /// switch).
    public static func fileSize(_ path: String) -> Int? {
        var st = stat()
        guard stat(path, &st) == 0 else {
            FileStamps.noteIdentity(of: path)
            return nil
        }
        FileStamps.note(path, st)
        return Int(st.st_size)
    }

    /// Recognises an image by its first bytes: "png", "jpeg", "webp", "svg", or nil.
    public static func imageKind(_ head: [UInt8]) -> String? {
        if head.starts(with: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) { return "png" }
        if head.starts(with: [0xff, 0xd8, 0xff]) { return "jpeg" }
        if head.count >= 12, head.starts(with: Array("RIFF".utf8)), Array(head[8..<12]) == Array("WEBP".utf8)
        {
            return "webp"
        }
        if let text = String(bytes: head, encoding: .utf8) {
            let t = text.drop { $0 == "\u{FEFF}" || $0.isWhitespace }
            if (t.hasPrefix("<?xml") || t.hasPrefix("<svg") || t.hasPrefix("<!--")
                || t.hasPrefix("<!DOCTYPE svg"))
                && t.contains("<svg")
            {
                return "svg"
            }
        }
        return nil
    }

    /// Reads an `@import`ed sheet inside the bundle `root`.
    static func importer(root: String) -> SheetParser.Importer {
        SheetParser.Importer(label: label) { path, from in
            let base = (from as NSString).deletingLastPathComponent
            let relative: String
            if let realBase = realPath(base), let realRoot = realPath(root), realBase.hasPrefix(realRoot) {
                relative = String((realBase + "/" + path).dropFirst(realRoot.count + 1))
            } else {
                relative = path
            }
            switch confine(relative, in: root) {
            case .failure(let e): return .failure(SheetParser.ImportError(e.message))
            case .success(let real):
                if let size = fileSize(real),
                    size > maximumSheetSize
                {
                    return .failure(
                        SheetParser.ImportError("'\(path)' is larger than \(maximumSheetSize) bytes"))
                }
                let data: Data
                switch contents(of: real) {
                case .failure(let e): return .failure(SheetParser.ImportError("'\(path)' \(e.message)"))
                case .success(let d): data = d
                }
                guard let text = String(data: data, encoding: .utf8) else {
                    return .failure(SheetParser.ImportError("'\(path)' is not UTF-8 text"))
                }
                return .success(text)
            }
        }
    }

    /// The label of a file `@import`ed as `path` from the file labelled `from`: the path as
    /// written, relative to the importing file's directory.
    @Sendable static func label(_ path: String, _ from: String) -> String {
        ((from as NSString).deletingLastPathComponent as NSString).appendingPathComponent(path)
    }

    /// Reads a whole regular file of at most `limit` bytes, saying why it cannot be read as the
    /// system does. Opened without blocking and checked to be a regular file before any read: a
    /// named pipe on the search path would otherwise block the reader for good, and a link to
    /// `/dev/zero` (size 0) would be read until memory runs out; at most `limit` + 1 bytes are
    /// read whatever the file claims.
    /// - Parameters:
    ///   - path: The file's path.
    ///   - limit: The most bytes the file may hold; 4 MiB (a sheet's limit) by default.
    /// - Returns: The bytes, or a refusal: `cannot be read: Permission denied` (strerror(3)),
    ///   `is not a regular file`, `is larger than N bytes`.
    public static func contents(of path: String, limit: Int = maximumSheetSize) -> Result<Data, Refusal> {
        switch read(path, upTo: limit + 1) {
        case .failure(let r): return .failure(r)
        case .success(let data):
            guard data.count <= limit else {
                return .failure(Refusal(message: "is larger than \(limit) bytes"))
            }
            return .success(data)
        }
    }

    /// At most the first `count` bytes of a regular file, opened as `contents(of:limit:)` opens
    /// it (without blocking; a named pipe, a device or a directory is refused unread), for a
    /// format that decides by a file's first bytes whether it claims it.
    /// - Parameters:
    ///   - path: The file.
    ///   - count: The most bytes read.
    /// - Returns: The bytes, or why the file cannot be read.
    public static func head(of path: String, count: Int) -> Result<Data, Refusal> {
        read(path, upTo: count)
    }

    /// The first `count` bytes (fewer at the end of the file) of the regular file at `path`.
    private static func read(_ path: String, upTo count: Int) -> Result<Data, Refusal> {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else {
            let why = errno
            // A file that cannot be opened (not there, not permitted) is stamped by what `stat`
            // says of it: a change that lets it be opened changes that too.
            FileStamps.noteIdentity(of: path)
            return .failure(Refusal(message: "cannot be read: \(String(cString: strerror(why)))"))
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            return .failure(Refusal(message: "cannot be read: \(String(cString: strerror(errno)))"))
        }
        // The identity of the file opened, taken before its bytes are read: a write after this
        // changes it, so the stamps can never pass for bytes newer than those read.
        FileStamps.note(path, st)
        guard (st.st_mode & S_IFMT) == S_IFREG else {
            return .failure(Refusal(message: "is not a regular file"))
        }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while data.count < count {
            let n = buffer.withUnsafeMutableBytes {
                Glibc.read(fd, $0.baseAddress, min($0.count, count - data.count))
            }
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(Refusal(message: "cannot be read: \(String(cString: strerror(errno)))"))
            }
            if n == 0 { break }
            data.append(contentsOf: buffer[0..<n])
        }
        return .success(data)
    }

    /// Why a directory cannot be listed and entered, or nil when it can.
    /// - Parameter path: The directory.
    /// - Returns: `cannot be read: Permission denied` (strerror(3)), or nil.
    public static func unreadableDirectory(_ path: String) -> String? {
        access(path, R_OK | X_OK) == 0 ? nil : "cannot be read: \(String(cString: strerror(errno)))"
    }

    /// `p` with every link and `.`/`..` resolved (realpath(3)); nil when it does not exist.
    package static func realPath(_ p: String) -> String? {
        guard let r = realpath(p, nil) else {
            FileStamps.noteResolution(p, nil)
            return nil
        }
        defer { free(r) }
        let real = String(cString: r)
        FileStamps.noteResolution(p, real)
        return real
    }
}
