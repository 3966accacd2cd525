import Foundation
import LiveryCore
import Mustache
import Synchronization

/// Carries every published change out to the plugins, on a queue of its own so that a switch's
/// reply never waits: renders every export and writes its output atomically, then starts the
/// exports' `run` commands, the hooks and (when the variant changed) darkman's scripts in
/// parallel, each on a thread of its own through `ProcessRunner`. Only the newest change is
/// rendered: a change published while another is rendered stops that one between exports and
/// is rendered next, so outputs always end at the last theme; commands of an older change are
/// left to finish (or time out) and are never waited for.
public final class PluginRunner: Sendable {
    /// What one plugin (or darkman script) did last.
    struct Status: Sendable {
        var serial: UInt32 = 0
        var lastRun: Date?
        /// Commands of `serial` still running.
        var pending = 0
        var failures: [String] = []
        /// The failures of the run before, shown until this run fails or ends.
        var previous: [String] = []
        /// Why commands of `serial` were not started (`waybar not running`) or skipped
        /// themselves (`PluginRunner.skipStatus`), each once; not failures.
        var skipped: [String] = []
        /// Whether a command of `serial` ended with success.
        var succeeded = false
        var shown: [String] { !failures.isEmpty || pending == 0 ? failures : previous }
        var result: String {
            if lastRun == nil { return "not run yet" }
            if !failures.isEmpty { return failures.joined(separator: "; ") }
            if pending > 0 { return "running" }
            if skipped.isEmpty { return "ok" }
            return (succeeded ? "ok; " : "") + "skipped: " + skipped.joined(separator: "; ")
        }
    }

    private struct State {
        /// The change to render next; `startUp` when it is the start-up pass (`resume`).
        var latest: (cascade: Cascade, serial: UInt32, startUp: Bool)?
        /// The newest theme handed to the runner (published or resumed): what a plugin changed on
        /// disk, or `Reload`, renders.
        var active: (cascade: Cascade, serial: UInt32)?
        /// The variant darkman's scripts last ran for (at start-up, the active theme's), which is
        /// not the active variant when a change to another was superseded before it ran them:
        /// they run when a change that is not superseded ends at another one.
        var scriptVariant: String?
        var statuses: [String: Status] = [:]
        var manifestErrors: [String: [String]] = [:]
        var onProblemsChanged: (@Sendable () -> Void)?
    }

    let paths: Paths
    let log: Log
    let environment: [String: String]
    /// The theme directories: no export writes a file of theirs (`ThemeFiles`).
    let themeSearchPath: [String]
    private let queue = DispatchQueue(label: "org.livery.plugins")
    /// Commands run at once, at most.
    static let concurrentCommands = 16
    private let slots = DispatchSemaphore(value: PluginRunner.concurrentCommands)
    /// The manifests and templates of the last read, reused while their bytes are unchanged.
    private let files = PluginFileCache()
    private let state: Mutex<State>

    /// A runner for the plugins found from `environment`'s XDG directories.
    /// - Parameters:
    ///   - environment: The daemon's environment: where plugins are found, and what commands keep.
    ///   - variant: The active theme's variant at start-up: darkman's scripts run when it changes.
    ///   - themeSearchPath: The theme directories; an export whose output is a file of theirs,
    ///     or one an entry of theirs links to, is refused.
    ///   - log: Where command output and failures go.
    public init(
        environment: [String: String], variant: String, themeSearchPath: [String] = [], log: Log
    ) {
        self.paths = Paths(environment: environment)
        self.themeSearchPath = themeSearchPath
        self.log = log
        self.environment = environment
        self.state = Mutex(State(scriptVariant: variant))
        let plugins = PluginCatalog.load(paths, cache: files)
        state.withLock { s in s.manifestErrors = PluginRunner.errors(of: plugins) }
        for p in plugins where !p.errors.isEmpty && p.enabled {
            log(
                .warning,
                "plugin '\(p.name)' has errors and will not run:\n" + p.errors.joined(separator: "\n"))
        }
        // The temporaries a killed writer (a daemon before this one) left beside the outputs,
        // removed before this runner writes any: queued first, on the queue every export is
        // written on.
        let outputs = plugins.flatMap { $0.manifest.exports.map { self.expand($0.output) } }
        queue.async { [log] in
            for output in outputs {
                for removed in OutputFile.removeAbandonedTemporaries(of: output) {
                    log(.info, "removed \(removed), the temporary file of a writer that was killed")
                }
            }
        }
    }

    /// Called (from any thread) whenever the problems of plugins change.
    public func onProblemsChanged(_ body: @escaping @Sendable () -> Void) {
        state.withLock { $0.onProblemsChanged = body }
    }

    /// The problems to show in `Problems`: each plugin's manifest errors and last failures.
    public var problems: [String] {
        state.withLock { s in
            s.manifestErrors.sorted { $0.key < $1.key }.flatMap { name, errors in
                errors.map { "plugin '\(name)' does not run: \($0)" }
            } + s.statuses.sorted { $0.key < $1.key }.flatMap(\.value.shown)
        }
    }

    /// Queues a published change; returns at once.
    public func published(_ cascade: Cascade, serial: UInt32) {
        state.withLock { s in
            s.latest = (cascade, serial, false)
            s.active = (cascade, serial)
        }
        queue.async { [weak self] in self?.work() }
    }

    /// Queues the start-up pass over the active theme, `cascade`; returns at once.
    ///
    /// A daemon killed in the middle of a switch leaves some outputs at the old theme and some
    /// at the new one, and the theme it starts with may be neither. So at start-up every export
    /// is rendered for the active theme: an output whose file already holds exactly those bytes
    /// was written for it, and is left alone with its command not run; any other is written and
    /// its command run, as a switch would. Hooks and darkman's scripts, which leave no file to
    /// compare, run on the next change only. A change published meanwhile replaces this pass.
    public func resume(_ cascade: Cascade, serial: UInt32) {
        state.withLock { s in
            if s.latest == nil { s.latest = (cascade, serial, true) }
            if s.active == nil { s.active = (cascade, serial) }
        }
        queue.async { [weak self] in self?.work() }
    }

    /// Queues a pass over the active theme for plugins enabled, edited or removed on disk;
    /// returns at once.
    ///
    /// The pass is `resume`'s: every export is rendered, an output whose file already holds
    /// those bytes is left alone with its command not run, any other is written and its command
    /// run; hooks and darkman's scripts, which leave no file to compare, wait for the next
    /// change. So enabling a plugin writes its outputs, editing a template rewrites the outputs
    /// it changes, and a removed plugin's results go with it, with no switch. A change queued
    /// already renders everything anyway and is left as it is.
    public func pluginsChanged() {
        let queued: Bool = state.withLock { s in
            guard s.latest == nil, let active = s.active else { return false }
            s.latest = (active.cascade, active.serial, true)
            return true
        }
        if queued { queue.async { [weak self] in self?.work() } }
    }

    /// Queues every export, hook and command again for the active theme, as a switch to it
    /// would (`Reload`); returns at once. Outputs deleted or edited by hand are written again.
    public func renderAgain() {
        let queued: Bool = state.withLock { s in
            guard let active = s.active else { return false }
            s.latest = (active.cascade, active.serial, false)
            return true
        }
        if queued { queue.async { [weak self] in self?.work() } }
    }

    /// Waits until everything queued so far is rendered (not for the commands): before the
    /// daemon leaves the bus, and in tests.
    func drain() { queue.sync {} }

    private var superseded: Bool { state.withLock { $0.latest != nil } }

    private func work() {
        guard
            let latest = state.withLock({ s in
                defer { s.latest = nil }
                return s.latest
            })
        else { return }
        // Made only when something renders or runs: most changes (no plugin enabled) need none
        // of the template data, which would otherwise take this queue's CPU while the watchers'
        // `Changed` is still being delivered.
        var made: ThemeSnapshot?
        func snapshot() -> ThemeSnapshot {
            if let made { return made }
            let snap = ThemeSnapshot(cascade: latest.cascade, serial: latest.serial)
            made = snap
            return snap
        }
        let variant = latest.cascade.theme.metadata.variant
        let plugins = PluginCatalog.load(paths, cache: files)
        var changedVariant = false
        // A shipped plugin unlinked from the user's directory is still listed, but no longer
        // enabled: its results go as a removed plugin's do.
        let present = Set(plugins.filter(\.enabled).map(\.name)).union(
            ["dark", "light"].flatMap { PluginCatalog.darkmanScripts(paths, variant: $0).map(\.name) })
        state.withLock { s in
            s.manifestErrors = PluginRunner.errors(of: plugins)
            // A plugin that was removed takes its last results with it.
            s.statuses = s.statuses.filter { present.contains($0.key) }
            changedVariant = s.scriptVariant != nil && s.scriptVariant != variant
        }
        var jobs: [Job] = []
        // What each plugin and script runs for this change, recorded only when it does run.
        var runs: [Run] = []
        let themeFiles =
            plugins.contains { $0.runnable && !$0.manifest.exports.isEmpty }
            ? ThemeFiles(searchPath: themeSearchPath, active: latest.cascade.theme.metadata.path) : nil
        for plugin in plugins where plugin.runnable {
            let exported = renderExports(
                of: plugin, snapshot(), startUp: latest.startUp, themeFiles: themeFiles)
            jobs += exported.jobs
            let (failures, wrote) = (exported.failures, exported.wrote)
            var commands = exported.jobs.count
            for hook in plugin.manifest.hooks where !latest.startUp {
                jobs.append(
                    (
                        plugin.name, "hook", arguments(hook.run, plugin.directory), plugin.directory,
                        hook.timeout, hook.whenRunning
                    ))
                commands += 1
            }
            if !latest.startUp || wrote || !failures.isEmpty {
                runs.append(Run(owner: plugin.name, pending: commands, failures: failures))
            }
        }
        if changedVariant {
            for script in PluginCatalog.darkmanScripts(paths, variant: variant) {
                jobs.append(
                    (script.name, "script", [script.path], paths.home, PluginManifest.defaultTimeout, []))
                runs.append(Run(owner: script.name, pending: 1, failures: []))
            }
        }
        if superseded {
            // A newer change is queued: it renders everything again; older commands would only
            // apply a theme that is no longer the active one. Nothing of this run is recorded:
            // `livery plugins` shows runs that happened, and the scripts' variant stays the one
            // they last ran for, so that the newer change runs them when it ends at another.
            return
        }
        state.withLock { $0.scriptVariant = variant }
        jobs = skipNotRunning(jobs, &runs)
        for run in runs { begin(run, serial: latest.serial) }
        if !jobs.isEmpty { start(jobs, snapshot()) }
        notify()
    }

    /// Starts each of `jobs`, a thread each, with the environment and the JSON of `snap`.
    private func start(_ jobs: [Job], _ snap: ThemeSnapshot) {
        let env = commandEnvironment(snap)
        let input = snap.json
        let serial = snap.serial
        for job in jobs {
            let thread = Thread { [weak self, slots] in
                // At most `concurrentCommands` at once: a manifest of a thousand hooks waits its
                // turn instead of taking every process and descriptor there is.
                slots.wait()
                defer { slots.signal() }
                let outcome = ProcessRunner.run(
                    job.argv, environment: env, directory: job.directory, input: input,
                    timeout: job.timeout, separateErrors: true)
                self?.report(job.owner, job.label, job.argv, job.timeout, serial: serial, outcome)
            }
            thread.name = "plugin \(job.owner)"
            thread.start()
        }
    }

    /// A command of a change to start: whose it is, what it is (for the log), its arguments,
    /// where it runs, its time limit and its `when-running` programs.
    typealias Job = (
        owner: String, label: String, argv: [String], directory: String, timeout: Double,
        whenRunning: [String]
    )

    /// What one plugin or script does for a change: the commands it starts, its failures so
    /// far, and why commands were skipped.
    struct Run {
        var owner: String
        var pending: Int
        var failures: [String]
        var skipped: [String] = []
    }

    /// `jobs` less those whose `when-running` programs are none of them running as processes of
    /// liveryd's user (`/proc` read once, only when a job asks), each such skip taken off its
    /// owner's pending commands in `runs` and noted there (`waybar not running`), and logged.
    func skipNotRunning(_ jobs: [Job], _ runs: inout [Run]) -> [Job] {
        let wanted = Set(jobs.flatMap(\.whenRunning))
        guard !wanted.isEmpty else { return jobs }
        let running = RunningPrograms.running(wanted)
        return jobs.filter { job in
            guard !job.whenRunning.isEmpty, running.isDisjoint(with: job.whenRunning) else { return true }
            let why = RunningPrograms.notRunning(job.whenRunning)
            log(
                .info,
                "plugin '\(job.owner)': \(job.label): skipped (\(job.argv.joined(separator: " "))): \(why)")
            if let i = runs.firstIndex(where: { $0.owner == job.owner }) {
                runs[i].pending -= 1
                if !runs[i].skipped.contains(why) { runs[i].skipped.append(why) }
            }
            return false
        }
    }

    /// Renders and writes every export of `plugin` for `snap`, stopping when a newer change is
    /// queued; an output whose file already holds the bytes is left alone, and at start-up
    /// (`startUp`) its command is not run.
    /// - Returns: the exports' commands to run, whether an output was written, and the failures.
    private func renderExports(
        of plugin: LoadedPlugin, _ snap: ThemeSnapshot, startUp: Bool, themeFiles: ThemeFiles?
    ) -> (jobs: [Job], wrote: Bool, failures: [String]) {
        var jobs: [Job] = []
        var failures: [String] = []
        var wrote = false
        // `wallpaper`, `checksum` and `alpha` as the exports with `keep` found them (and their
        // defaults), for those exports and every export after them.
        var keptValues: [String: String] = [:]
        var keptDefaults: [String: String] = [:]
        let claimed = claimedLater(plugin)
        for (index, (export, templates)) in zip(plugin.manifest.exports, plugin.templates).enumerated() {
            if superseded { break }
            let output = expand(export.output)
            if !export.keep.isEmpty {
                keptValues.merge(rawKept(export.keep, in: output)) { _, new in new }
                keptDefaults.merge(export.keep) { _, new in new }
            }
            if export.syntax == .pywal {
                let r = renderPywal(
                    plugin, export, templates, output, keptValues, claimed: claimed[index], startUp: startUp,
                    themeFiles: themeFiles, snap)
                jobs += r.jobs
                wrote = wrote || r.wrote
                failures += r.failures
                continue
            }
            // A later export of the plugin writes this file (pywal's order: the user's template
            // of a name wins over the shipped one).
            if claimed[index].contains(PluginRunner.normalised(output)) { continue }
            // A theme's file is never written: an export into one (pywal's cache, which the
            // README suggests installing as a theme) would overwrite the user's scheme.
            if let theme = themeFiles?.theme(at: output) {
                if export.skipsActiveTheme && theme == themeFiles?.active {
                    log(
                        .info,
                        "plugin '\(plugin.name)': \(output) is the active theme's own file; not written")
                } else {
                    let whose =
                        theme == themeFiles?.active ? "the active theme's" : "an installed theme's"
                    failures.append(
                        "plugin '\(plugin.name)': refused to write \(output): it is \(whose) file (\(theme))"
                    )
                }
                continue
            }
            guard let template = templates.template(named: export.template, system: snap.system) else {
                failures.append(
                    "plugin '\(plugin.name)': repository '\(export.repository ?? "")' has no template for \(snap.system) schemes"
                )
                continue
            }
            do {
                let data =
                    keptValues.isEmpty
                    ? snap.variables : kept(keptValues, defaults: keptDefaults, over: snap.variables)
                let bytes = try template.renderBytes(data)
                let changed = try OutputFile.write(bytes, to: output)
                if changed {
                    log(.info, "plugin '\(plugin.name)': wrote \(output)")
                    wrote = true
                }
                if !export.run.isEmpty && (changed || !startUp) {
                    jobs.append(
                        (
                            plugin.name, "export '\(export.template)'",
                            arguments(export.run, plugin.directory),
                            plugin.directory, export.timeout, export.whenRunning
                        ))
                }
            } catch let e as RenderError {
                failures.append(
                    "plugin '\(plugin.name)': template '\(export.repository.map { "\($0) " } ?? "")\(export.template)': \(e)"
                )
            } catch {
                failures.append("plugin '\(plugin.name)': cannot write \(output): \(error)")
            }
        }
        return (jobs, wrote, failures)
    }

    /// The exit status with which a plugin's command says it skipped itself, having found its
    /// program not running (mako's reload, which looks at the session bus): automake's test
    /// harness's skip status. The first line of its standard error is the reason.
    static let skipStatus: Int32 = 77

    /// How a command of a change ended, for its owner's status.
    enum CommandEnd {
        case succeeded
        case failed(String)
        /// Skipped itself (`skipStatus`), for this reason.
        case skipped(String)
    }

    private func report(
        _ owner: String, _ label: String, _ argv: [String], _ timeout: Double, serial: UInt32,
        _ outcome: ProcessRunner.Outcome
    ) {
        let command = argv.joined(separator: " ")
        // darkman's scripts have no skip status: darkman takes none.
        if !owner.contains("/") && outcome.end == .exited(PluginRunner.skipStatus) {
            let why =
                outcome.firstErrorLine
                ?? "\(URL(fileURLWithPath: argv[0]).lastPathComponent) skipped itself"
            log(.info, "plugin '\(owner)': \(label): skipped (\(command)): \(why)")
            finish(owner, serial: serial, .skipped(why))
            return
        }
        var what = outcome.summary
        if outcome.end == .timedOut {
            what = "timed out after \(PluginRunner.seconds(timeout)) and was killed"
        }
        // Why it failed, in its own words: the problem a user reads in `status` and `plugins`.
        if !outcome.succeeded, let line = outcome.firstErrorLine { what += ": " + line }
        let name = owner.contains("/") ? "darkman script '\(owner)'" : "plugin '\(owner)': \(label)"
        var message = "\(name) (\(command)) \(what)"
        for (stream, kept, total) in [
            ("output", outcome.output, outcome.total), ("standard error", outcome.errors, outcome.errorTotal),
        ] where !kept.isEmpty {
            let part = total > kept.count ? " (first \(kept.count) of \(total) bytes)" : ""
            message += "; \(stream)\(part):\n" + String(decoding: kept, as: UTF8.self)
        }
        log(outcome.succeeded ? .info : .warning, message)
        finish(
            owner, serial: serial, outcome.succeeded ? .succeeded : .failed("\(name) (\(command)) \(what)"))
    }

    private func begin(_ run: Run, serial: UInt32) {
        state.withLock { s in
            var status = s.statuses[run.owner] ?? Status()
            status.previous = status.pending == 0 ? status.failures : status.previous
            status.serial = serial
            status.lastRun = Date()
            status.pending = run.pending
            status.succeeded = false
            status.failures = run.failures
            status.skipped = run.skipped
            s.statuses[run.owner] = status
        }
        for f in run.failures { log(.warning, f) }
    }

    private func finish(_ owner: String, serial: UInt32, _ end: CommandEnd) {
        let changed: Bool = state.withLock { s in
            guard var status = s.statuses[owner], status.serial == serial else { return false }
            let before = status.shown
            status.pending = max(0, status.pending - 1)
            switch end {
            case .succeeded: status.succeeded = true
            case .failed(let failure): status.failures.append(failure)
            case .skipped(let why): if !status.skipped.contains(why) { status.skipped.append(why) }
            }
            s.statuses[owner] = status
            return before != status.shown
        }
        if changed { notify() }
    }

    private func notify() {
        state.withLock { $0.onProblemsChanged }?()
    }

    /// One row of `ListPlugins`.
    public struct Listing: Sendable {
        public var name: String
        public var kind: String
        public var origin: String
        public var path: String
        public var enabled: Bool
        public var errors: [String]
        public var lastRun: Date?
        public var serial: UInt32
        public var result: String
    }

    /// Every plugin found now, darkman's scripts of both variants and the built-in formats.
    public func list() -> [Listing] {
        let plugins = PluginCatalog.load(paths, cache: files)
        let statuses = state.withLock { s in
            s.manifestErrors = PluginRunner.errors(of: plugins)
            return s.statuses
        }
        var out: [Listing] = plugins.map { p in
            let st = statuses[p.name]
            let result =
                !p.errors.isEmpty
                ? "not run: the manifest has errors"
                : !p.enabled ? "available, not enabled" : (st?.result ?? "not run yet")
            return Listing(
                name: p.name, kind: p.kind, origin: p.origin, path: p.directory, enabled: p.enabled,
                errors: p.errors, lastRun: st?.lastRun, serial: st?.serial ?? 0, result: result)
        }
        for variant in ["dark", "light"] {
            for script in PluginCatalog.darkmanScripts(paths, variant: variant) {
                let st = statuses[script.name]
                out.append(
                    Listing(
                        name: script.name, kind: "darkman", origin: script.origin, path: script.path,
                        enabled: true, errors: [], lastRun: st?.lastRun, serial: st?.serial ?? 0,
                        result: st?.result ?? "not run yet"))
            }
        }
        for format in ThemeFormats.all {
            out.append(
                Listing(
                    name: format.name, kind: "format", origin: "built in", path: "", enabled: true,
                    errors: [],
                    lastRun: nil, serial: 0, result: "ok"))
        }
        return out
    }

    // MARK: Helpers

    static func errors(of plugins: [LoadedPlugin]) -> [String: [String]] {
        var out: [String: [String]] = [:]
        for p in plugins where p.enabled && !p.errors.isEmpty { out[p.name] = p.errors }
        return out
    }

    static func seconds(_ t: Double) -> String {
        t == t.rounded() ? "\(Int(t)) s" : "\(t) s"
    }

    /// `variables` with, for each key of `raw` (the values `keep` found, `rawKept`), `kept-KEY`:
    /// the value JSON-escaped without quotes, for a template that writes
    /// `"KEY": "{{{kept-KEY}}}"`; and `kept-KEY-not-default`, true when the value is not the
    /// text of its default in `defaults` (pywal's sequences give the alpha only when it is not
    /// "100"; with no such value, as in `livery export`, the section is left out).
    func kept(
        _ raw: [String: String], defaults: [String: String], over variables: MustacheValue
    ) -> MustacheValue {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        var values: [String: MustacheValue] = [:]
        for (key, value) in raw {
            let quoted = (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
            values["kept-" + key] = .string(String(quoted.dropFirst().dropLast()))
            values["kept-\(key)-not-default"] = .bool(value != defaults[key])
        }
        let kept = values
        return .lookup(MustacheLookup { kept[$0] ?? variables[$0] })
    }

    /// `~/x` as `$HOME/x`, and `$XDG_CONFIG_HOME/x`, `$XDG_DATA_HOME/x`, `$XDG_CACHE_HOME/x`,
    /// `$XDG_STATE_HOME/x` under the daemon's own (the XDG Base Directory defaults when unset):
    /// where a program looks for its files when the user moved those directories.
    func expand(_ path: String) -> String {
        if path.hasPrefix("~/") { return paths.home + String(path.dropFirst(1)) }
        guard path.hasPrefix("$XDG_"), let slash = path.firstIndex(of: "/"),
            let directory = paths.baseDirectory(String(path[path.index(after: path.startIndex)..<slash]))
        else { return path }
        return directory + path[slash...]
    }

    /// argv with `~/` expanded in every argument and a program `./x` taken in the plugin's directory.
    func arguments(_ argv: [String], _ directory: String) -> [String] {
        var out = argv.map(expand)
        if out[0].hasPrefix("./") { out[0] = directory + "/" + out[0].dropFirst(2) }
        return out
    }

    /// The environment of every command: `ProcessRunner.environment` plus `LIVERY_THEME`,
    /// `LIVERY_VARIANT` and `LIVERY_SERIAL`; `LIVERY_GTK_THEME` and `LIVERY_WALLPAPER` (an
    /// absolute path) when the theme names them.
    func commandEnvironment(_ snap: ThemeSnapshot) -> [String: String] {
        var env = ProcessRunner.environment(from: environment, home: paths.home)
        env["LIVERY_THEME"] = snap.id
        env["LIVERY_VARIANT"] = snap.variant
        env["LIVERY_SERIAL"] = String(snap.serial)
        if let gtk = snap.gtkTheme { env["LIVERY_GTK_THEME"] = gtk }
        if let wallpaper = snap.wallpaper { env["LIVERY_WALLPAPER"] = wallpaper }
        return env
    }
}

extension PluginRunner: ServiceListener {
    /// Renders every committed change; a change of the problems alone renders nothing.
    public func published(_ snapshot: ServiceSnapshot) {
        if snapshot.changes.contains(.theme) { published(snapshot.cascade, serial: snapshot.serial) }
    }
}
