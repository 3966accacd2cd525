/// When live reload runs after files change: each file has its own quiet period, and a bound.
///
/// The rule: a changed file is *settled* when `quiet` has passed since its last event, or `bound`
/// since its first event not yet followed by a reload, whichever comes first. When any file has
/// settled, one reload runs; it reads every file, so it publishes every change seen until then,
/// and every file starts over with its next event. So an editor's several writes to one file
/// (temporary file, rename, chmod) make one reload, and an edit is published within `bound`
/// however often other files are written; a file written without a pause is itself reloaded once
/// per `bound`.
///
/// Times are milliseconds on one monotonic clock, supplied by the caller (the watcher's thread
/// reads `CLOCK_MONOTONIC`; tests give their own). Each event costs amortised constant time: the
/// quiet deadline is the oldest last event among the files, kept as a queue in event order.
struct FileDebounce {
    /// Milliseconds of quiet after a file's last event.
    let quiet: Int64
    /// Milliseconds after a file's first event at most.
    let bound: Int64
    /// Every event since the last reload, in time order; an entry is stale when its file has a
    /// later one (`latest` holds the index of each file's newest).
    private var events: [(file: String, time: Int64)] = []
    private var latest: [String: Int] = [:]
    /// The index in `events` of the oldest entry that may not be stale.
    private var head = 0

    init(quiet: Int64, bound: Int64) {
        self.quiet = quiet
        self.bound = bound
    }

    /// Whether no file is waiting for a reload.
    var isEmpty: Bool { latest.isEmpty }

    /// Notes an event of `file` at `time` (not earlier than the events before it).
    mutating func record(_ file: String, at time: Int64) {
        latest[file] = events.count
        events.append((file, time))
    }

    /// When the first file settles, or nil when none is waiting.
    mutating func deadline() -> Int64? {
        guard let first = events.first else { return nil }
        // The earliest first event is the oldest of all, as nothing is removed before a reload.
        while latest[events[head].file] != head { head += 1 }
        return min(events[head].time + quiet, first.time + bound)
    }

    /// Whether a file has settled at `now`; if so every file is forgotten, as the reload that
    /// follows reads them all.
    mutating func settle(at now: Int64) -> Bool {
        guard let due = deadline(), now >= due else { return false }
        events.removeAll(keepingCapacity: true)
        latest.removeAll(keepingCapacity: true)
        head = 0
        return true
    }
}
