/// Reads the parts of a `plugin.yaml` (`PluginManifest.parse`): each list's items and each
/// value, reporting every error through the file's `YAMLMappingReader` and going on, so that one
/// run finds them all.
struct ManifestReader {
    let yaml: YAMLMappingReader

    init(text: String, file: String) {
        yaml = YAMLMappingReader(text: text, file: file)
    }

    private func error(_ message: String, _ mark: YAMLNode.Mark) { yaml.error(message, at: mark) }

    /// The items of list `what` (`exports`, `hooks`, `formats`) read by `item` from each
    /// mapping's pairs and the item's node; an empty value is an empty list.
    func list<Item>(
        _ node: YAMLNode, _ what: String, _ item: ([(YAMLNode, YAMLNode)], YAMLNode) -> Item?
    ) -> [Item] {
        guard case .sequence(let items) = node.kind else {
            if case .scalar(let s) = node.kind, s.isEmpty { return [] }
            error("'\(what)' must be a list", node.mark)
            return []
        }
        guard items.count <= PluginManifest.maximumEntries else {
            error(
                "'\(what)' has \(items.count) entries; a plugin may have at most \(PluginManifest.maximumEntries)",
                node.mark)
            return []
        }
        return items.compactMap { node in
            guard case .mapping(let pairs) = node.kind else {
                error("each item of '\(what)' must be a mapping", node.mark)
                return nil
            }
            return item(pairs, node)
        }
    }

    /// One item of `exports`, or nil when it has an error.
    func export(_ pairs: [(YAMLNode, YAMLNode)], _ node: YAMLNode) -> PluginManifest.Export? {
        var template: (String, SourceLocation)?
        var repository: (String, SourceLocation)?
        var output: String?
        var run: [String] = []
        var time = PluginManifest.defaultTimeout
        var keep: [String: String] = [:]
        var skipsActiveTheme = false
        var whenRunning: [String] = []
        var given: Set<String> = []
        yaml.forEachField(of: pairs, known: PluginManifest.exportKeys) { field in
            let (n, v) = (field.name, field.value)
            given.insert(n)
            switch n {
            case "template": template = string(v, n).map { ($0, yaml.location(v.mark)) }
            case "repository": repository = string(v, n).map { ($0, yaml.location(v.mark)) }
            case "output": output = string(v, n)
            case "run": run = argv(v) ?? []
            case "keep": keep = defaults(v) ?? [:]
            case "skip-when-active-theme":
                guard let b = v.scalar, b == "true" || b == "false" else {
                    error("'skip-when-active-theme' is true or false", v.mark)
                    return
                }
                skipsActiveTheme = b == "true"
            case "when-running": whenRunning = programs(v) ?? []
            default: time = timeout(v) ?? time
            }
        }
        if !given.contains("template") && !given.contains("repository") {
            error("an export needs a 'template' (or a 'repository')", node.mark)
        }
        if !given.contains("output") { error("an export needs an 'output' file", node.mark) }
        if given.contains("when-running") && !given.contains("run") {
            error("'when-running' needs a 'run' command to skip", node.mark)
        }
        if let out = output, !PluginManifest.outputPrefixes.contains(where: out.hasPrefix) {
            let starts = PluginManifest.outputPrefixes.dropFirst().map { "'\($0)'" }
            error(
                "'output' must be an absolute path or start with "
                    + starts.dropLast().joined(separator: ", ") + " or " + starts.last!,
                node.mark)
        }
        guard let output, let (t, loc) = template ?? repository.map({ ("", $0.1) }) else { return nil }
        return PluginManifest.Export(
            template: t, templateLocation: repository?.1 ?? loc, output: output, run: run, timeout: time,
            repository: repository?.0, keep: keep, skipsActiveTheme: skipsActiveTheme,
            whenRunning: whenRunning)
    }

    /// One item of `formats`, or nil when it has an error.
    func format(_ pairs: [(YAMLNode, YAMLNode)], _ node: YAMLNode) -> PluginManifest.Format? {
        var match: [String]?
        var run: [String]?
        var time = PluginManifest.defaultTimeout
        var given: Set<String> = []
        yaml.forEachField(of: pairs, known: PluginManifest.formatKeys) { field in
            given.insert(field.name)
            switch field.name {
            case "match": match = patterns(field.value)
            case "run": run = argv(field.value)
            default: time = timeout(field.value) ?? time
            }
        }
        if !given.contains("match") { error("a format needs 'match': file-name patterns", node.mark) }
        if !given.contains("run") { error("a format needs 'run': the importer's argv", node.mark) }
        guard let match, let run else { return nil }
        return PluginManifest.Format(match: match, run: run, timeout: time)
    }

    /// One item of `hooks`, or nil when it has an error.
    func hook(_ pairs: [(YAMLNode, YAMLNode)], _ node: YAMLNode) -> PluginManifest.Hook? {
        var run: [String]?
        var time = PluginManifest.defaultTimeout
        var whenRunning: [String] = []
        var given: Set<String> = []
        yaml.forEachField(of: pairs, known: PluginManifest.hookKeys) { field in
            given.insert(field.name)
            switch field.name {
            case "run": run = argv(field.value)
            case "when-running": whenRunning = programs(field.value) ?? []
            default: time = timeout(field.value) ?? time
            }
        }
        if !given.contains("run") { error("a hook needs 'run'", node.mark) }
        guard let run else { return nil }
        return PluginManifest.Hook(run: run, timeout: time, whenRunning: whenRunning)
    }

    /// A non-empty string value of key `what`.
    private func string(_ node: YAMLNode, _ what: String) -> String? {
        guard let s = node.scalar, !s.isEmpty else {
            error("'\(what)' must be a non-empty string", node.mark)
            return nil
        }
        return s
    }

    /// `run`'s argv: a non-empty list of strings whose first, the program, is not empty.
    private func argv(_ node: YAMLNode) -> [String]? {
        guard case .sequence(let items) = node.kind, !items.isEmpty else {
            error("'run' must be a non-empty list of strings, the program first (no shell)", node.mark)
            return nil
        }
        var out: [String] = []
        for item in items {
            guard let s = item.scalar else {
                error("each argument of 'run' must be a string", item.mark)
                return nil
            }
            out.append(s)
        }
        if out[0].isEmpty {
            error("the program of 'run' must not be empty", items[0].mark)
            return nil
        }
        return out
    }

    /// `match`'s file-name patterns: a non-empty list, none with a `/`.
    private func patterns(_ node: YAMLNode) -> [String]? {
        guard case .sequence(let items) = node.kind, !items.isEmpty else {
            error("'match' must be a non-empty list of file-name patterns such as \"*.gpl\"", node.mark)
            return nil
        }
        var out: [String] = []
        for item in items {
            guard let s = item.scalar, !s.isEmpty, !s.contains("/") else {
                error("each pattern of 'match' must be a file name pattern, without '/'", item.mark)
                return nil
            }
            out.append(s)
        }
        return out
    }

    /// `when-running`'s program names: one name, or a non-empty list of them; each a process
    /// name as the kernel gives it (`/proc/PID/comm`): not empty, no `/`.
    private func programs(_ node: YAMLNode) -> [String]? {
        let items: [YAMLNode]
        switch node.kind {
        case .sequence(let list) where !list.isEmpty: items = list
        case .scalar: items = [node]
        default:
            error("'when-running' is a program name or a list of them: waybar, [sway, i3]", node.mark)
            return nil
        }
        var out: [String] = []
        for item in items {
            guard let s = item.scalar, !s.isEmpty, !s.contains("/") else {
                error(
                    "each name of 'when-running' is a program's name as /proc/PID/comm gives it (no '/'): waybar",
                    item.mark)
                return nil
            }
            out.append(s)
        }
        return out
    }

    /// `keep`'s mapping of keys to their default values, all strings.
    private func defaults(_ node: YAMLNode) -> [String: String]? {
        guard case .mapping(let pairs) = node.kind,
            pairs.allSatisfy({ $0.0.scalar != nil && $0.1.scalar != nil })
        else {
            error(
                "'keep' maps keys to the value used when the file has none: {wallpaper: \"None\"}", node.mark)
            return nil
        }
        var out: [String: String] = [:]
        for (k, v) in pairs { out[k.scalar!] = v.scalar! }
        return out
    }

    /// `timeout`: seconds above 0, at most `PluginManifest.maximumTimeout`.
    private func timeout(_ node: YAMLNode) -> Double? {
        guard let s = node.scalar, let t = Double(s), t.isFinite, t > 0, t <= PluginManifest.maximumTimeout
        else {
            error(
                "'timeout' must be a number of seconds above 0 and at most \(Int(PluginManifest.maximumTimeout))",
                node.mark)
            return nil
        }
        return t
    }
}
