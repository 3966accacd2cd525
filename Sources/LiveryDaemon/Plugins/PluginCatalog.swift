import Foundation
import LiveryAPI
import LiveryCore
import Mustache

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

/// Finds plugins (`Paths.pluginSearchPath`, first wins for a name) and darkman's scripts.
enum PluginCatalog {
    /// Every plugin on the search path, by name.
    static func load(_ paths: Paths) -> [LoadedPlugin] {
        var seen: Set<String> = []
        var out: [LoadedPlugin] = []
        for (directory, origin) in paths.pluginSearchPath {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory))?.sorted() ?? []
            for name in names where !name.hasPrefix(".") && !seen.contains(name) {
                let dir = directory + "/" + name
                let manifest = dir + "/plugin.yaml"
                guard FileManager.default.fileExists(atPath: manifest) else { continue }
                seen.insert(name)
                out.append(load(name: name, origin: origin, directory: dir, manifest: manifest))
            }
        }
        return out
    }

    /// Reads and checks one plugin.
    static func load(name: String, origin: String, directory: String, manifest path: String) -> LoadedPlugin {
        var plugin = LoadedPlugin(
            name: name, origin: origin, directory: directory, kind: "hook", enabled: origin != "shipped",
            errors: [], manifest: PluginManifest(description: "", exports: [], hooks: []), templates: [])
        let text: String
        switch BundleFiles.contents(of: path, limit: PluginManifest.maximumSize) {
        case .failure(let e):
            plugin.errors = ["\(path):1:1: error: manifest \(e.message)"]
            return plugin
        case .success(let data):
            guard let t = String(data: data, encoding: .utf8) else {
                plugin.errors = ["\(path):1:1: error: the manifest is not UTF-8 text"]
                return plugin
            }
            text = t
        }
        switch PluginManifest.parse(text, file: path) {
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
                guard let t = String(data: data, encoding: .utf8) else {
                    plugin.errors.append("\(file):1:1: error: the template is not UTF-8 text")
                    continue
                }
                do { plugin.templates.append(try Template(t, name: file)) } catch {
                    plugin.errors.append("\(error)")
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
