import LiveryCore

/// A compiled theme about to be committed, with what the commit compares against the active
/// theme: its `fingerprint`, its images' file identities and the key of its index among the kept
/// ones (`PreparedCascades`). Two compiles with equal fingerprints and identities answer every
/// call alike, so committing one over the other changes nothing.
struct PreparedTheme {
    /// The theme's id.
    let id: String
    /// The compiled theme, the user's overrides included when they compile.
    let theme: CompiledTheme
    /// The overrides' problems.
    let problems: [String]
    /// `fingerprint(theme)`.
    let fingerprint: String
    /// `imageIdentities(theme)`.
    let images: [String: String]
    /// The key of its index in `PreparedCascades`: the fingerprint and the palette, which
    /// plugins' templates read though no rule may name it (`key(_:_:)`, made once: it copies
    /// the fingerprint).
    let key: String

    /// Prepares `theme`: its fingerprint and its images' identities (one `stat` each).
    init(id: String, theme: CompiledTheme, problems: [String]) {
        self.id = id
        self.theme = theme
        self.problems = problems
        self.fingerprint = PreparedTheme.fingerprint(theme)
        self.images = PreparedTheme.imageIdentities(theme)
        self.key = PreparedTheme.key(fingerprint, theme)
    }

    /// The key of an index of `theme`, whose fingerprint is `print`.
    static func key(_ print: String, _ theme: CompiledTheme) -> String {
        var key = print + "|palette"
        for name in theme.palette.keys.sorted() { key += ";\(name)=\(theme.palette[name]!.hex)" }
        return key
    }

    /// A digest of everything in a compiled theme that can change what the daemon answers: the
    /// metadata, each rule's selector, layer, application and declarations with where they are
    /// written (`Explain` reports those), and the types the schema has with their supertypes
    /// and parts (`@component` declarations change which rules match, with no rule changed).
    static func fingerprint(_ theme: CompiledTheme) -> String {
        var s = "\(theme.metadata)"
        var lastBlock = -1
        for r in theme.rules {
            s += "|\(r.selector.text)@\(r.layer)\(r.app ?? "")"
            if let at = r.selector.compounds.first?.location { s += "@\(at)" }
            // A block's declarations once, after its first selector (rules are in source order,
            // so a block's rules are adjacent): a selector list costs its length plus its
            // declarations, not their product.
            if r.block != lastBlock {
                s += "#\(r.block)"
                for d in r.declarations { s += ";\(d.property)=\(d.value)@\(d.location)" }
                lastBlock = r.block
            }
        }
        for name in theme.schema.types.keys.sorted() {
            let type = theme.schema.types[name]!
            s += "|\(name):\(type.superType ?? "")"
            for part in type.parts { s += ",\(part.name)=\(part.type)" }
        }
        return s
    }

    /// Every image a theme's declarations name (absolute paths), its palette picture and its
    /// wallpaper, each with the identity of its file (`SystemCalls.fileIdentity`). Editing an
    /// image in place changes the identity though not the path, and so is a change to publish
    /// (as the README says); the files are not read here.
    static func imageIdentities(_ theme: CompiledTheme) -> [String: String] {
        var out: [String: String] = [:]
        for path in [theme.metadata.palettePicture, theme.metadata.wallpaper].compactMap({ $0 }) {
            out[path] = SystemCalls.fileIdentity(path)
        }
        // A block's declarations once (its rules are adjacent), as in `fingerprint`.
        var lastBlock = -1
        for rule in theme.rules where rule.block != lastBlock {
            lastBlock = rule.block
            for d in rule.declarations {
                guard case .image(let path?) = d.value, out[path] == nil else { continue }
                out[path] = SystemCalls.fileIdentity(path)
            }
        }
        return out
    }

    /// The images named before and after whose file identity differs.
    static func editedImages(from old: [String: String], to new: [String: String]) -> Set<String> {
        Set(new.compactMap { path, identity in old[path].map { $0 != identity ? path : nil } ?? nil })
    }
}
