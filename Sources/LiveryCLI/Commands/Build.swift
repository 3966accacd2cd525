import Foundation
import LiveryAPI
import LiveryCore
import Mustache

/// `livery build REPO... [--themes-dir DIR]... [--out DIR]`: renders tinted-theming template
/// repositories for every base16 and base24 scheme found, as tinted-builder-rust does, reading
/// the schemes once for all of them. One repository is written under `--out` (else into
/// itself); several each under `--out/NAME`, NAME being the repository directory's name (else
/// each into itself). Each file is written whole or not at all and stays beneath its output
/// directory (`OutputRoot`): a link in the tree under it, such as one the repository commits,
/// is an error naming it and is never written through. An entry for systems Livery does not
/// build (`tinted8`) is skipped with a notice on standard error, not an error. Exit 0 when every
/// file was written, 1 otherwise; nothing is written when two outputs would share a file or a
/// template does not compile, in any repository.
func build(_ inv: Invocation, output: Output) -> Int32 {
    let roots = inv.positional.map { URL(fileURLWithPath: $0).standardizedFileURL }
    guard let outDirectories = outDirectories(of: roots, out: inv.out, output: output) else { return 1 }
    // Every configuration and template is read and compiled before the schemes, and every plan
    // made before anything is written.
    var repositories: [(repo: TemplateRepository, templates: [Template])] = []
    for root in roots {
        do {
            let repo = try TemplateRepository(root: root)
            for skip in repo.skipped { output.err("livery: \(root.path): \(skip.notice)\n") }
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
    // One root per directory, opened (and swept of killed writers' temporaries) once, however
    // many repositories are built under it.
    var opened: [String: OutputRoot] = [:]
    for ((repo, templates), (plan, target)) in zip(repositories, zip(plans, outDirectories))
    where !plan.isEmpty {
        // Every output stays beneath the output directory, whatever links the repository holds.
        let outDir = target.root + (target.under.isEmpty ? "" : "/" + target.under.dropLast())
        let root: OutputRoot
        do {
            root = try opened[target.root] ?? OutputRoot(target.root)
            opened[target.root] = root
        } catch {
            output.err("\(outDir): error: \(error)\n")
            failed = true
            continue
        }
        let written = write(plan, of: templates, schemes: schemes, data: &data, under: target.under, in: root)
        {
            output.err("\(outDir)/\($0): error: \($1)\n")
            failed = true
        }
        output.out(
            "built \(written) file\(written == 1 ? "" : "s") (\(repo.entries.count) templates, \(schemes.count) schemes) in \(outDir)"
                + (written < plan.count ? "; \(plan.count - written) not written\n" : "\n"))
    }
    return failed ? 1 : 0
}

/// Where each repository is written: an output root (the user's path, its links followed) and
/// the directory under it (`NAME/` for several under `--out`: confined like any output).
/// - Returns: One per repository, or nil after saying that two share a name under `--out`.
private func outDirectories(of roots: [URL], out: String?, output: Output) -> [(root: String, under: String)]?
{
    switch (out.map { URL(fileURLWithPath: $0).standardizedFileURL.path }, roots.count) {
    case (let out?, 1): return [(out, "")]
    case (let out?, _):
        let names = roots.map(\.lastPathComponent)
        if let twice = names.first(where: { n in names.filter { $0 == n }.count > 1 }) {
            output.err("livery: two repositories are named '\(twice)'; each is built into --out/NAME\n")
            return nil
        }
        return names.map { (out, $0 + "/") }
    case (nil, _): return roots.map { ($0.path, "") }
    }
}

/// Renders and writes a repository's outputs under `under` in `root`, each scheme's variables
/// made once (kept in `data`) when its first output is rendered; `failure` is told of an
/// output not written (its path and why), once for each reason (a link or a file where a
/// directory goes fails every output under it).
/// - Returns: The number of files written.
private func write(
    _ plan: [TemplateRepository.Output], of templates: [Template], schemes: [TintedScheme],
    data: inout [MustacheValue?], under: String, in root: OutputRoot, failure: (String, Error) -> Void
) -> Int {
    var written = 0
    var said: Set<String> = []
    for item in plan {
        let value = data[item.scheme] ?? variables(schemes[item.scheme])
        data[item.scheme] = value
        do {
            try root.write(try templates[item.entry].renderBytes(value), to: under + item.path)
            written += 1
        } catch {
            if said.insert("\(error)").inserted { failure(item.path, error) }
        }
    }
    return written
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

/// The tinted-theming variables of a scheme as Mustache data.
func variables(_ scheme: TintedScheme) -> MustacheValue {
    var data: [String: MustacheValue] = [:]
    data.reserveCapacity(TemplateVariables.count(scheme))
    TemplateVariables.each(scheme) { data[$0] = .string($1) }
    return .object(data)
}
