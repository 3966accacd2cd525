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
///     when-running: kitty                # run only while a process of the user is named so
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
        /// string). The template gets each as `kept-KEY`, JSON-escaped without its quotes, and
        /// `kept-KEY-not-default`; so do the templates of the plugin's later exports.
        public var keep: [String: String]
        /// `skip-when-active-theme: true`: when the output is the active theme's own file (pywal's
        /// cache read as a theme), the export and its command are skipped instead of refused.
        public var skipsActiveTheme: Bool
        /// `when-running`: program names (`/proc/PID/comm`); the command runs only while a
        /// process of the user has one of them, and is skipped otherwise. Empty: it always runs.
        public var whenRunning: [String]
        /// `syntax`: how the template is written.
        public var syntax: Syntax

        /// An export of these parts.
        public init(
            template: String, templateLocation: SourceLocation, output: String, run: [String] = [],
            timeout: Double = PluginManifest.defaultTimeout, repository: String? = nil,
            keep: [String: String] = [:], skipsActiveTheme: Bool = false, whenRunning: [String] = [],
            syntax: Syntax = .mustache
        ) {
            self.template = template
            self.templateLocation = templateLocation
            self.output = output
            self.run = run
            self.timeout = timeout
            self.repository = repository
            self.keep = keep
            self.skipsActiveTheme = skipsActiveTheme
            self.whenRunning = whenRunning
            self.syntax = syntax
        }
    }

    /// The syntax of an export's template.
    public enum Syntax: String, Sendable, Equatable, CaseIterable {
        /// Mustache with the tinted-theming variables (the default).
        case mustache
        /// pywal's (`PywalTemplate`) over pywal's colour dictionary (`PywalColors`): the theme's
        /// terminal colours, and `wallpaper`, `checksum`, `alpha` as an earlier export's `keep`
        /// kept them. `template` may then name a directory: each file beneath it is rendered to
        /// the same relative path beneath `output`, as `wal` renders its templates directories.
        case pywal
    }

    /// One command run on every published change.
    public struct Hook: Sendable, Equatable {
        /// argv, never through a shell.
        public var run: [String]
        /// Seconds the command may take.
        public var timeout: Double
        /// `when-running`, as an export's: empty, or the program names one of which must run.
        public var whenRunning: [String] = []
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
    /// The bytes of a process's name the kernel keeps (`/proc/PID/comm`, TASK_COMM_LEN less its
    /// terminating NUL): a longer `when-running` name is matched by its first 15 bytes.
    public static let programNameLength = 15

    static let topKeys = ["description", "exports", "hooks", "formats"]
    static let exportKeys = [
        "template", "repository", "output", "run", "timeout", "keep", "skip-when-active-theme",
        "when-running",
        "template", "repository", "output", "run", "timeout", "keep", "skip-when-active-theme", "syntax",
    ]
    static let hookKeys = ["run", "timeout", "when-running"]
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
        let reader = ManifestReader(text: text, file: file)
        var manifest = PluginManifest(description: "", exports: [], hooks: [])
        let top: [(YAMLNode, YAMLNode)]
        switch YAMLNode.topLevel(
            of: text, lines: reader.yaml.lines, file: file,
            expected: "a plugin manifest is a mapping of 'exports', 'hooks' and 'formats'")
        {
        // An empty file (or one of comments) is an empty manifest: a plugin that does nothing.
        case .empty: return .success(manifest)
        case .refused(let d): return .failure(Errors(diagnostics: [d]))
        case .mapping(let pairs): top = pairs
        }
        reader.yaml.forEachField(of: top, known: topKeys, others: .reported(unsupported: unsupported)) {
            field in
            switch field.name {
            case "description": manifest.description = field.value.scalar ?? ""
            case "exports": manifest.exports = reader.list(field.value, "exports", reader.export)
            case "formats": manifest.formats = reader.list(field.value, "formats", reader.format)
            default: manifest.hooks = reader.list(field.value, "hooks", reader.hook)
            }
        }
        let diagnostics = reader.yaml.diagnostics
        return diagnostics.isEmpty ? .success(manifest) : .failure(Errors(diagnostics: diagnostics))
    }
}
