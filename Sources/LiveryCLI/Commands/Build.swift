import Foundation
import LiveryAPI
import LiveryCore
import Mustache

/// `livery build REPO [--themes-dir DIR]... [--out DIR]`: renders a tinted-theming template
/// repository for every base16 and base24 scheme found, as tinted-builder-rust does. Exit 0
/// when every file was written, 1 otherwise; nothing is written when two outputs would share
/// a file or a template does not compile.
func build(_ inv: Invocation, output: Output) -> Int32 {
    let repoURL = URL(fileURLWithPath: inv.positional[0]).standardizedFileURL
    let repo: TemplateRepository
    do { repo = try TemplateRepository(root: repoURL) } catch {
        output.err(error.rendered + "\n")
        return 1
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
    var templates: [Template] = []
    for entry in repo.entries {
        guard let text = try? String(contentsOf: entry.template, encoding: .utf8) else {
            output.err(
                "\(entry.template.path): error: missing or unreadable template of entry '\(entry.name)'\n")
            return 1
        }
        do { templates.append(try Template(text, name: entry.template.path)) } catch {
            output.err(error.rendered + "\n")
            return 1
        }
    }
    let plan: [TemplateRepository.Output]
    do { plan = try repo.outputs(for: schemes) } catch {
        output.err(error.rendered + "\n")
        return 1
    }
    let outDir = (inv.out.map { URL(fileURLWithPath: $0).standardizedFileURL } ?? repoURL).path
    var data: [Int: MustacheValue] = [:]
    var madeDirectories: Set<String> = []
    var written = 0
    for item in plan {
        let value = data[item.scheme] ?? variables(schemes[item.scheme])
        data[item.scheme] = value
        let file = outDir + "/" + item.path
        do {
            let text = try templates[item.entry].render(value)
            let dir = String(file[..<(file.lastIndex(of: "/") ?? file.endIndex)])
            if madeDirectories.insert(dir).inserted {
                try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            }
            try write(text, to: file)
            written += 1
        } catch {
            output.err("\(file): error: \(error)\n")
            failed = true
        }
    }
    output.out(
        "built \(written) file\(written == 1 ? "" : "s") (\(repo.entries.count) templates, \(schemes.count) schemes) in \(outDir)\n"
    )
    return failed ? 1 : 0
}

/// Why a file could not be written.
struct WriteError: Error, CustomStringConvertible {
    var description: String
}

/// Writes `text` to `path` (created or truncated, mode 0644 less the umask).
func write(_ text: String, to path: String) throws {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw WriteError(description: String(cString: strerror(errno))) }
    defer { close(fd) }
    var text = text
    try text.withUTF8 { bytes in
        var offset = 0
        while offset < bytes.count {
            let n = Foundation.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
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
