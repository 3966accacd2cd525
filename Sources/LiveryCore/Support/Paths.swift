import Foundation

/// Where Livery reads and writes, following the XDG Base Directory Specification: the theme
/// and plugin search paths and the schema (which `liveryd`, `livery` and `livery-demo` all
/// read), `config.yaml` (the daemon's schedule, `livery schedule`), and the daemon's own state,
/// overrides and darkman directories.
public struct Paths: Sendable {
    /// The variables read: `HOME` and the `XDG_*` base directory ones.
    public var environment: [String: String]

    /// Paths from `environment`, the process's own by default.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = environment
    }

    public var home: String { environment["HOME"] ?? NSHomeDirectory() }

    private func base(_ variable: String, _ fallback: String) -> String {
        if let v = environment[variable], v.hasPrefix("/") { return v }
        return (home as NSString).appendingPathComponent(fallback)
    }

    /// `$XDG_DATA_HOME`, default `~/.local/share`.
    public var dataHome: String { base("XDG_DATA_HOME", ".local/share") }
    /// `$XDG_CONFIG_HOME`, default `~/.config`.
    public var configHome: String { base("XDG_CONFIG_HOME", ".config") }
    /// `$XDG_CONFIG_HOME/livery/config.yaml`: the light and dark themes and the schedule.
    public var configFile: String { configHome + "/livery/config.yaml" }
    /// The directory an XDG base directory variable names (`XDG_CONFIG_HOME`, `XDG_DATA_HOME`,
    /// `XDG_CACHE_HOME`, `XDG_STATE_HOME`), its default when unset; nil for another name.
    public func baseDirectory(_ variable: String) -> String? {
        switch variable {
        case "XDG_CONFIG_HOME": configHome
        case "XDG_DATA_HOME": dataHome
        case "XDG_CACHE_HOME": cacheHome
        case "XDG_STATE_HOME": stateHome
        default: nil
        }
    }

    /// `$XDG_CACHE_HOME`, default `~/.cache`.
    public var cacheHome: String { base("XDG_CACHE_HOME", ".cache") }
    /// `$XDG_STATE_HOME`, default `~/.local/state`.
    public var stateHome: String { base("XDG_STATE_HOME", ".local/state") }
    /// `$XDG_DATA_DIRS`, default `/usr/local/share:/usr/share`.
    public var dataDirs: [String] {
        let v =
            environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share"
        return v.split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
    }

    /// The theme search path, as the README states it: the given directories, then
    /// `$XDG_DATA_HOME/livery/themes`, then each `$XDG_DATA_DIRS/livery/themes`.
    /// - Parameter extra: Directories searched first, e.g. each `--themes-dir`.
    /// - Returns: The directories in search order; they need not exist.
    public func themeSearchPath(extra: [String]) -> [String] {
        extra + [dataHome + "/livery/themes"] + dataDirs.map { $0 + "/livery/themes" }
    }

    /// The search path of `themeSearchPath(extra:)` followed by the themes shipped with the
    /// running program (`builtInThemeDirectories()`), without repeats.
    public func fullThemeSearchPath(extra: [String]) -> [String] {
        var out: [String] = []
        for dir in themeSearchPath(extra: extra) + Paths.builtInThemeDirectories() where !out.contains(dir) {
            out.append(dir)
        }
        return out
    }

    /// The schema file of a theme search path: the first directory's `schema.json` that exists.
    /// - Parameter searchPath: Directories in search order.
    /// - Returns: The file's path, or nil when no directory has one.
    public static func schemaFile(on searchPath: [String]) -> String? {
        searchPath.map { $0 + "/schema.json" }.first { FileManager.default.fileExists(atPath: $0) }
    }

    /// `$XDG_STATE_HOME/livery/state.json`: the active theme.
    public var stateFile: String { stateHome + "/livery/state.json" }
    /// `$XDG_CONFIG_HOME/livery/overrides.css`: the user's layer.
    public var overridesFile: String { configHome + "/livery/overrides.css" }

    /// The themes shipped with the running program: `PREFIX/share/livery/themes` beside an
    /// installed `PREFIX/bin/…`, or the `themes/` folder of the source tree a development build
    /// runs from (the nearest ancestor holding `themes/schema.json`). Found from
    /// `/proc/self/exe`, so the working directory does not matter.
    public static func builtInThemeDirectories() -> [String] {
        var exe = URL(fileURLWithPath: CommandLine.arguments.first ?? "").standardizedFileURL.path
        if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            exe = target
        }
        var out: [String] = []
        var dir = URL(fileURLWithPath: exe).resolvingSymlinksInPath().deletingLastPathComponent()
        let installed = dir.deletingLastPathComponent().appendingPathComponent("share/livery/themes").path
        if FileManager.default.fileExists(atPath: installed + "/schema.json") { out.append(installed) }
        for _ in 0..<6 {
            let candidate = dir.appendingPathComponent("themes").path
            if FileManager.default.fileExists(atPath: candidate + "/schema.json") {
                out.append(candidate)
                break
            }
            dir = dir.deletingLastPathComponent()
        }
        return out
    }

    /// Where plugins are found, in order, with their origin (`user`, `system`, `shipped`):
    /// `$XDG_CONFIG_HOME/livery/plugins`, each `$XDG_DATA_DIRS/livery/plugins`, then the plugins
    /// shipped with the running program (`builtInPluginDirectories()`); the first directory
    /// holding a plugin of a name wins.
    public var pluginSearchPath: [(directory: String, origin: String)] {
        var out: [(directory: String, origin: String)] = [(configHome + "/livery/plugins", "user")]
        out += dataDirs.map { ($0 + "/livery/plugins", "system") }
        for dir in Paths.builtInPluginDirectories() where !out.contains(where: { $0.directory == dir }) {
            out.append((dir, "shipped"))
        }
        return out
    }

    /// `$XDG_DATA_HOME/dark-mode.d` (or `light-mode.d`), then each `$XDG_DATA_DIRS/…`, as
    /// darkman searches them.
    public func darkmanDirectories(_ variant: String) -> [String] {
        let name = variant == "dark" ? "dark-mode.d" : "light-mode.d"
        return [dataHome + "/" + name] + dataDirs.map { $0 + "/" + name }
    }

    /// The plugins shipped with the running program: `plugins/` beside each directory of
    /// `builtInThemeDirectories()` (`PREFIX/share/livery/plugins`, or the source tree's).
    public static func builtInPluginDirectories() -> [String] {
        builtInThemeDirectories().map {
            URL(fileURLWithPath: $0).deletingLastPathComponent().appendingPathComponent("plugins").path
        }
        .filter { FileManager.default.fileExists(atPath: $0) }
    }
}
