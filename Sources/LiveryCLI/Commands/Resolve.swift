import LiveryAPI
import LiveryDBus

extension Client {
    /// `livery resolve PATH [PROPERTY...] [--app ID] [--json]`.
    func resolve() throws -> Int32 {
        let properties = Array(inv.positional.dropFirst())
        let reply = try call(.resolve, [.string(inv.positional[0]), .strings(properties), .dict(options)])
        let values = reply.first.map(PropertyValues.init(decoding:)) ?? PropertyValues([])
        if inv.json {
            printJSON(ResolveCommand.json(values))
        } else {
            output.out(ResolveCommand.text(values, asked: properties, terminal: output.isTerminal))
        }
        return 0
    }
}

/// The output of `livery resolve`.
enum ResolveCommand {
    /// With one property asked, just its value; otherwise `property  value` lines, aligned, for
    /// the properties asked or, when none was, every property in the order sent.
    static func text(_ values: PropertyValues, asked: [String], terminal: Bool) -> String {
        if asked.count == 1, let v = values[asked[0]] { return display(v, terminal: terminal) + "\n" }
        let order = asked.isEmpty ? values.properties : asked
        let w = order.map(\.count).max() ?? 0
        return order.compactMap { k in values[k].map { "\(pad(k, w))  \(display($0, terminal: terminal))\n" }
        }
        .joined()
    }

    /// `--json`: one object, property → value.
    static func json(_ values: PropertyValues) -> [String: Any] {
        var o: [String: Any] = [:]
        for v in values.values { o[v.property] = LiveryCLI.json(v.value) }
        return o
    }
}
