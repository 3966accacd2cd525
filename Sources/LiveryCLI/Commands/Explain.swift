import LiveryAPI

extension Client {
    /// `livery explain PATH PROPERTY [--app ID] [--json]`.
    func explain() throws -> Int32 {
        let (path, property) = (inv.positional[0], inv.positional[1])
        let entries = ExplainEntry.list(
            decoding: try call(.explain, [.string(path), .string(property), .dict(options)]))
        if inv.json {
            printJSON(ExplainCommand.json(entries))
        } else {
            output.out(
                ExplainCommand.text(path: path, property: property, entries, terminal: output.isTerminal))
        }
        return 0
    }
}

/// The output of `livery explain`.
enum ExplainCommand {
    /// The path and property, how many earlier candidates are not shown, then each candidate
    /// on two lines: `=>` for the winner, its selector and value; its origin, layer, app and
    /// specificity and why it lost. When none matched, where the value came from instead.
    static func text(path: String, property: String, _ entries: [ExplainEntry], terminal: Bool) -> String {
        var out = "\(path) \(property)\n"
        if let omitted = entries.first?.omitted { out += "   (\(omitted) earlier candidates not shown)\n" }
        for e in entries {
            let value = display(e.value, terminal: terminal)
            switch e.kind {
            case .inherited: out += "  no declaration matched: inherited from \(e.from) = \(value)\n"
            case .initial: out += "  no declaration matched: the schema's initial value = \(value)\n"
            case .declaration:
                let spec = "\(e.specificity.ids),\(e.specificity.classes),\(e.specificity.types)"
                let app = e.app.map { " \"\($0)\"" } ?? ""
                out +=
                    "\(e.winner ? "=>" : "  ") \(e.selector) = \(value)\n"
                    + "     \(e.origin)  layer \(e.layer)\(app)  specificity (\(spec))"
                    + (e.winner ? "  wins" : "  loses: \(e.reason)") + "\n"
            }
        }
        return out
    }

    /// `--json`: one object per entry, with the fields the daemon sent.
    static func json(_ entries: [ExplainEntry]) -> [[String: Any]] {
        entries.map { $0.fields.mapValues(LiveryCLI.json) }
    }
}
