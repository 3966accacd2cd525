import Foundation

/// The results table: every figure, with the target and pass/miss where it has one.
/// Targets are judged on medians (start-up: median of the runs; memory: the largest reading).
struct Report {
    var workloads: [WorkloadResults]
    var parse: (parse: [Double], compile: [Double], index: [Double])?
    var bus: BusResults?
    var failures: [String]
    var revision: String?

    struct Row: Codable {
        var figure: String
        var measured: String
        var target: String
        var result: String
    }

    static func rate(_ r: Runs?) -> String {
        guard let r else { return "—" }
        return String(
            format: "%@ nodes/s (best %@; %d runs)", grouped(r.medianRate), grouped(r.bestRate),
            r.seconds.count)
    }

    static func grouped(_ x: Double) -> String {
        let n = Int(x.rounded())
        var s = String(n)
        var i = s.count - 3
        while i > 0 {
            s.insert(",", at: s.index(s.startIndex, offsetBy: i))
            i -= 3
        }
        return s
    }

    static func verdict(_ ok: Bool) -> String { ok ? "pass" : "MISS" }

    var rows: [Row] {
        var rows: [Row] = []
        for w in workloads { rows += Report.rows(of: w) }
        if let p = parse {
            let total = median(p.parse) + median(p.compile) + median(p.index)
            rows.append(
                Row(
                    figure: "(b) 10,000-rule sheet: parse + compile",
                    measured: String(
                        format: "%.0f ms (parse %.0f, compile %.0f, selector map %.0f; median of %d)",
                        total * 1e3,
                        median(p.parse) * 1e3, median(p.compile) * 1e3, median(p.index) * 1e3, p.parse.count),
                    target: "", result: ""))
        }
        if let b = bus { rows += Report.rows(of: b) }
        return rows
    }

    /// A workload's rows: each walker's rate, the ratios the targets judge, the cross-check.
    static func rows(of w: WorkloadResults) -> [Row] {
        var rows: [Row] = []
        let tag = "(\(w.label)) \(Report.grouped(Double(w.rules))) rules"
        rows.append(
            Row(
                figure: "workload (\(w.label))",
                measured:
                    "\(Report.grouped(Double(w.rules))) rules; \(Report.grouped(Double(w.nodes))) nodes in \(w.trees) trees, depth ≤ \(w.maxDepth)",
                target: "", result: ""))
        for (label, runs) in [
            ("Livery indexed (interned tree)", w.indexed),
            ("Livery indexed (strings looked up per node)", w.indexedStrings),
            ("Livery naive (ablation)", w.naive), ("no-rule floor (interned tree)", w.floor),
            ("no-rule floor (strings looked up per node)", w.floorStrings),
        ] {
            guard let r = runs else { continue }
            rows.append(Row(figure: "\(tag): \(label)", measured: Report.rate(r), target: "", result: ""))
        }
        if let p = w.cssselect2 {
            rows.append(
                Row(
                    figure: "\(tag): cssselect2 + tinycss2", measured: Report.rate(p.runs), target: "",
                    result: ""))
        }
        let isA = w.label == "a"
        for (kind, i, f) in [
            ("interned tree", w.indexed, w.floor), ("strings", w.indexedStrings, w.floorStrings),
        ] {
            if let i, let p = w.cssselect2 {
                let x = i.medianRate / p.runs.medianRate
                rows.append(
                    Row(
                        figure: "\(tag): Livery ÷ cssselect2 (\(kind))",
                        measured: String(format: "%.0f×", x),
                        target: isA ? "≥ 100×" : "", result: isA ? Report.verdict(x >= 100) : ""))
            }
            if let i, let f {
                let x = f.medianRate / i.medianRate
                rows.append(
                    Row(
                        figure: "\(tag): Livery slower than the floor by (\(kind))",
                        measured: String(format: "%.2f×", x),
                        target: isA ? "≤ 4×" : "", result: isA ? Report.verdict(x <= 4) : ""))
            }
        }
        if let i = w.indexed, let n = w.naive {
            rows.append(
                Row(
                    figure: "\(tag): indexed ÷ naive",
                    measured: String(format: "%.1f×", i.medianRate / n.medianRate), target: "", result: ""
                ))
        }
        if let c = w.crossCheck {
            rows.append(
                Row(
                    figure: "(\(w.label)) cross-check of winners with cssselect2", measured: c,
                    target: "no difference", result: c.hasSuffix("differences") ? "FAIL" : "pass"))
        }
        return rows
    }

    /// liveryd's rows: start-up, memory, and Ping and Resolve over the bus.
    static func rows(of b: BusResults) -> [Row] {
        var rows: [Row] = []
        let m = median(b.startupSeconds) * 1e3
        rows.append(
            Row(
                figure:
                    "liveryd start-up to name acquired, \(b.themesGenerated) generated + \(b.themesShipped) shipped themes (\(b.themesListed) listed, \(b.themesValid) valid)",
                measured: String(
                    format: "%.0f ms median (best %.0f, first %.0f; %d starts)", m,
                    b.startupSeconds.min()! * 1e3,
                    b.startupSeconds[0] * 1e3, b.startupSeconds.count),
                target: "< 300 ms", result: Report.verdict(m < 300)))
        let rss = Double(b.rssKiBAfterStartup.max()!) * 1024 / 1e6
        rows.append(
            Row(
                figure: "liveryd resident memory after start-up (VmRSS)",
                measured: String(
                    format: "%.1f MB (largest of %d; %.1f MB after the call loops)", rss,
                    b.rssKiBAfterStartup.count,
                    Double(b.rssKiBAfterCalls) * 1024 / 1e6),
                target: "< 40 MB", result: Report.verdict(rss < 40)))
        let n = Double(b.calls)
        for (kind, p, r, ratios, f, floorRatios, il) in [
            (
                "each call marshalled anew", b.ping, b.resolve, b.ratios, b.floor.resolve, b.floor.ratios,
                b.interleaved
            ),
            (
                "each call marshalled once, a copy sent (`PreparedCall`)", b.preparedPing,
                b.preparedResolve, b.preparedRatios, b.floor.preparedResolve, b.floor.preparedRatios,
                b.preparedInterleaved
            ),
        ] {
            rows.append(
                Row(
                    figure: "Peer.Ping over the bus, one client, \(kind)",
                    measured: "\(Report.grouped(n / p.seconds)) calls/s (\(Report.grouped(n)) calls)",
                    target: "", result: ""))
            rows.append(
                Row(
                    figure: "Resolve `\(b.resolvePath)` (all properties), one client, \(kind)",
                    measured: "\(Report.grouped(n / r.seconds)) calls/s (\(Report.grouped(n)) calls)",
                    target: "", result: ""))
            for (who, pc, rc) in [
                ("liveryd", p.daemonCPU, r.daemonCPU), ("dbus-daemon", p.busCPU, r.busCPU),
                ("the client", p.clientCPU, r.clientCPU),
            ] {
                guard let pc, let rc else { continue }
                rows.append(
                    Row(
                        figure: "CPU (user + system) of \(who) a call, Ping / Resolve, \(kind)",
                        measured: String(format: "%.1f µs / %.1f µs", pc / n * 1e6, rc / n * 1e6),
                        target: "", result: ""))
            }
            // Judged on the median of the rounds' ratios (each round times both back to
            // back); the ratio of the totals is shown beside it.
            let x = median(ratios)
            rows.append(
                Row(
                    figure: "Resolve ÷ Ping, \(kind)",
                    measured: String(
                        format: "%.2f× (median of %d rounds, %.2f–%.2f; %.2f× from the totals)", x,
                        ratios.count, ratios.min() ?? .nan, ratios.max() ?? .nan, p.seconds / r.seconds),
                    target: "≥ 0.8×",
                    result: Report.verdict(x >= 0.8)))
            rows += floorRows(kind: kind, n: n, resolve: r, floor: f, ratios: floorRatios)
            rows += interleavedRows(kind: kind, il)
        }
        return rows
    }

    /// The C floor's rows for one kind of call: its rate, the CPU a call of the floor server
    /// and its dbus-daemon next to liveryd's, and liveryd's Resolve ÷ the floor's (judged on
    /// the median of the rounds, each timing both).
    static func floorRows(
        kind: String, n: Double, resolve r: BusResults.Loop, floor f: BusResults.Loop, ratios: [Double]
    ) -> [Row] {
        var rows = [
            Row(
                figure: "Resolve answered by the C floor (libdbus, the same reply marshalled once), \(kind)",
                measured: "\(Report.grouped(n / f.seconds)) calls/s (\(Report.grouped(n)) calls)",
                target: "", result: "")
        ]
        for (who, fc, rc) in [
            ("the server", f.daemonCPU, r.daemonCPU), ("dbus-daemon", f.busCPU, r.busCPU),
            ("the client", f.clientCPU, r.clientCPU),
        ] {
            guard let fc, let rc else { continue }
            rows.append(
                Row(
                    figure: "CPU (user + system) of \(who) a Resolve, C floor / liveryd, \(kind)",
                    measured: String(format: "%.1f µs / %.1f µs", fc / n * 1e6, rc / n * 1e6),
                    target: "", result: ""))
        }
        rows.append(
            Row(
                figure: "Resolve, liveryd ÷ the C floor, rounds of blocks, \(kind)",
                measured: String(
                    format: "%.2f× (median of %d rounds, %.2f–%.2f; %.2f× from the totals)", median(ratios),
                    ratios.count, ratios.min() ?? .nan, ratios.max() ?? .nan, f.seconds / r.seconds),
                target: "", result: ""))
        return rows
    }

    /// The call-by-call rows for one kind of call: round trips, Resolve ÷ Ping, and liveryd's
    /// Resolve ÷ the C floor's, the figure the ≥ 0.9 target judges.
    static func interleavedRows(kind: String, _ il: Interleaved) -> [Row] {
        func us(_ q: [Double]) -> String {
            String(format: "%.1f µs (p10 %.1f, p90 %.1f)", q[1] * 1e6, q[0] * 1e6, q[2] * 1e6)
        }
        let rounds = Report.grouped(Double(il.rounds))
        return [
            Row(
                figure: "Round trips, \(rounds) rounds of a Ping then a Resolve, p50: Ping; Resolve, \(kind)",
                measured: "\(us(il.ping)); \(us(il.resolveAfterPing))", target: "", result: ""),
            Row(
                figure: "Resolve ÷ Ping, call by call, \(kind)",
                measured: String(
                    format: "%.2f× (median of the rounds; %.2f× from the totals)", il.resolveOverPing,
                    il.resolveOverPingTotals), target: "", result: ""),
            Row(
                figure:
                    "Round trips, \(rounds) rounds of a Resolve of liveryd then one of the C floor, p50: liveryd; C floor, \(kind)",
                measured: "\(us(il.resolve)); \(us(il.floor))", target: "", result: ""),
            Row(
                figure: "**Resolve, liveryd ÷ the C floor, call by call, \(kind)**",
                measured: String(
                    format: "%.2f× (median of the rounds; %.2f× from the totals)", il.resolveOverFloor,
                    il.resolveOverFloorTotals),
                target: "≥ 0.9×", result: Report.verdict(il.resolveOverFloor >= 0.9)),
        ]
    }

    var table: String {
        var s = "| figure | measured | target | result |\n|---|---|---|---|\n"
        for r in rows { s += "| \(r.figure) | \(r.measured) | \(r.target) | \(r.result) |\n" }
        return s
    }

    static func machine() -> String {
        let cpu =
            (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?.split(separator: "\n")
            .first { $0.hasPrefix("model name") }.map {
                $0.split(separator: ":", maxSplits: 1)[1].trimmingCharacters(in: .whitespaces)
            }
            ?? "?"
        let mem =
            (try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8))?.split(separator: "\n")
            .first { $0.hasPrefix("MemTotal") }.map {
                $0.split(separator: ":", maxSplits: 1)[1].trimmingCharacters(in: .whitespaces)
            }
            ?? "?"
        return
            "\(ProcessInfo.processInfo.activeProcessorCount) CPUs (\(cpu)), \(mem) memory, \(ProcessInfo.processInfo.operatingSystemVersionString)"
    }

    var markdown: String {
        var s = "# livery-bench results\n\n"
        s += "Written by `make bench` (livery-bench) on \(ISO8601DateFormatter().string(from: Date())).\n\n"
        if let revision { s += "Source: \(revision).\n\n" }
        s += "Machine: \(Report.machine()).\n\n"
        s += "Nodes/s are median over the runs (best in brackets); targets are judged on medians.\n\n"
        s += table
        if !failures.isEmpty { s += "\n**FAILED:**\n\n```\n" + failures.joined(separator: "\n") + "\n```\n" }
        return s
    }

    var json: String {
        struct Doc: Encodable {
            var machine: String
            var rows: [Row]
            var workloads: [WorkloadResults]
            var parseSeconds: [String: [Double]]?
            var bus: BusResults?
            var failures: [String]
        }
        let doc = Doc(
            machine: Report.machine(), rows: rows, workloads: workloads,
            parseSeconds: parse.map { ["parse": $0.parse, "compile": $0.compile, "selectorMap": $0.index] },
            bus: bus,
            failures: failures)
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: (try? e.encode(doc)) ?? Data(), as: UTF8.self) + "\n"
    }
}
