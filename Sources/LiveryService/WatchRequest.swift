import Foundation
import LiveryCore

/// One `Watch` being answered, a step at a time (`step(until:)`): checks the limits, resolves
/// the keys nobody watches yet in the active theme a few at a time, then registers every key at
/// one serial. While a publication is under way the keys' serials can differ: it waits for the
/// publication to move on (`WatchRegistry.waitForProgress`) and reads again.
///
/// `@unchecked Sendable`: the mutable properties are used by one step after the other, never
/// two at once.
public final class WatchRequest: @unchecked Sendable {
    /// The client whose watches these are.
    public let owner: String
    private let keys: [WatchRegistry.Key]
    private let service: Service
    private var admitted = false
    /// The theme and serial `fresh` is read at.
    private var reading: (cascade: Cascade, serial: UInt32)?
    /// Values of keys nobody watched when they were read, by path (one `Watch` has one app).
    private var fresh: StyleSnapshot = [:]
    /// Keys still to resolve into `fresh`, the next one last.
    private var unresolved: [WatchRegistry.Key] = []
    private var attempts = 0
    /// Readings tried at most before the client is told to try again.
    static let maximumAttempts = 10_000

    init(service: Service, owner: String, keys: [WatchRegistry.Key]) {
        self.service = service
        self.owner = owner
        self.keys = keys
    }

    /// Works on the request until `deadline` or until it is answered.
    /// - Returns: the reading (the serial and every path's values) or the failure; nil when
    ///   there is more to do.
    public func step(until deadline: ContinuousClock.Instant) -> Result<WatchRegistry.Reading, ServiceError>?
    {
        do throws(ServiceError) {
            return try attempt(until: deadline).map { .success($0) }
        } catch {
            return .failure(error)
        }
    }

    private func attempt(until deadline: ContinuousClock.Instant) throws(ServiceError) -> WatchRegistry
        .Reading?
    {
        let watches = service.watches
        if !admitted {
            try watches.admit(owner: owner, keys: keys)
            for key in keys { try ThemeService.checkLimits(key.path, properties: [], app: key.app) }
            admitted = true
        }
        let reading = self.reading ?? service.themes.published
        if self.reading == nil {
            self.reading = reading
            unresolved = unwatchedAndUnread()
        }
        while let key = unresolved.last {
            if fresh[key.path] == nil {
                fresh[key.path] = try ThemeService.values(of: key.path, app: key.app, in: reading.cascade)
            }
            unresolved.removeLast()
            if !unresolved.isEmpty && ContinuousClock.now >= deadline { return nil }
        }
        let progress = watches.progress
        if let r = try watches.add(owner: owner, keys: keys, fresh: fresh, serial: reading.serial) {
            return r
        }
        attempts += 1
        guard attempts < WatchRequest.maximumAttempts else {
            throw ServiceError(.failed, "the theme kept changing while the paths were read; try again")
        }
        if service.themes.published.serial != reading.serial {
            // A newer change is published: read every key again, in it.
            (self.reading, fresh) = (nil, [:])
            return nil
        }
        // Keys released meanwhile are read now; with none, a publication is under way: its
        // next commit moves the keys' serials on.
        unresolved = unwatchedAndUnread()
        if unresolved.isEmpty { watches.waitForProgress(since: progress, timeout: 0.1) }
        return nil
    }

    /// The keys nobody watches and `fresh` has no values for, the first last.
    private func unwatchedAndUnread() -> [WatchRegistry.Key] {
        service.watches.unwatched(keys).filter { fresh[$0.path] == nil }.reversed()
    }
}
