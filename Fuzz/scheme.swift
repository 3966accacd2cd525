import Foundation

// Target 2: a base16 or base24 scheme (YAML, read through libyaml), written to one scratch
// file per input (the format reads files), read by the base16 format, compiled with the
// shipped mapping theme as its parent, and, when it compiles, resolved on a few paths with
// every fast path checked against the reference (Common.swift).

let schemeFile = URL(fileURLWithPath: fuzzScratch + "/scheme.yaml")
let schemePaths: [ComponentPath] = [
    "Window", "Window/NavigationBar/BarButtonItem:highlighted", "Window/Button.destructive/Label#title",
    "Window/TableView/TableViewCell:selected/Switch", "Window/SearchBar/TextField#field/Label#text",
].map { try! ComponentPath($0, schema: fuzzSchema) }
let schemeBase = fuzzCatalog

@_cdecl("LLVMFuzzerTestOneInput")
public func schemeTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = schemeBase.ids
    FileManager.default.createFile(atPath: schemeFile.path, contents: Data(bytes: data, count: size))
    let source = Base16Format().read(schemeFile, id: "fuzz-scheme")
    // What templates get of the scheme: no text field holds a control character.
    if case .success(let tinted) = TintedScheme.read(path: schemeFile.path) {
        TemplateVariables.each(tinted) { key, value in
            if value.unicodeScalars.contains(where: TemplateText.isLineBreaking) {
                fatalError("fuzz: template variable \(key) holds a control character")
            }
        }
    }
    for d in source.sheet.diagnostics { _ = d.rendered }
    var catalog = schemeBase
    catalog.add(source)
    let (theme, diagnostics) = catalog.compile("fuzz-scheme", schema: fuzzSchema)
    for d in diagnostics { _ = d.rendered }
    if case .success(let chain) = catalog.chain(for: "fuzz-scheme") { _ = Lint.warnings(chain: chain) }
    guard let theme else { return 0 }
    assertPlainText(theme.metadata)
    if source.sheet.diagnostics.contains(where: { $0.severity == .error }) {
        fatalError("fuzz: a scheme with read errors compiled")
    }
    crossCheck(
        Cascade(theme: theme), paths: schemePaths, apps: [nil], explain: ["background-color", "tint-color"])
    return 0
}
