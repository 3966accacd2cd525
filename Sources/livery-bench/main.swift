// livery-bench: Livery's cascade and daemon measured side by side with cssselect2 (issue 3 §2).
// `make bench` runs all of it; `make bench-profile` runs `--only indexed-a --runs 1` under
// callgrind. See bench/README.md.
import Foundation
import LiveryCore

/// Prints and flushes at once (stdout is a pipe under `make bench | tee`).
func say(_ s: String) {
    print(s)
    fflush(nil)
}

let usage = """
    Usage: livery-bench [--root DIR] [--out DIR] [--python PATH] [--runs N] [--only PART,...]
                        [--results FILE.md] [--calls N] [--daemon-wrapper "TOOL ARGS..."]
                        [--revision TEXT]
           livery-bench [--root DIR] --sample-screen FILE.json [--themes-dir DIR]...

    Parts: indexed-a naive-a floor-a strings-a indexed-b naive-b floor-b strings-b cssselect2-a
           cssselect2-b
           crosscheck parse bus (default: all). Exits 1 when the cross-check finds a difference.
    --sample-screen writes the gallery baseline's input (bench/gallery/) for the themes of the
    --themes-dir directories, in order, and nothing else.
    """

struct Options {
    var root = FileManager.default.currentDirectoryPath
    var outDir: String?
    var python: String?
    var runsOverride: Int?
    var only: Set<String>?
    var resultsFile: String?
    var calls = 20_000
    var revision: String?
    var daemonWrapper: [String] = []
    var sampleScreen: String?
    var themesDirectories: [String] = []
}

/// Every part `--only` takes.
let parts: Set<String> = [
    "indexed-a", "naive-a", "floor-a", "strings-a", "indexed-b", "naive-b", "floor-b", "strings-b",
    "cssselect2-a", "cssselect2-b", "crosscheck", "parse", "bus",
]

/// A positive integer option's value, or the usage and exit 2.
func positive(_ text: String, _ option: String) -> Int {
    guard let n = Int(text), n > 0 else {
        print("livery-bench: \(option) takes a positive number, not '\(text)'\n\(usage)")
        exit(2)
    }
    return n
}

let options: Options = {
    var o = Options()
    var args = Array(CommandLine.arguments.dropFirst())
    func value() -> String {
        guard args.count >= 2 else {
            print(usage)
            exit(2)
        }
        let v = args[1]
        args.removeFirst()
        return v
    }
    while let a = args.first {
        switch a {
        case "--root": o.root = value()
        case "--out": o.outDir = value()
        case "--python": o.python = value()
        case "--runs": o.runsOverride = positive(value(), "--runs")
        case "--only":
            o.only = Set(value().split(separator: ",").map(String.init))
            let unknown = o.only!.subtracting(parts).sorted()
            if !unknown.isEmpty {
                print("livery-bench: unknown part(s) \(unknown.joined(separator: ", "))\n\(usage)")
                exit(2)
            }
        case "--results": o.resultsFile = value()
        case "--revision": o.revision = value()
        case "--calls": o.calls = positive(value(), "--calls")
        case "--daemon-wrapper": o.daemonWrapper = value().split(separator: " ").map(String.init)
        case "--sample-screen": o.sampleScreen = value()
        case "--themes-dir": o.themesDirectories.append(value())
        case "-h", "--help":
            print(usage)
            exit(0)
        default:
            print("livery-bench: unknown option '\(a)'\n\(usage)")
            exit(2)
        }
        args.removeFirst()
    }
    return o
}()
let root = options.root
let runsOverride = options.runsOverride
let only = options.only
let outDir = options.outDir
let python = options.python
let resultsFile = options.resultsFile
let rootURL = URL(fileURLWithPath: root)
let out = URL(fileURLWithPath: outDir ?? rootURL.appendingPathComponent("bench/out").path)
try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
let pythonPath = python ?? rootURL.appendingPathComponent("bench/.venv/bin/python").path
let schemaURL = rootURL.appendingPathComponent("themes/schema.json")
let schema: Schema
do { schema = try Schema.load(from: schemaURL) } catch {
    print("livery-bench: cannot read \(schemaURL.path) (is --root the repository?): \(error)")
    exit(2)
}
if let file = options.sampleScreen {
    exit(dumpSampleScreen(to: file, searchPath: options.themesDirectories, schema: schema))
}
func wants(_ part: String) -> Bool { only?.contains(part) ?? true }
let fullRun = only == nil
var failures: [String] = []

// MARK: Workloads

let workloadSpecs: [(label: String, rules: Int, seed: UInt64)] = [
    ("a", 2_000, 0xA11CE), ("b", 10_000, 0xB0B),
]
let totalNodes = 100_000
/// Runs per mode and workload: the naive matcher is slow, so it gets fewer.
func runs(_ mode: String, _ label: String) -> Int {
    if let r = runsOverride { return r }
    switch (mode, label) {
    case ("naive", "a"): return 3
    case ("naive", "b"): return 2
    default: return 7
    }
}

struct Compiled {
    var cascade: Cascade
    var parse: Double
    var compile: Double
    var index: Double
}

func compileSheet(_ text: String, file: String) throws -> Compiled {
    let t0 = now()
    let sheet = SheetParser().parse(text, file: file)
    let t1 = now()
    let source = ThemeSource(id: "bench", format: "native", path: file, sheet: sheet)
    let (theme, diagnostics) = ThemeCompiler.compile(chain: [source], schema: schema)
    let t2 = now()
    guard let theme else {
        throw BenchFailure(
            "the generated sheet does not compile:\n"
                + diagnostics.prefix(5).map(\.rendered).joined(separator: "\n"))
    }
    let cascade = Cascade(theme: theme)
    let t3 = now()
    return Compiled(cascade: cascade, parse: t1 - t0, compile: t2 - t1, index: t3 - t2)
}

struct PythonResult: Codable {
    var engine: String
    var rules: Int
    var nodes: Int
    var parseSeconds: Double
    var compileSeconds: Double
    var runSeconds: [Double]
    var runs: Runs { Runs(seconds: runSeconds, nodes: nodes) }

    /// The keys the Python baseline writes.
    enum CodingKeys: String, CodingKey {
        case engine, rules, nodes
        case parseSeconds = "parse_seconds"
        case compileSeconds = "compile_seconds"
        case runSeconds = "run_seconds"
    }
}

func runPython(_ w: Workload, runs: Int, winners: URL?) throws -> PythonResult {
    guard FileManager.default.isExecutableFile(atPath: pythonPath) else {
        throw BenchFailure(
            "no Python with cssselect2 at \(pythonPath): run `make bench` once (it makes bench/.venv), or pass --python"
        )
    }
    let p = Process()
    p.executableURL = URL(fileURLWithPath: pythonPath)
    var args = [
        rootURL.appendingPathComponent("bench/cssselect2_bench.py").path,
        "--sheet", out.appendingPathComponent("\(w.label).css").path,
        "--trees", out.appendingPathComponent("\(w.label).xml").path,
        "--schema", schemaURL.path, "--runs", "\(runs)",
    ]
    if let winners { args += ["--winners", winners.path] }
    p.arguments = args
    let pipe = Pipe()
    p.standardOutput = pipe
    try p.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    guard p.terminationStatus == 0 else {
        throw BenchFailure("cssselect2_bench.py exited \(p.terminationStatus)")
    }
    return try JSONDecoder().decode(PythonResult.self, from: data)
}

struct WorkloadResults: Codable {
    var label: String
    var rules: Int
    var nodes: Int
    var trees: Int
    var maxDepth: Int
    var indexed: Runs?
    var naive: Runs?
    var floor: Runs?
    /// The same walks from the nodes' strings, interned as each node is pushed.
    var indexedStrings: Runs?
    var floorStrings: Runs?
    var cssselect2: PythonResult?
    var crossCheck: String?
}

var workloadResults: [WorkloadResults] = []
var parseResults: (parse: [Double], compile: [Double], index: [Double])?

for spec in workloadSpecs {
    let label = spec.label
    let parts = ["indexed", "naive", "floor", "strings", "cssselect2"].map { "\($0)-\(label)" }
    let needed =
        parts.contains(where: wants) || (label == "a" && wants("crosscheck"))
        || (label == "b" && wants("parse"))
    guard needed else { continue }
    let t0 = now()
    let w = Workload(
        label: label, ruleCount: spec.rules, nodeCount: totalNodes, seed: spec.seed, schema: schema)
    let liveryText = w.liverySheet
    let sheetFile = out.appendingPathComponent("\(label).livery.css")
    try liveryText.write(to: sheetFile, atomically: true, encoding: .utf8)
    try w.cssSheet.write(to: out.appendingPathComponent("\(label).css"), atomically: true, encoding: .utf8)
    try w.xml.write(to: out.appendingPathComponent("\(label).xml"), atomically: true, encoding: .utf8)
    let compiled = try compileSheet(liveryText, file: sheetFile.path)
    say(
        String(
            format:
                "workload %@: %d rules, %d nodes in %d trees, depth ≤ %d (generated and compiled in %.2f s)",
            label, spec.rules, w.nodeCount, w.trees.count, w.maxDepth, now() - t0))
    var r = WorkloadResults(
        label: label, rules: spec.rules, nodes: w.nodeCount, trees: w.trees.count, maxDepth: w.maxDepth)

    if label == "b" && wants("parse") {
        var p: [Double] = []
        var c: [Double] = []
        var x: [Double] = []
        for _ in 0..<5 {
            let m = try compileSheet(liveryText, file: sheetFile.path)
            p.append(m.parse)
            c.append(m.compile)
            x.append(m.index)
        }
        parseResults = (p, c, x)
        say(
            String(
                format: "  parse %.1f ms, compile %.1f ms, selector map %.1f ms (median of 5)",
                median(p) * 1e3,
                median(c) * 1e3, median(x) * 1e3))
    }
    for (mode, name) in [(StyleWalker.Mode.floor, "floor"), (.indexed, "indexed"), (.naive, "naive")]
    where wants("\(name)-\(label)") {
        let t = timeWalk(compiled.cascade, mode, w, runs: runs(name, label))
        say(
            String(
                format: "  livery %-8@ %12.0f nodes/s best, %12.0f median (%d runs)", name, t.bestRate,
                t.medianRate, t.seconds.count))
        switch mode {
        case .floor: r.floor = t
        case .indexed: r.indexed = t
        case .naive: r.naive = t
        }
    }
    if wants("strings-\(label)") {
        for (mode, name) in [(StyleWalker.Mode.floor, "floor"), (.indexed, "indexed")] {
            let t = timeWalk(compiled.cascade, mode, w, runs: runs(name, label), strings: true)
            say(
                String(
                    format: "  livery %-8@ %12.0f nodes/s best, %12.0f median (%d runs; strings per node)",
                    name,
                    t.bestRate, t.medianRate, t.seconds.count))
            if mode == .floor { r.floorStrings = t } else { r.indexedStrings = t }
        }
    }
    let crossCheck = label == "a" && wants("crosscheck")
    if wants("cssselect2-\(label)") || crossCheck {
        let winnersFile = crossCheck ? out.appendingPathComponent("\(label).cssselect2.winners") : nil
        let pyRuns = wants("cssselect2-\(label)") ? (runsOverride ?? 3) : 0
        let py: PythonResult
        do {
            py = try runPython(w, runs: max(pyRuns, crossCheck ? 0 : 1), winners: winnersFile)
        } catch {
            say("livery-bench: \(error)")
            exit(1)
        }
        if pyRuns > 0 {
            r.cssselect2 = py
            say(
                String(
                    format:
                        "  cssselect2       %12.0f nodes/s best, %12.0f median (%d runs; sheet parse %.0f ms, matcher %.0f ms)",
                    py.runs.bestRate, py.runs.medianRate, py.runSeconds.count, py.parseSeconds * 1e3,
                    py.compileSeconds * 1e3))
        }
        if let winnersFile {
            // Livery's winners, indexed and naive, against cssselect2's.
            let indexed = winnerLines(compiled.cascade, .indexed, w.trees)
            let naive = winnerLines(compiled.cascade, .naive, w.trees)
            try (indexed.joined(separator: "\n") + "\n").write(
                to: out.appendingPathComponent("\(label).livery.winners"), atomically: true, encoding: .utf8)
            let theirs = try String(contentsOf: winnersFile, encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
            var nodeInfo: [(tree: Int, path: String)] = []
            for (ti, tree) in w.trees.enumerated() {
                var path: [String] = []
                for n in tree {
                    path.removeLast(max(0, path.count - n.depth + 1))
                    path.append(n.node.description)
                    nodeInfo.append((ti, path.joined(separator: "/")))
                }
            }
            var diffs: [String] = []
            if theirs.count != indexed.count {
                diffs.append("cssselect2 gave \(theirs.count) nodes, Livery \(indexed.count)")
            }
            var declared = 0
            for i in 0..<min(theirs.count, indexed.count) {
                if !indexed[i].isEmpty { declared += indexed[i].split(separator: " ").count }
                if indexed[i] != theirs[i] {
                    diffs.append(
                        "node \(i) (tree \(nodeInfo[i].tree)) \(nodeInfo[i].path):\n      livery:     \(indexed[i])\n      cssselect2: \(theirs[i])"
                    )
                }
                if indexed[i] != naive[i] {
                    diffs.append(
                        "node \(i) \(nodeInfo[i].path): indexed and naive differ:\n      indexed: \(indexed[i])\n      naive:   \(naive[i])"
                    )
                }
            }
            if diffs.isEmpty {
                r.crossCheck =
                    "\(indexed.count) nodes × \(schema.properties.count) properties: \(declared) winning declarations, all equal (indexed = naive = cssselect2)"
                say("  cross-check: \(r.crossCheck!)")
            } else {
                r.crossCheck = "\(diffs.count) differences"
                let text = diffs.prefix(5).joined(separator: "\n    ")
                failures.append(
                    "cross-check of workload \(label): \(diffs.count) differences; first:\n    \(text)")
                say("  CROSS-CHECK FAILED: \(diffs.count) differences; first:\n    \(text)")
            }
        }
    }
    workloadResults.append(r)
}

// MARK: The daemon on a bus

var busResults: BusResults?
if wants("bus") {
    let liveryd = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("liveryd").path
    var fixtureDir = rootURL.appendingPathComponent("Tests/Fixtures/schemes")
    if !FileManager.default.fileExists(atPath: fixtureDir.path) {
        fixtureDir = rootURL.appendingPathComponent("themes")
    }
    var fixtures: [URL] = []
    if let e = FileManager.default.enumerator(at: fixtureDir, includingPropertiesForKeys: nil) {
        for case let u as URL in e where ["yaml", "yml"].contains(u.pathExtension) { fixtures.append(u) }
    }
    fixtures.sort { $0.path < $1.path }
    guard !fixtures.isEmpty, FileManager.default.isExecutableFile(atPath: liveryd) else {
        throw BenchFailure(
            "need liveryd beside livery-bench (\(liveryd)) and scheme fixtures (\(fixtureDir.path))")
    }
    let b = try runBusBench(
        liveryd: liveryd, floor: try resolveFloor(root: rootURL),
        shippedThemes: rootURL.appendingPathComponent("themes").path, fixtures: fixtures,
        work: out, themeCount: 300, startups: runsOverride ?? 5, calls: options.calls,
        wrapper: options.daemonWrapper)
    busResults = b
    say(
        String(
            format:
                "liveryd with %d + %d themes: start-up %.1f ms median (%.1f best, %.1f first), %.1f MB resident",
            b.themesGenerated, b.themesShipped, median(b.startupSeconds) * 1e3, b.startupSeconds.min()! * 1e3,
            b.startupSeconds[0] * 1e3, Double(b.rssKiBAfterStartup.last!) / 1024))
    for (kind, p, r, ratios, f, floorRatios, il) in [
        ("marshalled per call", b.ping, b.resolve, b.ratios, b.floor.resolve, b.floor.ratios, b.interleaved),
        (
            "marshalled once", b.preparedPing, b.preparedResolve, b.preparedRatios, b.floor.preparedResolve,
            b.floor.preparedRatios, b.preparedInterleaved
        ),
    ] {
        let n = Double(b.calls / b.rounds * b.rounds)
        func us(_ x: Double?) -> Double { (x ?? .nan) / n * 1e6 }
        say(
            String(
                format:
                    "  %@: Ping %.0f calls/s, Resolve %.0f calls/s, ratio %.3f (median of %d rounds, %.2f–%.2f); CPU µs a call, Ping / Resolve: liveryd %.1f / %.1f, dbus-daemon %.1f / %.1f, client %.1f / %.1f",
                kind, n / p.seconds, n / r.seconds, median(ratios), ratios.count, ratios.min() ?? .nan,
                ratios.max() ?? .nan, us(p.daemonCPU), us(r.daemonCPU), us(p.busCPU), us(r.busCPU),
                us(p.clientCPU), us(r.clientCPU)))
        say(
            String(
                format:
                    "  %@: C floor Resolve %.0f calls/s, liveryd ÷ floor %.3f (median of %d rounds, %.2f–%.2f); CPU µs a call, floor / liveryd: server %.1f / %.1f, dbus-daemon %.1f / %.1f, client %.1f / %.1f",
                kind, n / f.seconds, median(floorRatios), floorRatios.count, floorRatios.min() ?? .nan,
                floorRatios.max() ?? .nan, us(f.daemonCPU), us(r.daemonCPU), us(f.busCPU), us(r.busCPU),
                us(f.clientCPU), us(r.clientCPU)))
        say(
            String(
                format:
                    "  %@, call by call (%d rounds a pair): p50 Ping %.1f / Resolve %.1f µs, ratio %.3f (totals %.3f); p50 Resolve %.1f / C floor %.1f µs, liveryd ÷ floor %.3f (totals %.3f)",
                kind, il.rounds, il.ping[1] * 1e6, il.resolveAfterPing[1] * 1e6, il.resolveOverPing,
                il.resolveOverPingTotals, il.resolve[1] * 1e6, il.floor[1] * 1e6, il.resolveOverFloor,
                il.resolveOverFloorTotals))
    }
}

/// The C floor of `Resolve` under `root` (`bench/fanout/floor/resolve`), built by
/// `bench/fanout/floor/build.sh` when it is missing or older than its source.
func resolveFloor(root: URL) throws -> String {
    let dir = root.appendingPathComponent("bench/fanout/floor")
    let binary = dir.appendingPathComponent("resolve").path
    func modified(_ path: String) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
    }
    if let built = modified(binary), let source = modified(binary + ".c"), built >= source { return binary }
    let build = Process()
    build.executableURL = URL(fileURLWithPath: "/bin/sh")
    build.arguments = [dir.appendingPathComponent("build.sh").path]
    try build.run()
    build.waitUntilExit()
    guard build.terminationStatus == 0, FileManager.default.isExecutableFile(atPath: binary) else {
        throw BenchFailure("cannot build the C floor with \(dir.path)/build.sh (needs cc and libdbus-1-dev)")
    }
    return binary
}

// MARK: Report

let report = Report(
    workloads: workloadResults, parse: parseResults, bus: busResults, failures: failures,
    revision: options.revision)
print()
print(report.table)
if fullRun {
    let md = resultsFile ?? rootURL.appendingPathComponent("bench/results.md").path
    try report.markdown.write(toFile: md, atomically: true, encoding: .utf8)
    try report.json.write(
        toFile: (md as NSString).deletingPathExtension + ".json", atomically: true, encoding: .utf8)
    print("wrote \(md) and \((md as NSString).deletingPathExtension).json")
}
if !failures.isEmpty {
    print("\nFAILED:\n" + failures.joined(separator: "\n"))
    exit(1)
}
