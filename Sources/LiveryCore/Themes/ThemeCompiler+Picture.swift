/// A theme's palette from its picture (`palette-from`, `palette-scheme`, `palette-contrast`) and
/// its wallpaper (`wallpaper`): the README's "A skin's colours from its picture" and "Wallpapers".
extension ThemeCompiler {
    /// The palette a picture gives: the sheet of the chain that names it (its index), the
    /// picture's absolute path, and a definition for each colour.
    struct PicturePalette {
        var sheet: Int
        var path: String
        var definitions: [PaletteDefinition]
    }

    /// The names a palette picture defines, each with its colour in a generated variant: every
    /// Material role by its snake_case name (`primary`, `on_primary`, `surface_container` …), the
    /// terminal colours `color0`…`color15`, `foreground` and `cursor` (the terminal background is
    /// the role `background`), and the base16 slots `base00`…`base0F`: the names of
    /// `GeneratedBundle`'s sheets.
    public static func pictureColors(_ variant: GeneratedVariant) -> [(name: String, argb: UInt32)] {
        var out = MaterialScheme.roles.map { ($0.snakeCaseName, variant.roles[$0]!) }
        for (n, color) in variant.terminal.colors.enumerated() { out.append(("color\(n)", color)) }
        out.append(("foreground", variant.terminal.foreground))
        out.append(("cursor", variant.terminal.cursor))
        out += zip(GeneratedVariant.base16Names, variant.base16).map { ($0, $1) }
        return out
    }

    /// The palette picture of a chain: the nearest `palette-from` (the theme's own, else its
    /// parent's …) with the nearest `palette-scheme` (tonal spot when none) and
    /// `palette-contrast` (0 when none), in the theme's `variant`. Values that are wrong are
    /// left to the metadata phase to report; a picture that does not decode is an error here.
    static func picturePalette(
        of chain: [ThemeSource], pictures: PalettePictures?, _ diagnostics: inout DiagnosticLog
    ) -> PicturePalette? {
        func nearest(_ key: String) -> (index: Int, declaration: Declaration)? {
            for (index, source) in chain.enumerated().reversed() {
                if let d = source.sheet.metadata.last(where: { $0.property == key }) { return (index, d) }
            }
            return nil
        }
        guard let (index, from) = nearest("palette-from"), case .url(let name, let node)? = pictureName(from),
            let root = from.bundleRoot, case .success(let path) = BundleFiles.checkImage(name, in: root)
        else { return nil }
        let variant = nearest("palette-scheme").flatMap { ThemeCompiler.scheme($0.declaration) } ?? .tonalSpot
        let level = nearest("palette-contrast").flatMap { ThemeCompiler.contrast($0.declaration) } ?? 0
        let isDark = chain.reversed().lazy.compactMap { $0.sheet.metadataString("variant") }.first == "dark"
        guard let pictures else {
            diagnostics.error("'palette-from' needs a picture decoder, which this program has not", at: from)
            return nil
        }
        let theme: GeneratedTheme
        switch pictures.theme(of: path, scheme: variant, contrast: level) {
        case .failure(let refusal):
            diagnostics.add(
                .error, "'\(name)' gives no palette: \(refusal.message)", at: node.location,
                sourceLine: from.sourceLine)
            return nil
        case .success(let t): theme = t
        }
        if let note = theme.note {
            diagnostics.add(.warning, "'\(name)': \(note)", at: node.location, sourceLine: from.sourceLine)
        }
        let definitions = pictureColors(isDark ? theme.dark : theme.light).map { name, argb in
            PaletteDefinition(
                name: name,
                value: [
                    ValueNode(
                        kind: .hash(String(GeneratedTheme.hex(argb).dropFirst())), location: node.location)
                ],
                location: node.location, sourceLine: from.sourceLine)
        }
        return PicturePalette(sheet: index, path: path, definitions: definitions)
    }

    /// What `palette-from` or `wallpaper` names.
    enum PictureName {
        case none
        /// The file name inside `url()` and the node holding it.
        case url(String, ValueNode)
    }

    /// `url("name")` or `none`; nil for anything else.
    static func pictureName(_ d: Declaration) -> PictureName? {
        guard d.value.count == 1 else { return nil }
        if case .ident("none") = d.value[0].kind { return PictureName.none }
        guard case .function("url", let args) = d.value[0].kind, args.count == 1, args[0].count == 1,
            case .string(let name) = args[0][0].kind
        else { return nil }
        return .url(name, args[0][0])
    }

    /// `palette-scheme`'s variant, nil when it names none.
    static func scheme(_ d: Declaration) -> MaterialVariant? {
        guard d.value.count == 1, case .ident(let word) = d.value[0].kind else { return nil }
        return MaterialVariant(rawValue: word)
    }

    /// `palette-contrast`'s level, nil when it is not a number within -1…1.
    static func contrast(_ d: Declaration) -> Double? {
        guard d.value.count == 1, case .number(let n, unit: "") = d.value[0].kind,
            ThemeGenerator.contrastRange.contains(n)
        else { return nil }
        return n
    }
}

extension ThemeCompiler.MetadataReader {
    /// `palette-from`, `palette-scheme`, `palette-contrast` and `wallpaper`: each checked;
    /// `wallpaper` kept (the nearest wins, `none` included). The palette picture itself is read
    /// before the palette (`picturePalette`).
    mutating func readPicture(_ d: Declaration, _ typer: inout ValueTyper) {
        switch d.property {
        case "palette-scheme":
            if ThemeCompiler.scheme(d) == nil {
                typer.error(
                    "'palette-scheme' is one of "
                        + MaterialVariant.allCases.map(\.name).joined(separator: ", "),
                    at: d.value[0])
            }
        case "palette-contrast":
            if ThemeCompiler.contrast(d) == nil {
                typer.error("'palette-contrast' is a number from -1 to 1", at: d.value[0])
            }
        default:
            let path: String?
            switch ThemeCompiler.pictureName(d) {
            case nil:
                typer.error("'\(d.property)' takes url(\"path\") or none", at: d.value[0])
                return
            case .none?:
                path = nil
            case .url(let name, let node)?:
                guard let root = d.bundleRoot else {
                    typer.error(
                        "url() is only allowed in a bundle directory (this sheet has no bundle to hold images)",
                        at: node)
                    return
                }
                switch BundleFiles.checkImage(name, in: root) {
                case .failure(let e):
                    typer.error(e.message, at: node)
                    return
                case .success(let abs): path = abs
                }
            }
            if d.property == "wallpaper", !wallpaperSet {
                meta.wallpaper = path
                wallpaperSet = true
            }
        }
    }
}
