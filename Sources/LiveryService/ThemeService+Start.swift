import Foundation
import LiveryCore
import Synchronization

/// Choosing the theme to start with, at start-up and after `--replace`'s handover.
extension ThemeService {
    /// The theme a service starts with, read and compiled, with the catalog it was read into.
    struct Start {
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
    static func startingTheme(
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
            let prepared = PreparedTheme(id: start.id, theme: start.theme, problems: start.problems)
            let cascade = Cascade(theme: start.theme)
            state.withLock { s in
                s.catalog = start.catalog
                s.catalogScan += 1
                s.activeID = start.id
                s.cascade = cascade
                s.fingerprint = prepared.fingerprint
                s.images = prepared.images
                s.currentProblems = start.problems
                s.loggedNotes.formUnion(start.catalog.notes)
                s.prepared.keep(cascade, for: prepared.key)
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
        // Why the saved theme was passed over: a problem of the theme started instead, so that
        // `livery status` shows it until the next switch, not only the log.
        var passedOver: [String] = []
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
            if let built = build(
                id, catalog: catalog, schema: schema, overrides: overrides, pictures: configuration.pictures,
                log: log)
            {
                return (id, built.0, passedOver + built.1)
            }
            if i == 0 {
                let why = catalog.sources[id] == nil ? "is not installed" : "has errors"
                let message = "saved theme '\(id)' \(why); falling back to '\(configuration.fallbackTheme)'"
                log(.warning, message)
                passedOver = [message]
            }
        }
    }

}
