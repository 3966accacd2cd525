import Foundation
import LiveryCore
import Synchronization

/// The variant policy: which theme `toggle` and `setVariant` switch to.
extension ThemeService {
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

    /// `setVariant`, with `switching` held.
    private func switchVariant(to wanted: String) throws(ServiceError) -> (theme: String, change: Change?) {
        let (meta, known, catalog) = state.withLock { s in (s.cascade.theme.metadata, s.listings, s.catalog) }
        if meta.variant == wanted { return (meta.id, nil) }
        let loaded = self.config.current()
        let configBroken: Bool
        let config: VariantConfig
        switch loaded {
        case .success(let c)?: (config, configBroken) = (c, false)
        case .failure?: (config, configBroken) = (VariantConfig(), true)
        case nil: (config, configBroken) = (VariantConfig(), false)
        }
        // The variant of an installed theme: from its last check, or read now.
        func variant(of id: String) -> String? {
            if let listing = known[id] { return listing.metadata.variant }
            var reading = catalog
            reading.read(id)
            guard reading.sources[id] != nil else { return nil }
            return ThemeService.listing(
                id, catalog: reading, schema: schema, pictures: configuration.pictures
            ).metadata.variant
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
}
