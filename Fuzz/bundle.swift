import Foundation

// Target 1: a native bundle. The input is split at 0x00 bytes into theme.css, the imported
// files a.css, b.css and sub/c.css, and the user's overrides (parts past the fifth are
// ignored, missing ones are empty). The bundle directory (made once, rewritten per input)
// holds real images — PNGs from themes/forest, a JPEG, a WebP and an SVG — plus files that
// must be refused: a text file named like an image, an empty image and a symlink leading
// outside. The bundle's parents are the shipped themes. Each input is compiled, linted,
// explained and resolved on paths made from its own selectors, every fast path checked
// against the reference (Common.swift).

let bundleID = "fuzz-bundle"
let bundleDirectory = fuzzScratch + "/" + bundleID
let bundleFiles = ["theme.css", "a.css", "b.css", "sub/c.css"]

/// Writes the images and the files that must be refused, once.
func makeBundle() {
    let fm = FileManager.default
    try? fm.createDirectory(atPath: bundleDirectory + "/images/deep", withIntermediateDirectories: true)
    try? fm.createDirectory(atPath: bundleDirectory + "/sub", withIntermediateDirectories: true)
    func put(_ name: String, _ bytes: [UInt8]) {
        fm.createFile(atPath: bundleDirectory + "/" + name, contents: Data(bytes))
    }
    for name in ["back1.png", "back2.png"] {
        let data = fm.contents(atPath: fuzzThemes + "/forest/images/" + name) ?? Data()
        fm.createFile(atPath: bundleDirectory + "/images/" + name, contents: data)
    }
    // A JFIF header and an end-of-image marker: what imageKind looks at is the first three bytes.
    put(
        "images/photo.jpg",
        [0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10] + Array("JFIF".utf8) + [0x00, 0x01, 0xff, 0xd9])
    put(
        "images/deep/tile.webp",
        Array("RIFF".utf8) + [0x1a, 0, 0, 0] + Array("WEBPVP8L".utf8) + [
            0x0d, 0, 0, 0, 0x2f, 0, 0, 0, 0x10, 0x07, 0x10, 0x11, 0x11, 0x88, 0x88, 0xfe, 0x07, 0x00,
        ])
    put(
        "images/icon.svg",
        Array(
            "<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1\" height=\"1\"/>\n"
                .utf8))
    put("images/fake.png", Array("not an image\n".utf8))
    put("images/empty.png", [])
    try? fm.createSymbolicLink(
        atPath: bundleDirectory + "/images/outside.png",
        withDestinationPath: fuzzThemes + "/forest/images/back1.png")
    try? fm.createSymbolicLink(
        atPath: bundleDirectory + "/images/inside.png", withDestinationPath: "back2.png")
}

/// The shipped themes' sources, and ids the input may name as a parent.
let bundleBase: ThemeCatalog = {
    makeBundle()
    return fuzzCatalog
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func bundleTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var parts: [[UInt8]] = [[]]
    for i in 0..<size {
        if data[i] == 0 { parts.append([]) } else { parts[parts.count - 1].append(data[i]) }
    }
    while parts.count < 5 { parts.append([]) }
    let texts = parts.prefix(5).map { String(decoding: $0, as: UTF8.self) }
    for (name, text) in zip(bundleFiles, texts) {
        FileManager.default.createFile(atPath: bundleDirectory + "/" + name, contents: Data(text.utf8))
    }
    var r = FuzzRandom(state: fuzzHash(data, size))

    let source = NativeFormat().read(URL(fileURLWithPath: bundleDirectory), id: bundleID)
    let overrides = texts[4].isEmpty ? nil : SheetParser().parse(texts[4], file: "<overrides>")
    var catalog = bundleBase
    catalog.add(source)
    // Whatever the input, diagnostics render (carets, tabs) without trapping.
    for d in source.sheet.diagnostics { _ = d.rendered }

    guard case .success(let chain) = catalog.chain(for: bundleID) else {
        _ = catalog.compile(bundleID, schema: fuzzSchema, overrides: overrides)
        return 0
    }
    for w in Lint.warnings(chain: chain) { _ = w.rendered }
    var (theme, diagnostics) = ThemeCompiler.compile(chain: chain, overrides: overrides, schema: fuzzSchema)
    for d in diagnostics { _ = d.rendered }
    if theme == nil, overrides != nil {
        // As the daemon does when the overrides are broken: the theme alone.
        (theme, diagnostics) = ThemeCompiler.compile(chain: chain, schema: fuzzSchema)
    }
    guard let theme else { return 0 }
    assertPlainText(theme.metadata)
    let c = Cascade(theme: theme)

    // Paths from the input's own selectors (its sheet, imports and overrides), and the
    // properties they declare, to explain.
    var selectors: [Selector] = []
    var declared: [String] = []
    for rule in source.sheet.rules + (overrides?.rules ?? []) {
        selectors += rule.selectors
        declared += rule.declarations.map(\.property)
    }
    var paths: [ComponentPath] = []
    for s in selectors.prefix(24) {
        let nodes = pathNodes(for: s, schema: theme.schema, &r)
        if !nodes.isEmpty { paths.append(ComponentPath(nodes: nodes)) }
    }
    if paths.isEmpty {
        paths.append(ComponentPath(nodes: [PathNode(type: "Window"), PathNode(type: "Button")]))
    }
    var apps: [String?] = [nil, "org.example.none"]
    for rule in theme.rules where rule.app != nil && !apps.contains(rule.app) && apps.count < 4 {
        apps.append(rule.app)
    }
    var explain = Array(Set(declared).sorted().prefix(4))
    if explain.isEmpty { explain = ["tint-color"] }
    crossCheck(c, paths: paths, apps: apps, explain: explain)
    return 0
}
