import Foundation

/// A way of reading themes: the native sheet bundle, base16/base24 schemes, … (the README, "The
/// sheet language"). Every format turns its input into a `Stylesheet` so that the compiler and
/// the cascade see one kind of theme.
public protocol ThemeFormat: Sendable {
    /// A short name shown in `ListThemes` metadata: `native`, `base16`.
    var name: String { get }
    /// Decides by name (and cheap content checks) whether this format reads the entry.
    /// - Parameters:
    ///   - url: An entry of a themes directory.
    ///   - isDirectory: Whether the entry is a directory.
    /// - Returns: the theme id the entry provides, or nil.
    func claim(_ url: URL, isDirectory: Bool) -> String?
    /// Reads the entry; problems are diagnostics in the returned sheet, never thrown.
    /// - Parameters:
    ///   - url: An entry this format claimed.
    ///   - id: The id `claim` returned for it.
    /// - Returns: The theme's source, its sheet translated from the format.
    func read(_ url: URL, id: String) -> ThemeSource
}

/// The compiled-in formats, in the order they are asked.
public enum ThemeFormats {
    /// Native bundles first, then base16/base24 schemes.
    public static let all: [any ThemeFormat] = [NativeFormat(), Base16Format()]

    /// Reads a file as UTF-8 text, or a diagnostic saying why not.
    static func readText(_ url: URL, limit: Int = BundleFiles.maximumSheetSize) -> Result<String, Diagnostic>
    {
        let loc = SourceLocation(file: url.path, line: 1, column: 1)
        if let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int,
            size > limit
        {
            return .failure(Diagnostic(.error, "file is \(size) bytes; the limit is \(limit)", at: loc))
        }
        let data: Data
        switch BundleFiles.contents(of: url.path, limit: limit) {
        case .failure(let e): return .failure(Diagnostic(.error, "file \(e.message)", at: loc))
        case .success(let d): data = d
        }
        guard let text = String(data: data, encoding: .utf8) else {
            return .failure(Diagnostic(.error, "file is not UTF-8 text", at: loc))
        }
        return .success(text)
    }
}
