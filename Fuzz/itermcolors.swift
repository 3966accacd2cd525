import Foundation

// Target: an iTerm2 .itermcolors property list (XML or binary), read through Foundation's PropertyListSerialization, written to one scratch file per input (the format reads files), read by its
// format, compiled with the shipped mapping theme as its parent, linted, its base16 slots
// made, and, when it compiles, resolved on a few paths with every fast path checked against
// the reference (common.swift). A file with read errors must not compile.

let itermcolorsFile = URL(fileURLWithPath: fuzzScratch + "/scheme.itermcolors")
let itermcolorsPaths: [ComponentPath] = [
    "Window", "Window/NavigationBar/BarButtonItem:highlighted", "Window/Button.destructive/Label#title",
    "Window/TableView/TableViewCell:selected/Switch", "Window/SearchBar/TextField#field/Label#text",
].map { try! ComponentPath($0, schema: fuzzSchema) }

@_cdecl("LLVMFuzzerTestOneInput")
public func itermcolorsTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = fuzzCatalog.ids
    _ = FileManager.default.createFile(atPath: itermcolorsFile.path, contents: Data(bytes: data, count: size))
    let source = ItermFormat().read(itermcolorsFile, id: "fuzz-scheme")
    for d in source.sheet.diagnostics { _ = d.rendered }
    var catalog = fuzzCatalog
    catalog.add(source)
    let (theme, diagnostics) = catalog.compile("fuzz-scheme", schema: fuzzSchema)
    for d in diagnostics { _ = d.rendered }
    if case .success(let chain) = catalog.chain(for: "fuzz-scheme") { _ = Lint.warnings(chain: chain) }
    guard let theme else { return 0 }
    if source.sheet.diagnostics.contains(where: { $0.severity == .error }) {
        fatalError("fuzz: a scheme with read errors compiled")
    }
    let cascade = Cascade(theme: theme)
    let slots = cascade.base16Slots
    if slots.colors.count != 16 || slots.colors.contains(where: { $0.alpha != 1 }) {
        fatalError("fuzz: base16 slots are not sixteen opaque colours: \(slots.colors)")
    }
    crossCheck(cascade, paths: itermcolorsPaths, apps: [nil], explain: ["background-color", "tint-color"])
    return 0
}
