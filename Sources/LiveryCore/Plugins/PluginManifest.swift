import Foundation

/// A plugin's `plugin.yaml` (the README, "Plugins"), read through libyaml: exports (a template
/// rendered to an output file, then an optional command) and hooks (commands run on every
/// published change). Errors are compiler-style diagnostics at the key or value; a manifest
/// with any error is not returned, so a plugin with errors never runs.
///
/// ```yaml
/// exports:
///   - template: kitty.mustache           # relative to the plugin directory
///     output: ~/.config/kitty/livery.conf
///     run: ["kitty", "@", "set-colors", "--all", "~/.config/kitty/livery.conf"]
///     timeout: 5                         # seconds, default 10
///   - repository: ~/.local/share/livery/tinted-vim   # a tinted-theming template repository
///     output: ~/.config/nvim/colors/livery.vim       # its entry for the theme's system
/// hooks:
///   - run: ["notify-send", "Livery"]
///     timeout: 5
/// formats:
///   - match: ["*.gpl"]                   # file names on the theme search path
///     run: ["gpl-to-livery"]             # the file on stdin; a sheet or base16 scheme on stdout
/// ```
public struct PluginManifest: Sendable, Equatable {
    /// One template rendered to one file.
    public struct Export: Sendable, Equatable {
        /// The template as written, relative to the plugin directory; with `repository`, the
        /// name of an entry of the repository's `templates/config.yaml`, or empty for the first
        /// entry whose `supported-systems` has the theme's system (base16 when none has base24).
        public var template: String
        /// A tinted-theming template repository (`templates/config.yaml` and its `.mustache`
        /// files) as written: relative to the plugin directory, absolute, or `~/`; nil for a
        /// plain template.
        public var repository: String?
        /// Where the template's key or value is, for diagnostics about the template file.
        public var templateLocation: SourceLocation
        /// The output file as written (`~/` not yet expanded).
        public var output: String
        /// A command run after the output is written, argv; empty for none.
        public var run: [String]
        /// Seconds the command may take.
        public var timeout: Double
        /// `keep`: top-level keys of the JSON file the output replaces, each with the value used
        /// when that file has none (not there, not a JSON object, the key missing or not a
        /// string). The template gets each as `kept-KEY`, JSON-escaped without its quotes.
        public var keep: [String: String]
        /// `skip-when-active-theme: true`: when the output is the active theme's own file (pywal's
        /// cache read as a theme), the export and its command are skipped instead of refused.
        public var skipsActiveTheme: Bool

        /// An export of these parts.
        public init(
            template: String, templateLocation: SourceLocation, output: String, run: [String] = [],
            timeout: Double = PluginManifest.defaultTimeout, repository: String? = nil,
            keep: [String: String] = [:], skipsActiveTheme: Bool = false
        ) {
            self.template = template
            self.templateLocation = templateLocation
            self.output = output
            self.run = run
            self.timeout = timeout
            self.repository = repository
            self.keep = keep
            self.skipsActiveTheme = skipsActiveTheme
        }
    }

    /// One command run on every published change.
    public struct Hook: Sendable, Equatable {
        /// argv, never through a shell.
        public var run: [String]
        /// Seconds the command may take.
        public var timeout: Double
    }

    /// One outside format: an importer program for theme files of some names (`OutsideFormat`).
    public struct Format: Sendable, Equatable {
        /// File-name patterns (`fnmatch`, no `/`): `*.gpl`.
        public var match: [String]
        /// argv, never through a shell.
        public var run: [String]
        /// Seconds the importer may take for one file.
        public var timeout: Double

        /// A format of these parts.
        public init(match: [String], run: [String], timeout: Double = PluginManifest.defaultTimeout) {
            self.match = match
            self.run = run
            self.timeout = timeout
        }
    }

    /// The description, when given.
    public var description: String
    /// The exports in manifest order.
    public var exports: [Export]
    /// The hooks in manifest order.
    public var hooks: [Hook]
    /// The outside formats in manifest order.
    public var formats: [Format]

    /// A manifest of these parts.
    public init(description: String, exports: [Export], hooks: [Hook], formats: [Format] = []) {
        self.description = description
        self.exports = exports
        self.hooks = hooks
        self.formats = formats
    }

    /// Every error of a manifest, in file order.
    public struct Errors: Error, Sendable, Equatable {
        public var diagnostics: [Diagnostic]
    }

    /// A command's timeout when the manifest gives none: 10 s.
    public static let defaultTimeout: Double = 10

    /// How an export's `output` may start: `/`, `~/`, or an XDG base directory's variable
    /// (expanded by the daemon, its default when unset), for programs that look under the
    /// user's `$XDG_CONFIG_HOME` or `$XDG_DATA_HOME` wherever those are.
    public static let outputPrefixes = [
        "/", "~/", "$XDG_CONFIG_HOME/", "$XDG_DATA_HOME/", "$XDG_CACHE_HOME/", "$XDG_STATE_HOME/",
    ]
    /// The longest timeout accepted: an hour.
    public static let maximumTimeout: Double = 3600
    /// Entries of each list (`exports`, `hooks`, `formats`) accepted, at most.
    public static let maximumEntries = 256
    /// The largest manifest read: 64 KiB.
    public static let maximumSize = 64 << 10

    static let topKeys = ["description", "exports", "hooks", "formats"]
    static let exportKeys = [
        "template", "repository", "output", "run", "timeout", "keep", "skip-when-active-theme",
    ]
    static let hookKeys = ["run", "timeout"]
    static let formatKeys = ["match", "run", "timeout"]
    /// Keys of the plugin contract this version does not do yet: an error, never ignored.
    static let unsupported: [String: String] = [:]

    /// The plugin directories of a search path that have a `plugin.yaml`, the first of a name
    /// winning, in search-path then name order; names starting with `.` are skipped.
    /// - Parameter searchPath: Directories of plugins and their origins (`user`, `system`,
    ///   `shipped`), as `Paths.pluginSearchPath`.
    public static func directories(_ searchPath: [(directory: String, origin: String)]) -> [(
        name: String, directory: String, origin: String, manifest: String
    )] {
        var seen: Set<String> = []
        var out: [(name: String, directory: String, origin: String, manifest: String)] = []
        for (directory, origin) in searchPath {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory))?.sorted() ?? []
            for name in names where !name.hasPrefix(".") && !seen.contains(name) {
                let dir = directory + "/" + name
                let manifest = dir + "/plugin.yaml"
                guard FileManager.default.fileExists(atPath: manifest) else { continue }
                seen.insert(name)
                out.append((name, dir, origin, manifest))
            }
        }
        return out
    }

    /// Reads and parses the manifest at `path` (at most `maximumSize` bytes, UTF-8).
    /// - Returns: The manifest, or every error (an unreadable file is one at 1:1).
    public static func load(_ path: String) -> Result<PluginManifest, Errors> {
        let start = SourceLocation(file: path, line: 1, column: 1)
        switch BundleFiles.contents(of: path, limit: maximumSize) {
        case .failure(let e):
            return .failure(Errors(diagnostics: [Diagnostic(.error, "manifest \(e.message)", at: start)]))
        case .success(let data):
            guard let text = String(data: data, encoding: .utf8) else {
                return .failure(
                    Errors(diagnostics: [Diagnostic(.error, "the manifest is not UTF-8 text", at: start)]))
            }
            return parse(text, file: path)
        }
    }

    /// Parses manifest text.
    /// - Parameters:
    ///   - text: The YAML.
    ///   - file: The path diagnostics name.
    /// - Returns: The manifest, or every error found (never empty).
    public static func parse(_ text: String, file: String) -> Result<PluginManifest, Errors> {
        let lines = YAMLNode.Lines(text)
        var diagnostics: [Diagnostic] = []
        func error(_ message: String, _ mark: YAMLNode.Mark) {
            diagnostics.append(YAMLNode.diagnostic(message, at: mark, lines: lines, file: file))
        }
        func location(_ mark: YAMLNode.Mark) -> SourceLocation {
            SourceLocation(file: file, line: mark.line, column: mark.column)
        }
        var manifest = PluginManifest(description: "", exports: [], hooks: [])
        let top: [(YAMLNode, YAMLNode)]
        switch YAMLNode.topLevel(
            of: text, lines: lines, file: file,
            expected: "a plugin manifest is a mapping of 'exports', 'hooks' and 'formats'")
        {
        // An empty file (or one of comments) is an empty manifest: a plugin that does nothing.
        case .empty: return .success(manifest)
        case .refused(let d): return .failure(Errors(diagnostics: [d]))
        case .mapping(let pairs): top = pairs
        }

        func keyName(_ key: YAMLNode, among known: [String]) -> String? {
            guard let name = key.scalar else {
                error("a key must be a plain name", key.mark)
                return nil
            }
            if let why = unsupported[name] {
                error(why, key.mark)
                return nil
            }
            guard known.contains(name) else {
                let hint = suggestion(for: name, among: known).map { " (did you mean '\($0)'?)" } ?? ""
                error("unknown key '\(name)'\(hint)", key.mark)
                return nil
            }
            return name
        }
        func string(_ node: YAMLNode, _ what: String) -> String? {
            guard let s = node.scalar, !s.isEmpty else {
                error("'\(what)' must be a non-empty string", node.mark)
                return nil
            }
            return s
        }
        func argv(_ node: YAMLNode) -> [String]? {
            guard case .sequence(let items) = node.kind, !items.isEmpty else {
                error("'run' must be a non-empty list of strings, the program first (no shell)", node.mark)
                return nil
            }
            var out: [String] = []
            for item in items {
                guard let s = item.scalar else {
                    error("each argument of 'run' must be a string", item.mark)
                    return nil
                }
                out.append(s)
            }
            if out[0].isEmpty {
                error("the program of 'run' must not be empty", items[0].mark)
                return nil
            }
            return out
        }
        func patterns(_ node: YAMLNode) -> [String]? {
            guard case .sequence(let items) = node.kind, !items.isEmpty else {
                error("'match' must be a non-empty list of file-name patterns such as \"*.gpl\"", node.mark)
                return nil
            }
            var out: [String] = []
            for item in items {
                guard let s = item.scalar, !s.isEmpty, !s.contains("/") else {
                    error("each pattern of 'match' must be a file name pattern, without '/'", item.mark)
                    return nil
                }
                out.append(s)
            }
            return out
        }
        func defaults(_ node: YAMLNode) -> [String: String]? {
            guard case .mapping(let pairs) = node.kind,
                pairs.allSatisfy({ $0.0.scalar != nil && $0.1.scalar != nil })
            else {
                error(
                    "'keep' maps keys to the value used when the file has none: {wallpaper: \"None\"}",
                    node.mark)
                return nil
            }
            var out: [String: String] = [:]
            for (k, v) in pairs { out[k.scalar!] = v.scalar! }
            return out
        }
        func timeout(_ node: YAMLNode) -> Double? {
            guard let s = node.scalar, let t = Double(s), t.isFinite, t > 0, t <= maximumTimeout else {
                error(
                    "'timeout' must be a number of seconds above 0 and at most \(Int(maximumTimeout))",
                    node.mark)
                return nil
            }
            return t
        }
        func entries(_ node: YAMLNode, _ what: String) -> [[(String, YAMLNode, YAMLNode)]] {
            guard case .sequence(let items) = node.kind else {
                if case .scalar(let s) = node.kind, s.isEmpty { return [] }
                error("'\(what)' must be a list", node.mark)
                return []
            }
            guard items.count <= maximumEntries else {
                error(
                    "'\(what)' has \(items.count) entries; a plugin may have at most \(maximumEntries)",
                    node.mark)
                return []
            }
            return items.compactMap { item in
                guard case .mapping(let pairs) = item.kind else {
                    error("each item of '\(what)' must be a mapping", item.mark)
                    return nil
                }
                return pairs.map { ($0.0.scalar ?? "", $0.0, $0.1) }
            }
        }

        var seen: Set<String> = []
        for (key, value) in top {
            guard let name = keyName(key, among: topKeys) else { continue }
            guard seen.insert(name).inserted else {
                error("'\(name)' is given twice", key.mark)
                continue
            }
            switch name {
            case "description":
                manifest.description = value.scalar ?? ""
            case "exports":
                let items = entries(value, "exports")
                guard case .sequence(let nodes) = value.kind else { break }
                for (pairs, node) in zip(items, nodes) {
                    var template: (String, SourceLocation)?
                    var repository: (String, SourceLocation)?
                    var output: String?
                    var run: [String] = []
                    var time = defaultTimeout
                    var keep: [String: String] = [:]
                    var skipsActiveTheme = false
                    var itemKeys: Set<String> = []
                    for (_, k, v) in pairs {
                        guard let n = keyName(k, among: exportKeys) else { continue }
                        guard itemKeys.insert(n).inserted else {
                            error("'\(n)' is given twice", k.mark)
                            continue
                        }
                        switch n {
                        case "template": template = string(v, n).map { ($0, location(v.mark)) }
                        case "repository": repository = string(v, n).map { ($0, location(v.mark)) }
                        case "output": output = string(v, n)
                        case "run": run = argv(v) ?? []
                        case "keep": keep = defaults(v) ?? [:]
                        case "skip-when-active-theme":
                            guard let b = v.scalar, b == "true" || b == "false" else {
                                error("'skip-when-active-theme' is true or false", v.mark)
                                continue
                            }
                            skipsActiveTheme = b == "true"
                        default: time = timeout(v) ?? time
                        }
                    }
                    if !itemKeys.contains("template") && !itemKeys.contains("repository") {
                        error("an export needs a 'template' (or a 'repository')", node.mark)
                    }
                    if !itemKeys.contains("output") { error("an export needs an 'output' file", node.mark) }
                    if let out = output, !PluginManifest.outputPrefixes.contains(where: out.hasPrefix) {
                        let starts = PluginManifest.outputPrefixes.dropFirst().map { "'\($0)'" }
                        error(
                            "'output' must be an absolute path or start with "
                                + starts.dropLast().joined(separator: ", ") + " or " + starts.last!,
                            node.mark)
                    }
                    if let output, let (t, loc) = template ?? repository.map({ ("", $0.1) }) {
                        manifest.exports.append(
                            Export(
                                template: t, templateLocation: repository?.1 ?? loc, output: output,
                                run: run, timeout: time, repository: repository?.0, keep: keep,
                                skipsActiveTheme: skipsActiveTheme))
                    }
                }
            case "formats":
                let items = entries(value, "formats")
                guard case .sequence(let nodes) = value.kind else { break }
                for (pairs, node) in zip(items, nodes) {
                    var match: [String]?
                    var run: [String]?
                    var time = defaultTimeout
                    var itemKeys: Set<String> = []
                    for (_, k, v) in pairs {
                        guard let n = keyName(k, among: formatKeys) else { continue }
                        guard itemKeys.insert(n).inserted else {
                            error("'\(n)' is given twice", k.mark)
                            continue
                        }
                        switch n {
                        case "match": match = patterns(v)
                        case "run": run = argv(v)
                        default: time = timeout(v) ?? time
                        }
                    }
                    if !itemKeys.contains("match") {
                        error("a format needs 'match': file-name patterns", node.mark)
                    }
                    if !itemKeys.contains("run") {
                        error("a format needs 'run': the importer's argv", node.mark)
                    }
                    if let match, let run {
                        manifest.formats.append(Format(match: match, run: run, timeout: time))
                    }
                }
            default:
                let items = entries(value, "hooks")
                guard case .sequence(let nodes) = value.kind else { break }
                for (pairs, node) in zip(items, nodes) {
                    var run: [String]?
                    var time = defaultTimeout
                    var itemKeys: Set<String> = []
                    for (_, k, v) in pairs {
                        guard let n = keyName(k, among: hookKeys) else { continue }
                        guard itemKeys.insert(n).inserted else {
                            error("'\(n)' is given twice", k.mark)
                            continue
                        }
                        if n == "run" { run = argv(v) } else { time = timeout(v) ?? time }
                    }
                    if !itemKeys.contains("run") { error("a hook needs 'run'", node.mark) }
                    if let run { manifest.hooks.append(Hook(run: run, timeout: time)) }
                }
            }
        }
        return diagnostics.isEmpty ? .success(manifest) : .failure(Errors(diagnostics: diagnostics))
    }
}
