import Foundation
import LiveryCore
import Synchronization

/// The themes and the active state: the installed themes, the active one with its variant,
/// serial and problems (each held here only), what resolving reads, and the one commit path
/// every switch and reload ends in (`commit`, `ThemeService+Commit.swift`). `Service` runs its
/// switches on the switch queue and publishes the `Change`s it returns.
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
        /// Whether a switch leaves saving the active theme to `savePending()`, which `Service`
        /// calls after publishing and before answering: the fsync of the save then comes after
        /// the watchers' `Changed` is queued, not before it. Off: a switch saves before it
        /// returns.
        public var savesAfterPublishing = false
        /// The formats themes are read with, asked again at every scan of the search path (a
        /// plugin's outside format takes effect at the next reload).
        public var formats: @Sendable () -> [any ThemeFormat] = { ThemeFormats.all }
        /// What reads the pictures themes take their palette from (`palette-from`); nil, and
        /// such a theme is an error. liveryd gives `PictureDecoder`'s (a process per picture).
        public var pictures: PalettePictures?

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
    let switching = Mutex(())
    /// When the switch about to run was asked for (`DispatchTime` uptime nanoseconds), set by
    /// `Service` on the switch queue and taken by the switch: the first step of its per-step log,
    /// `queued`, is then the wait for the switch queue (and a variant's choice of theme).
    let askedAt = Mutex<UInt64?>(nil)
    let schema: Schema
    let store: StateStore
    let state: Mutex<State>
    /// `config.yaml`, read again only when its file changed.
    public let config: VariantConfigFile
    /// Signalled when a pass of checks ends, for `waitUntilChecked` (a `Mutex` cannot be waited
    /// on).
    let checkedCondition = NSCondition()

    /// Everything that changes, behind `state`.
    struct State {
        var catalog: ThemeCatalog
        /// Bumped each time `catalog` is replaced by a new scan of the search path: a compile
        /// kept from another scan is not used (`KeptCompile.scan`).
        var catalogScan = 0
        /// Switches that read and compiled their theme, and those that used a kept compile
        /// (for tests: which way a switch went).
        var switchCompiles = 0
        var keptCompilesUsed = 0
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
        /// Checker threads started so far: at most one runs at a time, however many reloads.
        var checkerThreadsStarted = 0

        /// The active theme's declared siblings that are not installed.
        var variantProblems: [String] {
            guard case .success(let chain) = catalog.chain(for: activeID) else { return [] }
            return catalog.variantWarnings(chain: chain).map(
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
        self.config = VariantConfigFile(path: configuration.configFile)
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
        let prepared = PreparedTheme(id: start.id, theme: start.theme, problems: start.problems)
        let cascade = Cascade(theme: start.theme)
        var initial = State(
            catalog: start.catalog, activeID: start.id, cascade: cascade, fingerprint: prepared.fingerprint,
            images: prepared.images, currentProblems: start.problems, loggedNotes: Set(start.catalog.notes))
        initial.prepared.keep(cascade, for: prepared.key)
        state = Mutex(initial)
        log(
            .info,
            "active theme '\(start.id)' (\(start.catalog.installedIDs.count) themes found, abstract ones included)"
        )
        startChecking()
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
        } + config.problems(installed: state.withLock { $0.catalog })
    }

    /// The active theme's metadata.
    public var activeMetadata: ThemeMetadata { state.withLock { $0.cascade.theme.metadata } }

    /// The active compiled theme.
    public var activeCascade: Cascade { state.withLock { $0.cascade } }

    /// The active compiled theme and the serial of the change that made it active, read together.
    public var published: (cascade: Cascade, serial: UInt32) {
        state.withLock { ($0.cascade, $0.serialNumber) }
    }

    /// Every installed theme that can be made active, sorted by id: abstract themes (`abstract:
    /// true`, there only to be inherited) are left out once checked.
    public func listThemes() -> [Listing] {
        state.withLock { s in
            s.catalog.installedIDs.compactMap { id in
                let listing =
                    s.listings[id]
                    ?? ThemeService.unchecked(id, catalog: s.catalog)
                return listing.metadata.abstract ? nil : listing
            }
        }
    }

    /// The active theme's generation (`Cascade.generation`), the key of caches of its answers.
    // Read inside the lock: copying the whole cascade out for one reference cost a Resolve ~1,200
    // instructions (callgrind).
    public var generation: AnyObject & Sendable { state.withLock { $0.cascade.generation } }

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

    /// How many switches read and compiled their theme, and how many used a kept compile.
    var switchCounts: (compiled: Int, kept: Int) {
        state.withLock { ($0.switchCompiles, $0.keptCompilesUsed) }
    }
}
