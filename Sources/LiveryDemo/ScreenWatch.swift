import LiveryAPI
import LiveryCore
import LiveryDBus
import Synchronization

/// The watch of the sample screen's component paths on liveryd, through the shared client of
/// the watch protocol (`WatchClient`: a match rule for each path's `Changed`, then `Watch`, a
/// replacement watched again), with the values typed by the schema (`Value(decoding:type:)`).
public final class ScreenWatch: Sendable {
    /// Values of some paths: path → property → value.
    public typealias Update = [String: [String: Value]]

    private let client: WatchClient
    /// The values of the first `Watch`, which `start()` returns rather than delivers.
    private let first = FirstValues()

    /// A watch not started yet.
    /// - Parameters:
    ///   - connection: A connection to the bus liveryd is on; its loop runs `Changed` handlers.
    ///   - paths: The component paths to watch (`SampleScreen.paths`).
    ///   - app: The application id whose `@app` blocks apply, or nil for none.
    ///   - schema: The schema the daemon's themes use, for the type of each property.
    ///   - timeout: Seconds to wait for `Watch`'s reply.
    ///   - deliver: Called with the values of a `Changed` newer than those read, or all values
    ///     again after the daemon was replaced, one update at a time in the order they came.
    ///   - report: Called with what to tell the user: the daemon left the bus, or reading from
    ///     its replacement failed.
    public init(
        connection: Connection, paths: [String], app: String?, schema: Schema, timeout: Double = 5,
        deliver: @escaping @Sendable (Update) -> Void, report: @escaping @Sendable (String) -> Void
    ) {
        let first = self.first
        client = WatchClient(connection: connection, paths: paths, app: app, timeout: timeout) { event in
            switch event {
            case .values(let reply):
                var update: Update = [:]
                for component in reply.values.components {
                    update[component.path] = component.values.typed(by: schema)
                }
                let isFirst = first.values.withLock { stored in
                    guard stored == nil else { return false }
                    stored = update
                    return true
                }
                if !isFirst { deliver(update) }
            case .changed(let signal): deliver([signal.path: signal.values.typed(by: schema)])
            case .replaced: break
            case .left: report("liveryd left the bus; the window keeps its colours until it is back")
            case .failed(let error):
                let message = (error as? DBusError).map(ScreenWatch.describe) ?? "\(error)"
                report("cannot watch liveryd again: \(message)")
            }
        }
    }

    /// Adds the match rules and reads every property of each path with `Watch`. A `Changed`
    /// newer than these values that came before their reply is delivered before `start`
    /// returns: the values returned are older than every update delivered, so the caller
    /// applies them before any update it hands over.
    /// - Returns: The values of every path.
    /// - Throws: `DBusError` from the bus (`ServiceUnknown` when liveryd is not on it) or from
    ///   liveryd; `Failed` when the reply is not `(ua{sa{sv}})`.
    public func start() throws(DBusError) -> Update {
        do { try client.start() } catch let error as DBusError { throw error } catch {
            throw DBusError(.failed, "\(error)")
        }
        return first.values.withLock { $0 } ?? [:]
    }

    /// Where the first values wait for `start()`.
    private final class FirstValues: Sendable {
        let values = Mutex<Update?>(nil)
    }

    /// A bus error for people: what it means for the demo rather than libdbus's words.
    public static func describe(_ error: DBusError) -> String {
        switch error.name {
        case .serviceUnknown, .nameHasNoOwner:
            "liveryd is not running on this bus (\(error.name.rawValue)); start it with 'make run'"
        case .noReply, .timeout: "liveryd did not answer (is it stopped or busy?)"
        default:
            "\(LiveryErrorKind(errorName: error.name)?.rawValue ?? error.name.rawValue): \(error.message)"
        }
    }
}
