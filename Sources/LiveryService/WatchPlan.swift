import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The directories live reload watches and, in each, the entries whose events count: every entry
/// of a theme directory; only some names elsewhere.
///
/// inotify(7) is not recursive and reports an entry's events to its own directory's watch only,
/// so the plan holds:
/// - each theme directory of the search path and each directory inside it, to a depth of
///   `treeDepth` (bundles, their `images/` and imported sheets), for every entry;
/// - for a symbolic link among those entries (or a root or file that is one), the directory of
///   each link it leads through and of its final target, for that name only: a scheme linked from
///   `~/.cache/wal/colors.json` is seen when pywal rewrites it, when a tool replaces it by rename,
///   and when a link on the way is pointed elsewhere;
/// - for a path that does not exist yet (a root, a file, a link's target), its nearest existing
///   ancestor, for the name of the next component on the way, so that its creation is seen.
///
/// The plan is made again after each reload, so new bundles and moved links are followed. The
/// directories added for links are at most `linkDirectoryLimit`; the links beyond are listed in
/// `unfollowed`.
struct WatchPlan: Equatable {
    /// Which entries of a directory count.
    enum Interest: Equatable {
        case everything
        case names(Set<String>)

        /// Whether an event of the entry `name` counts.
        func admits(_ name: String) -> Bool {
            switch self {
            case .everything: true
            case .names(let names): names.contains(name)
            }
        }

        /// What counts for either.
        func union(_ other: Interest) -> Interest {
            switch (self, other) {
            case (.names(let a), .names(let b)): .names(a.union(b))
            default: .everything
            }
        }
    }

    /// Depth of the directories watched inside a theme directory.
    static let treeDepth = 3
    /// Directories watched for links' sake only, at most.
    static let linkDirectoryLimit = 64
    /// Links followed from one path, at most: the kernel's own bound on links in one lookup
    /// (`MAXSYMLINKS`, path_resolution(7)), which also ends a cycle.
    static let hopLimit = 40

    /// Each directory to watch (absolute path) and what counts in it.
    private(set) var directories: [String: Interest] = [:]
    /// Links whose targets were not followed, as `linkDirectoryLimit` was reached.
    private(set) var unfollowed: [String] = []
    private var linkDirectories = 0

    /// The plan for the theme directories `trees` and the single files `files`, as they are on
    /// disk now.
    /// - Parameters:
    ///   - trees: directories watched with their contents (the theme search path); a relative
    ///     path is taken from the working directory.
    ///   - files: files watched alone (the overrides file).
    init(trees: [String], files: [String]) {
        for root in trees.map(WatchPlan.absolute) {
            if WatchPlan.kind(root) == .directory {
                addTree(root, depth: WatchPlan.treeDepth)
            } else {
                expect(root, forLink: false)
            }
            followLinks(from: root)
        }
        for file in files.map(WatchPlan.absolute) {
            expect(file, forLink: false)
            followLinks(from: file)
        }
    }

    init() {}

    /// Whether an event of `name` in the watched `directory` counts.
    func admits(_ name: String, in directory: String) -> Bool {
        directories[directory]?.admits(name) ?? false
    }

    private mutating func add(_ directory: String, _ interest: Interest) {
        directories[directory] = directories[directory].map { $0.union(interest) } ?? interest
    }

    private mutating func addTree(_ directory: String, depth: Int) {
        add(directory, .everything)
        for (name, isLink) in WatchPlan.entries(of: directory) where !name.hasPrefix(".") {
            let path = directory + "/" + name
            if isLink { followLinks(from: path) }
            // A linked directory is watched through the link (inotify follows it).
            if depth > 0, WatchPlan.kind(path) == .directory { addTree(path, depth: depth - 1) }
        }
    }

    /// Watches the directory of `path` for its name, or the nearest existing ancestor for the
    /// next component when that directory does not exist.
    /// - Returns: false when `forLink` and the directory would pass `linkDirectoryLimit`.
    @discardableResult
    private mutating func expect(_ path: String, forLink: Bool) -> Bool {
        var child = path
        while true {
            let parent = WatchPlan.parent(of: child)
            if parent == child { return true }
            switch WatchPlan.kind(parent) {
            case .missing:
                child = parent
            case .other:
                return true
            case .directory:
                if forLink && directories[parent] == nil {
                    guard linkDirectories < WatchPlan.linkDirectoryLimit else { return false }
                    linkDirectories += 1
                }
                add(parent, .names([WatchPlan.name(of: child)]))
                return true
            }
        }
    }

    /// Watches each link `path` leads through and its final target, by name in its directory.
    private mutating func followLinks(from path: String) {
        var current = path
        for _ in 0..<WatchPlan.hopLimit {
            guard let destination = WatchPlan.linkDestination(current) else { return }
            let next =
                destination.hasPrefix("/") ? destination : WatchPlan.parent(of: current) + "/" + destination
            guard expect(next, forLink: true) else {
                unfollowed.append(path)
                return
            }
            current = next
        }
    }

    // MARK: The file system

    /// A path's kind, after its links.
    enum Kind { case directory, other, missing }

    /// What `path` is, following links.
    static func kind(_ path: String) -> Kind {
        var s = stat()
        guard stat(path, &s) == 0 else { return errno == ENOENT || errno == ENOTDIR ? .missing : .other }
        return (s.st_mode & S_IFMT) == S_IFDIR ? .directory : .other
    }

    /// The contents of a symbolic link, nil when `path` is none.
    static func linkDestination(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink(path, &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The names in `directory` and whether each is a symbolic link (none when it cannot be read).
    static func entries(of directory: String) -> [(name: String, isLink: Bool)] {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var result: [(String, Bool)] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name != ".", name != ".." else { continue }
            var isLink = Int32(entry.pointee.d_type) == DT_LNK
            if Int32(entry.pointee.d_type) == DT_UNKNOWN {
                var s = stat()
                isLink = lstat(directory + "/" + name, &s) == 0 && (s.st_mode & S_IFMT) == S_IFLNK
            }
            result.append((name, isLink))
        }
        return result
    }

    /// `path`, taken from the working directory when relative.
    static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }

    /// The directory part of an absolute path: `/` for `/a`, itself for `/`.
    static func parent(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return path }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }

    /// The last component of a path.
    static func name(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        return trimmed.lastIndex(of: "/").map { String(trimmed[trimmed.index(after: $0)...]) }
            ?? String(trimmed)
    }
}
