import Foundation
import LiveryCore

/// Writes log lines to stderr with `<N>` syslog priority prefixes, which journald reads
/// (sd-daemon(3), "SD_ERR" … "SD_DEBUG").
public struct Log: Sendable {
    /// Syslog priorities (RFC 5424 §6.2.1).
    public enum Level: Int, Comparable, Sendable, CaseIterable {
        /// `<3>`: something failed: the bus went away, the state could not be saved.
        case error = 3
        /// `<4>`: something is wrong but the daemon goes on, e.g. broken overrides ignored.
        case warning = 4
        /// `<5>`: normal but significant, e.g. the bus name taken or lost, a theme skipped.
        case notice = 5
        /// `<6>`: routine events, e.g. a theme activated or reloaded.
        case info = 6
        /// `<7>`: detail for debugging.
        case debug = 7
        /// Whether `a` is more severe than `b` (a lower syslog priority number).
        public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
        /// Parses `error`, `warning`, `notice`, `info` or `debug`.
        public init?(name: String) {
            guard let l = Level.allCases.first(where: { "\($0)" == name }) else { return nil }
            self = l
        }
    }

    /// Messages less important than this are dropped.
    public var threshold: Level
    private let sink: @Sendable (String) -> Void

    /// A log writing lines at `threshold` or more severe to `sink`.
    /// - Parameter sink: receives each line with its newline; stderr by default.
    public init(
        threshold: Level = .info,
        sink: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }
    ) {
        self.threshold = threshold
        self.sink = sink
    }

    /// The sink, for building another log with a different threshold.
    public var sinkForTests: @Sendable (String) -> Void { sink }

    /// Writes `message` when `level` is at least as severe as `threshold`, each of its lines
    /// prefixed with `<N>`, control characters but tabs shown as U+FFFD (`printable`): messages
    /// quote theme names, ids and sheet lines that a theme or a caller controls.
    /// - Parameters:
    ///   - level: How severe the message is.
    ///   - message: The text; a multi-line message becomes several records.
    public func callAsFunction(_ level: Level, _ message: String) {
        guard level <= threshold else { return }
        // One line per record: journald splits at newlines, and a multi-line diagnostic keeps its
        // prefix on every line.
        for line in message.split(separator: "\n", omittingEmptySubsequences: false) {
            sink("<\(level.rawValue)>\(printable(String(line), keepingLines: true))\n")
        }
    }
}
