import Foundation

/// A tinted-theming template repository: `templates/config.yaml` (or `config.yml`) naming
/// entries, each rendered from `templates/<entry>.mustache` for every scheme of the systems it
/// supports, to the file its `filename` names (tinted-builder-rust's rules).
public struct TemplateRepository: Sendable {
    /// One entry of `config.yaml`: a template and the files it renders (tinted-builder-rust's
    /// `TemplateConfig`).
    public struct TemplateConfig: Sendable, Equatable {
        /// The entry's key, which names its template.
        public var name: String
        /// The output path relative to the output directory, with `{{ scheme-system }}` and
        /// `{{ scheme-slug }}` (spaced or not, or as `scheme.system`, `scheme.slug`) still in it:
        /// `filename`, or for the legacy form `output/{{ scheme-system }}-{{ scheme-slug }}extension`.
        public var filename: String
        /// `supported-systems`; `[base16]` when absent.
        public var systems: [String]
        /// The template file.
        public var template: URL
    }

    /// An entry of `config.yaml` that is not built: none of its `supported-systems` is one
    /// Livery builds (base16, base24), as `tinted8` entries of current repositories.
    public struct Skipped: Sendable, Equatable {
        /// The entry's key.
        public var name: String
        /// Its `supported-systems`, none of them base16 or base24.
        public var systems: [String]

        /// The notice `livery build` prints: `skipped entry 'NAME': system 'tinted8' is not supported`.
        public var notice: String {
            let listed = systems.map { "'\($0)'" }.joined(separator: ", ")
            return
                "skipped entry '\(name)': system\(systems.count == 1 ? "" : "s") \(listed) \(systems.count == 1 ? "is" : "are") not supported"
        }
    }

    /// The systems Livery builds templates for.
    public static let systems = ["base16", "base24"]

    /// The repository directory.
    public var root: URL
    /// The entries built, in the order of the configuration file; an entry that also lists
    /// systems Livery does not build keeps only base16 and base24.
    public var entries: [TemplateConfig]
    /// The entries none of whose systems Livery builds, in the order of the configuration file.
    public var skipped: [Skipped]

    /// The keys an entry of `config.yaml` may have.
    static let entryKeys = ["filename", "extension", "output", "supported-systems", "options", "supports"]

    /// Reads `root/templates/config.yaml`.
    /// - Throws: A `Diagnostic` at the place in the file where it is wrong.
    public init(root: URL) throws(Diagnostic) {
        self.root = root
        let templates = root.appendingPathComponent("templates")
        let yml = templates.appendingPathComponent("config.yml")
        let config =
            FileManager.default.fileExists(atPath: yml.path)
            ? yml : templates.appendingPathComponent("config.yaml")
        let text: String
        switch ThemeFormats.readText(config, limit: 1 << 20) {
        case .failure(let d): throw d
        case .success(let t): text = t
        }
        let reader = YAMLMappingReader(text: text, file: config.path)
        func error(_ message: String, _ mark: YAMLNode.Mark) -> Diagnostic {
            reader.diagnostic(message, at: mark)
        }
        let root: YAMLNode
        switch YAMLNode.parse(text) {
        case .failure(let e): throw error(e.message, e.mark)
        case .success(let r): root = r
        }
        guard case .mapping(let top) = root.kind else {
            throw error("a template configuration is a mapping of entry names to settings", root.mark)
        }
        var entries: [TemplateConfig] = []
        var skipped: [Skipped] = []
        for (key, value) in top {
            guard let name = key.scalar else { throw error("an entry's name is a string", key.mark) }
            guard case .mapping(let settings) = value.kind else {
                throw error("entry '\(name)' must be a mapping (filename, supported-systems)", value.mark)
            }
            var fields: [String: YAMLNode] = [:]
            for field in reader.fields(of: settings, known: Self.entryKeys) {
                fields[field.name] = field.value
            }
            if let first = reader.diagnostics.first { throw first }
            let filename: String
            switch (fields["filename"]?.scalar, fields["extension"]?.scalar, fields["output"]?.scalar) {
            case (let f?, _, _): filename = f
            case (nil, let e?, let o?): filename = "\(o)/{{ scheme-system }}-{{ scheme-slug }}\(e)"
            case (nil, nil, let o?): filename = "\(o)/{{ scheme-system }}-{{ scheme-slug }}"
            case (nil, let e?, nil): filename = "{{ scheme-system }}-{{ scheme-slug }}\(e)"
            default:
                throw error(
                    "entry '\(name)' needs 'filename' (or the legacy 'extension' and 'output')", value.mark)
            }
            var systems = ["base16"]
            if let s = fields["supported-systems"] {
                guard case .sequence(let items) = s.kind, items.allSatisfy({ $0.scalar != nil }) else {
                    throw error("'supported-systems' is a list, as in [base16, base24]", s.mark)
                }
                systems = items.compactMap(\.scalar)
            }
            // An entry for systems Livery does not build (tinted8, whose specification is still
            // marked unstable) is reported and left out, so that the rest of a current repository
            // builds; its template is never read.
            let built = systems.filter { TemplateRepository.systems.contains($0) }
            if built.isEmpty {
                skipped.append(Skipped(name: name, systems: systems))
                continue
            }
            systems = built
            entries.append(
                TemplateConfig(
                    name: name, filename: filename, systems: systems,
                    template: templates.appendingPathComponent(name + ".mustache")))
        }
        self.entries = entries
        self.skipped = skipped
    }

    /// One file to write: the entry, the scheme, and the path relative to the output directory.
    public struct Output: Sendable {
        /// Index into `entries`.
        public var entry: Int
        /// Index into the schemes given to `outputs(for:)`.
        public var scheme: Int
        /// Relative to the output directory.
        public var path: String
    }

    /// The outputs of every entry for the schemes of its systems, in entry then scheme order.
    /// - Throws: A message when two outputs would be written to one file.
    public func outputs(for schemes: [TintedScheme]) throws(Diagnostic) -> [Output] {
        var outputs: [Output] = []
        var taken: [String: Int] = [:]
        for (e, entry) in entries.enumerated() {
            for (s, scheme) in schemes.enumerated() where entry.systems.contains(scheme.system) {
                let written = TemplateRepository.substitute(entry.filename, scheme)
                // Relative to the output directory, `.` and empty parts dropped, so that two
                // spellings of one file collide; `..` is refused: a repository's configuration
                // must not write outside the directory it is built into.
                let parts = written.split(separator: "/").filter { $0 != "." }
                if parts.contains("..") || parts.isEmpty {
                    throw Diagnostic(
                        .error,
                        "entry '\(entry.name)' (scheme '\(scheme.name)') would write '\(written)', outside the output directory",
                        at: SourceLocation(
                            file: root.appendingPathComponent("templates/config.yaml").path, line: 1,
                            column: 1))
                }
                let path = parts.joined(separator: "/")
                if let other = taken[path] {
                    let o = outputs[other]
                    throw Diagnostic(
                        .error,
                        "entries '\(entries[o.entry].name)' (scheme '\(schemes[o.scheme].name)') and '\(entry.name)' (scheme '\(scheme.name)') would both write \(path)",
                        at: SourceLocation(
                            file: root.appendingPathComponent("templates/config.yaml").path, line: 1,
                            column: 1))
                }
                taken[path] = outputs.count
                outputs.append(Output(entry: e, scheme: s, path: path))
            }
        }
        return outputs
    }

    /// The filename with the scheme's system and slug put in, as tinted-builder-rust does (by
    /// replacing those exact tags, not by rendering).
    static func substitute(_ filename: String, _ scheme: TintedScheme) -> String {
        // One pass over the bytes, as this runs once per output file. Replacing the tags one
        // form after the other gives the same: a slug (slugified) and a system (base16 or
        // base24) have no braces, so a value put in never makes or breaks another tag.
        let text = Array(filename.utf8)
        guard text.contains(UInt8(ascii: "{")) else { return filename }
        var out: [UInt8] = []
        out.reserveCapacity(text.count + scheme.slug.utf8.count)
        var i = 0
        scan: while i < text.count {
            if text[i] == UInt8(ascii: "{") {
                for (form, isSlug) in tagForms where text[i...].starts(with: form) {
                    out += isSlug ? scheme.slug.utf8 : scheme.system.utf8
                    i += form.count
                    continue scan
                }
            }
            out.append(text[i])
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The spellings of the two tags a filename may hold, each with whether it is the slug.
    static let tagForms: [([UInt8], Bool)] = ["slug", "system"].flatMap { tag in
        ["{{ scheme-\(tag) }}", "{{scheme-\(tag)}}", "{{ scheme.\(tag) }}", "{{scheme.\(tag)}}"].map {
            (Array($0.utf8), tag == "slug")
        }
    }
}
