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
    /// Other ids the entry is also reachable by (base16 schemes: `base16-ID`, `base24-ID`), given
    /// by cheap content checks like `claim`; the catalog gives each to the first entry claiming
    /// it, ahead of plain ids (the README, "The sheet language").
    /// - Parameters:
    ///   - url: An entry this format claimed.
    ///   - id: The id `claim` returned for it.
    /// - Returns: The aliases, most often none.
    func aliases(_ url: URL, id: String) -> [String]
}

extension ThemeFormat {
    /// No aliases: the default for every format but base16's.
    public func aliases(_ url: URL, id: String) -> [String] { [] }
}

extension Paths {
    /// Every format themes are read with: the compiled-in ones (`ThemeFormats.all`), then the
    /// outside formats of the user's and the system's plugins (`OutsideFormat.installed`), whose
    /// importers get the clean environment of plugin commands made from `environment`.
    public func themeFormats(environment: [String: String] = ProcessInfo.processInfo.environment)
        -> [any ThemeFormat]
    {
        ThemeFormats.all
            + OutsideFormat.installed(
                pluginSearchPath, environment: ProcessRunner.environment(from: environment, home: home))
    }
}

/// The compiled-in formats, in the order they are asked.
public enum ThemeFormats {
    /// Native bundles first, then base16/base24 schemes, then the terminal schemes (iTerm2,
    /// pywal and wallust) and KDE colour schemes.
    public static let all: [any ThemeFormat] = [
        NativeFormat(), Base16Format(), ItermFormat(), ColorsJSONFormat(), KDEColorsFormat(),
    ]

    /// The size limit of an imported scheme file (base16, iTerm2, `colors.json`, KDE): 1 MiB.
    public static let maximumSchemeSize = 1 << 20

    /// The theme id for a scheme file: its base name, lower-cased, each run of other characters
    /// one `-`, no `-` at either end, at most 64 characters (`3024 Night.itermcolors` →
    /// `3024-night`).
    /// - Parameter url: The scheme file.
    /// - Returns: The id; empty when the name has no letter or digit (the catalog skips it).
    public static func schemeID(for url: URL) -> String {
        let base = url.deletingPathExtension().lastPathComponent.lowercased()
        var id = ""
        for s in base.unicodeScalars {
            if (s.properties.isAlphabetic && s.isASCII) || ("0"..."9").contains(s) {
                id.unicodeScalars.append(s)
            } else if !id.isEmpty && id.last != "-" {
                id.append("-")
            }
        }
        while id.hasSuffix("-") { id.removeLast() }
        return String(id.prefix(64))
    }

    /// The first `limit` bytes of a file, for the cheap content checks of `claim`; nil when it
    /// cannot be read.
    static func head(_ url: URL, limit: Int = 4096) -> Data? {
        // Never a blocking open: a named pipe called `x.yaml` on the search path would stall
        // the scan (and the daemon with it) until something wrote to it.
        try? BundleFiles.head(of: url.path, count: limit).get()
    }

    /// Reads a file as UTF-8 text, or a diagnostic saying why not.
    static func readText(_ url: URL, limit: Int = BundleFiles.maximumSheetSize) -> Result<String, Diagnostic>
    {
        let loc = SourceLocation(file: url.path, line: 1, column: 1)
        if let size = BundleFiles.fileSize(url.path),
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
