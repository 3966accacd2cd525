import Foundation
import LiveryCore
import Synchronization

/// What Livery does, whoever asks: the themes and the active state (`ThemeService`), the switch
/// queue every switch and reload runs on, publication of each committed change to the
/// registered listeners (`ServiceListener`), the watches, the plugin runner, the light/dark
/// schedule and live reload. It knows nothing of the bus: adapters call its API and listen.
///
/// Safe to share between threads.
public final class Service: Sendable {
    /// What a service runs besides the themes.
    public struct Options: Sendable {
        /// The environment plugin commands start from (where plugins are found, what commands
        /// keep); nil: no plugin runs.
        public var pluginEnvironment: [String: String]?
        /// Reload when theme files or the overrides change on disk, and render the active theme
        /// again when plugin files do.
        public var watchesFiles = false
        /// Switch light and dark by `config.yaml`'s schedule.
        public var followsSchedule = false

        /// No plugins, no file watching, no schedule.
        public init() {}
    }

    /// The themes and the active state.
    public let themes: ThemeService
    /// The watches made with `watch`.
    public let watches: WatchRegistry
    /// Where the service writes its messages.
    public var log: Log { themes.log }
    let options: Options
    /// The plugin runner, told of every committed change; nil without plugins.
    let plugins: PluginRunner?
    let listeners = Mutex<[any ServiceListener]>([])
    /// What listeners were last told: the problems and the active theme's metadata, to say
    /// what changed in the next snapshot.
    let announced: Mutex<(problems: [String], metadata: ThemeMetadata)>
    /// Where switches run, one at a time in the order they were asked for: reading and compiling
    /// a theme, then publishing the change, away from whoever asked (`Resolve` gets the old
    /// theme until the new one is in place). Publishing from this one queue keeps the
    /// snapshots in serial order.
    let switches = DispatchQueue(label: "org.livery.switch")
    /// Whether a live reload is queued on `switches` and has not begun.
    let liveReloadQueued = Mutex(false)
    /// Set by `retire`: the error every switch that has not started gets from then on.
    let refusal = Mutex<ServiceError?>(nil)
    /// Where the watched keys of each published change are recomputed, one change at a time in
    /// serial order; a newer change supersedes an unfinished one.
    let publications = DispatchQueue(label: "org.livery.publish")
    /// Images edited on disk by changes whose watched keys are not all recomputed yet.
    let pendingEditedImages = Mutex<Set<String>>([])
    /// The watchers of live reload (theme files, plugin files), kept for the service's life.
    let fileWatchers = Mutex<[ThemeWatcher]>([])

    /// A service over `themes`; nothing runs until `start()`.
    /// - Parameters:
    ///   - themes: The themes and the active state, as restored.
    ///   - options: Plugins, live reload, schedule.
    public init(themes: ThemeService, options: Options = Options()) {
        self.themes = themes
        self.options = options
        self.watches = WatchRegistry(serial: themes.serial)
        self.announced = Mutex((themes.problems, themes.activeMetadata))
        if let environment = options.pluginEnvironment {
            plugins = PluginRunner(
                environment: environment, variant: themes.activeVariant,
                themeSearchPath: themes.configuration.searchPath, log: themes.log)
        } else {
            plugins = nil
        }
        if let plugins {
            add(plugins)
            plugins.onProblemsChanged { [weak self] in self?.announceProblems() }
        }
    }

    /// Tells `listener` of every snapshot published from now on, after the listeners added
    /// before it.
    public func add(_ listener: any ServiceListener) {
        listeners.withLock { $0.append(listener) }
    }

    /// Starts what runs by itself: the plugins' pass over the active theme (outputs a crash left
    /// at another theme are put right, `PluginRunner.resume`), the schedule and live reload.
    /// Call it once the listeners are added.
    public func start() {
        plugins?.resume(themes.activeCascade, serial: themes.serial)
        announceProblems()
        if options.followsSchedule { Scheduler(service: self).start() }
        if options.watchesFiles { startWatchingFiles() }
    }

    /// Every problem the user should see: the themes' and `config.yaml`'s, then the plugins'.
    public var problems: [String] { themes.problems + (plugins?.problems ?? []) }

    /// Every plugin, darkman script and built-in format, as `livery plugins` lists them.
    public func listPlugins() -> [PluginRunner.Listing] { plugins?.list() ?? [] }

    /// Live reload: the theme files and overrides reload on the switch queue, plugin files
    /// render the active theme again.
    private func startWatchingFiles() {
        let configuration = themes.configuration
        let log = self.log
        var started: [ThemeWatcher] = []
        if let watcher = try? ThemeWatcher(
            directories: { configuration.searchPath }, files: { [configuration.overridesFile] },
            notice: { line in log(.notice, line) },
            onChange: { [weak self] in
                log(.debug, "theme files changed on disk; reloading")
                self?.reloadLater()
            })
        {
            started.append(watcher)
        }
        if let plugins,
            let watcher = try? ThemeWatcher(
                directories: { plugins.paths.pluginSearchPath.map(\.directory) },
                notice: { line in log(.notice, line) },
                onChange: {
                    log(.debug, "plugin files changed on disk; rendering the active theme")
                    plugins.pluginsChanged()
                })
        {
            started.append(watcher)
        }
        for watcher in started { watcher.start() }
        fileWatchers.withLock { $0 += started }
    }
}
