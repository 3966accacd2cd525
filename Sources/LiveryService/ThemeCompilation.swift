import Foundation
import LiveryCore
import Synchronization

/// Reading and compiling themes: the overrides, a theme with them, a theme's listing.
extension ThemeService {
    /// Reads the overrides file; an unreadable one becomes a sheet with one error, so that it is
    /// set aside and reported like any broken overrides.
    static func readOverrides(_ path: String, log: Log) -> Stylesheet? {
        // Stamped whether or not it exists: overrides created later change what a theme
        // compiles to.
        FileStamps.noteIdentity(of: path)
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else { return nil }
        func unreadable(_ why: String) -> Stylesheet {
            var sheet = Stylesheet(file: path)
            sheet.diagnostics = [Diagnostic(.error, why, at: SourceLocation(file: path, line: 1, column: 1))]
            return sheet
        }
        if isDir.boolValue { return unreadable("is a directory, not a sheet") }
        let data: Data
        switch BundleFiles.contents(of: path) {
        case .failure(let e): return unreadable(e.message)
        case .success(let d): data = d
        }
        guard data.count <= BundleFiles.maximumSheetSize else {
            return unreadable("is \(data.count) bytes; the limit is \(BundleFiles.maximumSheetSize)")
        }
        guard let text = String(data: data, encoding: .utf8) else { return unreadable("is not UTF-8 text") }
        return SheetParser().parse(text, file: path)
    }

    /// Compiles a theme with the user's overrides. The overrides are tried first, since they
    /// are almost always fine; only when that fails is the theme compiled alone, to tell a broken
    /// theme (an error) from broken overrides, which are left out and kept as problems rather
    /// than blocking the theme.
    /// - Returns: the theme and the overrides' problems, or the theme's own errors.
    static func compile(
        _ id: String, catalog: ThemeCatalog, schema: Schema, overrides: Stylesheet?,
        pictures: PalettePictures?, log: Log
    ) -> Result<(CompiledTheme, [String]), ThemeErrors> {
        var overrideErrors: [String] = []
        if let overrides {
            let (combined, diagnostics) = catalog.compile(
                id, schema: schema, overrides: overrides, timeLimit: ThemeCompiler.timeLimit,
                pictures: pictures)
            if let combined { return .success((combined, [])) }
            overrideErrors = diagnostics.filter { $0.severity == .error }.map(\.description)
        }
        let (theme, diagnostics) = catalog.compile(
            id, schema: schema, timeLimit: ThemeCompiler.timeLimit, pictures: pictures)
        guard let theme else { return .failure(ThemeErrors(diagnostics.filter { $0.severity == .error })) }
        if overrides != nil {
            log(
                .warning,
                "user overrides ignored because of errors:\n" + overrideErrors.joined(separator: "\n"))
        }
        return .success((theme, overrideErrors))
    }

    /// A theme's errors, as a `Result` failure.
    struct ThemeErrors: Error {
        var errors: [Diagnostic]
        init(_ errors: [Diagnostic]) { self.errors = errors }
    }

    /// `compile`'s theme and problems, or nil when the theme is not installed or has errors.
    static func build(
        _ id: String, catalog: ThemeCatalog, schema: Schema, overrides: Stylesheet?,
        pictures: PalettePictures?,
        log: Log
    )
        -> (CompiledTheme, [String])?
    {
        guard catalog.sources[id] != nil,
            case .success(let built) = compile(
                id, catalog: catalog, schema: schema, overrides: overrides, pictures: pictures, log: log)
        else { return nil }
        return built
    }

    /// Compiles theme `id` of `catalog` (without the user's overrides) for `listThemes`.
    static func listing(_ id: String, catalog: ThemeCatalog, schema: Schema, pictures: PalettePictures?)
        -> Listing
    {
        let (theme, diagnostics) = catalog.compile(
            id, schema: schema, timeLimit: ThemeCompiler.timeLimit, pictures: pictures)
        let meta = theme?.metadata ?? placeholderMetadata(id, catalog: catalog)!
        return Listing(
            metadata: meta, valid: theme != nil,
            errors: diagnostics.filter { $0.severity == .error }.map(\.description))
    }

    /// What a theme's `@theme` blocks say, for a theme not compiled (not checked yet, or with
    /// errors): through its `inherits` chain when `catalog` has read it
    /// (`ThemeCompiler.declaredMetadata`: its name, and the variant it inherits), else what its
    /// own sheet says; nil when the theme is not read.
    static func placeholderMetadata(_ id: String, catalog: ThemeCatalog) -> ThemeMetadata? {
        if case .success(let chain) = catalog.chain(for: id) {
            return ThemeCompiler.declaredMetadata(of: chain)
        }
        guard let source = catalog.sources[id] else { return nil }
        var meta = ThemeMetadata(
            id: id, name: source.sheet.metadataString("name") ?? id,
            description: source.sheet.metadataString("description") ?? "",
            variant: source.sheet.metadataString("variant") ?? "light",
            inherits: source.sheet.metadataString("inherits"),
            accentColor: nil, darkVariant: nil, lightVariant: nil, format: source.format,
            path: source.path)
        meta.abstract = source.sheet.metadataString("abstract") == "true"
        return meta
    }

    /// The listing of a theme not checked yet: what its sheets declare (`placeholderMetadata`)
    /// or, unread, its installed theme (format and path) tells.
    static func unchecked(_ id: String, catalog: ThemeCatalog) -> Listing {
        let installed = catalog.unreadTheme(id)
        let meta =
            placeholderMetadata(id, catalog: catalog)
            ?? ThemeMetadata(
                id: id, name: id, description: "", variant: "light", inherits: nil, accentColor: nil,
                format: installed?.format.name ?? "", path: installed?.url.path ?? "")
        return Listing(metadata: meta, valid: false, errors: [], checked: false)
    }
}
