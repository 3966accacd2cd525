import Foundation
import LiveryCore

/// Where `livery` writes: standard output and error, replaceable in tests.
public struct Output: Sendable {
    /// Writes text to standard output as given; callers supply the newlines.
    public var out: @Sendable (String) -> Void
    /// Writes text to standard error as given; callers supply the newlines.
    public var err: @Sendable (String) -> Void
    /// Whether standard output is a terminal (colour swatches are shown only then).
    public var isTerminal: Bool

    /// The process's standard output and error, colour decided by `NO_COLOR`, `TERM` and isatty.
    /// Everything written to standard error passes `printable` (keeping its lines): its
    /// messages quote paths, theme ids and sheet lines that a caller or a theme controls, and
    /// the client writes no escape sequence there itself.
    public static let standard = Output(
        out: { s in
            FileHandle.standardOutput.write(Data(s.utf8))
        }, err: { FileHandle.standardError.write(Data(printable($0, keepingLines: true).utf8)) },
        isTerminal: Output.colourTerminal())

    /// Whether stdout is a terminal that takes colour: not with `NO_COLOR` set
    /// (no-color.org) or `TERM=dumb`.
    static func colourTerminal() -> Bool {
        let env = ProcessInfo.processInfo.environment
        return isatty(1) == 1 && (env["NO_COLOR"] ?? "").isEmpty && env["TERM"] != "dumb"
    }

    /// An output writing to the given closures, e.g. buffers in tests.
    public init(
        out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void, isTerminal: Bool
    ) {
        self.out = out
        self.err = err
        self.isTerminal = isTerminal
    }
}
