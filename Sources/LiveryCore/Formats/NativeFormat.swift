import Foundation

/// Native bundles: a directory `<id>/theme.css` with its images and imports, or a single
/// `<id>.css` file (which may name no other files).
public struct NativeFormat: ThemeFormat {
    /// The native format; it has no settings.
    public init() {}
    /// `native`.
    public var name: String { "native" }

    /// Claims a directory holding `theme.css` (id: the directory name) or a `.css` file (id: its
    /// base name); the catalog then refuses an invalid id.
    public func claim(_ url: URL, isDirectory: Bool) -> String? {
        if isDirectory {
            guard FileManager.default.fileExists(atPath: url.appendingPathComponent("theme.css").path) else {
                return nil
            }
            return url.lastPathComponent
        }
        return url.pathExtension == "css" ? url.deletingPathExtension().lastPathComponent : nil
    }

    /// Parses `theme.css` (or the single file); imports resolve inside the bundle directory.
    public func read(_ url: URL, id: String) -> ThemeSource {
        var isDir: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir)
        let file = isDir.boolValue ? url.appendingPathComponent("theme.css") : url
        let root = isDir.boolValue ? url.path : nil
        switch ThemeFormats.readText(file) {
        case .failure(let d):
            var sheet = Stylesheet(file: file.path)
            sheet.diagnostics = [d]
            return ThemeSource(id: id, format: name, path: url.path, sheet: sheet)
        case .success(let text):
            let parser = SheetParser(bundleRoot: root, importer: root.map { BundleFiles.importer(root: $0) })
            return ThemeSource(
                id: id, format: name, path: url.path, sheet: parser.parse(text, file: file.path))
        }
    }
}
