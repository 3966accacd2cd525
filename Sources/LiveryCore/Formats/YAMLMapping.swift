/// The errors of one YAML file, and its mappings read against the keys they may have: the one
/// place that says a key must be a plain name, known, and given once, for `plugin.yaml`,
/// `config.yaml`, a template repository's `config.yaml` and base16 schemes. Every error is a
/// compiler-style diagnostic at its node (`file:line:column`, with the line for the caret).
///
/// A class so that a caller's closure given to `forEachField` may report errors of its own
/// while the reader walks the mapping.
final class YAMLMappingReader {
    /// A key of a mapping that passed the checks, with its value.
    struct Field {
        /// The key as the reader knows it (the entry of `known`).
        var name: String
        var key: YAMLNode
        var value: YAMLNode
    }

    /// What to do with a key that is not one of the known ones.
    enum OtherKeys {
        /// Report it: "a key must be a plain name" for a key that is not a scalar, the message
        /// of `unsupported` for a key of a contract not done yet, else "unknown key 'k'" with
        /// the known key it likely misspells (`hints` first: another program's name for it).
        case reported(hints: [String: String] = [:], unsupported: [String: String] = [:])
        /// Pass over it (a scheme's keys beyond its colours are its own business).
        case ignored
    }

    /// The path the diagnostics name.
    let file: String
    /// The file's lines, for the diagnostics' source lines.
    let lines: YAMLNode.Lines
    /// Every error reported so far, in the order reported.
    private(set) var diagnostics: [Diagnostic] = []

    init(text: String, file: String) {
        self.file = file
        lines = YAMLNode.Lines(text)
    }

    /// Reports an error at `mark`.
    func error(_ message: String, at mark: YAMLNode.Mark) {
        diagnostics.append(diagnostic(message, at: mark))
    }

    /// An error at `mark`, not reported (for a caller that throws it).
    func diagnostic(_ message: String, at mark: YAMLNode.Mark) -> Diagnostic {
        YAMLNode.diagnostic(message, at: mark, lines: lines, file: file)
    }

    /// Where `mark` is in the file.
    func location(_ mark: YAMLNode.Mark) -> SourceLocation {
        SourceLocation(file: file, line: mark.line, column: mark.column)
    }

    /// Calls `body` with each pair of `pairs` whose key is one of `known`, in file order, the
    /// first time that key is given; reports (or passes over) every other key as `others`
    /// says, and a known key given again ("'k' is given twice"), each at the key. The errors
    /// and `body`'s own come in the order of the pairs.
    /// - Parameter ignoringCase: Match keys to `known` whatever their case (`base0a` for
    ///   `base0A`); `Field.name` is then `known`'s spelling.
    func forEachField(
        of pairs: [(YAMLNode, YAMLNode)], known: [String], others: OtherKeys = .reported(),
        ignoringCase: Bool = false, _ body: (Field) -> Void
    ) {
        var seen: Set<String> = []
        for (key, value) in pairs {
            guard let name = knownName(key, among: known, others: others, ignoringCase: ignoringCase) else {
                continue
            }
            guard seen.insert(name).inserted else {
                error("'\(name)' is given twice", at: key.mark)
                continue
            }
            body(Field(name: name, key: key, value: value))
        }
    }

    /// The fields `forEachField` would call its closure with.
    func fields(
        of pairs: [(YAMLNode, YAMLNode)], known: [String], others: OtherKeys = .reported(),
        ignoringCase: Bool = false
    ) -> [Field] {
        var out: [Field] = []
        forEachField(of: pairs, known: known, others: others, ignoringCase: ignoringCase) { out.append($0) }
        return out
    }

    /// `key`'s entry of `known`, or nil after reporting why it has none (when `others` says to).
    private func knownName(
        _ key: YAMLNode, among known: [String], others: OtherKeys, ignoringCase: Bool
    ) -> String? {
        guard let name = key.scalar else {
            if case .reported = others { error("a key must be a plain name", at: key.mark) }
            return nil
        }
        let match =
            ignoringCase
            ? known.first { $0.lowercased() == name.lowercased() } : known.contains(name) ? name : nil
        if let match { return match }
        guard case .reported(let hints, let unsupported) = others else { return nil }
        if let why = unsupported[name] {
            error(why, at: key.mark)
            return nil
        }
        let likely =
            hints[name].flatMap { known.contains($0) ? $0 : nil } ?? suggestion(for: name, among: known)
        error("unknown key '\(name)'" + (likely.map { " (did you mean '\($0)'?)" } ?? ""), at: key.mark)
        return nil
    }
}
