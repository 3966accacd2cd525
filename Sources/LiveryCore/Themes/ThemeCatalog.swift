import Foundation

/// The installed themes: every bundle found on the theme search path, read by the format that
/// claims it (the first directory wins for a duplicate id).
public struct ThemeCatalog: Sendable {
    /// Sources by id.
    public private(set) var sources: [String: ThemeSource] = [:]
    /// Ids in sorted order.
    public private(set) var ids: [String] = []
    /// Things skipped while scanning (shadowed duplicates, invalid names), for the log.
    public private(set) var notes: [String] = []
    /// Entries skipped because another entry of the same directory has their id (`mine/` and
    /// `mine.yaml`): a mistake to show the user (`Problems`, `livery status`), not a choice
    /// of search order.
    public private(set) var conflicts: [String] = []
    /// Ids installed but not read into this catalog, offered as suggestions for an unknown
    /// parent (`livery check` reads only the chain it checks).
    private var otherIDs: [String] = []

    /// Aliases (`base16-ID`, `base24-ID`) of schemes listed under their plain id, to that id.
    private var aliasTargets: [String: String] = [:]

    /// Entries found on the search path and not read yet (`init(searchPath:formats:readingOnly:)`).
    private var pending: [String: InstalledTheme] = [:]
    /// The entries of the themes read, so that `forget(keepingChainOf:)` can make them pending
    /// again.
    private var readEntries: [String: InstalledTheme] = [:]

    /// Scans `searchPath` in order; directories that do not exist are skipped.
    /// - Parameters:
    ///   - searchPath: Theme directories, the first holding an id winning.
    ///   - formats: The formats asked, in order, to claim each entry.
    ///   - wanted: When given, only these themes and the parents their `inherits` chains name
    ///     are read now; the others are listed (`unread`) and read by `read(_:)`. A daemon
    ///     starts with the theme it activates, so that one large file elsewhere on the search
    ///     path cannot delay it.
    public init(
        searchPath: [String], formats: [any ThemeFormat] = ThemeFormats.all,
        readingOnly wanted: [String]? = nil
    ) {
        let scan = ThemeCatalog.scan(searchPath, formats: formats)
        for (url, why) in scan.unreadable { notes.append("\(url.path): skipped: \(why)") }
        // Aliases (`base16-ID`, `base24-ID`) go each to the first entry claiming it; a theme
        // whose own id is an alias keeps it (an own id always beats an alias).
        var reserved: [String: InstalledTheme] = [:]
        for entry in scan.entries where ThemeSource.isValidID(entry.id) {
            for alias in entry.aliases where ThemeSource.isValidID(alias) && reserved[alias] == nil {
                reserved[alias] = InstalledTheme(
                    id: alias, url: entry.url, format: entry.format, plainID: entry.id)
            }
        }
        for entry in scan.entries {
            if !ThemeSource.isValidID(entry.id) {
                notes.append(
                    "\(entry.url.path): skipped: '\(entry.id)' is not a theme id (\(ThemeSource.idRule))"
                )
            } else if let first = pending[entry.id]?.url,
                first.deletingLastPathComponent().path == entry.url.deletingLastPathComponent().path
            {
                let note =
                    "\(entry.url.path): skipped: theme '\(entry.id)' is also provided by \(first.path) in the same directory; rename one"
                notes.append(note)
                conflicts.append(note)
            } else if pending[entry.id] != nil,
                entry.aliases.contains(where: { reserved[$0]?.url == entry.url })
            {
                // A scheme shadowed by its plain id but reachable by its prefixed one
                // (`base16-default-dark`) is not skipped: no note.
                continue
            } else if let first = pending[entry.id]?.url {
                notes.append(
                    "\(entry.url.path): skipped: theme '\(entry.id)' is already provided by \(first.path)")
            } else {
                pending[entry.id] = entry
            }
        }
        // An alias of a scheme listed under its plain id names that id; the alias of a scheme
        // whose plain id another entry has is the scheme's id. Neither when a theme has the
        // alias as its own id.
        for (alias, entry) in reserved {
            if let owner = pending[alias], owner.url != entry.url {
                notes.append(
                    "\(entry.url.path): '\(alias)' is the own id of \(owner.url.path), which a theme's own id keeps; this scheme is '\(entry.plainID)' only"
                )
                continue
            }
            let plain = entry.plainID
            if pending[plain]?.url == entry.url {
                aliasTargets[alias] = plain
            } else if pending[alias] == nil {
                pending[alias] = entry
            }
        }
        if let wanted {
            for id in wanted { read(id) }
        } else {
            for (id, entry) in pending { sources[id] = ThemeCatalog.readSource(entry, id: id) }
            readEntries = pending
            pending = [:]
        }
        ids = sources.keys.sorted()
    }

    /// Whether `id` was found on the search path, read or not; an alias counts.
    public func isInstalled(_ id: String) -> Bool {
        let id = canonicalID(id)
        return sources[id] != nil || pending[id] != nil
    }

    /// The id a theme is listed under: `id` itself, or for an alias (`base16-nord`) of a
    /// scheme listed under its plain id, that id (`nord`). Every installed base16 and base24
    /// scheme is reachable by its alias (the README, "The sheet language").
    /// - Parameter id: A theme id or alias.
    /// - Returns: The listed id; `id` unchanged when it is no alias.
    public func canonicalID(_ id: String) -> String { aliasTargets[id] ?? id }

    /// The aliases that name a listed theme, each with that theme's id.
    public var aliases: [String: String] { aliasTargets }

    /// Every id found on the search path, read or not, sorted.
    public var installedIDs: [String] { (ids + pending.keys).sorted() }

    /// Ids found on the search path and not read yet, sorted.
    public var unread: [String] { pending.keys.sorted() }

    /// The installed theme listed under an id not read yet.
    public func unreadTheme(_ id: String) -> InstalledTheme? { pending[id] }

    /// Reads theme `id`, if it was found and not read yet, and the parents its `inherits` chain
    /// names.
    /// - Parameters:
    ///   - id: A theme id.
    ///   - changed: Whether a theme of the chain read before is read again when its files
    ///     changed since (`FileStamps.isCurrent` of its `files`: a `stat` of each): the daemon
    ///     keeps the active theme's chain read, and a switch to a theme sharing a parent with it
    ///     reads the parent as it is now.
    public mutating func read(_ id: String, again changed: Bool = false) {
        var next: String? = canonicalID(id)
        var steps = 0
        while let id = next, steps <= 64 {
            let source: ThemeSource
            if let entry = pending.removeValue(forKey: id) {
                source = ThemeCatalog.readSource(entry, id: id)
                sources[id] = source
                readEntries[id] = entry
            } else if let read = sources[id] {
                if changed, let entry = readEntries[id], !read.files.isCurrent {
                    source = ThemeCatalog.readSource(entry, id: id)
                    sources[id] = source
                } else {
                    source = read
                }
            } else {
                break
            }
            next = source.sheet.metadataString("inherits")
            steps += 1
        }
        ids = sources.keys.sorted()
    }

    /// Reads one entry with its format, recording the files it looks at (`ThemeSource.files`).
    private static func readSource(_ entry: InstalledTheme, id: String) -> ThemeSource {
        var (source, files) = FileStamps.recording { entry.format.read(entry.url, id: id) }
        source.files = files
        return source
    }

    /// Takes `chain`, sources read before from this catalog's entries of the same ids (a kept
    /// compile's, whose files are unchanged), as read: each replaces what is read or pending
    /// under its id, so that the catalog holds what the active theme was compiled from. An id
    /// this catalog does not list, or lists as another file (a theme of that id added earlier on
    /// the search path since the read), is left out: this catalog reads its own entry.
    /// - Parameter chain: Sources this catalog's entries gave, in any order.
    public mutating func adopt(read chain: [ThemeSource]) {
        for source in chain {
            if let entry = pending[source.id], entry.url.path == source.path {
                readEntries[source.id] = pending.removeValue(forKey: source.id)
            } else if readEntries[source.id]?.url.path != source.path {
                continue
            }
            sources[source.id] = source
        }
        ids = sources.keys.sorted()
    }

    /// Takes the themes `other` has read that this catalog found and has not read yet, so that
    /// a theme read into a copy (to compile it without holding the daemon's lock) is not read
    /// again. Themes this catalog has already read are kept.
    /// - Parameter other: A catalog of the same search path.
    public mutating func adopt(_ other: ThemeCatalog) {
        var took = false
        for (id, source) in other.sources where sources[id] == nil && pending[id] != nil {
            readEntries[id] = pending.removeValue(forKey: id)
            sources[id] = source
            took = true
        }
        if took { ids = sources.keys.sorted() }
    }

    /// Forgets every theme read except `id` and the parents its `inherits` chain names: their
    /// parsed sheets are freed and they are read again when asked for. The daemon keeps only
    /// the active theme's chain in memory, however many (and however large) the themes it has
    /// checked or switched away from.
    /// - Parameter id: The theme whose chain stays read.
    public mutating func forget(keepingChainOf id: String) {
        let id = canonicalID(id)
        var kept = Set<String>()
        var next: String? = id
        while let current = next, kept.count <= 64, kept.insert(current).inserted {
            next = sources[current]?.sheet.metadataString("inherits")
        }
        var forgot = false
        for (read, entry) in readEntries where !kept.contains(read) {
            sources[read] = nil
            pending[read] = entry
            readEntries[read] = nil
            forgot = true
        }
        if forgot { ids = sources.keys.sorted() }
    }

    /// An installed theme as the search path lists it: one entry of a theme directory (a folder
    /// or a file) and the format that claims it, found but not necessarily read.
    public struct InstalledTheme: Sendable {
        /// The id this entry is listed under: the claimed one, or an alias.
        public var id: String
        /// The theme directory's entry.
        public var url: URL
        /// The format that claimed it.
        public var format: any ThemeFormat
        /// The other ids the format gives it (`base16-ID`).
        public var aliases: [String] = []
        /// The id the format claimed (`id` is an alias when the catalog lists it so).
        public var plainID: String

        /// An entry listed under `id`, claimed as `plainID` (the same by default).
        public init(
            id: String, url: URL, format: any ThemeFormat, aliases: [String] = [], plainID: String? = nil
        ) {
            self.id = id
            self.url = url
            self.format = format
            self.aliases = aliases
            self.plainID = plainID ?? id
        }
    }

    /// The entries of the search path's directories, in search order, each claimed by the first
    /// format that reads it; nothing is read yet. The same directory named twice (`themes` and
    /// `/abs/themes`) is listed once.
    public static func entries(_ searchPath: [String], formats: [any ThemeFormat] = ThemeFormats.all)
        -> [InstalledTheme]
    {
        scan(searchPath, formats: formats).entries
    }

    /// Folders of themes followed below a theme directory, at most: `tinted/base16/x.yaml` is two
    /// deep. Live reload watches three levels (`WatchPlan.treeDepth`), so a bundle's own folders
    /// in the deepest theme folder are watched too.
    public static let folderDepth = 2

    /// `entries`, and the directories no format claimed because they cannot be read, with why
    /// (`cannot be read: Permission denied`).
    ///
    /// A directory no format claims (no `theme.css`: not a bundle) is a folder of themes, as the
    /// tinted-theming collection's `base16/` is: its entries are themes of the same directory,
    /// `folderDepth` folders deep at most, each folder (links resolved) scanned once.
    static func scan(_ searchPath: [String], formats: [any ThemeFormat])
        -> (entries: [InstalledTheme], unreadable: [(URL, String)])
    {
        let fm = FileManager.default
        var scanned = Set<String>()
        var out: [InstalledTheme] = []
        var unreadable: [(URL, String)] = []
        func scanFolder(_ dir: String, depth: Int) {
            guard scanned.insert(BundleFiles.realPath(dir) ?? dir).inserted,
                let names = try? fm.contentsOfDirectory(atPath: dir)
            else { return }
            for name in names.sorted() where !name.hasPrefix(".") {
                let url = URL(fileURLWithPath: dir).appendingPathComponent(name)
                var isDir: ObjCBool = false
                guard fm.fileExists(atPath: url.path, isDirectory: &isDir) else { continue }
                var claimed = false
                for format in formats {
                    guard let id = format.claim(url, isDirectory: isDir.boolValue) else { continue }
                    out.append(
                        InstalledTheme(id: id, url: url, format: format, aliases: format.aliases(url, id: id))
                    )
                    claimed = true
                    break
                }
                guard !claimed, isDir.boolValue else { continue }
                if let why = BundleFiles.unreadableDirectory(url.path) {
                    unreadable.append((url, why))
                } else if depth < ThemeCatalog.folderDepth {
                    scanFolder(url.path, depth: depth + 1)
                }
            }
        }
        for dir in searchPath { scanFolder(dir, depth: 0) }
        return (out, unreadable)
    }

    /// Makes a catalog of the given sources (for tests and `livery check`).
    /// - Parameters:
    ///   - sources: The themes; the first of an id wins.
    ///   - otherIDs: Ids of themes installed but not given, suggested for a misspelt `inherits`.
    public init(sources: [ThemeSource], otherIDs: [String] = []) {
        for s in sources where self.sources[s.id] == nil { self.sources[s.id] = s }
        ids = self.sources.keys.sorted()
        self.otherIDs = otherIDs
    }

    /// Adds a source unless its id is taken.
    public mutating func add(_ source: ThemeSource) {
        guard sources[source.id] == nil else { return }
        sources[source.id] = source
        ids = sources.keys.sorted()
    }

    /// The theme's `inherits` chain, root ancestor first.
    /// - Parameter id: The theme's id.
    /// - Returns: the chain, or the diagnostic for an unknown parent or a cycle.
    public func chain(for id: String) -> Result<[ThemeSource], Diagnostic> {
        let id = canonicalID(id)
        guard var current = sources[id] else {
            return .failure(
                Diagnostic(.error, "unknown theme '\(id)'", at: SourceLocation(file: id, line: 1, column: 1)))
        }
        var chain = [current]
        var seen: Set<String> = [id]
        while let parent = current.sheet.metadataString("inherits") {
            let decl = current.sheet.metadata.last { $0.property == "inherits" }!
            guard let next = sources[parent] else {
                return .failure(
                    Diagnostic(
                        .error,
                        "'\(current.id)' inherits unknown theme '\(parent)'\(didYouMean(parent, ids + otherIDs))",
                        at: decl.value[0].location, sourceLine: decl.sourceLine))
            }
            guard seen.insert(parent).inserted else {
                return .failure(
                    Diagnostic(
                        .error, "theme '\(parent)' inherits itself (an inherits cycle)",
                        at: decl.value[0].location, sourceLine: decl.sourceLine))
            }
            chain.append(next)
            current = next
        }
        return .success(chain.reversed())
    }

    /// Compiles a theme with its ancestors and, when given, the user's overrides.
    /// - Parameters:
    ///   - id: The theme's id.
    ///   - schema: The base schema, before the sheets' `@component` types.
    ///   - overrides: The user's overrides sheet, or nil.
    ///   - timeLimit: The longest checking the rules may take (see
    ///     ``ThemeCompiler/compile(chain:overrides:schema:timeLimit:pictures:)``); nil for no bound.
    ///   - pictures: what reads palette pictures (`palette-from`).
    /// - Returns: The theme, or nil when there is any error (a broken chain included); and every
    ///   diagnostic.
    public func compile(
        _ id: String, schema: Schema, overrides: Stylesheet? = nil, timeLimit: Duration? = nil,
        pictures: PalettePictures? = nil
    )
        -> (theme: CompiledTheme?, diagnostics: [Diagnostic])
    {
        let id = canonicalID(id)
        switch chain(for: id) {
        case .failure(let d):
            // Still report the theme's own errors alongside the broken chain.
            return (nil, (sources[id]?.sheet.diagnostics ?? []) + [d])
        case .success(let chain):
            return ThemeCompiler.compile(
                chain: chain, overrides: overrides, schema: schema, timeLimit: timeLimit, pictures: pictures)
        }
    }

    /// `variantWarnings(chain:installed:)` against the themes this catalog lists; the sorted list
    /// of every id (for a suggestion) is made only when there is a warning to give, since the
    /// daemon asks at every switch.
    /// - Parameter chain: The theme's `inherits` chain, root ancestor first.
    /// - Returns: One warning per key naming a theme not listed.
    public func variantWarnings(chain: [ThemeSource]) -> [Diagnostic] {
        let unlisted = ["dark-variant", "light-variant"].contains { key in
            guard
                let target = chain.last(where: { $0.sheet.metadataString(key) != nil })?.sheet.metadataString(
                    key)
            else { return false }
            return sources[target] == nil && pending[target] == nil
        }
        return unlisted ? ThemeCatalog.variantWarnings(chain: chain, installed: installedIDs) : []
    }

    /// Warnings for a `dark-variant` or `light-variant` naming a theme that is not installed:
    /// not an error (the theme works; `Toggle` then fails), but surely a mistake.
    /// - Parameters:
    ///   - chain: The theme's `inherits` chain, root ancestor first; the nearest declaration wins.
    ///   - installed: The ids installed.
    /// - Returns: One warning per such key, at its value.
    public static func variantWarnings(chain: [ThemeSource], installed: [String]) -> [Diagnostic] {
        let known = Set(installed)
        var out: [Diagnostic] = []
        for key in ["dark-variant", "light-variant"] {
            guard let source = chain.last(where: { $0.sheet.metadataString(key) != nil }),
                let target = source.sheet.metadataString(key), !known.contains(target),
                let decl = source.sheet.metadata.last(where: { $0.property == key })
            else { continue }
            out.append(
                Diagnostic(
                    .warning,
                    "'\(key)' names theme '\(target)', which is not installed\(didYouMean(target, installed))",
                    at: decl.value[0].location, sourceLine: decl.sourceLine))
        }
        return out
    }
}
