import Foundation
import LiveryCore

extension PluginCatalog {
    /// The most files a pywal templates directory renders.
    static let maximumPywalFiles = 1024

    /// A `syntax: pywal` export's templates: its file compiled (an error of it is the plugin's),
    /// or each file beneath its directory compiled, errors kept for the run to report. The path
    /// is the plugin directory's, absolute, `~/…` or `$XDG_CONFIG_HOME/…` (as outputs); a missing
    /// directory (a path ending in `/`) has no templates: `~/.config/wal/templates` is there only
    /// once pywal has run.
    static func pywalTemplates(
        _ export: PluginManifest.Export, in directory: String, paths: Paths, cache: PluginFileCache,
        errors: inout [String]
    ) -> ExportTemplates {
        var out = ExportTemplates(entries: [])
        let root = resolve(export.template, in: directory, paths: paths)
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory)
        // A path ending in `/` is a directory, which may be missing: it has no templates yet.
        guard exists && isDirectory.boolValue || !exists && export.template.hasSuffix("/") else {
            switch BundleFiles.contents(of: root, limit: maximumTemplateSize) {
            case .failure(let e):
                errors.append("\(export.templateLocation): error: template '\(export.template)' \(e.message)")
            case .success(let data):
                switch cache.pywalTemplate(root, data) {
                case .success(let t): out.pywal = [("", .success(t))]
                case .failure(let d): errors.append(d.description)
                }
            }
            return out
        }
        out.isDirectory = true
        // Files are named `root/relative` with one slash, however many the manifest's path ends in.
        var base = Substring(root)
        while base.count > 1 && base.hasSuffix("/") { base = base.dropLast() }
        for relative in pywalFiles(root) {
            let file = base + "/" + relative
            switch BundleFiles.contents(of: file, limit: maximumTemplateSize) {
            case .failure(let e):
                let at = SourceLocation(file: file, line: 1, column: 1)
                out.pywal.append((relative, .failure(Diagnostic(.error, "template \(e.message)", at: at))))
            case .success(let data): out.pywal.append((relative, cache.pywalTemplate(file, data)))
            }
        }
        return out
    }

    /// `~/x`, `$XDG_CONFIG_HOME/x` (and the other base directories) and absolute paths as they
    /// are; any other is relative to the plugin directory.
    static func resolve(_ path: String, in directory: String, paths: Paths) -> String {
        if path.hasPrefix("/") { return path }
        if path.hasPrefix("~/") { return paths.home + path.dropFirst(1) }
        if path.hasPrefix("$XDG_"), let slash = path.firstIndex(of: "/"),
            let base = paths.baseDirectory(String(path[path.index(after: path.startIndex)..<slash]))
        {
            return base + path[slash...]
        }
        return directory + "/" + path
    }

    /// The files beneath `root` as pywal's `export.walk` finds them (`os.walk`): every regular
    /// file, or link to one, in it and in its directories (links to directories not followed),
    /// but `.DS_Store` and `*.swp` (pywal's exceptions); relative paths, sorted; at most
    /// `maximumPywalFiles`.
    static func pywalFiles(_ root: String) -> [String] {
        var out: [String] = []
        func walk(_ relative: String) {
            let path = relative.isEmpty ? root : root + "/" + relative
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path))?.sorted() ?? []
            for name in names where out.count < maximumPywalFiles {
                let child = relative.isEmpty ? name : relative + "/" + name
                var st = stat()
                guard lstat(root + "/" + child, &st) == 0 else { continue }
                switch st.st_mode & S_IFMT {
                case S_IFDIR: walk(child)
                case S_IFREG, S_IFLNK:
                    if name == ".DS_Store" || name.hasSuffix(".swp") { continue }
                    var target = stat()
                    if stat(root + "/" + child, &target) == 0, target.st_mode & S_IFMT == S_IFREG {
                        out.append(child)
                    }
                default: continue
                }
            }
        }
        walk("")
        return out.sorted()
    }
}
