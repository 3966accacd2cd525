import Foundation
import LiveryCore

/// Publication: each committed change and each change of the problems becomes one
/// `ServiceSnapshot` handed to every listener; the watched keys are recomputed on the
/// publication queue.
extension Service {
    /// Publishes a committed change: queues the recomputation of the watched keys, then tells
    /// every listener (the plugin runner first). Called on the switch queue.
    func publish(_ change: ThemeService.Change) {
        // The watched keys are recomputed on the publication queue (the other core), so that
        // nothing here waits for them to resolve. Their order against the snapshot's signals
        // is not part of the protocol (a watcher orders by serial).
        pendingEditedImages.withLock { $0.formUnion(change.editedImages) }
        let published = DispatchTime.now().uptimeNanoseconds
        publications.async { [weak self] in self?.publishWatches(since: published) }
        let cascade = themes.activeCascade
        let problems = self.problems
        let snapshot = announced.withLock { a in
            var changes: ServiceSnapshot.Changes = [.theme]
            if a.metadata.variant != cascade.theme.metadata.variant { changes.insert(.variant) }
            if a.problems != problems { changes.insert(.problems) }
            defer { a = (problems, cascade.theme.metadata) }
            return ServiceSnapshot(
                theme: change.theme, cascade: cascade, serial: change.serial, problems: problems,
                changes: changes, previousMetadata: a.metadata, editedImages: change.editedImages)
        }
        deliver(snapshot)
    }

    /// Publishes the problems when they differ from what listeners were last told.
    func announceProblems() {
        let (theme, cascade, serial) = (themes.activeTheme, themes.activeCascade, themes.serial)
        let problems = self.problems
        let snapshot = announced.withLock { a -> ServiceSnapshot? in
            guard a.problems != problems else { return nil }
            a.problems = problems
            return ServiceSnapshot(
                theme: theme, cascade: cascade, serial: serial, problems: problems, changes: [.problems],
                previousMetadata: a.metadata)
        }
        if let snapshot { deliver(snapshot) }
    }

    /// Hands `snapshot` to every listener, in the order they were added.
    private func deliver(_ snapshot: ServiceSnapshot) {
        for listener in listeners.withLock({ $0 }) { listener.published(snapshot) }
    }
}
