import Foundation
import LiveryCore
import Mustache
import Synchronization

/// One plugin directory found on the plugin search path, its manifest read and its templates
/// compiled.
struct LoadedPlugin: Sendable {
    var name: String
    /// `user`, `system` or `shipped`.
    var origin: String
    var directory: String
    /// `exporter` (it has exports) or `hook`.
    var kind: String
    /// Shipped plugins are available, not enabled: linking one into the user's plugin
    /// directory enables it (the README, "Plugins").
    var enabled: Bool
    /// Manifest and template errors, rendered; a plugin with any never runs.
    var errors: [String]
    var manifest: PluginManifest
    /// The compiled templates of each export.
    var templates: [ExportTemplates]

    var runnable: Bool { enabled && errors.isEmpty }
}

/// The templates of one export: one, or a template repository's entries.
struct ExportTemplates: Sendable {
    /// Each entry's name, the systems it supports and its template; a plain template is one
    /// entry for both systems.
    var entries: [(name: String, systems: [String], template: Template)]
    /// A `syntax: pywal` export's templates: one file (relative path empty), or each file of its
    /// directory by its path relative to it, each compiled or its error (reported when the
    /// export runs: one broken file of the user's templates directory does not stop the rest).
    var pywal: [(relative: String, template: Result<PywalTemplate, Diagnostic>)] = []
    /// Whether a `syntax: pywal` export's template is a directory.
    var isDirectory = false
    /// The entry an export's `template` names, or when it names none (`""`), the first entry for
    /// `system`; a base24 theme with no base24 entry takes the first base16 entry, since a base24
    /// scheme has every base16 slot.
    func template(named name: String, system: String) -> Template? {
        if !name.isEmpty { return entries.first { $0.name == name }?.template }
        return
            (entries.first { $0.systems.contains(system) }
            ?? entries.first { $0.systems.contains("base16") })?.template
    }
}

/// Manifests parsed and templates compiled, by path and the exact bytes read: plugins are read
/// again at every change (the README, "Plugins"), and a file whose bytes are those of the last
/// read is not parsed again. Keyed by content, not by modification time, so an edit within one
/// timestamp tick is never missed. Holds the files of the latest `PluginCatalog.load` only.
final class PluginFileCache: Sendable {
    private struct Files {
        var manifests: [String: (bytes: Data, result: Result<PluginManifest, PluginManifest.Errors>)] = [:]
        var templates: [String: (bytes: Data, result: Result<Template, TemplateError>)] = [:]
        var pywal: [String: (bytes: Data, result: Result<PywalTemplate, Diagnostic>)] = [:]
        /// The paths looked up since `prune()`.
        var seen: Set<String> = []
    }
    private let files = Mutex(Files())

    /// `PluginManifest.parse` of `bytes`, decoded as UTF-8 (nil when they are not UTF-8).
    func manifest(_ path: String, _ bytes: Data) -> Result<PluginManifest, PluginManifest.Errors>? {
        if let hit = files.withLock({ f in
            f.seen.insert(path)
            return f.manifests[path].flatMap { $0.bytes == bytes ? $0.result : nil }
        }) {
            return hit
        }
        guard let text = String(data: bytes, encoding: .utf8) else { return nil }
        let result = PluginManifest.parse(text, file: path)
        files.withLock { $0.manifests[path] = (bytes, result) }
        return result
    }

    /// The template compiled from `bytes`, decoded as UTF-8 (nil when they are not UTF-8).
    func template(_ path: String, _ bytes: Data) -> Result<Template, TemplateError>? {
        if let hit = files.withLock({ f in
            f.seen.insert(path)
            return f.templates[path].flatMap { $0.bytes == bytes ? $0.result : nil }
        }) {
            return hit
        }
        guard let text = String(data: bytes, encoding: .utf8) else { return nil }
        let result = Result { () throws(TemplateError) in try Template(text, name: path) }
        files.withLock { $0.templates[path] = (bytes, result) }
        return result
    }

    /// The pywal template compiled from `bytes`.
    func pywalTemplate(_ path: String, _ bytes: Data) -> Result<PywalTemplate, Diagnostic> {
        if let hit = files.withLock({ f in
            f.seen.insert(path)
            return f.pywal[path].flatMap { $0.bytes == bytes ? $0.result : nil }
        }) {
            return hit
        }
        let result = Result { () throws(Diagnostic) in try PywalTemplate(Array(bytes), name: path) }
        files.withLock { $0.pywal[path] = (bytes, result) }
        return result
    }

    /// Forgets the files not looked up since the last prune (plugins removed or changed).
    func prune() {
        files.withLock { f in
            f.manifests = f.manifests.filter { f.seen.contains($0.key) }
            f.templates = f.templates.filter { f.seen.contains($0.key) }
            f.pywal = f.pywal.filter { f.seen.contains($0.key) }
            f.seen = []
        }
    }
}

/// Finds plugins (`Paths.pluginSearchPath`, first wins for a name) and darkman's scripts.
enum PluginCatalog {
    /// Every plugin on the search path, by name.
    /// - Parameters:
    ///   - paths: Where plugins are found.
    ///   - cache: Files parsed before, reused when their bytes are unchanged; nil parses all.
    static func load(_ paths: Paths, cache: PluginFileCache? = nil) -> [LoadedPlugin] {
        defer { cache?.prune() }
        return PluginManifest.directories(paths.pluginSearchPath).map {
            load(
                name: $0.name, origin: $0.origin, directory: $0.directory, manifest: $0.manifest,
                home: paths.home, cache: cache, paths: paths)
        }
    }

    /// Reads and checks one plugin.
    static func load(
        name: String, origin: String, directory: String, manifest path: String, home: String,
        cache: PluginFileCache? = nil, paths: Paths? = nil
    ) -> LoadedPlugin {
        let cache = cache ?? PluginFileCache()
        var plugin = LoadedPlugin(
            name: name, origin: origin, directory: directory, kind: "invalid", enabled: origin != "shipped",
            errors: [], manifest: PluginManifest(description: "", exports: [], hooks: []), templates: [])
        let parsed: Result<PluginManifest, PluginManifest.Errors>
        switch BundleFiles.contents(of: path, limit: PluginManifest.maximumSize) {
        case .failure(let e):
            plugin.errors = ["\(path):1:1: error: manifest \(e.message)"]
            return plugin
        case .success(let data):
            guard let p = cache.manifest(path, data) else {
                plugin.errors = ["\(path):1:1: error: the manifest is not UTF-8 text"]
                return plugin
            }
            parsed = p
        }
        switch parsed {
        case .failure(let e):
            plugin.errors = e.diagnostics.map(\.description)
            return plugin
        case .success(let m): plugin.manifest = m
        }
        plugin.kind =
            !plugin.manifest.exports.isEmpty
            ? "exporter"
            : !plugin.manifest.formats.isEmpty && plugin.manifest.hooks.isEmpty ? "format" : "hook"
        for export in plugin.manifest.exports {
            if let repository = export.repository {
                plugin.templates.append(
                    repositoryTemplates(
                        export, repository, home: home, in: directory, cache: cache, errors: &plugin.errors)
                )
                continue
            }
            if export.syntax == .pywal {
                plugin.templates.append(
                    pywalTemplates(
                        export, in: directory, paths: paths ?? Paths(environment: ["HOME": home]),
                        cache: cache,
                        errors: &plugin.errors))
                continue
            }
            let file = export.template.hasPrefix("/") ? export.template : directory + "/" + export.template
            var entries: [(name: String, systems: [String], template: Template)] = []
            if let template = compile(
                file, at: export.templateLocation, name: export.template, cache: cache, &plugin.errors)
            {
                entries.append((export.template, ["base16", "base24"], template))
            }
            plugin.templates.append(ExportTemplates(entries: entries))
        }
        return plugin
    }

    /// The largest template read: 4 MiB.
    static let maximumTemplateSize = 4 << 20

    /// Reads and compiles one template file (through `cache`); its errors go to `errors`.
    static func compile(
        _ file: String, at location: SourceLocation, name: String, cache: PluginFileCache,
        _ errors: inout [String]
    ) -> Template? {
        switch BundleFiles.contents(of: file, limit: maximumTemplateSize) {
        case .failure(let e):
            errors.append("\(location): error: template '\(name)' \(e.message)")
            return nil
        case .success(let data):
            switch cache.template(file, data) {
            case nil:
                errors.append("\(file):1:1: error: the template is not UTF-8 text")
                return nil
            case .success(let t)?: return t
            case .failure(let e)?:
                errors.append("\(e)")
                return nil
            }
        }
    }

    /// The entries of an export's template repository, each compiled; an entry `template` names
    /// that the repository does not have, an unreadable `config.yaml` and a template's errors go
    /// to `errors`.
    static func repositoryTemplates(
        _ export: PluginManifest.Export, _ repository: String, home: String, in directory: String,
        cache: PluginFileCache, errors: inout [String]
    ) -> ExportTemplates {
        let root =
            repository.hasPrefix("/")
            ? repository
            : repository.hasPrefix("~/") ? home + repository.dropFirst(1) : directory + "/" + repository
        let repo: TemplateRepository
        do { repo = try TemplateRepository(root: URL(fileURLWithPath: root)) } catch {
            let fm = FileManager.default
            if fm.fileExists(atPath: root + "/templates/config.yaml")
                || fm.fileExists(atPath: root + "/templates/config.yml")
            {
                errors.append(error.description)
            } else {
                errors.append(
                    "\(export.templateLocation): error: repository '\(repository)' not found: \(root) has no templates/config.yaml (clone the template repository there)"
                )
            }
            return ExportTemplates(entries: [])
        }
        if let skip = repo.skipped.first(where: { $0.name == export.template }) {
            errors.append(
                "\(export.templateLocation): error: repository '\(repository)': \(skip.notice) (Livery builds \(TemplateRepository.systems.joined(separator: " and ")))"
            )
        } else if !export.template.isEmpty, !repo.entries.contains(where: { $0.name == export.template }) {
            let names = repo.entries.map(\.name)
            let hint = suggestion(for: export.template, among: names).map { " (did you mean '\($0)'?)" } ?? ""
            errors.append(
                "\(export.templateLocation): error: repository '\(repository)' has no template '\(export.template)'\(hint); it has \(names.map { "'\($0)'" }.joined(separator: ", "))"
            )
        }
        var entries: [(name: String, systems: [String], template: Template)] = []
        for entry in repo.entries where export.template.isEmpty || entry.name == export.template {
            if let t = compile(
                entry.template.path, at: export.templateLocation, name: entry.name, cache: cache, &errors)
            {
                entries.append((entry.name, entry.systems, t))
            }
        }
        return ExportTemplates(entries: entries)
    }

    /// darkman's scripts for a variant: the executable regular files of each directory of
    /// `Paths.darkmanDirectories`, the first of a name winning, in name order.
    static func darkmanScripts(_ paths: Paths, variant: String) -> [(
        name: String, path: String, origin: String
    )] {
        var seen: Set<String> = []
        var out: [(name: String, path: String, origin: String)] = []
        for (i, dir) in paths.darkmanDirectories(variant).enumerated() {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: dir))?.sorted() ?? []
            for name in names where !name.hasPrefix(".") && !seen.contains(name) {
                let path = dir + "/" + name
                var st = stat()
                guard stat(path, &st) == 0, st.st_mode & S_IFMT == S_IFREG,
                    FileManager.default.isExecutableFile(atPath: path)
                else { continue }
                seen.insert(name)
                let folder = (dir as NSString).lastPathComponent
                out.append((folder + "/" + name, path, i == 0 ? "user" : "system"))
            }
        }
        return out
    }
}
