import Foundation
import Synchronization

/// An outside format (`formats:` in a plugin manifest, the README's "Plugins"): an importer program for theme
/// files whose names match its patterns. The file (at most `ThemeFormats.maximumSchemeSize`
/// bytes) goes to the importer's standard input; what it writes on standard output (at most
/// `BundleFiles.maximumSheetSize` bytes, UTF-8) is read as a sheet when it starts with `@` or
/// has a `{`, else as a base16 or base24 scheme (YAML). Its exit status, its timeout (SIGTERM,
/// then SIGKILL), output past the limit and its first line of standard error become
/// diagnostics on the file, as a sheet's errors are; the program runs with no shell and the
/// clean environment of plugin commands (`ProcessRunner.environment`). Outputs are kept per
/// file, by its path, size, modification and change times, so that a file is imported once
/// until it changes.
public struct OutsideFormat: ThemeFormat {
    /// The plugin's name, which is the format's name in `ListThemes` metadata.
    public let plugin: String
    /// The plugin's directory: the working directory, and where `./x` programs are.
    public let directory: String
    /// The manifest's entry.
    public let format: PluginManifest.Format
    let environment: [String: String]

    /// The format of one manifest entry.
    /// - Parameters:
    ///   - plugin: The plugin's name.
    ///   - directory: The plugin's directory.
    ///   - format: The entry.
    ///   - environment: The importer's whole environment.
    public init(
        plugin: String, directory: String, format: PluginManifest.Format, environment: [String: String]
    ) {
        self.plugin = plugin
        self.directory = directory
        self.format = format
        self.environment = environment
    }

    public var name: String { plugin }

    /// Claims a file (never a directory) whose name matches a pattern; its id is a scheme's
    /// (`ThemeFormats.schemeID`).
    public func claim(_ url: URL, isDirectory: Bool) -> String? {
        guard !isDirectory else { return nil }
        let file = url.lastPathComponent
        guard format.match.contains(where: { fnmatch($0, file, 0) == 0 }) else { return nil }
        let id = ThemeFormats.schemeID(for: url)
        return id.isEmpty ? nil : id
    }

    /// Runs the importer on the file (or takes its output from the last run on this version of
    /// the file) and reads what it wrote.
    public func read(_ url: URL, id: String) -> ThemeSource {
        let loc = SourceLocation(file: url.path, line: 1, column: 1)
        func failed(_ message: String) -> ThemeSource {
            var sheet = Stylesheet(file: url.path)
            sheet.diagnostics = [Diagnostic(.error, message, at: loc)]
            return ThemeSource(id: id, format: name, path: url.path, sheet: sheet)
        }
        let input: Data
        switch BundleFiles.contents(of: url.path, limit: ThemeFormats.maximumSchemeSize) {
        case .failure(let e): return failed("file \(e.message)")
        case .success(let d): input = d
        }
        let text: String
        switch output(for: url.path, input: Array(input)) {
        case .failure(let message): return failed("format plugin '\(plugin)': \(message)")
        case .success(let t): text = t
        }
        let trimmed = text.drop { $0.isWhitespace }
        var source =
            trimmed.hasPrefix("@") || text.contains("{")
            ? ThemeSource(
                id: id, format: name, path: url.path,
                sheet: SheetParser(bundleRoot: nil, importer: nil).parse(text, file: url.path))
            : Base16Format().parse(text, url: url, id: id)
        source.format = name
        return source
    }

    /// What the importer writes for this content, from the cache or a run.
    func output(for path: String, input: [UInt8]) -> Result<String, ImportFailure> {
        var st = stat()
        let key =
            stat(path, &st) == 0
            ? "\(plugin)\u{0}\(format.run.joined(separator: "\u{0}"))\u{0}\(path)\u{0}\(st.st_size)\u{0}\(st.st_mtim.tv_sec).\(st.st_mtim.tv_nsec)\u{0}\(st.st_ctim.tv_sec).\(st.st_ctim.tv_nsec)"
            : nil
        if let key, let hit = OutsideFormat.cache.withLock({ $0[key] }) { return hit }
        var argv = format.run
        if argv[0].hasPrefix("./") { argv[0] = directory + "/" + argv[0].dropFirst(2) }
        let outcome = ProcessRunner.run(
            argv, environment: environment, directory: directory, input: input, timeout: format.timeout,
            outputLimit: BundleFiles.maximumSheetSize, separateErrors: true)
        let result: Result<String, ImportFailure>
        let command = argv.joined(separator: " ")
        if outcome.end == .timedOut {
            result = .failure(
                ImportFailure(
                    description: "\(command) timed out after \(format.timeout.formatted) s and was killed"))
        } else if !outcome.succeeded {
            let why = outcome.firstErrorLine.map { ": " + $0 } ?? ""
            result = .failure(ImportFailure(description: "\(command) \(outcome.summary)\(why)"))
        } else if outcome.total > BundleFiles.maximumSheetSize {
            result = .failure(
                ImportFailure(
                    description:
                        "\(command) wrote \(outcome.total) bytes; the limit is \(BundleFiles.maximumSheetSize)"
                ))
        } else if let text = String(validating: outcome.output, as: UTF8.self) {
            result = .success(text)
        } else {
            result = .failure(ImportFailure(description: "\(command) wrote something that is not UTF-8 text"))
        }
        if let key {
            OutsideFormat.cache.withLock { cache in
                if cache.count >= OutsideFormat.cacheLimit { cache.removeAll() }
                cache[key] = result
            }
        }
        return result
    }

    /// Why an import failed, one line.
    struct ImportFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// Outputs kept: at most this many files' (all dropped when full).
    static let cacheLimit = 256
    static let cache = Mutex<[String: Result<String, ImportFailure>]>([:])

    /// The outside formats of every enabled plugin on `searchPath` (the first of a name wins;
    /// shipped plugins are not enabled), in plugin and manifest order. A plugin whose manifest
    /// has errors gives none: its errors are reported with the other plugins'.
    /// - Parameters:
    ///   - searchPath: Plugin directories and their origins, as `Paths.pluginSearchPath`.
    ///   - environment: The importers' environment (`ProcessRunner.environment`).
    public static func installed(
        _ searchPath: [(directory: String, origin: String)], environment: [String: String]
    ) -> [OutsideFormat] {
        PluginManifest.directories(searchPath).flatMap { plugin -> [OutsideFormat] in
            guard plugin.origin != "shipped", case .success(let m) = PluginManifest.load(plugin.manifest)
            else {
                return []
            }
            return m.formats.map {
                OutsideFormat(
                    plugin: plugin.name, directory: plugin.directory, format: $0, environment: environment)
            }
        }
    }
}
