import Foundation

// Shared by every fuzz target (Fuzz/README.md): the shipped schema and themes, read once, and
// the cross-check of the fast paths (the indexed cascade with its cache, the style walker and a
// style forest) against the reference matcher (`Cascade.resolveNaive`, the naive walker). A
// difference is a crash, so that libFuzzer keeps the input.

/// The repository root: `$LIVERY_ROOT`, or the working directory (`make fuzz` runs from the root).
let fuzzRoot: String =
    ProcessInfo.processInfo.environment["LIVERY_ROOT"] ?? FileManager.default.currentDirectoryPath
let fuzzThemes = fuzzRoot + "/themes"

/// The shipped schema.
let fuzzSchema: Schema = {
    do { return try Schema.load(from: URL(fileURLWithPath: fuzzThemes + "/schema.json")) } catch {
        fatalError("fuzz: cannot load \(fuzzThemes)/schema.json (run from the repository root): \(error)")
    }
}()

/// The shipped themes, as the daemon's catalog reads them.
let fuzzCatalog = ThemeCatalog(searchPath: [fuzzThemes])

/// A scratch directory for the targets that must write files, made once per process (in
/// /dev/shm when there is one, so that writing an input costs no disk I/O).
let fuzzScratch: String = {
    let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
    let dir = base + "/livery-fuzz-\(getpid())"
    try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(atPath: fuzzScratch) }
    return dir
}()

/// The input as text: invalid UTF-8 is repaired, as a file read would refuse it anyway.
func fuzzText(_ data: UnsafePointer<UInt8>, _ size: Int) -> String {
    String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
}

/// FNV-1a of the input: the seed of every choice a target makes, so that a crash reproduces
/// from the input alone.
func fuzzHash(_ data: UnsafePointer<UInt8>, _ size: Int) -> UInt64 {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for i in 0..<size { h = (h ^ UInt64(data[i])) &* 0x100_0000_01b3 }
    return h
}

/// The input's choices: SplitMix64 (LiveryCore's), seeded by the input.
typealias FuzzRandom = SplitMix64

extension SplitMix64 {
    init(state: UInt64) { self.init(seed: state) }
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
}

/// Values compared for equality, NaN included (a NaN is never equal to itself, but two NaNs in
/// the same place are not a difference between the fast path and the reference).
func same(_ a: [Value], _ b: [Value]) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { $0 == $1 || $0.description == $1.description }
}

func difference(
    _ what: String, _ path: ComponentPath, _ app: String?, _ names: [String], _ fast: [Value], _ slow: [Value]
)
    -> Never
{
    var lines: [String] = []
    for i in 0..<min(names.count, min(fast.count, slow.count)) where !same([fast[i]], [slow[i]]) {
        lines.append("  \(names[i]): fast \(fast[i]) reference \(slow[i])")
    }
    fatalError(
        "fuzz: \(what) differs from the reference at \(path) app=\(app ?? "-") "
            + "(\(fast.count) vs \(slow.count) values)\n" + lines.joined(separator: "\n"))
}

/// Nodes made from the compounds of `selector`, so that the selector (nearly) matches: a
/// compound's type (or a random type for `*` and unknown types), its first name, its classes
/// and its known states; sometimes with an extra container where a descendant combinator
/// stands, a state or class dropped, or a part of the subject appended.
func pathNodes(for selector: Selector, schema: Schema, _ r: inout FuzzRandom) -> [PathNode] {
    let types = schema.types.keys.sorted()
    var nodes: [PathNode] = []
    if r.chance(50) { nodes.append(PathNode(type: "Window")) }
    for (i, c) in selector.compounds.enumerated() {
        if i > 0, selector.combinators[i - 1] == .descendant, r.chance(30) {
            nodes.append(PathNode(type: r.pick(types)))
        }
        let type = c.type.flatMap { schema.types[$0] != nil ? $0 : nil } ?? r.pick(types)
        var node = PathNode(
            type: type, name: r.chance(90) ? c.names.first : nil, classes: c.classes,
            states: c.states.filter { schema.states.contains($0) })
        if r.chance(15), !node.classes.isEmpty { node.classes.removeLast() }
        if r.chance(15), !node.states.isEmpty { node.states.removeLast() }
        if r.chance(10) { node.states.append(r.pick(schema.states)) }
        if r.chance(5) { node.classes.append(node.classes.first ?? "x") }
        nodes.append(node)
    }
    if r.chance(30), let last = nodes.last, let parts = schema.types[last.type]?.parts, !parts.isEmpty {
        let part = r.pick(parts)
        nodes.append(PathNode(type: part.type, name: part.name))
    }
    return Array(nodes.prefix(12))
}

/// Checks every fast path against the reference on `paths`, for each of `apps`:
/// `resolve` (twice: the second from the style cache) against `resolveNaive`, for every property
/// and for the type's own; the indexed walker's style of the last node against `resolveNaive`;
/// `explain`'s value and winner against `resolveNaive`; and the style of every node of a forest
/// made of the paths (with repeated siblings, which share styles) against the naive walker.
func crossCheck(_ c: Cascade, paths: [ComponentPath], apps: [String?], explain: [String] = []) {
    let schema = c.theme.schema
    let all = schema.properties.keys.sorted()
    for app in apps {
        for p in paths where !p.nodes.isEmpty {
            let fast: [Value]
            let again: [Value]
            let slow: [Value]
            do {
                fast = try c.resolve(p, properties: all, app: app).map(\.value)
                again = try c.resolve(p, properties: all, app: app).map(\.value)
                slow = try c.resolveNaive(p, properties: all, app: app).map(\.value)
            } catch {
                fatalError("fuzz: resolve of \(p) on its own schema failed: \(error)")
            }
            if !same(fast, slow) { difference("resolve", p, app, all, fast, slow) }
            if !same(again, slow) { difference("resolve (cached)", p, app, all, again, slow) }
            // The type's own properties (the empty list), in the type's order.
            do {
                let own = try c.resolve(p, app: app)
                let want = own.map { slow[all.firstIndex(of: $0.property)!] }
                if !same(own.map(\.value), want) {
                    difference(
                        "resolve (type's properties)", p, app, own.map(\.property), own.map(\.value), want)
                }
            } catch {
                fatalError("fuzz: resolve of \(p) failed: \(error)")
            }

            // The indexed walker down the path (each node against the naive walker in
            // `forestCheck`), its last node against the reference.
            var walker = StyleWalker(c, app: app)
            for node in p.nodes where walker.push(node) == nil {
                fatalError("fuzz: the walker refused \(node) of \(p)")
            }
            let names = walker.propertyNames
            let byName = Dictionary(uniqueKeysWithValues: zip(names, walker.top!.values))
            let walked = all.map { byName[$0]! }
            if !same(walked, slow) { difference("walker", p, app, all, walked, slow) }

            for property in explain where schema.properties[property] != nil {
                guard let e = try? c.explain(p, property: property, app: app) else {
                    fatalError("fuzz: explain \(property) of \(p) failed")
                }
                let want = slow[all.firstIndex(of: property)!]
                if !same([e.value], [want]) {
                    difference("explain \(property)", p, app, [property], [e.value], [want])
                }
                if !e.candidates.isEmpty, !same([e.candidates.last!.value], [want]) {
                    difference(
                        "explain's winner for \(property)", p, app, [property], [e.candidates.last!.value],
                        [want])
                }
            }
        }
        forestCheck(c, paths: paths, app: app)
    }
}

/// Styles a forest of the paths (each a chain, its last node repeated as a sibling, then each
/// path's first node as a second root's child) in one `resolve` call and compares every node
/// with the naive walker pushed the same way.
func forestCheck(_ c: Cascade, paths: [ComponentPath], app: String?) {
    var trees: [[(node: PathNode, depth: Int)]] = []
    for p in paths where !p.nodes.isEmpty {
        var tree = p.nodes.enumerated().map { (node: $0.element, depth: $0.offset + 1) }
        tree.append((node: p.nodes.last!, depth: p.nodes.count))
        if p.nodes.count > 1 { tree.append((node: p.nodes[0], depth: p.nodes.count)) }
        tree.append((node: p.nodes.last!, depth: p.nodes.count))
        trees.append(tree)
    }
    guard !trees.isEmpty, let forest = StyleForest(trees, for: c) else {
        if !trees.isEmpty { fatalError("fuzz: a forest of valid paths was refused") }
        return
    }
    var fast = StyleWalker(c, app: app)
    var slotRows: [[Int32]] = []
    fast.resolve(forest) { _, slots in slotRows.append(Array(slots)) }
    let rows = slotRows.map { $0.map { fast.value(ofSlot: $0) } }
    var naive = StyleWalker(c, app: app, mode: .naive)
    var i = 0
    for tree in trees {
        for (node, depth) in tree {
            while naive.depth >= depth { naive.pop() }
            guard let s = naive.push(node) else { fatalError("fuzz: naive walker refused \(node)") }
            if !same(rows[i], s.values) {
                let prefix = ComponentPath(nodes: tree.prefix { _ in true }.map(\.node))
                difference("forest node \(i)", prefix, app, naive.propertyNames, rows[i], s.values)
            }
            i += 1
        }
        while naive.depth > 0 { naive.pop() }
    }
}

/// The paths the scheme-format targets resolve: one of each kind of component a mapping theme
/// colours.
let importedSchemePaths: [ComponentPath] = [
    "Window", "Window/NavigationBar/BarButtonItem:highlighted", "Window/Button.destructive/Label#title",
    "Window/TableView/TableViewCell:selected/Switch", "Window/SearchBar/TextField#field/Label#text",
].map { try! ComponentPath($0, schema: fuzzSchema) }

/// The body of the scheme-format targets (itermcolors, colorsjson, kdecolors): the input written
/// to `file` (the formats read files), read by `format`, compiled with its shipped mapping theme
/// as parent, linted, its base16 slots made, and, when it compiles, resolved with every fast path
/// checked against the reference. A file with read errors must not compile.
func fuzzImportedScheme(_ format: some ThemeFormat, file: URL, _ data: UnsafePointer<UInt8>, _ size: Int) {
    _ = fuzzCatalog.ids
    _ = FileManager.default.createFile(atPath: file.path, contents: Data(bytes: data, count: size))
    let source = format.read(file, id: "fuzz-scheme")
    for d in source.sheet.diagnostics { _ = d.rendered }
    var catalog = fuzzCatalog
    catalog.add(source)
    let (theme, diagnostics) = catalog.compile("fuzz-scheme", schema: fuzzSchema)
    for d in diagnostics { _ = d.rendered }
    if case .success(let chain) = catalog.chain(for: "fuzz-scheme") { _ = Lint.warnings(chain: chain) }
    guard let theme else { return }
    if source.sheet.diagnostics.contains(where: { $0.severity == .error }) {
        fatalError("fuzz: a scheme with read errors compiled")
    }
    let cascade = Cascade(theme: theme)
    let slots = cascade.base16Slots
    if slots.colors.count != 16 || slots.colors.contains(where: { $0.alpha != 1 }) {
        fatalError("fuzz: base16 slots are not sixteen opaque colours: \(slots.colors)")
    }
    crossCheck(cascade, paths: importedSchemePaths, apps: [nil], explain: ["background-color", "tint-color"])
}

/// The checks of a refused YAML file (`plugin.yaml`, `config.yaml`): at least one diagnostic,
/// each rendered, each at a line and column inside `text` as YAML counts lines.
func checkYAMLDiagnostics(_ diagnostics: [Diagnostic], in text: String, what: String) {
    if diagnostics.isEmpty { fatalError("fuzz: a refused \(what) with no diagnostic") }
    let lineCount = YAMLNode.Lines(text).count
    for d in diagnostics {
        _ = d.rendered
        if d.location.line < 1 || d.location.line > lineCount + 1 || d.location.column < 1 {
            fatalError("fuzz: a diagnostic outside the \(what): \(d)")
        }
    }
}

/// Crashes when a text field of `metadata` that templates and clients get holds a control
/// character or a line separator (the rule of `TemplateText`).
func assertPlainText(_ metadata: ThemeMetadata) {
    for (field, text) in [
        ("name", metadata.name), ("description", metadata.description),
        ("gtk-theme", metadata.gtkTheme ?? ""),
    ]
    where text.unicodeScalars.contains(where: TemplateText.isLineBreaking) {
        fatalError("fuzz: the theme's \(field) holds a control character")
    }
}
