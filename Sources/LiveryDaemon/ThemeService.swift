import CMalloc
import Foundation
import LiveryAPI
import LiveryCore
import Synchronization

/// The daemon's model, free of D-Bus: the installed themes, the active one, the serial, and the
/// operations of the `org.livery.Livery1` interface. The D-Bus layer (`LiveryInterface`) maps
/// calls onto it and publishes the `Change`s it returns.
///
/// Safe to share between threads: its changing state is one `State` behind a `Mutex`, which is
/// never held while a file is read or a theme compiled; switches (`setTheme`, `toggle`,
/// `reload`) are made one at a time under `switching`.
public final class ThemeService: Sendable {
    /// Configuration: where themes, schema, state and overrides live.
    public struct Configuration: Sendable {
        /// Directories searched for theme bundles, in order; the first holding an id wins.
        public var searchPath: [String]
        /// The schema file; nil means the first `schema.json` on the search path.
        public var schemaFile: String?
        /// Where the active theme is saved, normally `$XDG_STATE_HOME/livery/state.json`.
        public var stateFile: String
        /// The user's overrides sheet, normally `$XDG_CONFIG_HOME/livery/overrides.css`.
        public var overridesFile: String
        /// The theme used when no valid theme was saved.
        public var fallbackTheme = "default"
        /// The light and dark themes and the schedule (`VariantConfig`), normally
        /// `$XDG_CONFIG_HOME/livery/config.yaml`; nil for none.
        public var configFile: String?
        /// Whether a switch leaves saving the active theme to `savePending()`, which the bus
        /// interface calls after publishing and before replying: the fsync of the save then
        /// comes after the watchers' `Changed` is queued, not before it. Off: a switch saves
        /// before it returns.
        public var savesAfterPublishing = false
        /// The formats themes are read with, asked again at every scan of the search path (a
        /// plugin's outside format takes effect at the next reload).
        public var formats: @Sendable () -> [any ThemeFormat] = { ThemeFormats.all }

        /// A configuration with the fallback theme `default`.
        public init(searchPath: [String], schemaFile: String? = nil, stateFile: String, overridesFile: String)
        {
            self.searchPath = searchPath
            self.schemaFile = schemaFile
            self.stateFile = stateFile
            self.overridesFile = overridesFile
        }
    }

    /// One installed theme as `ListThemes` reports it.
    public struct Listing: Sendable {
        /// The theme's metadata, ancestors' values filled in.
        public var metadata: ThemeMetadata
        /// Whether the theme compiles without errors and so can be activated.
        public var valid: Bool
        /// Rendered one-line diagnostics (`file:line:col: error: …`).
        public var errors: [String]
        /// Whether the theme has been compiled yet: themes are checked away from the bus thread
        /// after start-up and after each reload, and until then are listed with `valid` false,
        /// no errors, and what the directory entry tells (id, path, format).
        public var checked = true
    }

    /// A published change: the new active theme and serial.
    public struct Change: Sendable, Equatable {
        /// The id of the theme now active.
        public var theme: String
        /// The serial after the change; it grows by one with each published change.
        public var serial: UInt32
        /// Images (absolute paths) whose files changed on disk under an unchanged path: values
        /// naming them count as changed for subscribers, so that they load the new picture.
        public var editedImages: Set<String> = []
    }

    /// Where themes, schema, state and overrides live, as given at start.
    public let configuration: Configuration
    /// Where the service writes its messages.
    public let log: Log
    /// Held for the whole of a switch (reading, compiling, committing), so that two switches
    /// never interleave; `state` is locked only to read and to commit.
    private let switching = Mutex(())
    private let schema: Schema
    private let store: StateStore
    private let state: Mutex<State>
    /// Signalled when a pass of checks ends, for `waitUntilChecked` (a `Mutex` cannot be waited
    /// on).
    private let checkedCondition = NSCondition()

    /// Everything that changes, behind `state`.
    private struct State {
        var catalog: ThemeCatalog
        var listings: [String: Listing] = [:]
        var activeID: String
        var cascade: Cascade
        var fingerprint: String
        /// The indexes of the last few themes made active, the active one's included.
        var prepared = PreparedCascades()
        /// The active theme's images with the identity of their files (`imageIdentities`).
        var images: [String: String]
        var serialNumber: UInt32 = 0
        var currentProblems: [String] = []
        /// Why the last switch to a variant (`setVariant`, `toggle`) failed, until a switch
        /// succeeds: a schedule or darkman's `Mode` asks for it with nobody to read the error.
        var variantSwitchFailure: String?
        /// Why the active theme could not be saved, until a save succeeds.
        var saveProblem: String?
        /// The theme a switch made active and `savePending()` has not saved yet.
        var pendingSave: String?
        /// Bumped by each scan: a check of an older scan stops and stores nothing.
        var scanGeneration = 0
        var allChecked = false
        /// Whether the checker thread runs (there is at most one).
        var checkerRunning = false
        /// The catalog notes logged so far: each is logged once, by whichever scan (a reload's
        /// or the checker's) sees it first.
        var loggedNotes: Set<String> = []
        /// Checker threads started so far (for tests: one per reload is the bug this prevents).
        var checkerThreadsStarted = 0

        /// The active theme's declared siblings that are not installed.
        var variantProblems: [String] {
            guard case .success(let chain) = catalog.chain(for: activeID) else { return [] }
            return ThemeCatalog.variantWarnings(chain: chain, installed: catalog.installedIDs).map(
                \.description)
        }
    }

    /// Loads the schema and the catalog and activates the saved theme, or the fallback with a
    /// warning when the saved one is missing or broken.
    /// - Parameters:
    ///   - configuration: Where themes, schema, state and overrides live.
    ///   - log: Where to write warnings and notices.
    /// - Throws: `ServiceError` when the schema cannot be read or no theme at all is valid.
    public init(configuration: Configuration, log: Log = Log()) throws {
        self.configuration = configuration
        self.log = log
        self.store = StateStore(path: configuration.stateFile)
        store.removeStaleTemporaryFiles()
        let schemaPath = configuration.schemaFile ?? Paths.schemaFile(on: configuration.searchPath)
        guard let schemaPath else {
            throw ServiceError(
                .invalidTheme,
                "no schema.json on the theme search path (\(configuration.searchPath.joined(separator: ":")))"
            )
        }
        do { schema = try Schema.load(from: URL(fileURLWithPath: schemaPath)) } catch {
            throw ServiceError(.invalidTheme, "\(error)")
        }
        let start: Start
        do {
            start = try ThemeService.startingTheme(configuration, store: store, schema: schema, log: log)
        } catch {
            if schema.types.isEmpty {
                throw ServiceError(
                    .invalidTheme,
                    "\(schemaPath): the schema has no component types, so no theme can be valid")
            }
            throw error
        }
        let cascade = Cascade(theme: start.theme)
        let print = ThemeService.fingerprint(start.theme)
        var initial = State(
            catalog: start.catalog, activeID: start.id, cascade: cascade, fingerprint: print,
            images: ThemeService.imageIdentities(start.theme), currentProblems: start.problems,
            loggedNotes: Set(start.catalog.notes))
        initial.prepared.keep(cascade, for: ThemeService.preparedKey(print, start.theme))
        state = Mutex(initial)
        log(.info, "active theme '\(start.id)' (\(start.catalog.installedIDs.count) themes installed)")
        startChecking()
    }

    /// The theme a service starts with, read and compiled, with the catalog it was read into.
    private struct Start {
        var catalog: ThemeCatalog
        var id: String
        var theme: CompiledTheme
        /// The overrides' problems.
        var problems: [String]
    }

    /// Chooses the theme to start with: the one `state.json` names, else the fallback, else the
    /// first valid installed theme in id order. The catalog's notes are logged unless
    /// `logged` has them.
    /// - Throws: `ServiceError` `InvalidTheme` when no theme is valid.
    private static func startingTheme(
        _ configuration: Configuration, store: StateStore, schema: Schema, log: Log, logged: Set<String> = []
    ) throws(ServiceError) -> Start {
        let overrides = ThemeService.readOverrides(configuration.overridesFile, log: log)
        // Only the themes tried are read and compiled here; the rest are read and checked away
        // from the bus thread once the daemon serves (`startChecking`).
        let candidates = ThemeService.savedThenFallback(configuration, store: store, log: log)
        var catalog = ThemeCatalog(
            searchPath: configuration.searchPath, formats: configuration.formats(), readingOnly: candidates)
        for note in catalog.notes where !logged.contains(note) { log(.notice, note) }
        let chosen = ThemeService.firstValid(
            of: candidates, in: &catalog, schema: schema, overrides: overrides, configuration: configuration,
            log: log)
        guard let (id, theme, problems) = chosen else {
            throw ServiceError(
                .invalidTheme,
                "no valid theme on the search path (\(configuration.searchPath.joined(separator: ":")))")
        }
        catalog.forget(keepingChainOf: id)
        return Start(catalog: catalog, id: id, theme: theme, problems: problems)
    }

    /// Starts again from the theme `state.json` names now, chosen as at start-up, when it is not
    /// the active one: another instance may have saved switches since this service read the
    /// file (`liveryd --replace`, the README's "Replacing a running liveryd"). Nothing is
    /// published and the serial stays: call it before the service is served.
    public func restoreSavedTheme() {
        switching.withLock { _ in
            let active = state.withLock { $0.activeID }
            guard let saved = try? store.load().theme, saved != active else { return }
            let logged = state.withLock { $0.loggedNotes }
            let start: Start
            do throws(ServiceError) {
                start = try ThemeService.startingTheme(
                    configuration, store: store, schema: schema, log: log, logged: logged)
            } catch {
                log(
                    .error,
                    "cannot start from the saved theme '\(saved)': \(error.message); keeping '\(active)'")
                return
            }
            let cascade = Cascade(theme: start.theme)
            let print = ThemeService.fingerprint(start.theme)
            let images = ThemeService.imageIdentities(start.theme)
            state.withLock { s in
                s.catalog = start.catalog
                s.activeID = start.id
                s.cascade = cascade
                s.fingerprint = print
                s.images = images
                s.currentProblems = start.problems
                s.loggedNotes.formUnion(start.catalog.notes)
                s.prepared.keep(cascade, for: ThemeService.preparedKey(print, start.theme))
            }
            log(.info, "active theme '\(start.id)', as the replaced instance saved it")
        }
    }

    /// The themes to try at start-up, in order: the saved one (a warning in `log` when the
    /// state file exists but cannot be read), then the fallback.
    private static func savedThenFallback(_ configuration: Configuration, store: StateStore, log: Log)
        -> [String]
    {
        var candidates: [String] = []
        do {
            candidates.append(try store.load().theme)
        } catch {
            if FileManager.default.fileExists(atPath: configuration.stateFile) {
                log(.warning, "\(error); using '\(configuration.fallbackTheme)'")
            }
        }
        return candidates + [configuration.fallbackTheme]
    }

    /// The first of `candidates` that compiles, else the first valid installed theme in id
    /// order, read into `catalog`; logs why the saved theme (the first candidate) was passed
    /// over.
    /// - Returns: its id, the compiled theme and the overrides' problems; nil when none is valid.
    private static func firstValid(
        of candidates: [String], in catalog: inout ThemeCatalog, schema: Schema, overrides: Stylesheet?,
        configuration: Configuration, log: Log
    ) -> (String, CompiledTheme, [String])? {
        var candidates = candidates
        var tried = 0
        while true {
            if tried == candidates.count {
                // Neither the saved theme nor the fallback: any valid one, in id order.
                let more = catalog.installedIDs.filter { !candidates.contains($0) }
                guard !more.isEmpty else { return nil }
                candidates += more
            }
            let (i, id) = (tried, candidates[tried])
            tried += 1
            catalog.read(id)
            if let built = build(id, catalog: catalog, schema: schema, overrides: overrides, log: log) {
                return (id, built.0, built.1)
            }
            if i == 0 && catalog.sources[id] == nil {
                log(
                    .warning,
                    "saved theme '\(id)' is not installed; falling back to '\(configuration.fallbackTheme)'")
            } else if i == 0 {
                log(
                    .warning,
                    "saved theme '\(id)' has errors; falling back to '\(configuration.fallbackTheme)'")
            }
        }
    }

    // MARK: Checking installed themes

    /// Reads every installed theme and compiles each for `listThemes`, on a thread of its own:
    /// the bus keeps being answered however large or hostile the files on the search path are.
    /// Each theme's listing is stored as soon as it is checked; a newer scan (a reload) makes
    /// this one stop.
    private func startChecking() {
        // One checker at a time: a reload while one runs only bumps the generation, and the
        // running checker starts over with the new scan after the theme it is checking (a
        // checker per reload made live reload of a directory being written, one reload a
        // second, hold dozens of large compiles at once: 4 GB).
        let startThread: Bool = state.withLock { s in
            s.scanGeneration += 1
            s.allChecked = false
            if s.checkerRunning { return false }
            s.checkerRunning = true
            s.checkerThreadsStarted += 1
            return true
        }
        guard startThread else { return }
        let thread = Thread { [weak self] in
            while let self {
                let generation = self.state.withLock { $0.scanGeneration }
                let finished = self.checkAll(generation: generation)
                let again: Bool = self.state.withLock { s in
                    guard generation == s.scanGeneration else { return true }
                    if finished { s.allChecked = true }
                    s.checkerRunning = false
                    return false
                }
                ThemeService.returnFreedMemory()
                if again { continue }
                self.checkedCondition.lock()
                self.checkedCondition.broadcast()
                self.checkedCondition.unlock()
                return
            }
        }
        thread.name = "livery-check"
        thread.start()
    }

    /// One pass of checks for scan `generation`: the search path scanned, then each installed
    /// theme read alone, compiled and its listing stored.
    /// - Returns: whether every theme was checked (false when a newer scan began meanwhile).
    private func checkAll(generation: Int) -> Bool {
        // Scanned, nothing read: each theme is read for its check and freed after it.
        let scanned = ThemeCatalog(
            searchPath: configuration.searchPath, formats: configuration.formats(), readingOnly: [])
        let fresh: Bool = state.withLock { s in
            guard generation == s.scanGeneration else { return false }
            // The new scan replaces the old one, with the active theme's chain as read.
            for note in scanned.notes where s.loggedNotes.insert(note).inserted { self.log(.notice, note) }
            var current = scanned
            current.adopt(s.catalog)
            current.forget(keepingChainOf: s.activeID)
            s.catalog = current
            return true
        }
        guard fresh else { return false }
        for id in scanned.installedIDs {
            var one = scanned
            one.read(id)
            guard one.sources[id] != nil else { continue }
            let listing = ThemeService.listing(id, catalog: one, schema: schema)
            let current: Bool = state.withLock { s in
                guard generation == s.scanGeneration else { return false }
                s.listings[id] = listing
                return true
            }
            guard current else { return false }
        }
        return true
    }

    /// Checker threads started since the service was made.
    var checkerThreadsStarted: Int { state.withLock { $0.checkerThreadsStarted } }

    /// Waits until every installed theme of the latest scan has been checked.
    /// - Parameter timeout: The longest wait, in seconds.
    /// - Returns: Whether all were checked in time.
    @discardableResult
    public func waitUntilChecked(timeout: Double = 30) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        checkedCondition.lock()
        defer { checkedCondition.unlock() }
        while !state.withLock({ $0.allChecked }) {
            guard checkedCondition.wait(until: deadline) else { return state.withLock { $0.allChecked } }
        }
        return true
    }

    // MARK: Reading

    /// The active theme's id.
    public var activeTheme: String { state.withLock { $0.activeID } }
    /// The active theme's variant, `light` or `dark`.
    public var activeVariant: String { state.withLock { $0.cascade.theme.metadata.variant } }
    /// The number of published changes so far.
    public var serial: UInt32 { state.withLock { $0.serialNumber } }
    /// Problems the user should see: a broken overrides file, an active theme whose newer version
    /// on disk does not validate.
    /// Also two bundles of one id in one directory, a declared `dark-variant` /
    /// `light-variant` of the active theme that is not installed, and why the last switch to a
    /// variant failed (until a switch succeeds).
    public var problems: [String] {
        state.withLock { s in
            let failures = [s.variantSwitchFailure, s.saveProblem].compactMap { $0 }
            return s.currentProblems + s.catalog.conflicts + s.variantProblems + failures
        } + configProblem
    }

    /// The active compiled theme.
    public var activeCascade: Cascade { state.withLock { $0.cascade } }

    /// The active compiled theme and the serial of the change that made it active, read together.
    public var published: (cascade: Cascade, serial: UInt32) {
        state.withLock { ($0.cascade, $0.serialNumber) }
    }

    /// Every property of `path`'s type for `app` in `cascade`, as `Watch` and `Changed` carry
    /// them.
    /// - Throws: as `resolve`.
    public static func values(of path: String, app: String?, in cascade: Cascade) throws(ServiceError)
        -> [String: Value]
    {
        let pairs = try resolve(path, properties: [], app: app, in: cascade)
        return Dictionary(pairs.map { ($0.property, $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    /// Every installed theme that can be made active, sorted by id: abstract themes (`abstract:
    /// true`, there only to be inherited) are left out once checked.
    public func listThemes() -> [Listing] {
        state.withLock { s in
            s.catalog.installedIDs.compactMap { id in
                let listing =
                    s.listings[id]
                    ?? ThemeService.unchecked(id, s.catalog.sources[id], s.catalog.unreadEntry(id))
                return listing.metadata.abstract ? nil : listing
            }
        }
    }

    /// Values resolved for one component, with the theme generation they came from: a
    /// collection of (property, value) pairs in the order asked.
    public struct Resolution: RandomAccessCollection, Sendable {
        /// (property, value) pairs in the order asked, each name once.
        public let values: [(property: String, value: Value)]
        /// The compiled theme they were resolved in (`Cascade.generation`): replies cached
        /// under it are valid while `generation` is the same object.
        public let generation: AnyObject & Sendable

        public var startIndex: Int { values.startIndex }
        public var endIndex: Int { values.endIndex }
        public subscript(i: Int) -> (property: String, value: Value) { values[i] }
    }

    /// The active theme's generation (`Cascade.generation`), the key of caches of its answers.
    public var generation: AnyObject & Sendable { activeCascade.generation }

    /// Resolves properties of one component in the active theme.
    /// - Parameters:
    ///   - path: `Type#name.class:state/…`, at most `Limits.pathBytes` bytes and
    ///     `Limits.pathSegments` segments.
    ///   - properties: names; empty for every property of the type; at most
    ///     `Limits.propertiesPerCall`.
    ///   - app: the asking application's id for `@app` blocks.
    /// - Returns: (property, value) pairs in the order asked, and the generation of the theme
    ///   they were resolved in.
    /// - Throws: `ServiceError` `InvalidPath`, `UnknownProperty` or `LimitExceeded`.
    public func resolve(_ path: String, properties: [String], app: String?) throws(ServiceError) -> Resolution
    {
        let c = activeCascade
        return Resolution(
            values: try ThemeService.resolve(path, properties: properties, app: app, in: c),
            generation: c.generation)
    }

    /// Explains how one property of one component was resolved in the active theme.
    /// - Parameters:
    ///   - path: `Type#name.class:state/…`, within the limits of `resolve`.
    ///   - property: One property name.
    ///   - app: the asking application's id for `@app` blocks.
    /// - Returns: Every matching declaration in cascade order, and the value with its origin.
    /// - Throws: as `resolve`.
    public func explain(_ path: String, property: String, app: String?) throws(ServiceError) -> Explanation {
        let c = activeCascade
        try ThemeService.checkLimits(path, properties: [property], app: app)
        let parsed: ComponentPath
        do { parsed = try ComponentPath(path, schema: c.theme.schema) } catch {
            throw ServiceError(.invalidPath, "\(error)")
        }
        do { return try c.explain(parsed, property: property, app: app) } catch {
            throw ServiceError(.unknownProperty, error.description)
        }
    }

    /// Resolves several paths against one snapshot of the active theme, keyed by the paths as
    /// given (for subscriptions).
    /// - Parameters:
    ///   - paths: Component paths, each within the limits of `resolve`.
    ///   - properties: Names asked for every path; empty for every property of each type.
    ///   - app: the asking application's id for `@app` blocks.
    /// - Returns: Per path, each property's value.
    /// - Throws: as `resolve`.
    public func snapshot(paths: [String], properties: [String], app: String?) throws(ServiceError)
        -> StyleSnapshot
    {
        try collect(paths: paths, properties: properties, app: app, skippingUnresolvable: false)
    }

    /// Like `snapshot`, but leaves out the paths that do not resolve in the active theme (for
    /// subscriptions after a switch: a path may name a component type only the old theme had).
    /// - Parameters: as `snapshot`.
    /// - Returns: Per path that resolves, each property's value.
    public func resolvableSnapshot(paths: [String], properties: [String], app: String?) -> StyleSnapshot {
        (try? collect(paths: paths, properties: properties, app: app, skippingUnresolvable: true)) ?? [:]
    }

    /// `snapshot` and `resolvableSnapshot`: every path against one snapshot of the active theme.
    private func collect(paths: [String], properties: [String], app: String?, skippingUnresolvable: Bool)
        throws(ServiceError) -> StyleSnapshot
    {
        let c = activeCascade
        var out: StyleSnapshot = [:]
        for path in paths {
            let pairs: [(property: String, value: Value)]
            do { pairs = try ThemeService.resolve(path, properties: properties, app: app, in: c) } catch {
                if skippingUnresolvable { continue }
                throw error
            }
            out[path] = Dictionary(
                pairs.map { ($0.property, $0.value) }, uniquingKeysWith: { first, _ in first })
        }
        return out
    }

    /// Resolves a batch against one snapshot of the active theme, so that a switch cannot fall
    /// between two items.
    /// - Parameters:
    ///   - items: Paths with the properties asked for each, as in `resolve`.
    ///   - app: the asking application's id for `@app` blocks.
    /// - Returns: Per item, (property, value) pairs in the order asked.
    /// - Throws: as `resolve` (the message naming the item), and `LimitExceeded` past
    ///   `Limits.resolveManyItems` items.
    public func resolveMany(_ items: [(path: String, properties: [String])], app: String?)
        throws(ServiceError)
        -> [[(property: String, value: Value)]]
    {
        guard items.count <= Limits.resolveManyItems else {
            throw ServiceError(
                .limitExceeded, "\(items.count) items; ResolveMany takes at most \(Limits.resolveManyItems)")
        }
        let c = activeCascade
        var out: [[(property: String, value: Value)]] = []
        for (i, item) in items.enumerated() {
            do {
                out.append(try ThemeService.resolve(item.path, properties: item.properties, app: app, in: c))
            } catch {
                throw ServiceError(error.kind, "item \(i): \(error.message)")
            }
        }
        return out
    }

    private static func resolve(_ path: String, properties: [String], app: String?, in c: Cascade)
        throws(ServiceError)
        -> [(property: String, value: Value)]
    {
        try checkLimits(path, properties: properties, app: app)
        let parsed: ComponentPath
        do { parsed = try ComponentPath(path, schema: c.theme.schema) } catch {
            throw ServiceError(.invalidPath, "\(error)")
        }
        // A name asked twice is answered once: the reply is a dictionary.
        var seen = Set<String>()
        let unique = properties.filter { seen.insert($0).inserted }
        do { return try c.resolve(parsed, properties: unique, app: app) } catch {
            switch error {
            case .unknownProperty: throw ServiceError(.unknownProperty, error.description)
            case .unknownType: throw ServiceError(.invalidPath, error.description)
            }
        }
    }

    /// The limits the README states for one path and its property list, and the length of each
    /// property name and of the application id (`Limits.identifierBytes`).
    static func checkLimits(_ path: String, properties: [String], app: String?) throws(ServiceError) {
        guard path.utf8.count <= Limits.pathBytes else {
            throw ServiceError(
                .limitExceeded, "path is \(path.utf8.count) bytes; the limit is \(Limits.pathBytes)")
        }
        let segments = path.utf8.reduce(1) { $0 + ($1 == UInt8(ascii: "/") ? 1 : 0) }
        guard segments <= Limits.pathSegments else {
            throw ServiceError(
                .limitExceeded, "path has \(segments) segments; the limit is \(Limits.pathSegments)")
        }
        guard properties.count <= Limits.propertiesPerCall else {
            throw ServiceError(
                .limitExceeded,
                "\(properties.count) properties; the limit is \(Limits.propertiesPerCall) per call")
        }
        if let app, app.utf8.count > Limits.identifierBytes {
            throw ServiceError(
                .limitExceeded, "application id is longer than \(Limits.identifierBytes) bytes")
        }
        if let long = properties.first(where: { $0.utf8.count > Limits.identifierBytes }) {
            throw ServiceError(
                .limitExceeded,
                "property name is \(long.utf8.count) bytes; the limit is \(Limits.identifierBytes)")
        }
    }

    // MARK: Changing

    /// Validates, activates and saves a theme.
    /// - Parameter id: The theme id.
    /// - Returns: the change to publish, or nil when the theme was already active and unchanged.
    /// - Throws: `UnknownTheme` when no such theme is installed, `InvalidTheme` (with the first
    ///   diagnostics) when it has errors; the active theme is then unchanged.
    public func setTheme(_ id: String) throws(ServiceError) -> Change? {
        guard id.utf8.count <= Limits.identifierBytes else {
            throw ServiceError(.limitExceeded, "theme id is longer than \(Limits.identifierBytes) bytes")
        }
        return try switching.withLock { _ throws(ServiceError) in
            let change = try switchTo(id)
            state.withLock { $0.variantSwitchFailure = nil }
            return change
        }
    }

    /// Switches to the active theme's sibling of the other variant, atomically (no get-then-set
    /// race between two callers), as `setVariant` finds it.
    /// - Returns: the new theme's id and the change to publish.
    /// - Throws: as `setVariant`.
    public func toggle() throws(ServiceError) -> (theme: String, change: Change?) {
        try switching.withLock { _ throws(ServiceError) in
            let variant = state.withLock { $0.cascade.theme.metadata.variant }
            return try switchRecordingProblem(to: variant == "dark" ? "light" : "dark")
        }
    }

    /// Switches to the theme of `variant`, atomically: nothing when the active theme is of that
    /// variant already; else the theme `config.yaml` names for it, the active theme's declared
    /// `light-variant` / `dark-variant`, or the first installed theme of that variant the naming
    /// rule finds (`VariantPairs`).
    /// - Parameter variant: `dark` or `light`.
    /// - Returns: the active theme's id afterwards and the change to publish (nil for none).
    /// - Throws: `UnknownTheme` when no theme of that variant is found (the message says what was
    ///   tried); `InvalidTheme` when the one found has errors or is of the same variant. The
    ///   failure stays in `problems` until a switch succeeds.
    public func setVariant(_ variant: String) throws(ServiceError) -> (theme: String, change: Change?) {
        try switching.withLock { _ throws(ServiceError) in try switchRecordingProblem(to: variant) }
    }

    /// `switchVariant`, keeping its failure in `problems` until a switch succeeds; called with
    /// `switching` held.
    private func switchRecordingProblem(to variant: String) throws(ServiceError) -> (
        theme: String, change: Change?
    ) {
        do {
            let done = try switchVariant(to: variant)
            state.withLock { $0.variantSwitchFailure = nil }
            return done
        } catch {
            state.withLock {
                $0.variantSwitchFailure = "cannot switch to the \(variant) variant: \(error.message)"
            }
            throw error
        }
    }

    /// The problems of `config.yaml`, shown in `Problems` until they are fixed: its errors (its
    /// light and dark themes are then not used), and a light or dark theme it names that is not
    /// installed.
    var configProblem: [String] {
        guard let file = configuration.configFile, let loaded = VariantConfig.load(file) else { return [] }
        switch loaded {
        case .failure(let e):
            return e.diagnostics.map { $0.description } + [
                "\(file) has errors: its light and dark themes are not used"
            ]
        case .success(let config):
            let catalog = state.withLock { $0.catalog }
            return ["light", "dark"].compactMap { variant in
                guard let id = config.theme(for: variant), !catalog.isInstalled(id) else { return nil }
                return "\(file) names '\(id)' as the \(variant) theme, but no theme '\(id)' is installed"
            }
        }
    }

    /// `setVariant`, with `switching` held.
    private func switchVariant(to wanted: String) throws(ServiceError) -> (theme: String, change: Change?) {
        let (meta, known, catalog) = state.withLock { s in (s.cascade.theme.metadata, s.listings, s.catalog) }
        if meta.variant == wanted { return (meta.id, nil) }
        var config = VariantConfig()
        var configBroken = false
        if let file = configuration.configFile {
            switch VariantConfig.load(file) {
            case .success(let c)?: config = c
            case .failure?: configBroken = true
            case nil: break
            }
        }
        // The variant of an installed theme: from its last check, or read now.
        func variant(of id: String) -> String? {
            if let listing = known[id] { return listing.metadata.variant }
            var reading = catalog
            reading.read(id)
            guard reading.sources[id] != nil else { return nil }
            return ThemeService.listing(id, catalog: reading, schema: schema).metadata.variant
        }
        if let configured = config.theme(for: wanted), configured != meta.id {
            guard catalog.isInstalled(configured) else {
                throw ServiceError(
                    .unknownTheme,
                    "config.yaml names '\(configured)' as the \(wanted) theme, but no theme '\(configured)' is installed"
                )
            }
            return (configured, try switchTo(configured))
        }
        let declared = wanted == "light" ? meta.lightVariant : meta.darkVariant
        if let declared, declared != meta.id, catalog.isInstalled(declared) {
            if let v = variant(of: declared), v != wanted {
                throw ServiceError(
                    .invalidTheme,
                    "theme '\(meta.id)' names '\(declared)' as its other variant, but '\(declared)' is \(v) too"
                )
            }
            return (declared, try switchTo(declared))
        }
        let candidates = VariantPairs.candidates(for: meta.id, variant: meta.variant)
        for id in candidates where catalog.isInstalled(id) && variant(of: id) == wanted {
            return (id, try switchTo(id))
        }
        let tried = candidates.prefix(6).map { "'\($0)'" }.joined(separator: ", ")
        throw ServiceError(
            .unknownTheme,
            "no \(wanted) theme for '\(meta.id)' (\(meta.variant)): none of \(tried) is installed and \(wanted); "
                + (configBroken
                    ? "~/.config/livery/config.yaml has errors and is not used (livery status shows them)"
                    : "name one in ~/.config/livery/config.yaml ('\(wanted): ID')")
                + (meta.format == "native" ? " or declare '\(wanted)-variant' in its @theme" : ""))
    }

    /// Reads and compiles theme `id` with `lock` not held, then makes it active; called with
    /// `switching` held, so the active theme cannot change in between.
    private func switchTo(_ requested: String) throws(ServiceError) -> Change? {
        var steps = SwitchSteps()
        var catalog = state.withLock { $0.catalog }
        // An alias (`base16-nord`) activates the scheme it names, listed under its own id.
        let id = catalog.canonicalID(requested)
        catalog.read(id)
        steps.mark("read")
        guard catalog.sources[id] != nil else {
            let hint =
                suggestion(for: id, among: catalog.installedIDs).map { " (did you mean '\($0)'?)" } ?? ""
            throw ServiceError(.unknownTheme, "no theme '\(id)' is installed\(hint)")
        }
        let overrides = ThemeService.readOverrides(configuration.overridesFile, log: log)
        steps.mark("overrides")
        let withOverrides: CompiledTheme
        let problems: [String]
        switch ThemeService.compile(id, catalog: catalog, schema: schema, overrides: overrides, log: log) {
        case .failure(let failure):
            let errors = failure.errors
            throw ServiceError(
                .invalidTheme,
                "theme '\(id)' has \(errors.count) error\(errors.count == 1 ? "" : "s"): "
                    + errors.prefix(5).map(\.description).joined(separator: "; "))
        case .success(let built): (withOverrides, problems) = built
        }
        if withOverrides.metadata.abstract {
            throw ServiceError(
                .invalidTheme,
                "theme '\(id)' is abstract: it exists to be inherited by other themes, not to be made active "
                    + "(`livery list` shows the themes that can be)")
        }
        steps.mark("compile")
        let print = ThemeService.fingerprint(withOverrides)
        steps.mark("fingerprint")
        let pictures = ThemeService.imageIdentities(withOverrides)
        steps.mark("images")
        let (active, activePrint, activeImages) = state.withLock { s in (s.activeID, s.fingerprint, s.images)
        }
        let edited = ThemeService.editedImages(from: activeImages, to: pictures)
        let changed = id != active || print != activePrint || !edited.isEmpty
        // The index is built before the commit too, so that `Resolve` is answered meanwhile; a
        // theme compiled to the same rules, palette and schema as one kept reuses its index.
        let key = ThemeService.preparedKey(print, withOverrides)
        let prepared =
            changed
            ? (state.withLock { $0.prepared.cascade(for: key) } ?? Cascade(theme: withOverrides)) : nil
        steps.mark("index")
        // Saved before the reply, so that a crash right after `SetTheme` returns keeps the choice:
        // here, or by `savePending()` after the change is published.
        let saveFailure = configuration.savesAfterPublishing ? nil : save(id)
        steps.mark("save")
        defer {
            steps.mark("commit")
            if .debug <= log.threshold { log(.debug, "switch to '\(id)': \(steps.summary)") }
        }
        return state.withLock { s -> Change? in
            s.catalog.adopt(catalog)
            s.catalog.forget(keepingChainOf: id)
            s.currentProblems = problems
            if configuration.savesAfterPublishing {
                s.pendingSave = id
            } else {
                s.saveProblem = saveFailure
            }
            guard let prepared else { return nil }
            s.prepared.keep(prepared, for: key)
            s.activeID = id
            s.cascade = prepared
            s.fingerprint = print
            s.images = pictures
            s.serialNumber &+= 1
            log(.info, "active theme '\(id)' (serial \(s.serialNumber))")
            return Change(theme: id, serial: s.serialNumber, editedImages: edited)
        }
    }

    /// Saves `id` as the active theme; the failure's message, or nil.
    private func save(_ id: String) -> String? {
        do {
            try store.save(StateStore.State(theme: id))
            return nil
        } catch {
            // The switch stands; the failure is shown in `Problems` and `livery status` until a
            // later save works, so that it is not lost in the log.
            let failure = "cannot save the active theme to \(store.path): \(error.localizedDescription)"
            log(.error, failure)
            return failure
        }
    }

    /// Saves the theme the last switch made active, when `savesAfterPublishing` left it to this
    /// (called from the switch queue, after publishing and before replying).
    public func savePending() {
        guard
            let id = state.withLock({ s -> String? in
                defer { s.pendingSave = nil }
                return s.pendingSave
            })
        else { return }
        let failure = save(id)
        state.withLock { $0.saveProblem = failure }
    }

    /// Rescans the search path and the overrides file. The active theme stays active; when its
    /// new version does not validate, the last good version stays in force and the problem is
    /// kept for `problems` and the log.
    /// - Returns: the change to publish when resolved values may have changed.
    public func reload() -> Change? {
        switching.withLock { _ in reloadHoldingSwitch() }
    }

    /// `reload`, with `switching` held.
    private func reloadHoldingSwitch() -> Change? {
        // The active theme is read and compiled here; the others are checked again away from
        // the bus thread, each listed as before until its new check is done (a new one as not
        // checked yet).
        let id = state.withLock { $0.activeID }
        let newCatalog = ThemeCatalog(
            searchPath: configuration.searchPath, formats: configuration.formats(), readingOnly: [id])
        // Notes already logged (at start-up or an earlier reload) are not repeated.
        let fresh = state.withLock { s in newCatalog.notes.filter { s.loggedNotes.insert($0).inserted } }
        for note in fresh { log(.notice, note) }
        let overrides = ThemeService.readOverrides(configuration.overridesFile, log: log)
        // Compiled before the lock is taken, so that `Resolve` is answered meanwhile.
        let compiled = newCatalog.sources[id].map { _ in
            ThemeService.compile(id, catalog: newCatalog, schema: schema, overrides: overrides, log: log)
        }
        let built = try? compiled?.get()
        let print = built.map { ThemeService.fingerprint($0.0) }
        let pictures = built.map { ThemeService.imageIdentities($0.0) }
        // The index too, when the theme changed (its fingerprint differs from the active one's).
        let prepared = built.flatMap { b in
            print != state.withLock({ $0.fingerprint }) ? Cascade(theme: b.0) : nil
        }
        let change = state.withLock { s -> Change? in
            s.catalog = newCatalog
            // A reload keeps only the active theme's index (the others are built again when needed).
            s.prepared.keepOnly(s.cascade, for: ThemeService.preparedKey(s.fingerprint, s.cascade.theme))
            guard id == s.activeID, let compiled else {
                if compiled == nil {
                    let p = "active theme '\(s.activeID)' was removed from disk; keeping the loaded version"
                    log(.warning, p)
                    s.currentProblems = [p]
                }
                return nil
            }
            let withOverrides: CompiledTheme
            switch compiled {
            case .failure(let failure):
                let rendered = failure.errors.map(\.description)
                log(
                    .error,
                    "active theme '\(s.activeID)' no longer validates; keeping the last good version:\n"
                        + rendered.joined(separator: "\n"))
                s.currentProblems = rendered
                // Listed as the check would list it, until the check of this scan does.
                s.listings[id] = Listing(
                    metadata: ThemeService.placeholderMetadata(id, source: newCatalog.sources[id]!),
                    valid: false,
                    errors: rendered)
                return nil
            case .success(let (theme, problems)):
                withOverrides = theme
                s.currentProblems = problems
                s.listings[id] = Listing(metadata: theme.metadata, valid: true, errors: [])
            }
            let edited = ThemeService.editedImages(from: s.images, to: pictures ?? [:])
            guard print != s.fingerprint || !edited.isEmpty else { return nil }
            s.cascade = prepared ?? Cascade(theme: withOverrides)
            s.prepared.keepOnly(s.cascade, for: ThemeService.preparedKey(print ?? "", s.cascade.theme))
            s.fingerprint = print ?? ""
            s.images = pictures ?? [:]
            s.serialNumber &+= 1
            log(.info, "reloaded theme '\(s.activeID)' (serial \(s.serialNumber))")
            return Change(theme: s.activeID, serial: s.serialNumber, editedImages: edited)
        }
        startChecking()
        return change
    }

    /// Forgets the resolved styles of the active theme and of the other indexes kept (for when
    /// the clients that asked for many paths have gone).
    public func forgetResolvedStyles() {
        state.withLock { s in
            s.cascade.forgetResolvedStyles()
            s.prepared.forgetResolvedStyles()
        }
    }

    /// How many themes' indexes are kept for switching back (`PreparedCascades`).
    var preparedCount: Int { state.withLock { $0.prepared.count } }

    // MARK: Helpers

    /// Gives the memory freed since to the system (`malloc_trim(0)`, every arena): glibc keeps
    /// freed blocks for reuse, so a daemon that compiled a few large themes (hostile ones,
    /// say) would otherwise keep its peak size for the rest of its life. Called after a pass of
    /// checks and after each switch, when the compiles' memory has been released.
    static func returnFreedMemory() {
        _ = malloc_trim(0)
    }

    /// Reads the overrides file; an unreadable one becomes a sheet with one error, so that it is
    /// set aside and reported like any broken overrides.
    static func readOverrides(_ path: String, log: Log) -> Stylesheet? {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else { return nil }
        func unreadable(_ why: String) -> Stylesheet {
            var sheet = Stylesheet(file: path)
            sheet.diagnostics = [Diagnostic(.error, why, at: SourceLocation(file: path, line: 1, column: 1))]
            return sheet
        }
        if isDir.boolValue { return unreadable("is a directory, not a sheet") }
        let data: Data
        switch BundleFiles.contents(of: path) {
        case .failure(let e): return unreadable(e.message)
        case .success(let d): data = d
        }
        guard data.count <= BundleFiles.maximumSheetSize else {
            return unreadable("is \(data.count) bytes; the limit is \(BundleFiles.maximumSheetSize)")
        }
        guard let text = String(data: data, encoding: .utf8) else { return unreadable("is not UTF-8 text") }
        return SheetParser().parse(text, file: path)
    }

    /// Compiles a theme with the user's overrides. The overrides are tried first, since they
    /// are almost always fine; only when that fails is the theme compiled alone, to tell a broken
    /// theme (an error) from broken overrides, which are left out and kept as problems rather
    /// than blocking the theme.
    /// - Returns: the theme and the overrides' problems, or the theme's own errors.
    static func compile(
        _ id: String, catalog: ThemeCatalog, schema: Schema, overrides: Stylesheet?, log: Log
    ) -> Result<(CompiledTheme, [String]), ThemeErrors> {
        var overrideErrors: [String] = []
        if let overrides {
            let (combined, diagnostics) = catalog.compile(
                id, schema: schema, overrides: overrides, timeLimit: ThemeCompiler.timeLimit)
            if let combined { return .success((combined, [])) }
            overrideErrors = diagnostics.filter { $0.severity == .error }.map(\.description)
        }
        let (theme, diagnostics) = catalog.compile(id, schema: schema, timeLimit: ThemeCompiler.timeLimit)
        guard let theme else { return .failure(ThemeErrors(diagnostics.filter { $0.severity == .error })) }
        if overrides != nil {
            log(
                .warning,
                "user overrides ignored because of errors:\n" + overrideErrors.joined(separator: "\n"))
        }
        return .success((theme, overrideErrors))
    }

    /// A theme's errors, as a `Result` failure.
    struct ThemeErrors: Error {
        var errors: [Diagnostic]
        init(_ errors: [Diagnostic]) { self.errors = errors }
    }

    static func build(_ id: String, catalog: ThemeCatalog, schema: Schema, overrides: Stylesheet?, log: Log)
        -> (CompiledTheme, [String])?
    {
        guard catalog.sources[id] != nil,
            case .success(let built) = compile(
                id, catalog: catalog, schema: schema, overrides: overrides, log: log)
        else { return nil }
        return built
    }

    /// Compiles theme `id` of `catalog` (without the user's overrides) for `listThemes`.
    static func listing(_ id: String, catalog: ThemeCatalog, schema: Schema) -> Listing {
        let (theme, diagnostics) = catalog.compile(id, schema: schema, timeLimit: ThemeCompiler.timeLimit)
        let source = catalog.sources[id]!
        let meta = theme?.metadata ?? placeholderMetadata(id, source: source)
        return Listing(
            metadata: meta, valid: theme != nil,
            errors: diagnostics.filter { $0.severity == .error }.map(\.description))
    }

    /// What a theme's own `@theme` block says, for a theme that does not compile.
    static func placeholderMetadata(_ id: String, source: ThemeSource) -> ThemeMetadata {
        var meta = ThemeMetadata(
            id: id, name: source.sheet.metadataString("name") ?? id,
            description: source.sheet.metadataString("description") ?? "",
            variant: source.sheet.metadataString("variant") ?? "light",
            inherits: source.sheet.metadataString("inherits"),
            accentColor: nil, darkVariant: nil, lightVariant: nil, format: source.format,
            path: source.path)
        meta.abstract = source.sheet.metadataString("abstract") == "true"
        return meta
    }

    /// The listing of a theme not checked yet: what its source or its directory entry tells.
    static func unchecked(_ id: String, _ source: ThemeSource?, _ entry: ThemeCatalog.Entry?) -> Listing {
        let meta =
            source.map { placeholderMetadata(id, source: $0) }
            ?? ThemeMetadata(
                id: id, name: id, description: "", variant: "light", inherits: nil, accentColor: nil,
                format: entry?.format.name ?? "", path: entry?.url.path ?? "")
        return Listing(metadata: meta, valid: false, errors: [], checked: false)
    }

    /// A digest of everything in a compiled theme that can change what the daemon answers: the
    /// metadata, each rule's selector, layer, application and declarations with where they are
    /// written (`Explain` reports those), and the types the schema has with their supertypes
    /// and parts (`@component` declarations change which rules match, with no rule changed).
    static func fingerprint(_ theme: CompiledTheme) -> String {
        var s = "\(theme.metadata)"
        var lastBlock = -1
        for r in theme.rules {
            s += "|\(r.selector.text)@\(r.layer)\(r.app ?? "")"
            if let at = r.selector.compounds.first?.location { s += "@\(at)" }
            // A block's declarations once, after its first selector (rules are in source order,
            // so a block's rules are adjacent): a selector list costs its length plus its
            // declarations, not their product.
            if r.block != lastBlock {
                s += "#\(r.block)"
                for d in r.declarations { s += ";\(d.property)=\(d.value)@\(d.location)" }
                lastBlock = r.block
            }
        }
        for name in theme.schema.types.keys.sorted() {
            let type = theme.schema.types[name]!
            s += "|\(name):\(type.superType ?? "")"
            for part in type.parts { s += ",\(part.name)=\(part.type)" }
        }
        return s
    }

    /// The key of a compiled theme's index in `PreparedCascades`: its `fingerprint` (`print`)
    /// and its palette, which plugins' templates read though no rule may name it.
    static func preparedKey(_ print: String, _ theme: CompiledTheme) -> String {
        var key = print + "|palette"
        for name in theme.palette.keys.sorted() { key += ";\(name)=\(theme.palette[name]!.hex)" }
        return key
    }

    /// Every image a theme's declarations name (absolute paths), each with the identity of its
    /// file: size, modification and change times (nanoseconds), inode and device. Editing an image
    /// in place (`cp new.png old.png`) changes the identity though not the path, and so is a
    /// change to publish (as the README says); the files are not read, so a reload costs one `stat` each.
    static func imageIdentities(_ theme: CompiledTheme) -> [String: String] {
        var out: [String: String] = [:]
        // A block's declarations once (its rules are adjacent): a selector list costs its
        // length plus its declarations, as in `fingerprint`.
        var lastBlock = -1
        for rule in theme.rules where rule.block != lastBlock {
            lastBlock = rule.block
            for d in rule.declarations {
                guard case .image(let path?) = d.value, out[path] == nil else { continue }
                var st = stat()
                out[path] =
                    stat(path, &st) == 0
                    ? "\(st.st_size) \(st.st_mtim.tv_sec).\(st.st_mtim.tv_nsec) "
                        + "\(st.st_ctim.tv_sec).\(st.st_ctim.tv_nsec) \(st.st_ino) \(st.st_dev)"
                    : "missing"
            }
        }
        return out
    }

    /// The images named before and after whose file identity differs.
    static func editedImages(from old: [String: String], to new: [String: String]) -> Set<String> {
        Set(new.compactMap { path, identity in old[path].map { $0 != identity ? path : nil } ?? nil })
    }
}
