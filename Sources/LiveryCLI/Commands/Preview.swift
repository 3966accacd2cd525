import Dispatch
import Foundation
import LiveryAPI
import LiveryCore
import LiveryPreview
import Mustache
import Synchronization

/// `livery preview ID [-o FILE.png] [--size WxH] [--app APP] [--themes-dir DIR]...`: draws the
/// sample screen (`SampleScreen`, the UIAppearance example) with theme ID's resolved values into a PNG, with no
/// daemon. The theme is found as `livery palette` finds it. The picture goes to FILE (default
/// `ID.png` in the current directory), written whole or not at all, and its path is printed;
/// `-o -` writes the PNG to standard output instead.
/// Exit 0 when the picture was written (images that could not be drawn are warned about on
/// standard error and drawn without), 1 when the theme has errors (its diagnostics on standard
/// error, no picture) or the file cannot be written.
func preview(_ inv: Invocation, output: Output) -> Int32 {
    guard let size = pictureSize(inv, output: output) else { return 2 }
    let searchPath = Paths().fullThemeSearchPath(extra: inv.themesDirectories)
    guard let schema = schema(inv, searchPath: searchPath, output: output),
        let (id, catalog) = themeCatalog(for: inv.positional[0], searchPath: searchPath, output: output)
    else { return 1 }
    let target = inv.output ?? "\(id).png"
    switch drawTheme(id, catalog: catalog, schema: schema, app: inv.app, size: size) {
    case .failure(let problem):
        output.err(problem.text)
        return 1
    case .success(let picture):
        for w in picture.warnings { output.err("\(w)\n") }
        do {
            if target == "-" {
                FileHandle.standardOutput.write(try picture.pngData())
                return 0
            }
            try picture.writePNG(to: target)
        } catch {
            output.err("\(error)\n")
            return 1
        }
        output.out(target + "\n")
        return 0
    }
}

/// The size of `--size`, or the standard one; nil (said on standard error) for a bad size.
private func pictureSize(_ inv: Invocation, output: Output) -> PreviewSize? {
    guard let text = inv.size else { return .standard }
    do { return try PreviewSize(parsing: text) } catch {
        output.err("\(error)\n")
        return nil
    }
}

/// Why a theme was not drawn: its errors, already rendered for standard error.
struct DrawProblem: Error {
    var text: String
}

/// Compiles theme `id`, resolves the sample screen's paths and draws it.
private func drawTheme(_ id: String, catalog: ThemeCatalog, schema: Schema, app: String?, size: PreviewSize)
    -> Result<Picture, DrawProblem>
{
    let (theme, diagnostics) = catalog.compile(id, schema: schema, pictures: PicturePixels.palettePictures)
    guard let theme else {
        let errors = diagnostics.filter { $0.severity == .error }.map { $0.rendered + "\n" }.joined()
        return .failure(
            DrawProblem(text: errors + "livery: theme '\(id)' has errors; run 'livery check' on it\n"))
    }
    do {
        return .success(try Preview.draw(theme, app: app, size: size))
    } catch let e as Cascade.Failure {
        return .failure(DrawProblem(text: "livery: theme '\(id)': \(e)\n"))
    } catch {
        return .failure(DrawProblem(text: "\(error)\n"))
    }
}

/// `livery gallery DIR [--themes-dir DIR]... [--size WxH]`: a picture of every installed theme
/// (`DIR/ID.png`, as `livery preview` draws it) and `DIR/index.html` listing each theme's name,
/// id, variant, format, swatches (its base16 slots, else its first 16 palette colours) and
/// picture; a theme with errors is listed with its first error and no picture. Themes are drawn
/// on every core. The files stay beneath DIR (`OutputRoot`: a link in it is refused, never written
/// through). Exit 0 when every theme was drawn, 1 when one had errors or a file could not be
/// written (the others are still written).
func gallery(_ inv: Invocation, output: Output) -> Int32 {
    guard let size = pictureSize(inv, output: output) else { return 2 }
    let directory = inv.positional[0]
    let searchPath = Paths().fullThemeSearchPath(extra: inv.themesDirectories)
    guard let schema = schema(inv, searchPath: searchPath, output: output) else { return 1 }
    // The pictures are named by the themes' ids: they stay beneath the directory, never written
    // through a link in it.
    let root: OutputRoot
    do { root = try OutputRoot(directory) } catch {
        output.err("\(directory): error: \(error)\n")
        return 1
    }
    // A directory the pictures cannot be written to fails now, not after every theme is drawn.
    var probe = Array((directory + "/.livery-gallery-XXXXXX").utf8CString)
    let fd = probe.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard fd >= 0 else {
        output.err(
            "\(directory): error: cannot write in the directory: \(String(cString: strerror(errno)))\n")
        return 1
    }
    close(fd)
    probe.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
    let catalog = ThemeCatalog(searchPath: searchPath, formats: themeFormats)
    let ids = catalog.ids
    let entries = GalleryEntries(count: ids.count)
    DispatchQueue.concurrentPerform(iterations: ids.count) { k in
        let id = ids[k]
        var entry = GalleryEntry(id: id)
        let (theme, diagnostics) = catalog.compile(
            id, schema: schema, pictures: PicturePixels.palettePictures)
        if let theme {
            entry.name = theme.metadata.name
            entry.variant = theme.metadata.variant
            entry.format = theme.metadata.format
            entry.swatches = swatches(theme.palette)
            do {
                let picture = try Preview.draw(theme, size: size)
                entry.warnings = picture.warnings.map(\.description)
                try picture.writePNG(into: root, as: id + ".png")
                entry.picture = id + ".png"
            } catch {
                entry.error = "\(error)"
            }
        } else {
            entry.error =
                diagnostics.first(where: { $0.severity == .error })?.rendered ?? "theme '\(id)' has errors"
            // What the theme's own @theme block says, as `livery list` shows a broken theme.
            let sheet = catalog.sources[id]?.sheet
            entry.name = sheet?.metadataString("name") ?? ""
            entry.variant = sheet?.metadataString("variant") ?? ""
            entry.format = catalog.sources[id]?.format ?? ""
        }
        entries.set(k, entry)
    }
    let all = entries.all
    var failed = false
    for e in all {
        for w in e.warnings { output.err(w + "\n") }
        if let error = e.error {
            output.err("\(error)\n")
            failed = true
        }
    }
    let index = directory + "/index.html"
    do { try root.write(Array(galleryHTML(all, size: size).utf8), to: "index.html", durable: true) } catch {
        output.err("\(index): error: cannot write the index: \(error)\n")
        return 1
    }
    output.out("\(index): \(all.filter { $0.picture != nil }.count) of \(all.count) themes drawn\n")
    return failed ? 1 : 0
}

/// One theme's line in the gallery.
struct GalleryEntry: Sendable {
    var id: String
    var name = ""
    var variant = ""
    var format = ""
    var swatches: [(name: String, hex: String)] = []
    /// The picture's file name, relative to the gallery directory; nil when none was drawn.
    var picture: String?
    var error: String?
    var warnings: [String] = []
}

/// The entries the drawing threads fill, each slot written once.
private final class GalleryEntries: Sendable {
    private let slots: Mutex<[GalleryEntry?]>

    init(count: Int) { slots = Mutex(Array(repeating: nil, count: count)) }

    func set(_ k: Int, _ entry: GalleryEntry) { slots.withLock { $0[k] = entry } }

    var all: [GalleryEntry] { slots.withLock { $0.compactMap { $0 } } }
}

/// A theme's swatches: its base16 slots `base00`…`base0F` when it has them, else its first 16
/// palette colours in name order.
private func swatches(_ palette: [String: RGBA]) -> [(name: String, hex: String)] {
    let slots = (0..<16).map { "base0" + String($0, radix: 16, uppercase: true) }
    let names =
        slots.allSatisfy { palette[$0] != nil }
        ? slots : Array(palette.keys.sorted(by: naturalOrder).prefix(16))
    return names.map { ($0, String(palette[$0]!.hex.prefix(7))) }
}

/// The gallery's page, a Mustache template (its interpolations HTML-escaped, as the Mustache
/// specification escapes): a grid of cards, one per theme, each picture at its size in CSS
/// pixels.
let galleryPage = """
    <!DOCTYPE html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <title>Livery themes</title>
    <style>
    body { font-family: sans-serif; margin: 16px; background: #ffffff; color: #202020; }
    main { display: flex; flex-wrap: wrap; gap: 16px; }
    figure { margin: 0; width: {{width}}px; }
    figure img { display: block; width: {{width}}px; height: {{height}}px; }
    figcaption { font-size: 13px; margin-top: 4px; }
    figcaption .meta { color: #606060; }
    .swatches { display: flex; margin-top: 4px; }
    .swatches span { flex: 1; height: 14px; }
    .error { width: {{width}}px; height: {{height}}px; color: #a00000; font-size: 12px;
      overflow: hidden; white-space: pre-wrap; border: 1px dashed #a00000; box-sizing: border-box; }
    </style>
    </head>
    <body>
    <h1>Livery themes</h1>
    <main>
    {{#themes}}
    <figure id="{{id}}">
    {{#picture}}
    <img src="{{picture}}" alt="{{name}} preview" width="{{width}}" height="{{height}}">
    {{/picture}}
    {{^picture}}
    <div class="error">{{error}}</div>
    {{/picture}}
    <figcaption><b>{{name}}</b> <span class="meta">{{id}} · {{variant}} · {{format}}</span>
    {{#hasSwatches}}
    <div class="swatches">{{#swatches}}<span title="{{slot}} {{hex}}" style="background:{{hex}}"></span>{{/swatches}}</div>
    {{/hasSwatches}}
    </figcaption>
    </figure>
    {{/themes}}
    </main>
    </body>
    </html>

    """

/// The gallery's page for `entries`, rendered from `galleryPage`.
func galleryHTML(_ entries: [GalleryEntry], size: PreviewSize) -> String {
    func text(_ s: String?) -> MustacheValue { s.map { .string($0) } ?? .null }
    let themes: [MustacheValue] = entries.map { e in
        .object([
            "id": .string(e.id), "name": .string(e.name.isEmpty ? e.id : e.name),
            "variant": .string(e.variant),
            "format": .string(e.format), "picture": text(e.picture), "error": text(e.error),
            "hasSwatches": .bool(!e.swatches.isEmpty),
            "swatches": .list(
                e.swatches.map { .object(["slot": .string($0.name), "hex": .string($0.hex)]) }),
        ])
    }
    let data = MustacheValue.object([
        "width": .number(Double(size.width)), "height": .number(Double(size.height)), "themes": .list(themes),
    ])
    // The template is a constant that parses, and its output is bounded by the entries' size.
    return try! Template(galleryPage, name: "gallery").render(data)
}
