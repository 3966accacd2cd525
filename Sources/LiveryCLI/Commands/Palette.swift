import Foundation
import LiveryAPI
import LiveryCore
import LiveryPreview

/// `livery palette ID... [--themes-dir DIR]... [--json]`: prints each theme's palette after
/// import and inheritance, with no daemon. An argument is a theme id (or alias, `base24-nord`)
/// found on the search path as `livery check` finds parents (each --themes-dir, the daemon's
/// search path, the themes shipped with the program), or the path of a bundle or scheme file.
///
/// One `name #rrggbbaa` line per colour, in name order (numbers in names compared as numbers:
/// `color2` before `color10`); with several themes each is headed by `ID:` and followed by an
/// empty line. With `--json`, one flat object `{"name": "#rrggbbaa"}` per theme, a line each.
/// Exit 0 when every theme compiled, 1 otherwise (its diagnostics on standard error).
func palette(_ inv: Invocation, output: Output) -> Int32 {
    let searchPath = Paths().fullThemeSearchPath(extra: inv.themesDirectories)
    guard let schema = schema(inv, searchPath: searchPath, output: output) else { return 1 }
    var failed = false
    for arg in inv.positional {
        guard let (id, catalog) = themeCatalog(for: arg, searchPath: searchPath, output: output) else {
            failed = true
            continue
        }
        let (theme, diagnostics) = catalog.compile(
            id, schema: schema, pictures: PicturePixels.palettePictures)
        guard let theme else {
            for d in diagnostics where d.severity == .error { output.err(d.rendered + "\n") }
            output.err("livery: theme '\(id)' has errors; run 'livery check' on it\n")
            failed = true
            continue
        }
        let names = theme.palette.keys.sorted(by: naturalOrder)
        if inv.json {
            output.out(jsonLine(Dictionary(uniqueKeysWithValues: names.map { ($0, theme.palette[$0]!.hex) })))
        } else {
            let several = inv.positional.count > 1
            if several { output.out("\(arg):\n") }
            for name in names { output.out("\(name) \(theme.palette[name]!.hex)\n") }
            if several { output.out("\n") }
        }
    }
    return failed ? 1 : 0
}

/// The schema of `--schema FILE`, else the first `schema.json` on `searchPath`; nil (said on
/// standard error) when there is none or it does not load.
func schema(_ inv: Invocation, searchPath: [String], output: Output) -> Schema? {
    guard let schemaPath = inv.schema ?? Paths.schemaFile(on: searchPath) else {
        output.err("livery: no schema.json found; give one with --schema FILE or --themes-dir DIR\n")
        return nil
    }
    do { return try Schema.load(from: URL(fileURLWithPath: schemaPath)) } catch {
        output.err("livery: \(error)\n")
        return nil
    }
}

/// The id and a catalog able to compile it, for the commands that work with no daemon
/// (`palette`, `export`): a path is read as `check` reads a bundle (its parents found on
/// `searchPath`), an id or alias (`base24-nord`) is looked up on `searchPath`; nil (said on
/// standard error) when there is no such theme.
func themeCatalog(for arg: String, searchPath: [String], output: Output) -> (String, ThemeCatalog)? {
    var isDir: ObjCBool = false
    if arg.contains("/")
        || (FileManager.default.fileExists(atPath: arg, isDirectory: &isDir) && !isDir.boolValue)
    {
        let url = URL(fileURLWithPath: arg).standardizedFileURL
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir) else {
            output.err("\(arg): error: no such file or directory\n")
            return nil
        }
        guard
            let format = themeFormats.first(where: { $0.claim(url, isDirectory: isDir.boolValue) != nil }
            ),
            let id = format.claim(url, isDirectory: isDir.boolValue)
        else {
            output.err("\(arg): error: not a theme bundle or scheme\n")
            return nil
        }
        let source = format.read(url, id: id)
        let parents = [url.deletingLastPathComponent().path] + searchPath
        return (id, ThemeCatalog(sources: chain(from: source, searchPath: parents)))
    }
    let catalog = ThemeCatalog(searchPath: searchPath, formats: themeFormats, readingOnly: [arg])
    guard catalog.isInstalled(arg) else {
        let hint = suggestion(for: arg, among: catalog.installedIDs).map { " (did you mean '\($0)'?)" } ?? ""
        output.err("livery: no theme '\(arg)' is installed\(hint)\n")
        return nil
    }
    return (catalog.canonicalID(arg), catalog)
}

/// Name order with runs of digits compared as numbers: `color2` < `color10` < `cursor`.
func naturalOrder(_ a: String, _ b: String) -> Bool {
    var i = a.unicodeScalars.makeIterator()
    var j = b.unicodeScalars.makeIterator()
    var x = i.next()
    var y = j.next()
    func number(_ first: inout Unicode.Scalar?, _ it: inout String.UnicodeScalarView.Iterator) -> (Int, Int) {
        var digits = ""
        while let c = first, ("0"..."9").contains(c) {
            digits.unicodeScalars.append(c)
            first = it.next()
        }
        return (Int(digits.prefix(18)) ?? 0, digits.count)
    }
    while let c = x, let d = y {
        if ("0"..."9").contains(c) && ("0"..."9").contains(d) {
            let (m, ml) = number(&x, &i)
            let (n, nl) = number(&y, &j)
            if m != n { return m < n }
            if ml != nl { return ml < nl }
            continue
        }
        if c != d { return c < d }
        x = i.next()
        y = j.next()
    }
    return x == nil && y != nil
}
