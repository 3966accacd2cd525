import Foundation
import LiveryAPI
import LiveryDBus
import LiveryService
import Synchronization

/// The new instance's side of `liveryd --replace` (the README's "Replacing a running liveryd"):
///
/// 1. Before it asks for a name, it watches the bus on a connection of its own: who takes
///    `org.livery.Livery1` from whom, and which connections leave the bus.
/// 2. It takes every name it serves at once, with `DBUS_NAME_FLAG_REPLACE_EXISTING` (`Daemon`);
///    calls to them wait in its connection, unanswered, until it serves.
/// 3. It waits (`waitForPredecessor`) until the instance it took `org.livery.Livery1` from has
///    left the bus. That one, told by `NameLost`, starts no more switches, finishes the one
///    under way (saved to `state.json` before it is answered), lets the plugins render the
///    last change and exits (`LiveryInterface.retire`).
/// 4. Only then it reads `state.json` again (`ThemeService.restoreSavedTheme`), so that every
///    switch the old instance answered OK is in the state the new one starts from.
///
/// An old instance that has not left within `patience` (stopped, hung) is killed, so that it
/// cannot answer or save a switch behind the new one's back.
final class Handover: Sendable {
    /// The longest the old instance may take to leave, in seconds: a switch under way is
    /// bounded by the compiler's time limit (`ThemeCompiler.timeLimit`, 10 s), and the callers
    /// waiting meanwhile by D-Bus's default timeout (25 s).
    static let patience: Double = 15

    /// The connection that watches the bus; it exports nothing and owns no name.
    private let observer: Connection
    private let seen = Mutex(Seen())
    /// Signalled at every event recorded in `seen`.
    private let event = DispatchSemaphore(value: 0)
    private let log: Log

    /// What the observer has heard.
    private struct Seen {
        /// The owner `org.livery.Livery1` had before each unique name took it.
        var previousOwner: [String: String] = [:]
        /// The unique names that left the bus.
        var departed: Set<String> = []
    }

    /// Starts watching `bus`; call it before asking for `org.livery.Livery1`.
    /// - Throws: `DBusError` when the bus cannot be reached or refuses the match rules.
    init(bus: Bus, log: Log) throws(DBusError) {
        self.log = log
        observer = try Connection.open(bus)
        try observer.addMatch(LiveryBus.ownerRule) { [weak self] message in
            guard let change = NameOwnerChange(decoding: message.arguments), !change.newOwner.isEmpty else {
                return
            }
            self?.record { $0.previousOwner[change.newOwner] = change.oldOwner }
        }
        try observer.addMatch(OwnerWatch.departures) { [weak self] message in
            guard let change = NameOwnerChange(decoding: message.arguments), change.name == change.oldOwner
            else { return }
            self?.record { _ = $0.departed.insert(change.name) }
        }
        observer.startThread()
    }

    /// Waits until the instance `me` took `org.livery.Livery1` from has left the bus, killing it
    /// (SIGKILL) when it has not within `patience`; returns at once when the name had no owner.
    /// - Parameter me: The unique name of this instance's connection, which owns the name now.
    func waitForPredecessor(of me: String) {
        // The bus announces the new owner as it answers `RequestName`; the signal comes soon after.
        guard let predecessor = wait(seconds: 5, for: { $0.previousOwner[me] }) else {
            log(.warning, "did not hear who owned \(LiveryBus.name) before; starting without waiting")
            return
        }
        guard !predecessor.isEmpty else { return }
        log(.notice, "waiting for the replaced instance \(predecessor) to finish its switch and leave")
        if leaves(predecessor, within: Handover.patience) { return }
        kill(predecessor)
        if !leaves(predecessor, within: 5) {
            log(.error, "the replaced instance \(predecessor) is still on the bus; starting anyway")
        }
    }

    /// Stops watching: closes the observer's connection.
    func close() {
        observer.stop()
        observer.close()
    }

    /// Kills the process of the connection `unique` (SIGKILL), logging why.
    private func kill(_ unique: String) {
        let pid: UInt32
        do {
            let reply = try observer.call(
                destination: .bus, path: try ObjectPath("/org/freedesktop/DBus"), interface: .bus,
                member: try MemberName("GetConnectionUnixProcessID"), arguments: [.string(unique)])
            guard case .uint32(let p)? = reply.first else { return }
            pid = p
        } catch {
            log(.error, "cannot find the process of the replaced instance \(unique): \(error.message)")
            return
        }
        log(
            .warning,
            "the replaced instance \(unique) (pid \(pid)) did not leave within \(Int(Handover.patience)) s; killing it"
        )
        if Glibc.kill(pid_t(pid), SIGKILL) != 0 {
            log(.error, "cannot kill pid \(pid): \(String(cString: strerror(errno)))")
        }
    }

    /// Records what the observer heard and wakes `wait`.
    private func record(_ update: (inout Seen) -> Void) {
        seen.withLock { update(&$0) }
        event.signal()
    }

    /// Whether the connection `unique` leaves the bus within `seconds` (or has left).
    private func leaves(_ unique: String, within seconds: Double) -> Bool {
        wait(seconds: seconds, for: { $0.departed.contains(unique) ? true : nil }) ?? false
    }

    /// Waits up to `seconds` until `found` returns a value from what has been heard.
    private func wait<T>(seconds: Double, for found: (Seen) -> T?) -> T? {
        let deadline = DispatchTime.now() + seconds
        while true {
            if let value = seen.withLock({ found($0) }) { return value }
            if event.wait(timeout: deadline) == .timedOut { return seen.withLock { found($0) } }
        }
    }
}
