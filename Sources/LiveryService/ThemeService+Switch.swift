import Foundation
import LiveryCore
import Synchronization

/// Switching to a theme by id, and saving the active one.
extension ThemeService {
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

    /// Reads and compiles theme `id` with `state` not locked, then commits it; called with
    /// `switching` held, so the active theme cannot change in between.
    func switchTo(_ requested: String) throws(ServiceError) -> Change? {
        var steps = SwitchSteps()
        var catalog = state.withLock { $0.catalog }
        // An alias (`base16-nord`) activates the scheme it names, listed under its own id.
        var id = catalog.canonicalID(requested)
        catalog.read(id)
        // A theme written since the last scan (`livery generate --out DIR && livery set ID`)
        // is looked for on the search path now rather than after live reload's quiet period;
        // the new scan then becomes the daemon's, as a reload's does.
        var rescanned = false
        if catalog.sources[id] == nil {
            var scan = ThemeCatalog(
                searchPath: configuration.searchPath, formats: configuration.formats(), readingOnly: [])
            let found = scan.canonicalID(requested)
            scan.read(found)
            if scan.sources[found] != nil { (catalog, id, rescanned) = (scan, found, true) }
        }
        steps.mark("read")
        guard catalog.sources[id] != nil else {
            let hint =
                suggestion(for: id, among: catalog.installedIDs).map { " (did you mean '\($0)'?)" } ?? ""
            throw ServiceError(.unknownTheme, "no theme '\(id)' is installed\(hint)")
        }
        let overrides = ThemeService.readOverrides(configuration.overridesFile, log: log)
        steps.mark("overrides")
        let compiled: CompiledTheme
        let problems: [String]
        switch ThemeService.compile(
            id, catalog: catalog, schema: schema, overrides: overrides, pictures: configuration.pictures,
            log: log)
        {
        case .failure(let failure):
            let errors = failure.errors
            throw ServiceError(
                .invalidTheme,
                "theme '\(id)' has \(errors.count) error\(errors.count == 1 ? "" : "s"): "
                    + errors.prefix(5).map(\.description).joined(separator: "; "))
        case .success(let built): (compiled, problems) = built
        }
        if compiled.metadata.abstract {
            throw ServiceError(
                .invalidTheme,
                "theme '\(id)' is abstract: it exists to be inherited by other themes, not to be made active "
                    + "(`livery list` shows the themes that can be)")
        }
        steps.mark("compile")
        let prepared = PreparedTheme(id: id, theme: compiled, problems: problems)
        steps.mark("fingerprint")
        let index = index(for: prepared)
        steps.mark("index")
        // Saved before the reply, so that a crash right after `SetTheme` returns keeps the choice:
        // here, or by `savePending()` after the change is published.
        let saveFailure = configuration.savesAfterPublishing ? nil : save(id)
        steps.mark("save")
        let change = state.withLock { s -> Change? in
            if rescanned { s.catalog = catalog } else { s.catalog.adopt(catalog) }
            s.catalog.forget(keepingChainOf: id)
            if configuration.savesAfterPublishing {
                s.pendingSave = id
            } else {
                s.saveProblem = saveFailure
            }
            return ThemeService.commit(prepared, index: index, retaining: .recent, in: &s)
        }
        steps.mark("commit")
        if let change { log(.info, "active theme '\(id)' (serial \(change.serial))") }
        if .debug <= log.threshold { log(.debug, "switch to '\(id)': \(steps.summary)") }
        // The other themes of the new scan are checked and listed, as after a reload.
        if rescanned { startChecking() }
        return change
    }

    /// Saves `id` as the active theme; the failure's message, or nil.
    func save(_ id: String) -> String? {
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
    /// (called by `Service` on the switch queue, after publishing and before answering).
    func savePending() {
        guard
            let id = state.withLock({ s -> String? in
                defer { s.pendingSave = nil }
                return s.pendingSave
            })
        else { return }
        let failure = save(id)
        state.withLock { $0.saveProblem = failure }
    }
}
