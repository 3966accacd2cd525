import Foundation

// Target 4: colour and value expressions. The input is the value of one declaration (and may
// hold more declarations, rules and `@define-color`s, as the parser allows), in a sheet of a
// bundle with images, after a palette of a few colours; every declaration's value is typed by
// the ValueTyper as every value type of the schema (a property of each type, picked by the
// input's hash, so that every keyword set is met over a run), and every palette definition as
// a colour. A colour typed must print as `#rrggbbaa` and read back as the same colour; every
// diagnostic renders.

let valuesBundle: String = {
    let dir = fuzzScratch + "/values-bundle"
    try? FileManager.default.createDirectory(atPath: dir + "/images", withIntermediateDirectories: true)
    let png = FileManager.default.contents(atPath: fuzzThemes + "/forest/images/back1.png") ?? Data()
    FileManager.default.createFile(atPath: dir + "/images/a.png", contents: png)
    FileManager.default.createFile(
        atPath: dir + "/images/b.svg", contents: Data("<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8))
    FileManager.default.createFile(atPath: dir + "/images/c.txt", contents: Data("text".utf8))
    return dir
}()
let valuesPalette: [String: RGBA] = [
    "accent": RGBA(red: 0, green: 0.5, blue: 0, alpha: 1),
    "base00": RGBA(red: 0.1, green: 0.2, blue: 0.3, alpha: 1),
    "soft": RGBA(red: 1, green: 0.5, blue: 0.25, alpha: 0.5),
]
/// The schema's properties by value type, each list sorted by name.
let valuesByType: [[PropertyDefinition]] = ValueType.allCases.map { type in
    fuzzSchema.properties.values.filter { $0.type == type }.sorted { $0.name < $1.name }
}.filter { !$0.isEmpty }
let valuesPrefix = "@define-color accent #008000;\nView { probe: "

@_cdecl("LLVMFuzzerTestOneInput")
public func valuesTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = valuesPrefix + fuzzText(data, size) + " }\n"
    let sheet = SheetParser(bundleRoot: valuesBundle).parse(text, file: valuesBundle + "/theme.css")
    for d in sheet.diagnostics.prefix(16) { _ = d.rendered }
    var typer = ValueTyper(palette: valuesPalette)
    var r = FuzzRandom(state: fuzzHash(data, size))
    let properties = valuesByType.map { r.pick($0) }
    func check(_ v: Value?) {
        guard case .color(let c)? = v else { return }
        let hex = c.hex
        guard hex.count == 9, let back = RGBA(hexDigits: hex.dropFirst()), back.hex == hex else {
            fatalError("fuzz: colour \(c) prints as '\(hex)', which does not read back")
        }
    }
    for rule in sheet.rules.prefix(8) {
        for d in rule.declarations.prefix(8) {
            for p in properties { check(typer.value(d.value, for: p, declaration: d)) }
        }
    }
    for d in sheet.palette.prefix(8) { check(typer.color(d.value[0]).map(Value.color)) }
    for d in typer.diagnostics.prefix(16) { _ = d.rendered }
    return 0
}
