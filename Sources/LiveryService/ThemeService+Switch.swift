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

    /// Makes theme `requested` active: the compile kept of it (`PreparedCascades`) when every
    /// file it read is unchanged and the catalog is the same scan, else the theme read and
    /// compiled with `state` not locked; then commits it. Called with `switching` held, so the
    /// active theme cannot change in between.
    func switchTo(_ requested: String) throws(ServiceError) -> Change? {
        let asked = askedAt.withLock { at in
            defer { at = nil }
            return at
        }
        var steps = SwitchSteps(since: asked)
        if asked != nil { steps.mark("queued") }
        let (catalog, scan) = state.withLock { ($0.catalog, $0.catalogScan) }
        // An alias (`base16-nord`) activates the scheme it names, listed under its own id.
        let id = catalog.canonicalID(requested)
        var compile: KeptCompile
        var rescanned: ThemeCatalog?
        let kept = state.withLock { $0.prepared.compile(of: id, scan: scan) }.flatMap {
            $0.files.isCurrent ? $0 : nil
        }
        if let kept {
            compile = kept
            steps.mark("kept")
        } else {
            (compile, rescanned) = try readAndCompile(requested, catalog: catalog, scan: scan, steps: &steps)
        }
        let index = index(for: compile.prepared)
        steps.mark("index")
        // Saved before the reply, so that a crash right after `SetTheme` returns keeps the choice:
        // here, or by `savePending()` after the change is published.
        let saveFailure = configuration.savesAfterPublishing ? nil : save(compile.id)
        steps.mark("save")
        let change = state.withLock { s -> Change? in
            if let rescanned {
                s.catalog = rescanned
                s.catalogScan += 1
                compile.scan = s.catalogScan
            }
            s.catalog.adopt(read: compile.chain)
            s.catalog.forget(keepingChainOf: compile.id)
            if kept == nil { s.switchCompiles += 1 } else { s.keptCompilesUsed += 1 }
            if configuration.savesAfterPublishing {
                s.pendingSave = compile.id
            } else {
                s.saveProblem = saveFailure
            }
            return ThemeService.commit(
                compile.prepared, index: index, retaining: .recent, compile: compile, in: &s)
        }
        steps.mark("commit")
        if let change { log(.info, "active theme '\(compile.id)' (serial \(change.serial))") }
        if .debug <= log.threshold { log(.debug, "switch to '\(compile.id)': \(steps.summary)") }
        // The other themes of the new scan are checked and listed, as after a reload.
        if rescanned != nil { startChecking() }
        return change
    }

    /// Reads theme `requested` (its chain's files read before and changed since read again),
    /// the overrides, and compiles them, recording every file looked at.
    /// - Returns: the compile, and the catalog of a new scan when the theme was found only by
    ///   scanning the search path again (it becomes the daemon's at the commit).
    /// - Throws: `UnknownTheme`, `InvalidTheme` (errors, or an abstract theme).
    private func readAndCompile(
        _ requested: String, catalog current: ThemeCatalog, scan: Int, steps: inout SwitchSteps
    ) throws(ServiceError) -> (KeptCompile, rescanned: ThemeCatalog?) {
        var catalog = current
        var id = catalog.canonicalID(requested)
        catalog.read(id, again: true)
        // A theme written since the last scan (`livery generate --out DIR && livery set ID`)
        // is looked for on the search path now rather than after live reload's quiet period;
        // the new scan then becomes the daemon's, as a reload's does.
        var rescanned = false
        if catalog.sources[id] == nil {
            var fresh = ThemeCatalog(
                searchPath: configuration.searchPath, formats: configuration.formats(), readingOnly: [])
            let found = fresh.canonicalID(requested)
            fresh.read(found)
            if fresh.sources[found] != nil { (catalog, id, rescanned) = (fresh, found, true) }
        }
        steps.mark("read")
        guard catalog.sources[id] != nil else {
            let hint =
                suggestion(for: id, among: catalog.installedIDs).map { " (did you mean '\($0)'?)" } ?? ""
            throw ServiceError(.unknownTheme, "no theme '\(id)' is installed\(hint)")
        }
        let (overrides, overrideFiles) = FileStamps.recording {
            ThemeService.readOverrides(configuration.overridesFile, log: log)
        }
        steps.mark("overrides")
        let (built, compileFiles) = FileStamps.recording {
            ThemeService.compile(
                id, catalog: catalog, schema: schema, overrides: overrides, pictures: configuration.pictures,
                log: log)
        }
        let compiled: CompiledTheme
        let problems: [String]
        switch built {
        case .failure(let failure):
            let errors = failure.errors
            throw ServiceError(
                .invalidTheme,
                "theme '\(id)' has \(errors.count) error\(errors.count == 1 ? "" : "s"): "
                    + errors.prefix(5).map(\.description).joined(separator: "; "))
        case .success(let theme): (compiled, problems) = theme
        }
        if compiled.metadata.abstract {
            throw ServiceError(
                .invalidTheme,
                "theme '\(id)' is abstract: it exists to be inherited by other themes, not to be made active "
                    + "(`livery list` shows the themes that can be)")
        }
        steps.mark("compile")
        let prepared = PreparedTheme(id: id, theme: compiled, problems: problems)
        // The chain compiled (it was found, since the compile succeeded), each theme with the
        // files its read looked at.
        var chain: [ThemeSource] = []
        if case .success(let read) = catalog.chain(for: id) { chain = read }
        var files = overrideFiles
        files.formUnion(compileFiles)
        for source in chain { files.formUnion(source.files) }
        steps.mark("fingerprint")
        let compile = KeptCompile(id: id, scan: scan, chain: chain, files: files, prepared: prepared)
        return (compile, rescanned ? catalog : nil)
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
