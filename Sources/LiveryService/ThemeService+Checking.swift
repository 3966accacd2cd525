import Foundation
import LiveryCore
import Synchronization

/// The checker thread: every installed theme read and compiled for `listThemes`.
extension ThemeService {
    /// Reads every installed theme and compiles each for `listThemes`, on a thread of its own:
    /// the bus keeps being answered however large or hostile the files on the search path are.
    /// Each theme's listing is stored as soon as it is checked; a newer scan (a reload) makes
    /// this one stop.
    func startChecking() {
        // One checker at a time: a reload while one runs only bumps the generation, and the
        // running checker starts over with the new scan after the theme it is checking, so that
        // reloads in quick succession never hold more than one large compile at once.
        let startThread: Bool = state.withLock { s in
            s.scanGeneration += 1
            s.allChecked = false
            if s.checkerRunning { return false }
            s.checkerRunning = true
            s.checkerThreadsStarted += 1
            return true
        }
        guard startThread else { return }
        let thread = Thread { [weak self] in
            while let self {
                let generation = self.state.withLock { $0.scanGeneration }
                let finished = self.checkAll(generation: generation)
                let again: Bool = self.state.withLock { s in
                    guard generation == s.scanGeneration else { return true }
                    if finished { s.allChecked = true }
                    s.checkerRunning = false
                    return false
                }
                SystemCalls.returnFreedMemory()
                if again { continue }
                self.checkedCondition.lock()
                self.checkedCondition.broadcast()
                self.checkedCondition.unlock()
                return
            }
        }
        thread.name = "livery-check"
        thread.start()
    }

    /// One pass of checks for scan `generation`: the search path scanned, then each installed
    /// theme read alone, compiled and its listing stored; the themes with no listing yet (new
    /// ones) first.
    /// - Returns: whether every theme was checked (false when a newer scan began meanwhile).
    private func checkAll(generation: Int) -> Bool {
        // Scanned, nothing read: each theme is read for its check and freed after it.
        let scanned = ThemeCatalog(
            searchPath: configuration.searchPath, formats: configuration.formats(), readingOnly: [])
        let listed: Set<String>? = state.withLock { s in
            guard generation == s.scanGeneration else { return nil }
            // The new scan replaces the old one, with the active theme's chain as read.
            for note in scanned.notes where s.loggedNotes.insert(note).inserted { self.log(.notice, note) }
            var current = scanned
            current.adopt(s.catalog)
            current.forget(keepingChainOf: s.activeID)
            s.catalog = current
            s.catalogScan += 1
            return Set(s.listings.keys)
        }
        guard let listed else { return false }
        let ids = scanned.installedIDs
        for id in ids.filter({ !listed.contains($0) }) + ids.filter(listed.contains) {
            var one = scanned
            one.read(id)
            guard one.sources[id] != nil else { continue }
            // Until its check ends (a palette picture may take a while to decode), a new theme
            // is listed with what its sheets declare, not as its id with the `light` variant.
            let declared = ThemeService.unchecked(id, catalog: one)
            let reading: Bool = state.withLock { s in
                guard generation == s.scanGeneration else { return false }
                if s.listings[id] == nil { s.listings[id] = declared }
                return true
            }
            guard reading else { return false }
            let listing = ThemeService.listing(
                id, catalog: one, schema: schema, pictures: configuration.pictures)
            let current: Bool = state.withLock { s in
                guard generation == s.scanGeneration else { return false }
                s.listings[id] = listing
                return true
            }
            guard current else { return false }
        }
        return true
    }

    /// Checker threads started since the service was made.
    var checkerThreadsStarted: Int { state.withLock { $0.checkerThreadsStarted } }

    /// Waits until every installed theme of the latest scan has been checked.
    /// - Parameter timeout: The longest wait, in seconds.
    /// - Returns: Whether all were checked in time.
    @discardableResult
    public func waitUntilChecked(timeout: Double = 30) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        checkedCondition.lock()
        defer { checkedCondition.unlock() }
        while !state.withLock({ $0.allChecked }) {
            guard checkedCondition.wait(until: deadline) else { return state.withLock { $0.allChecked } }
        }
        return true
    }
}
