import Foundation
import LiveryAPI
import LiveryCore
import LiveryPreview

/// `livery check BUNDLE...`: reads and compiles each bundle offline, printing every diagnostic
/// in compiler form. Exit 0 when all are clean, 1 when any has an error.
///
/// Only the bundle and the parents its `inherits` chain names are read, so a broken sibling in
/// the same directory never affects the check.
func check(_ inv: Invocation, output: Output) -> Int32 {
    let paths = Paths()
    let bundles = inv.positional.map { URL(fileURLWithPath: $0).standardizedFileURL }
    // Parents are found next to the bundles, then in --themes-dir, then on the daemon's search
    // path, then among the themes shipped with this program.
    let searchPath = paths.fullThemeSearchPath(
        extra: bundles.map { $0.deletingLastPathComponent().path } + inv.themesDirectories)
    let schemaPath = inv.schema ?? Paths.schemaFile(on: searchPath)
    guard let schemaPath else {
        output.err("livery: no schema.json found; give one with --schema FILE or --themes-dir DIR\n")
        return 1
    }
    let schema: Schema
    do { schema = try Schema.load(from: URL(fileURLWithPath: schemaPath)) } catch {
        output.err("livery: \(error)\n")
        return 1
    }
    var failed = false
    for (arg, url) in zip(inv.positional, bundles) {
        guard let (format, id) = claim(arg, url, output: output),
            checkBundle(arg, url, format: format, id: id, schema: schema, searchPath: searchPath, inv, output)
        else {
            failed = true
            continue
        }
    }
    return failed ? 1 : 0
}

/// The format that claims `url` (named `arg` on the command line) and the theme id it gives,
/// or nil after saying why there is none.
private func claim(_ arg: String, _ url: URL, output: Output) -> (any ThemeFormat, String)? {
    var isDir: ObjCBool = false
    guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir) else {
        output.err("\(arg): error: no such file or directory\n")
        return nil
    }
    guard let format = themeFormats.first(where: { $0.claim(url, isDirectory: isDir.boolValue) != nil }),
        let id = format.claim(url, isDirectory: isDir.boolValue)
    else {
        if isDir.boolValue, let why = BundleFiles.unreadableDirectory(url.path) {
            output.err("\(arg): error: \(why)\n")
            return nil
        }
        output.err(
            "\(arg): error: not a theme bundle (a directory with theme.css, a .css file, a base16 .yaml scheme, an .itermcolors, colors.json or KDE .colors scheme)\n"
        )
        return nil
    }
    guard ThemeSource.isValidID(id) else {
        output.err(
            "\(arg): error: '\(id)' is not a theme id (\(ThemeSource.idRule)); liveryd would skip it\n")
        return nil
    }
    return (format, id)
}

/// Compiles and indexes one bundle as activating it would, and prints its diagnostics (its
/// variants' and, with `--warnings`, the lint's) and its summary line.
/// - Returns: Whether it compiled without errors.
private func checkBundle(
    _ arg: String, _ url: URL, format: any ThemeFormat, id: String, schema: Schema, searchPath: [String],
    _ inv: Invocation, _ output: Output
) -> Bool {
    // The bundle being checked stands in for any installed theme of the same id.
    let source = format.read(url, id: id)
    let installed = ThemeCatalog.entries(searchPath, formats: themeFormats).map(\.id).filter(
        ThemeSource.isValidID)
    let catalog = ThemeCatalog(sources: chain(from: source, searchPath: searchPath), otherIDs: installed)
    var (theme, diagnostics) = catalog.compile(id, schema: schema, pictures: PicturePixels.palettePictures)
    // Index it as activating it would, so that a check costs what the daemon pays.
    if let theme { _ = Cascade(theme: theme) }
    if theme != nil, case .success(let chain) = catalog.chain(for: id) {
        diagnostics += ThemeCatalog.variantWarnings(chain: chain, installed: installed + [id])
        if inv.warnings { diagnostics += Lint.warnings(chain: chain) }
    }
    let conflicts = sameIDConflicts(url, id: id)
    for c in conflicts { output.err(c + "\n") }
    for d in diagnostics { output.err(d.rendered + "\n") }
    // A file's "N more problems" line is not one of them; the N are said after.
    let errors = diagnostics.filter { $0.severity == .error && $0.omitted == 0 }.count
    let notShown = diagnostics.reduce(0) { $0 + $1.omitted }
    guard let theme, errors == 0 else {
        output.err(
            "\(arg): \(errors) error\(errors == 1 ? "" : "s")"
                + (notShown > 0 ? " and \(notShown) more problem\(notShown == 1 ? "" : "s") not shown" : "")
                + "\n")
        return false
    }
    let warnings = diagnostics.filter { $0.severity == .warning }.count + conflicts.count
    output.out(
        "\(arg): ok (theme '\(id)', \(format.name), \(theme.rules.count) rules"
            + (warnings > 0 ? ", \(warnings) warning\(warnings == 1 ? "" : "s")" : "") + ")\n")
    return true
}

/// Warnings for the other entries of theme `id` in the directory of `url`: liveryd takes the
/// first by name. (Entries of folders inside it are another directory's.)
private func sameIDConflicts(_ url: URL, id: String) -> [String] {
    let directory = url.deletingLastPathComponent().path
    let sameID = ThemeCatalog.entries([directory], formats: themeFormats)
        .filter { $0.id == id && $0.url.deletingLastPathComponent().path == directory }
    return sameID.dropFirst().map { other in
        "\(other.url.path): warning: theme '\(id)' is also provided by \(sameID[0].url.path) in the same directory; liveryd skips \(other.url.path)"
    }
}

/// The source and the parents its `inherits` chain names, each read from the first directory
/// of `searchPath` that has it; stops at a missing parent or a cycle (the compiler reports both).
func chain(from source: ThemeSource, searchPath: [String]) -> [ThemeSource] {
    var sources = [source]
    var current = source
    while let parent = current.sheet.metadataString("inherits"), sources.count <= 64,
        !sources.contains(where: { $0.id == parent }), let next = locate(parent, in: searchPath)
    {
        sources.append(next)
        current = next
    }
    return sources
}

/// Reads theme `id` from the first directory of `searchPath` holding it, without reading the
/// other entries.
func locate(_ id: String, in searchPath: [String]) -> ThemeSource? {
    ThemeCatalog.entries(searchPath, formats: themeFormats).first { $0.id == id }.map {
        $0.format.read($0.url, id: id)
    }
}

/// The formats the commands that read themes with no daemon (`check`, `palette`, `export`) use:
/// the compiled-in ones and the outside formats of the user's plugins, as liveryd reads them.
let themeFormats: [any ThemeFormat] = Paths().themeFormats()
