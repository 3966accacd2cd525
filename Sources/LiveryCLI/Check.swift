import Foundation
import LiveryCore
import LiveryDaemon

/// `livery check BUNDLE...`: reads and compiles each bundle offline, printing every diagnostic
/// in compiler form. Exit 0 when all are clean, 1 when any has an error.
func check(_ inv: Invocation, output: Output) -> Int32 {
    let paths = Paths()
    let bundles = inv.positional.map { URL(fileURLWithPath: $0).standardizedFileURL }
    // Parents named by `inherits` are found next to the bundles, then in --themes-dir, then on the
    // daemon's search path.
    let searchPath =
        Array(
            NSOrderedSet(
                array: bundles.map { $0.deletingLastPathComponent().path }
                    + paths.themeSearchPath(extra: inv.themesDirectories))) as! [String]
    let schemaPath =
        inv.schema
        ?? searchPath.map { $0 + "/schema.json" }.first { FileManager.default.fileExists(atPath: $0) }
    guard let schemaPath else {
        output.err("livery: no schema.json found; give one with --schema FILE or --themes-dir DIR\n")
        return 1
    }
    let schema: Schema
    do { schema = try Schema.load(from: URL(fileURLWithPath: schemaPath)) } catch {
        output.err("livery: \(error)\n")
        return 1
    }
    var catalog = ThemeCatalog(searchPath: searchPath)
    var failed = false
    for (arg, url) in zip(inv.positional, bundles) {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir) else {
            output.err("\(arg): error: no such file or directory\n")
            failed = true
            continue
        }
        guard
            let format = ThemeFormats.all.first(where: { $0.claim(url, isDirectory: isDir.boolValue) != nil }
            ),
            let id = format.claim(url, isDirectory: isDir.boolValue)
        else {
            output.err(
                "\(arg): error: not a theme bundle (a directory with theme.css, a .css file, or a base16 .yaml scheme)\n"
            )
            failed = true
            continue
        }
        // The bundle being checked replaces any installed theme of the same id.
        let source = format.read(url, id: id)
        var local = catalog
        local.replace(source)
        var (theme, diagnostics) = local.compile(id, schema: schema)
        if inv.warnings, theme != nil, case .success(let chain) = local.chain(for: id) {
            diagnostics += Lint.warnings(chain: chain)
        }
        for d in diagnostics { output.err(d.rendered + "\n") }
        let errors = diagnostics.filter { $0.severity == .error }.count
        if theme == nil || errors > 0 {
            failed = true
            output.err("\(arg): \(errors) error\(errors == 1 ? "" : "s")\n")
        } else {
            let warnings = diagnostics.filter { $0.severity == .warning }.count
            output.out(
                "\(arg): ok (theme '\(id)', \(format.name), \(theme!.rules.count) rules"
                    + (warnings > 0 ? ", \(warnings) warning\(warnings == 1 ? "" : "s")" : "") + ")\n")
        }
        catalog = local
    }
    return failed ? 1 : 0
}
