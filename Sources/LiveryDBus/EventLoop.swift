import CDBus
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The poll(2) loop that drives one libdbus connection on one thread.
///
/// libdbus reports the file descriptors it wants watched (`DBusWatch`) and the timers it
/// wants run (`DBusTimeout`) through callbacks that it invokes with the connection lock held,
/// from whichever thread happens to be inside libdbus. Those callbacks therefore only record
/// state here, under `state`'s mutex, and write a byte to the wake pipe; they never call back
/// into libdbus. The thread inside ``run(connection:)`` reads that state, polls, and calls
/// `dbus_watch_handle`, `dbus_timeout_handle` and `dbus_connection_dispatch` itself, never
/// while holding the mutex (libdbus may call the callbacks, which take it, from those calls).
///
/// Pointers are stored as integer bit patterns so that the state is plainly `Sendable`; they
/// are only turned back into pointers on the loop thread.
///
/// A wakeup is a byte written to the pipe, so only another thread writes one: on the loop
/// thread itself (libdbus's callbacks while it reads, dispatches or sends there, work queued by
/// a handler) the loop is not in poll(2) and looks at the queued work, the stop request, the
/// watches and the timeouts before it polls again.
final class EventLoop: Sendable {
    struct Watch: Sendable {
        var fd: Int32
        var flags: UInt32
        var enabled: Bool
    }

    struct Timeout: Sendable {
        var intervalMilliseconds: Int32
        var enabled: Bool
        var deadline: ContinuousClock.Instant
    }

    struct State: Sendable {
        var watches: [UInt: Watch] = [:]
        /// Counts the changes to `watches`, so that the loop rebuilds its poll set only after one.
        var watchesVersion = 0
        var timeouts: [UInt: Timeout] = [:]
        var work: [@Sendable () -> Void] = []
        var stopRequested = false
        var running = false
    }

    let state = Mutex(State())
    /// The thread inside ``run(connection:)`` (`pthread_self`), 0 when none: read by every
    /// wakeup, so kept outside `state`'s lock.
    private let loopThread = Atomic<UInt>(0)
    private let wakeReadFD: Int32
    private let wakeWriteFD: Int32

    init() {
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            for fd in fds {
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            }
        } else {
            // Without a wake pipe the loop still works, only woken by libdbus's own fds and
            // at the latest by the poll timeout below.
            fds = [-1, -1]
        }
        wakeReadFD = fds[0]
        wakeWriteFD = fds[1]
    }

    deinit {
        if wakeReadFD >= 0 { Glibc.close(wakeReadFD) }
        if wakeWriteFD >= 0 { Glibc.close(wakeWriteFD) }
    }

    /// Wakes the loop thread out of poll(2). Safe from any thread and from libdbus callbacks;
    /// nothing to do on the loop thread, which is not in poll(2) then.
    func wakeup() {
        guard wakeWriteFD >= 0, !isLoopThread else { return }
        var byte: UInt8 = 1
        _ = Glibc.write(wakeWriteFD, &byte, 1)
    }

    func enqueue(_ work: @escaping @Sendable () -> Void) {
        state.withLock { $0.work.append(work) }
        wakeup()
    }

    /// Queues `work` only if a loop is running, atomically with the loop's exit.
    ///
    /// - Returns: false when no loop runs; the caller must then do the work itself.
    func enqueueIfRunning(_ work: @escaping @Sendable () -> Void) -> Bool {
        let queued = state.withLock { s -> Bool in
            guard s.running else { return false }
            s.work.append(work)
            return true
        }
        if queued { wakeup() }
        return queued
    }

    func requestStop() {
        state.withLock { $0.stopRequested = true }
        wakeup()
    }

    static var currentThreadID: UInt { UInt(pthread_self()) }

    /// Whether the calling thread is the one inside ``run(connection:)``.
    var isLoopThread: Bool { loopThread.load(ordering: .relaxed) == EventLoop.currentThreadID }

    var isRunning: Bool { state.withLock { $0.running } }

    // MARK: libdbus callbacks (connection lock held: record and wake only)

    func addWatch(_ watch: OpaquePointer) {
        let record = Watch(
            fd: dbus_watch_get_unix_fd(watch), flags: dbus_watch_get_flags(watch),
            enabled: dbus_watch_get_enabled(watch) != 0)
        state.withLock {
            $0.watches[EventLoop.key(watch)] = record
            $0.watchesVersion &+= 1
        }
        wakeup()
    }

    func removeWatch(_ watch: OpaquePointer) {
        state.withLock {
            $0.watches.removeValue(forKey: EventLoop.key(watch))
            $0.watchesVersion &+= 1
        }
        wakeup()
    }

    func toggleWatch(_ watch: OpaquePointer) {
        let enabled = dbus_watch_get_enabled(watch) != 0
        state.withLock {
            $0.watches[EventLoop.key(watch)]?.enabled = enabled
            $0.watchesVersion &+= 1
        }
        wakeup()
    }

    func addTimeout(_ timeout: OpaquePointer) {
        let interval = dbus_timeout_get_interval(timeout)
        let record = Timeout(
            intervalMilliseconds: interval, enabled: dbus_timeout_get_enabled(timeout) != 0,
            deadline: .now + .milliseconds(Int(interval)))
        state.withLock { $0.timeouts[EventLoop.key(timeout)] = record }
        wakeup()
    }

    func removeTimeout(_ timeout: OpaquePointer) {
        _ = state.withLock { $0.timeouts.removeValue(forKey: EventLoop.key(timeout)) }
        wakeup()
    }

    func toggleTimeout(_ timeout: OpaquePointer) {
        // A re-enabled timeout starts a fresh interval (libdbus's own main loop does the same).
        let interval = dbus_timeout_get_interval(timeout)
        let enabled = dbus_timeout_get_enabled(timeout) != 0
        state.withLock {
            $0.timeouts[EventLoop.key(timeout)]?.enabled = enabled
            $0.timeouts[EventLoop.key(timeout)]?.intervalMilliseconds = interval
            $0.timeouts[EventLoop.key(timeout)]?.deadline = .now + .milliseconds(Int(interval))
        }
        wakeup()
    }

    static func key(_ pointer: OpaquePointer) -> UInt {
        UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(pointer)))
    }

    static func pointer(_ key: UInt) -> OpaquePointer? {
        OpaquePointer(bitPattern: key)
    }

    // MARK: The loop

    /// Runs until ``requestStop()`` or until the connection is disconnected.
    ///
    /// - Returns: false if another thread is already running this loop.
    @discardableResult
    func run(connection: OpaquePointer) -> Bool {
        let me = EventLoop.currentThreadID
        let started = state.withLock { s -> Bool in
            if s.running { return false }
            s.running = true
            return true
        }
        guard started else { return false }
        loopThread.store(me, ordering: .relaxed)
        defer {
            // Work queued while the loop ran is never dropped: run what is left here, on this
            // thread, after which enqueueIfRunning refuses new work.
            loopThread.store(0, ordering: .relaxed)
            let leftover = state.withLock { s -> [@Sendable () -> Void] in
                s.running = false
                s.stopRequested = false
                let w = s.work
                s.work = []
                return w
            }
            for item in leftover { item() }
        }

        var poll = PollSet()
        while true {
            let (work, stop) = state.withLock { s -> ([@Sendable () -> Void], Bool) in
                let w = s.work
                s.work = []
                return (w, s.stopRequested)
            }
            for item in work { item() }
            if stop { return true }

            // Dispatch everything already read; handlers run here, on this thread.
            while dbus_connection_dispatch(connection).rawValue == UInt32(CDBUS_DISPATCH_DATA_REMAINS) {
                if state.withLock({ $0.stopRequested }) { break }
            }
            if dbus_connection_get_is_connected(connection) == 0
                && dbus_connection_get_dispatch_status(connection).rawValue == UInt32(CDBUS_DISPATCH_COMPLETE)
            {
                // Drain work queued by the disconnect handlers, then stop for good.
                for item in takeWork() { item() }
                return true
            }
            if !state.withLock({ $0.work.isEmpty && !$0.stopRequested }) { continue }

            let (timeouts, version) = state.withLock { ($0.timeouts, $0.watchesVersion) }
            if poll.version != version { poll = pollDescriptors() }
            let ready = Glibc.poll(&poll.fds, nfds_t(poll.fds.count), nextTimeout(timeouts))
            if ready < 0 && errno != EINTR { continue }
            if wakeReadFD >= 0 && poll.fds[0].revents != 0 {
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 256) { buffer in
                    while Glibc.read(wakeReadFD, buffer.baseAddress, buffer.count) > 0 {}
                }
            }
            if ready > 0 { handleReadyWatches(poll) }
            if !timeouts.isEmpty { fireDueTimeouts(timeouts.keys) }
        }
    }

    /// What the loop polls, kept from one iteration to the next while the watches do not
    /// change (poll(2) rewrites every `revents`).
    struct PollSet {
        /// The `watchesVersion` it was built from; -1 before the first build.
        var version = -1
        var fds: [pollfd] = []
        /// Each entry's watch key; nil for the wake pipe.
        var owners: [UInt?] = []
    }

    /// The work queued so far, taken off the queue.
    private func takeWork() -> [@Sendable () -> Void] {
        state.withLock { s in
            let w = s.work
            s.work = []
            return w
        }
    }

    /// What to wait on: the wake pipe first (owner nil), then each enabled watch with the
    /// events its flags ask for (owner its key).
    private func pollDescriptors() -> PollSet {
        let (watches, version) = state.withLock { ($0.watches, $0.watchesVersion) }
        var pollFDs: [pollfd] = []
        var owners: [UInt?] = []
        if wakeReadFD >= 0 {
            pollFDs.append(pollfd(fd: wakeReadFD, events: Int16(POLLIN), revents: 0))
            owners.append(nil)
        }
        for (key, watch) in watches where watch.enabled && watch.fd >= 0 {
            var events: Int16 = 0
            if watch.flags & CDBUS_WATCH_READABLE != 0 { events |= Int16(POLLIN) }
            if watch.flags & CDBUS_WATCH_WRITABLE != 0 { events |= Int16(POLLOUT) }
            pollFDs.append(pollfd(fd: watch.fd, events: events, revents: 0))
            owners.append(key)
        }
        return PollSet(version: version, fds: pollFDs, owners: owners)
    }

    /// Milliseconds until the first enabled timeout is due; at most one second, so that a lost
    /// wakeup can never hang the loop for long.
    private func nextTimeout(_ timeouts: [UInt: Timeout]) -> Int32 {
        let now = ContinuousClock.now
        var milliseconds: Int32 = 1000
        for timeout in timeouts.values where timeout.enabled {
            let remaining = now.duration(to: timeout.deadline)
            let ms = max(
                0,
                remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000
            )
            milliseconds = min(milliseconds, Int32(clamping: ms))
        }
        return milliseconds
    }

    /// Hands each watch that `poll` found ready to libdbus, with what happened on it.
    private func handleReadyWatches(_ poll: PollSet) {
        for (index, entry) in poll.fds.enumerated() where entry.revents != 0 {
            guard let key = poll.owners[index] else { continue }
            var flags: UInt32 = 0
            if entry.revents & Int16(POLLIN) != 0 { flags |= CDBUS_WATCH_READABLE }
            if entry.revents & Int16(POLLOUT) != 0 { flags |= CDBUS_WATCH_WRITABLE }
            if entry.revents & Int16(POLLERR) != 0 { flags |= CDBUS_WATCH_ERROR }
            if entry.revents & Int16(POLLHUP) != 0 { flags |= CDBUS_WATCH_HANGUP }
            // A watch handled earlier in this pass may have removed this one.
            guard state.withLock({ $0.watches[key]?.enabled ?? false }),
                let watch = EventLoop.pointer(key)
            else { continue }
            dbus_watch_handle(watch, flags)
        }
    }

    /// Runs libdbus's handler of each of `keys`'s timeouts that is due, and sets it due again
    /// an interval later (timeouts repeat until libdbus removes or disables them).
    private func fireDueTimeouts(_ keys: Dictionary<UInt, Timeout>.Keys) {
        let after = ContinuousClock.now
        for key in keys {
            let due = state.withLock { s -> Bool in
                guard let t = s.timeouts[key], t.enabled, t.deadline <= after else { return false }
                s.timeouts[key]?.deadline = after + .milliseconds(Int(t.intervalMilliseconds))
                return true
            }
            if due, let timeout = EventLoop.pointer(key) {
                dbus_timeout_handle(timeout)
            }
        }
    }
}

// C entry points for libdbus. Each receives the EventLoop as retained user data, released by
// `eventLoopRelease` when libdbus drops the functions.

let eventLoopAddWatch: DBusAddWatchFunction = { watch, data in
    guard let watch, let data else { return 0 }
    Unmanaged<EventLoop>.fromOpaque(data).takeUnretainedValue().addWatch(watch)
    return 1
}

let eventLoopRemoveWatch: DBusRemoveWatchFunction = { watch, data in
    guard let watch, let data else { return }
    Unmanaged<EventLoop>.fromOpaque(data).takeUnretainedValue().removeWatch(watch)
}

let eventLoopToggleWatch: DBusWatchToggledFunction = { watch, data in
    guard let watch, let data else { return }
    Unmanaged<EventLoop>.fromOpaque(data).takeUnretainedValue().toggleWatch(watch)
}

let eventLoopAddTimeout: DBusAddTimeoutFunction = { timeout, data in
    guard let timeout, let data else { return 0 }
    Unmanaged<EventLoop>.fromOpaque(data).takeUnretainedValue().addTimeout(timeout)
    return 1
}

let eventLoopRemoveTimeout: DBusRemoveTimeoutFunction = { timeout, data in
    guard let timeout, let data else { return }
    Unmanaged<EventLoop>.fromOpaque(data).takeUnretainedValue().removeTimeout(timeout)
}

let eventLoopToggleTimeout: DBusTimeoutToggledFunction = { timeout, data in
    guard let timeout, let data else { return }
    Unmanaged<EventLoop>.fromOpaque(data).takeUnretainedValue().toggleTimeout(timeout)
}

let eventLoopWakeup: DBusWakeupMainFunction = { data in
    guard let data else { return }
    Unmanaged<EventLoop>.fromOpaque(data).takeUnretainedValue().wakeup()
}

let eventLoopDispatchStatus: DBusDispatchStatusFunction = { _, status, data in
    guard let data else { return }
    // Messages were queued by a thread other than the loop's (say, one blocked in a call):
    // the loop must come round to dispatch them.
    if status.rawValue == UInt32(CDBUS_DISPATCH_DATA_REMAINS) {
        Unmanaged<EventLoop>.fromOpaque(data).takeUnretainedValue().wakeup()
    }
}

let eventLoopRelease: DBusFreeFunction = { data in
    guard let data else { return }
    Unmanaged<EventLoop>.fromOpaque(data).release()
}
