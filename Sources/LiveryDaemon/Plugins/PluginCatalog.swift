import Foundation
import LiveryAPI
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
    /// The compiled template of each export.
    var templates: [Template]

    var runnable: Bool { enabled && errors.isEmpty }
}

/// Manifests parsed and templates compiled, by path and the exact bytes read: plugins are read
/// again at every change (the README, "Plugins"), and a file whose bytes are those of the last
/// read is not parsed again. Keyed by content, not by modification time, so an edit within one
/// timestamp tick is never missed. Holds the files of the latest `PluginCatalog.load` only.
final class PluginFileCache: Sendable {
    private struct Files {
        var manifests: [String: (bytes: Data, result: Result<PluginManifest, PluginManifest.Errors>)] = [:]
        var templates: [String: (bytes: Data, result: Result<Template, TemplateError>)] = [:]
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

    /// Forgets the files not looked up since the last prune (plugins removed or changed).
    func prune() {
        files.withLock { f in
            f.manifests = f.manifests.filter { f.seen.contains($0.key) }
            f.templates = f.templates.filter { f.seen.contains($0.key) }
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
        var seen: Set<String> = []
        var out: [LoadedPlugin] = []
        for (directory, origin) in paths.pluginSearchPath {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory))?.sorted() ?? []
            for name in names where !name.hasPrefix(".") && !seen.contains(name) {
                let dir = directory + "/" + name
                let manifest = dir + "/plugin.yaml"
                guard FileManager.default.fileExists(atPath: manifest) else { continue }
                seen.insert(name)
                out.append(load(name: name, origin: origin, directory: dir, manifest: manifest, cache: cache))
            }
        }
        return out
    }

    /// Reads and checks one plugin.
    static func load(
        name: String, origin: String, directory: String, manifest path: String, cache: PluginFileCache? = nil
    ) -> LoadedPlugin {
        let cache = cache ?? PluginFileCache()
        var plugin = LoadedPlugin(
            name: name, origin: origin, directory: directory, kind: "hook", enabled: origin != "shipped",
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
        plugin.kind = plugin.manifest.exports.isEmpty ? "hook" : "exporter"
        for export in plugin.manifest.exports {
            let file = export.template.hasPrefix("/") ? export.template : directory + "/" + export.template
            switch BundleFiles.contents(of: file, limit: 4 << 20) {
            case .failure(let e):
                plugin.errors.append(
                    "\(export.templateLocation): error: template '\(export.template)' \(e.message)")
            case .success(let data):
                switch cache.template(file, data) {
                case nil: plugin.errors.append("\(file):1:1: error: the template is not UTF-8 text")
                case .success(let t)?: plugin.templates.append(t)
                case .failure(let e)?: plugin.errors.append("\(e)")
                }
            }
        }
        return plugin
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
