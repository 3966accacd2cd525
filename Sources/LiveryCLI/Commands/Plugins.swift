import Foundation
import LiveryAPI
import LiveryCore

extension Client {
    /// `livery plugins [--json]`: every plugin, darkman script and built-in format.
    func plugins() throws -> Int32 {
        let plugins = PluginListing.list(decoding: try call(.listPlugins))
        if inv.json {
            printJSON(PluginsCommand.json(plugins))
        } else {
            output.out(PluginsCommand.table(plugins))
        }
        return 0
    }
}

/// The output of `livery plugins`.
enum PluginsCommand {
    /// One line per plugin: name, kind, origin, the last run's time and its result, then the
    /// path and any errors indented below.
    static func table(_ plugins: [PluginListing]) -> String {
        let rows = plugins.map { p -> [String] in
            let when =
                p.lastRun.map {
                    ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: TimeInterval($0)))
                } ?? "-"
            return [printable(p.name), p.kind, p.origin, when, printable(p.result)]
        }
        let w = (0..<4).map { c in rows.map { $0[c].count }.max() ?? 0 }
        var out = ""
        for (p, r) in zip(plugins, rows) {
            out += "\(pad(r[0], w[0]))  \(pad(r[1], w[1]))  \(pad(r[2], w[2]))  \(pad(r[3], w[3]))  \(r[4])\n"
            if !p.path.isEmpty { out += "    \(printable(p.path))\n" }
            for e in p.errors { out += "    \(printable(e))\n" }
        }
        return out
    }

    /// `--json`: one object per plugin with its name, kind and metadata.
    static func json(_ plugins: [PluginListing]) -> [[String: Any]] {
        plugins.map { p in
            var o: [String: Any] = ["name": p.name, "kind": p.kind]
            for (k, v) in p.metadata { o[k] = LiveryCLI.json(v) }
            return o
        }
    }
}
