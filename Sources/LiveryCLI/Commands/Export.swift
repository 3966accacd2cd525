import Foundation
import LiveryAPI
import LiveryCore
import LiveryPreview
import Mustache

/// `livery export ID TEMPLATE [--themes-dir DIR]...`: renders one template for one theme to
/// standard output, with no daemon, with the data the daemon's exports get
/// (`ThemeTemplateData`): the tinted-theming variables of the theme's scheme or base16 slots,
/// its palette by name, its components by dotted name. The theme is found as `livery palette`
/// finds it (an id, an alias such as `base24-nord`, or a path). Exit 0 when the template
/// rendered, 1 otherwise (the theme's or the template's errors on standard error).
func export(_ inv: Invocation, output: Output) -> Int32 {
    let arg = inv.positional[0]
    let templatePath = inv.positional[1]
    let searchPath = Paths().fullThemeSearchPath(extra: inv.themesDirectories)
    guard let schema = schema(inv, searchPath: searchPath, output: output),
        let (id, catalog) = themeCatalog(for: arg, searchPath: searchPath, output: output)
    else { return 1 }
    let (theme, diagnostics) = catalog.compile(id, schema: schema, pictures: PicturePixels.palettePictures)
    guard let theme else {
        for d in diagnostics where d.severity == .error { output.err(d.rendered + "\n") }
        output.err("livery: theme '\(id)' has errors; run 'livery check' on it\n")
        return 1
    }
    let template: Template
    switch BundleFiles.contents(of: templatePath, limit: 4 << 20) {
    case .failure(let e):
        output.err("\(templatePath): error: cannot read the template: \(e.message)\n")
        return 1
    case .success(let data):
        guard let text = String(data: data, encoding: .utf8) else {
            output.err("\(templatePath):1:1: error: the template is not UTF-8 text\n")
            return 1
        }
        do { template = try Template(text, name: templatePath) } catch {
            output.err(error.rendered + "\n")
            return 1
        }
    }
    do { output.out(try template.render(ThemeTemplateData(Cascade(theme: theme)).value)) } catch {
        output.err("\(templatePath): \(error)\n")
        return 1
    }
    return 0
}
