import Foundation
import LiveryCore

/// The watches: registering and releasing them, and recomputing the watched keys of each
/// published change for the listeners.
extension Service {
    /// Keys recomputed between two checks for a newer change.
    static let publicationBatch = 256

    /// A `Watch` of `keys` by `owner`, to be stepped until it answers (`WatchRequest`).
    public func watch(owner: String, keys: [WatchRegistry.Key]) -> WatchRequest {
        WatchRequest(service: self, owner: owner, keys: keys)
    }

    /// Removes one of `owner`'s watches of each key; keys it does not watch are ignored.
    /// - Returns: whether `owner` holds no watch any more.
    public func unwatch(owner: String, keys: [WatchRegistry.Key]) -> Bool {
        watches.remove(owner: owner, keys: keys)
        return watches.count(of: owner) == 0
    }

    /// Releases every watch of a client that left.
    /// - Returns: how many were released.
    public func releaseWatches(of owner: String) -> Int {
        watches.removeAll(of: owner)
    }

    /// Gives memory back to the system after many watches went: the active theme's resolved
    /// styles when nobody watches anything any more, then what malloc keeps.
    public func releaseFreedMemory() {
        if watches.watchedCount == 0 { themes.forgetResolvedStyles() }
        SystemCalls.returnFreedMemory()
    }

    /// Recomputes the watched keys of the newest published change, on the publication queue:
    /// every watched (path, app) below its serial in batches, each batch's changed keys handed
    /// to the listeners, and the serial marked complete when none is left below it (keys watched
    /// meanwhile are recomputed too). A newer change stops it between two batches: its own run
    /// recomputes what is left, from the values last sent, so nobody sees a value go back or
    /// misses the last one.
    /// - Parameter published: When the change was handed to this queue (`DispatchTime` uptime
    ///   nanoseconds), for the first batch's per-step log (`queued`); nil: not timed from there.
    func publishWatches(since published: UInt64? = nil) {
        var steps: SwitchSteps? = SwitchSteps(since: published)
        if published != nil { steps?.mark("queued") }
        let (cascade, serial) = themes.published
        guard serial > watches.completedSerial else { return }
        let edited = pendingEditedImages.withLock { $0 }
        // One scan for the keys to recompute, then batches of them; keys watched meanwhile are
        // found by the scan after the last batch.
        var pending: [WatchRegistry.Key] = []
        while true {
            if themes.serial != serial { return }  // superseded: the newer change's run is queued
            if pending.isEmpty {
                pending = watches.stale(below: serial).reversed()
                if pending.isEmpty {
                    if watches.complete(serial) { break }
                    continue
                }
            }
            let keys = Array(pending.suffix(Service.publicationBatch).reversed())
            pending.removeLast(keys.count)
            var values: [WatchRegistry.Key: [String: Value]] = [:]
            for key in keys {
                values[key] = try? ThemeService.values(of: key.path, app: key.app, in: cascade)
            }
            steps?.mark("resolve")
            let changed = watches.commit(values, serial: serial, editedImages: edited, keys: keys)
            if !changed.isEmpty {
                for listener in listeners.withLock({ $0 }) {
                    listener.watchedValuesChanged(changed, serial: serial)
                }
            }
            if var first = steps, .debug <= log.threshold {
                first.mark("send")
                log(.debug, "serial \(serial)'s first batch of \(keys.count) keys: \(first.summary)")
            }
            steps = nil
        }
        pendingEditedImages.withLock { $0.subtract(edited) }
    }
}
