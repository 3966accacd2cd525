import LiveryCore

/// The one path by which a theme becomes active: every switch (`switchTo`) and every reload
/// (`reloadHoldingSwitch`) prepares a `PreparedTheme`, builds or reuses its index with `state`
/// not locked (`index(for:)`), and then `commit`s it under the lock. A commit that changes
/// nothing (same id, fingerprint and palette, no image edited) keeps the active index and serial.
extension ThemeService {
    /// Which kept indexes a commit leaves (`PreparedCascades`).
    enum Retention {
        /// The last few themes', for switching back (a switch).
        case recent
        /// The active theme's alone: files changed on disk, so the others are built again when
        /// needed (a reload).
        case activeOnly
    }

    /// The index `prepared` would be served with, built before the commit so that `Resolve` is
    /// answered meanwhile, or one kept for a theme compiled to the same rules, palette and
    /// schema; nil when committing it would change nothing. Called with `switching` held.
    func index(for prepared: PreparedTheme) -> Cascade? {
        let (kept, changed) = state.withLock { s in
            (
                s.prepared.cascade(for: prepared.key),
                ThemeService.changes(s, to: prepared)
            )
        }
        guard changed else { return nil }
        return kept ?? Cascade(theme: prepared.theme)
    }

    /// Whether `prepared` differs from the active theme of `s` in its id, its fingerprint, its
    /// palette (which plugins' templates read though no rule may name a colour) or an image's
    /// file.
    private static func changes(_ s: State, to prepared: PreparedTheme) -> Bool {
        prepared.id != s.activeID || prepared.fingerprint != s.fingerprint
            || prepared.theme.palette != s.cascade.theme.palette
            || !PreparedTheme.editedImages(from: s.images, to: prepared.images).isEmpty
    }

    /// Makes `prepared` the active theme with `index` (from `index(for:)`; built here when
    /// nil and yet needed), its problems the current ones, and bumps the serial, when it
    /// changes anything; called with `state` locked and `switching` held. `compile`, the read
    /// and compile `prepared` came from, is kept with its index for switching back.
    /// - Returns: the change to publish, or nil when nothing changed.
    static func commit(
        _ prepared: PreparedTheme, index: Cascade?, retaining retention: Retention, compile: KeptCompile?,
        in s: inout State
    ) -> Change? {
        s.currentProblems = prepared.problems
        guard changes(s, to: prepared) else {
            // The active theme compiled again to the same: its index stays, with this compile
            // (files looked at later than the one kept).
            switch retention {
            case .recent: s.prepared.keep(s.cascade, for: prepared.key, compile: compile)
            case .activeOnly: s.prepared.keepOnly(s.cascade, for: prepared.key, compile: compile)
            }
            return nil
        }
        let edited = PreparedTheme.editedImages(from: s.images, to: prepared.images)
        let cascade = index ?? Cascade(theme: prepared.theme)
        switch retention {
        case .recent: s.prepared.keep(cascade, for: prepared.key, compile: compile)
        case .activeOnly: s.prepared.keepOnly(cascade, for: prepared.key, compile: compile)
        }
        s.activeID = prepared.id
        s.cascade = cascade
        s.fingerprint = prepared.fingerprint
        s.images = prepared.images
        s.serialNumber &+= 1
        return Change(theme: prepared.id, serial: s.serialNumber, editedImages: edited)
    }
}
