import LiveryText

/// Text from a theme or a caller made safe for a terminal or a log: `LiveryText`'s `printable`
/// (one implementation, which `livery`'s Foundation-free front shares), under the name every
/// module that imports LiveryCore calls.
/// - Parameters:
///   - s: The text.
///   - keepingLines: Whether `\n` and `\t` are kept.
/// - Returns: `s` with every other control character replaced by U+FFFD.
public func printable(_ s: String, keepingLines: Bool = false) -> String {
    LiveryText.printable(s, keepingLines: keepingLines)
}
