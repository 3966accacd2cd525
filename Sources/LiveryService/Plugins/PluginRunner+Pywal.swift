import Foundation
import LiveryCore

extension PluginRunner {
    /// For each key of `keep`, the string value of that top-level key of the JSON object in
    /// `path` (at most 1 MiB), else its default.
    func rawKept(_ keep: [String: String], in path: String) -> [String: String] {
        var old: [String: Any] = [:]
        if let handle = FileHandle(forReadingAtPath: path) {
            let data = (try? handle.read(upToCount: 1 << 20)) ?? nil
            try? handle.close()
            if let data, let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
                old = object
            }
        }
        var out: [String: String] = [:]
        for (key, fallback) in keep { out[key] = old[key] as? String ?? fallback }
        return out
    }

    /// `path` with repeated and trailing `/` removed, so that outputs compare.
    static func normalised(_ path: String) -> String {
        var out = ""
        for c in path where !(c == "/" && out.hasSuffix("/")) { out.append(c) }
        return out.count > 1 && out.hasSuffix("/") ? String(out.dropLast()) : out
    }

    /// The files every export writes (a pywal directory export: each of its templates' outputs).
    func outputs(of export: PluginManifest.Export, _ templates: ExportTemplates) -> [String] {
        let output = PluginRunner.normalised(expand(export.output))
        guard export.syntax == .pywal, templates.isDirectory else { return [output] }
        return templates.pywal.map { output + "/" + $0.relative }
    }

    /// For each export of `plugin`, the files a later export of it writes: an export never
    /// writes those (the later one would replace them on every run).
    func claimedLater(_ plugin: LoadedPlugin) -> [Set<String>] {
        var out: [Set<String>] = []
        var later: Set<String> = []
        for (export, templates) in zip(plugin.manifest.exports, plugin.templates).reversed() {
            out.append(later)
            later.formUnion(outputs(of: export, templates))
        }
        return out.reversed()
    }

    /// Renders and writes a `syntax: pywal` export: its one file, or each file of its templates
    /// directory beneath the output directory (`OutputRoot`: nothing lands outside it), over the
    /// theme's terminal colours and `kept`'s `wallpaper`, `checksum` and `alpha`.
    /// - Returns: its command to run, whether a file was written, and the failures (a template
    ///   of the directory that does not compile or render fails alone).
    func renderPywal(
        _ plugin: LoadedPlugin, _ export: PluginManifest.Export, _ templates: ExportTemplates,
        _ output: String,
        _ kept: [String: String], claimed: Set<String>, startUp: Bool, themeFiles: ThemeFiles?,
        _ snap: ThemeSnapshot
    ) -> (jobs: [Job], wrote: Bool, failures: [String]) {
        let t = snap.terminal
        let colors = PywalColors(
            colors: (0..<16).map { t["color\($0)"] ?? "#000000" }, background: t["background"] ?? "#000000",
            foreground: t["foreground"] ?? "#ffffff", cursor: t["cursor"] ?? "#ffffff",
            wallpaper: kept["wallpaper"] ?? "None", checksum: kept["checksum"] ?? "None",
            alpha: kept["alpha"] ?? "100")
        var failures: [String] = []
        var wrote = false
        var root: OutputRoot?
        let directory = PluginRunner.normalised(output)
        for (relative, compiled) in templates.pywal {
            let file = templates.isDirectory ? directory + "/" + relative : output
            if claimed.contains(PluginRunner.normalised(file)) { continue }
            if let theme = themeFiles?.theme(at: file) {
                if !(export.skipsActiveTheme && theme == themeFiles?.active) {
                    failures.append(
                        "plugin '\(plugin.name)': refused to write \(file): it is a theme's file (\(theme))")
                }
                continue
            }
            do {
                let bytes = try compiled.get().render(colors)
                let changed: Bool
                if templates.isDirectory {
                    if root == nil { root = try OutputRoot(directory) }
                    changed = try root!.write(bytes, to: relative, durable: true)
                } else {
                    changed = try OutputFile.write(bytes, to: output)
                }
                if changed {
                    log(.info, "plugin '\(plugin.name)': wrote \(file)")
                    wrote = true
                }
            } catch let d as Diagnostic {
                failures.append("plugin '\(plugin.name)': \(d)")
            } catch {
                failures.append("plugin '\(plugin.name)': cannot write \(file): \(error)")
            }
        }
        var jobs: [Job] = []
        if !export.run.isEmpty && (wrote || !startUp) {
            jobs.append(
                (
                    plugin.name, "export '\(export.template)'", arguments(export.run, plugin.directory),
                    plugin.directory,
                    export.timeout, export.whenRunning
                ))
        }
        return (jobs, wrote, failures)
    }
}
