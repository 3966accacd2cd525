import Foundation
import LiveryCore
import Synchronization

/// Reading the search path and the overrides again (`Reload`, live reload).
extension ThemeService {
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
        // Compiled, and its index built, before the lock is taken, so that `Resolve` is
        // answered meanwhile.
        let compiled = newCatalog.sources[id].map { _ in
            ThemeService.compile(
                id, catalog: newCatalog, schema: schema, overrides: overrides,
                pictures: configuration.pictures,
                log: log)
        }
        var prepared: PreparedTheme?
        if case .success(let (theme, problems))? = compiled {
            prepared = PreparedTheme(id: id, theme: theme, problems: problems)
        }
        let index = prepared.flatMap { self.index(for: $0) }
        let change = state.withLock { s -> Change? in
            s.catalog = newCatalog
            // A new scan: compiles kept from the last one are not used again (the checker's scan
            // after this one replaces it once more).
            s.catalogScan += 1
            guard let compiled else {
                let p = "active theme '\(s.activeID)' was removed from disk; keeping the loaded version"
                log(.warning, p)
                s.currentProblems = [p]
                s.prepared.keepOnly(s.cascade, for: PreparedTheme.key(s.fingerprint, s.cascade.theme))
                return nil
            }
            guard let prepared else {
                if case .failure(let failure) = compiled { keepLastGood(id, failure, newCatalog, in: &s) }
                return nil
            }
            s.listings[id] = Listing(metadata: prepared.theme.metadata, valid: true, errors: [])
            return ThemeService.commit(prepared, index: index, retaining: .activeOnly, compile: nil, in: &s)
        }
        if let change { log(.info, "reloaded theme '\(id)' (serial \(change.serial))") }
        startChecking()
        return change
    }

    /// Keeps the last good version of the active theme `id`, whose version on disk has
    /// `failure`'s errors: they become the current problems and its listing until the check of
    /// this scan lists it.
    private func keepLastGood(
        _ id: String, _ failure: ThemeErrors, _ catalog: ThemeCatalog, in s: inout State
    ) {
        let rendered = failure.errors.map(\.description)
        log(
            .error,
            "active theme '\(id)' no longer validates; keeping the last good version:\n"
                + rendered.joined(separator: "\n"))
        s.currentProblems = rendered
        s.listings[id] = Listing(
            metadata: ThemeService.placeholderMetadata(id, catalog: catalog)!, valid: false,
            errors: rendered)
        s.prepared.keepOnly(s.cascade, for: PreparedTheme.key(s.fingerprint, s.cascade.theme))
    }
}
