import Foundation
import LiveryCore

/// The files themes are read from, by real path, so that no export overwrites one: every entry
/// of every theme directory (a bundle directory with everything under it), the file an entry
/// links to (`wal.json → ~/.cache/wal/colors.json`), and the active theme's own file wherever
/// it is. Made once per published change, at the cost of one `realpath` per directory and per
/// link.
struct ThemeFiles {
    private var files: Set<String>
    /// The active theme's file or bundle directory, by real path; nil when it is not there.
    let active: String?

    /// The files of the directories of `searchPath` and `active`, the active theme's path.
    init(searchPath: [String], active: String) {
        var files = Set<String>()
        for dir in searchPath {
            // One realpath for the directory and one for each link in it: a plain entry is the
            // directory's real path and its name.
            guard let realDirectory = BundleFiles.realPath(dir),
                let names = try? FileManager.default.contentsOfDirectory(atPath: dir)
            else { continue }
            for name in names where !name.hasPrefix(".") {
                var st = stat()
                guard lstat(dir + "/" + name, &st) == 0 else { continue }
                if (st.st_mode & S_IFMT) == S_IFLNK {
                    if let real = BundleFiles.realPath(dir + "/" + name) { files.insert(real) }
                } else {
                    files.insert(realDirectory + "/" + name)
                }
            }
        }
        self.active = BundleFiles.realPath(active)
        if let active = self.active { files.insert(active) }
        self.files = files
    }

    /// The theme file `path` is, or the bundle directory it is in, by real path; nil when
    /// writing `path` touches no theme. A path not there yet is taken in its directory's real
    /// path, so that a link anywhere on the way is followed as `open` would follow it.
    func theme(at path: String) -> String? {
        var real = BundleFiles.realPath(path)
        if real == nil, let slash = path.lastIndex(of: "/"),
            let dir = BundleFiles.realPath(String(path[..<slash]))
        {
            real = dir + path[slash...]
        }
        guard var candidate = real else { return nil }
        while !candidate.isEmpty {
            if files.contains(candidate) { return candidate }
            guard let slash = candidate.lastIndex(of: "/") else { break }
            candidate = String(candidate[..<slash])
        }
        return nil
    }
}
