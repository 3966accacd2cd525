import Foundation

// Target: a template in pywal's syntax, then (split at 0x00 bytes) the wallpaper, checksum and
// alpha of its colour dictionary. Compiled by `PywalTemplate`: an error must point inside the
// text (a line of it, column ≥ 1) and render with its caret. A compiled template is rendered
// twice, which must give the same bytes or the same error, and the bytes of pywal's own loop
// step for step (`renderNaive`, quadratic; inputs are at most 4096 bytes), whose
// first-occurrence rule the linear renderer follows with its own data structure.

@_cdecl("LLVMFuzzerTestOneInput")
public func pywalTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let parts = Array(UnsafeBufferPointer(start: data, count: size)).split(
        separator: 0, omittingEmptySubsequences: false)
    let template = parts.first.map { Array($0) } ?? []
    func part(_ i: Int, _ fallback: String) -> String {
        i < parts.count ? String(decoding: parts[i], as: UTF8.self) : fallback
    }
    let colors = PywalColors(
        colors: [
            "#1d2021", "#cc241d", "#98971a", "#d79921", "#458588", "#b16286", "#689d6a", "#a89984",
            "#928374", "#fb4934", "#b8bb26", "#fabd2f", "#83a598", "#d3869b", "#8ec07c", "#ebdbb2",
        ], background: "#1d2021", foreground: "#ebdbb2", cursor: "#fe8019",
        wallpaper: part(1, "/w/{color1}.png"),
        checksum: part(2, "None"), alpha: part(3, "90"))
    let compiled: PywalTemplate
    do throws(Diagnostic) { compiled = try PywalTemplate(template, name: "t") } catch {
        // Lines as Python's universal newlines count them: CR LF, CR and LF each end one.
        var lines = 1
        for (i, b) in template.enumerated()
        where b == 10 || (b == 13 && (i + 1 == template.count || template[i + 1] != 10)) {
            lines += 1
        }
        if error.location.line < 1 || error.location.line > lines + 1 || error.location.column < 1 {
            fatalError("fuzz: a pywal template error outside the text: \(error)")
        }
        _ = error.rendered
        return 0
    }
    let first = Result { () throws(Diagnostic) in try compiled.render(colors) }
    let second = Result { () throws(Diagnostic) in try compiled.render(colors) }
    let naive = Result { () throws(Diagnostic) in try compiled.renderNaive(colors) }
    switch (first, second, naive) {
    case (.success(let a), .success(let b), .success(let c)):
        if a != b { fatalError("fuzz: two renders of one pywal template differ") }
        if a != c {
            fatalError(
                "fuzz: render and pywal's loop differ:\n\(String(decoding: a, as: UTF8.self))\n---\n\(String(decoding: c, as: UTF8.self))"
            )
        }
    case (.failure(let a), .failure(let b), .failure(let c)):
        if a != b || a != c {
            fatalError("fuzz: renders of one pywal template fail differently: \(a) / \(c)")
        }
        _ = a.rendered
    default:
        fatalError("fuzz: one render of a pywal template failed and another did not")
    }
    return 0
}
