import Foundation
import LiveryAPI
import LiveryCore
import Mustache

/// `livery build REPO... [--themes-dir DIR]... [--out DIR]`: renders tinted-theming template
/// repositories for every base16 and base24 scheme found, as tinted-builder-rust does, reading
/// the schemes once for all of them. One repository is written under `--out` (else into
/// itself); several each under `--out/NAME`, NAME being the repository directory's name (else
/// each into itself). Exit 0 when every file was written, 1 otherwise; nothing is written when
/// two outputs would share a file or a template does not compile, in any repository.
func build(_ inv: Invocation, output: Output) -> Int32 {
    let roots = inv.positional.map { URL(fileURLWithPath: $0).standardizedFileURL }
    let outDirectories: [String]
    switch (inv.out.map { URL(fileURLWithPath: $0).standardizedFileURL.path }, roots.count) {
    case (let out?, 1): outDirectories = [out]
    case (let out?, _):
        let names = roots.map(\.lastPathComponent)
        if let twice = names.first(where: { n in names.filter { $0 == n }.count > 1 }) {
            output.err("livery: two repositories are named '\(twice)'; each is built into --out/NAME\n")
            return 1
        }
        outDirectories = names.map { out + "/" + $0 }
    case (nil, _): outDirectories = roots.map(\.path)
    }
    // Every configuration and template is read and compiled before the schemes, and every plan
    // made before anything is written.
    var repositories: [(repo: TemplateRepository, templates: [Template])] = []
    for root in roots {
        do {
            let repo = try TemplateRepository(root: root)
            repositories.append((repo, try templates(of: repo)))
        } catch let d as Diagnostic {
            output.err(d.rendered + "\n")
            return 1
        } catch let e as TemplateError {
            output.err(e.rendered + "\n")
            return 1
        } catch {
            output.err("\(root.path): error: \(error)\n")
            return 1
        }
    }
    // Schemes: under each --themes-dir, else the theme search path (the installed schemes).
    let directories =
        inv.themesDirectories.isEmpty ? Paths().fullThemeSearchPath(extra: []) : inv.themesDirectories
    var failed = false
    var schemes: [TintedScheme] = []
    for path in TintedScheme.files(in: directories) {
        switch TintedScheme.read(path: path) {
        case .success(let s): schemes.append(s)
        case .failure(let d):
            output.err(d.rendered + "\n")
            failed = true
        }
    }
    var plans: [[TemplateRepository.Output]] = []
    for (repo, _) in repositories {
        do { plans.append(try repo.outputs(for: schemes)) } catch {
            output.err(error.rendered + "\n")
            return 1
        }
    }
    // Each scheme's variables are made once, when its first output is rendered.
    var data = [MustacheValue?](repeating: nil, count: schemes.count)
    var madeDirectories: Set<String> = []
    for ((repo, templates), (plan, outDir)) in zip(repositories, zip(plans, outDirectories)) {
        var written = 0
        for item in plan {
            let value = data[item.scheme] ?? variables(schemes[item.scheme])
            data[item.scheme] = value
            let file = outDir + "/" + item.path
            do {
                let bytes = try templates[item.entry].renderBytes(value)
                let dir = String(file[..<(file.lastIndex(of: "/") ?? file.endIndex)])
                if madeDirectories.insert(dir).inserted {
                    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
                }
                try write(bytes, to: file)
                written += 1
            } catch {
                output.err("\(file): error: \(error)\n")
                failed = true
            }
        }
        output.out(
            "built \(written) file\(written == 1 ? "" : "s") (\(repo.entries.count) templates, \(schemes.count) schemes) in \(outDir)\n"
        )
    }
    return failed ? 1 : 0
}

/// The compiled template of each entry of `repo`, in entry order.
/// - Throws: A `Diagnostic` for a missing or unreadable template file, or the `TemplateError`
///   of one that does not compile.
func templates(of repo: TemplateRepository) throws -> [Template] {
    try repo.entries.map { entry in
        guard let text = try? String(contentsOf: entry.template, encoding: .utf8) else {
            throw Diagnostic(
                .error, "missing or unreadable template of entry '\(entry.name)'",
                at: SourceLocation(file: entry.template.path, line: 1, column: 1))
        }
        return try Template(text, name: entry.template.path)
    }
}

/// Why a file could not be written.
struct WriteError: Error, CustomStringConvertible {
    var description: String
}

/// Writes `bytes` to `path` (created or truncated, mode 0644 less the umask).
func write(_ bytes: [UInt8], to path: String) throws {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw WriteError(description: String(cString: strerror(errno))) }
    defer { close(fd) }
    try bytes.withUnsafeBytes { buffer in
        var offset = 0
        while offset < buffer.count {
            let n = Foundation.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                throw WriteError(description: String(cString: strerror(errno)))
            }
            offset += n
        }
    }
}

/// The tinted-theming variables of a scheme as Mustache data.
func variables(_ scheme: TintedScheme) -> MustacheValue {
    var data: [String: MustacheValue] = [:]
    data.reserveCapacity(TemplateVariables.count(scheme))
    TemplateVariables.each(scheme) { data[$0] = .string($1) }
    return .object(data)
}

/// `livery export ID TEMPLATE`: renders one template for one installed theme to standard output.
func export(_ inv: Invocation, output: Output) -> Int32 {
    let id = inv.positional[0]
    let templatePath = inv.positional[1]
    let searchPath = Paths().fullThemeSearchPath(extra: inv.themesDirectories)
    guard let entry = ThemeCatalog.entries(searchPath).first(where: { $0.id == id }) else {
        output.err("livery: no theme '\(id)' on the theme search path\n")
        return 1
    }
    let scheme: TintedScheme
    switch exportScheme(entry, id: id, searchPath: searchPath) {
    case .failure(let failure):
        output.err(failure.message + "\n")
        return 1
    case .success(let s): scheme = s
    }
    let template: Template
    do {
        let text = try String(contentsOfFile: templatePath, encoding: .utf8)
        template = try Template(text, name: templatePath)
    } catch let e as TemplateError {
        output.err(e.rendered + "\n")
        return 1
    } catch {
        output.err("\(templatePath): error: cannot read the template (\(error.localizedDescription))\n")
        return 1
    }
    do { output.out(try template.render(variables(scheme))) } catch {
        output.err("\(templatePath): \(error)\n")
        return 1
    }
    return 0
}

/// Why a theme cannot be exported, said for people.
struct ExportFailure: Error {
    var message: String
}

/// The scheme a theme is exported as: a base16 or base24 scheme as written; another theme by
/// its compiled palette's `base00`…`base0F` (and `base10`…`base17` when all are defined), its
/// name and variant.
func exportScheme(_ entry: ThemeCatalog.Entry, id: String, searchPath: [String]) -> Result<
    TintedScheme, ExportFailure
> {
    if entry.format is Base16Format {
        return TintedScheme.read(entry.url).mapError { ExportFailure(message: $0.rendered) }
    }
    guard let schemaPath = Paths.schemaFile(on: searchPath),
        let schema = try? Schema.load(from: URL(fileURLWithPath: schemaPath))
    else { return .failure(ExportFailure(message: "livery: no schema.json on the theme search path")) }
    let source = entry.format.read(entry.url, id: id)
    let catalog = ThemeCatalog(sources: chain(from: source, searchPath: searchPath), otherIDs: [])
    let (theme, diagnostics) = catalog.compile(id, schema: schema)
    guard let theme else {
        return .failure(ExportFailure(message: diagnostics.map(\.rendered).joined(separator: "\n")))
    }
    let base24 = TintedScheme.slots("base24").allSatisfy { theme.palette[$0] != nil }
    let system = base24 ? "base24" : "base16"
    var palette: [String: TintedScheme.RGB8] = [:]
    for slot in TintedScheme.slots(system) {
        guard let c = theme.palette[slot] else {
            return .failure(
                ExportFailure(
                    message:
                        "livery: theme '\(id)' has no base16 slots (it defines no '@define-color \(slot)'), so a template has no colours for it"
                ))
        }
        palette[slot] = TintedScheme.RGB8(c)
    }
    return .success(
        TintedScheme(
            system: system, name: theme.metadata.name, slug: id, author: "", variant: theme.metadata.variant,
            palette: palette))
}
