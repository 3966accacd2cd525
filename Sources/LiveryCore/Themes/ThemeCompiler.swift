import Foundation

/// Turns a theme's `inherits` chain (and the user's overrides) into a `CompiledTheme`, checking
/// every name, value and palette reference; collects every error in one pass.
public enum ThemeCompiler {
    static let metadataKeys = [
        "name", "description", "variant", "inherits", "accent-color", "dark-variant", "light-variant",
        "contrast",
        "reduced-motion", "gtk-theme", "abstract", "palette-from", "palette-scheme", "palette-contrast",
        "wallpaper",
    ]

    /// For each palette colour, the longest chain of references from it to colours without
    /// references (0 for a literal colour; a reference to a name not defined counts nothing),
    /// found by a depth-first walk with its own stack, so that a chain of any length costs no
    /// recursion. Colours on a cycle of references, or reaching one, are left out.
    static func chainLengths(_ definitions: [String: PaletteDefinition]) -> [String: Int] {
        func references(of name: String) -> [String] {
            var out: [String] = []
            ValueNode.forEachReference(in: definitions[name]?.value ?? []) {
                if definitions[$0] != nil { out.append($0) }
            }
            return out
        }
        var lengths: [String: Int] = [:]
        var cyclic: Set<String> = []
        for root in definitions.keys.sorted() where lengths[root] == nil && !cyclic.contains(root) {
            // Each frame: a colour, its references, the next to visit, the longest so far, and
            // whether one of them is on or reaches a cycle.
            var stack: [(name: String, references: [String], next: Int, longest: Int, cycle: Bool)] = [
                (root, references(of: root), 0, 0, false)
            ]
            var onStack: Set<String> = [root]
            while let top = stack.last {
                let i = stack.count - 1
                if top.next < top.references.count {
                    let r = top.references[top.next]
                    stack[i].next += 1
                    if onStack.contains(r) || cyclic.contains(r) {
                        stack[i].cycle = true
                    } else if let length = lengths[r] {
                        stack[i].longest = max(top.longest, length + 1)
                    } else {
                        stack.append((r, references(of: r), 0, 0, false))
                        onStack.insert(r)
                    }
                    continue
                }
                stack.removeLast()
                onStack.remove(top.name)
                if top.cycle {
                    cyclic.insert(top.name)
                } else {
                    lengths[top.name] = top.longest
                }
                if !stack.isEmpty {
                    if top.cycle {
                        stack[stack.count - 1].cycle = true
                    } else {
                        stack[stack.count - 1].longest = max(stack[stack.count - 1].longest, top.longest + 1)
                    }
                }
            }
        }
        return lengths
    }

    /// The longest the daemon lets the checking of one theme's rules take (``compile(chain:overrides:schema:timeLimit:pictures:)``):
    /// every theme within the size limits takes far less (`bench/README.md`, "Hostile inputs");
    /// the bound keeps a theme that does not from holding up switches and the checks of the others.
    public static let timeLimit: Duration = .seconds(10)

    /// Compiles a theme, in phases: the schema extended with the sheets' `@component` types, the
    /// palette, the metadata, the rules, and the index budget.
    /// - Parameters:
    ///   - chain: the theme's sources, root ancestor first, the theme itself last.
    ///   - overrides: the user's overrides sheet, applied as the `user` layer (its `@app` blocks
    ///     join the `app` layer).
    ///   - timeLimit: when given, the longest the rules may take to check: past it, the
    ///     compile stops with an error at the rule it reached that names the bound (the daemon
    ///     passes ``timeLimit``; `livery check` waits as long as it takes). Reading the palette
    ///     picture is not counted.
    ///   - pictures: what reads a palette picture (`palette-from`); without it, a theme naming one
    ///     is an error.
    /// - Returns: the theme, or nil when there is any error; and every diagnostic.
    public static func compile(
        chain: [ThemeSource], overrides: Stylesheet? = nil, schema base: Schema, timeLimit: Duration? = nil,
        pictures: PalettePictures? = nil
    )
        -> (theme: CompiledTheme?, diagnostics: [Diagnostic])
    {
        precondition(!chain.isEmpty)
        let clock = ContinuousClock()
        let started = clock.now
        let sheets: [Sheet] = chain.map { ($0.sheet, false) } + (overrides.map { [($0, true)] } ?? [])
        // At most `Diagnostic.maximumPerFile` kept a file, the rest counted; "did you mean" is
        // computed only for those kept (`log.accepts`), so that its cost, a comparison with each
        // candidate, is paid a bounded number of times however many names are misspelt.
        var diagnostics = DiagnosticLog()
        for (sheet, _) in sheets {
            diagnostics.merge(kept: sheet.diagnostics, omitted: sheet.omittedDiagnostics)
        }
        let schema = extendSchema(base, with: sheets, &diagnostics)
        // The palette picture has a budget of its own, not the rules' bound: its decode is
        // bounded by the picture's limits (16 MiB, 64 Mi pixels, a JPEG decoded at reduced scale,
        // an SVG's renderer killed after 1 s) and paid once per version of the file
        // (`PalettePictures` keeps it), so counting it would make the rules' bound depend on
        // whether the picture was cached, and report it at whichever rule the clock ran out on,
        // in whichever sheet of the chain that rule is (the root's, not the theme naming the
        // picture). A picture that fails is an error at its name (`picturePalette`).
        let pictureStarted = clock.now
        let picture = picturePalette(of: chain, pictures: pictures, &diagnostics)
        let deadline = timeLimit.map { started + (clock.now - pictureStarted) + $0 }
        let (palette, names) = evaluatePalette(of: sheets, picture: picture, &diagnostics)
        // Unknown references inside palette definitions are reported once there; rules that use
        // a failed colour get their own error only when the name is unknown.
        let lookup: (String) -> RGBA? = { palette[$0] }
        var meta = metadata(of: chain, lookup: lookup, paletteNames: names, &diagnostics)
        meta.palettePicture = picture?.path
        let rules = compileRules(
            of: sheets, schema: schema, lookup: lookup, paletteNames: names,
            deadline: deadline.map { (clock, $0, timeLimit!) }, &diagnostics)
        checkIndexBudget(of: rules, schema: schema, chain: chain, sheets: sheets, &diagnostics)
        let unique = DiagnosticLog.limited(dedupe(diagnostics.kept), omitted: diagnostics.omitted)
        guard !unique.contains(where: { $0.severity == .error }) else { return (nil, unique) }
        return (CompiledTheme(metadata: meta, palette: palette, rules: rules, schema: schema), unique)
    }

    /// A sheet of the chain and whether it is the user's overrides.
    typealias Sheet = (sheet: Stylesheet, isOverrides: Bool)

    /// Phase 1: `base` extended with every sheet's `@component` types, in chain order.
    static func extendSchema(_ base: Schema, with sheets: [Sheet], _ diagnostics: inout DiagnosticLog)
        -> Schema
    {
        var schema = base
        for (sheet, _) in sheets { diagnostics.append(contentsOf: schema.extend(with: sheet.components)) }
        return schema
    }

    /// Phase 2: the palette. Later definitions (children, then overrides) win, even inside a
    /// parent's rules. A palette picture's colours come just before the palette of the sheet
    /// naming it, so that the sheet's own `@define-color`s and its children's win over them.
    /// - Returns: the colours that evaluated, and the names of every definition (a reference
    ///   to a defined colour that failed is reported at the definition only).
    static func evaluatePalette(
        of sheets: [Sheet], picture: PicturePalette? = nil, _ log: inout DiagnosticLog
    )
        -> (palette: [String: RGBA], names: Set<String>)
    {
        // A copy, written back at the end: the evaluation's lookup closure, held by each
        // `ValueTyper`, cannot capture an `inout` parameter.
        var diagnostics = log
        defer { log = diagnostics }
        var definitions: [String: PaletteDefinition] = [:]
        for (index, (sheet, _)) in sheets.enumerated() {
            if let picture, picture.sheet == index {
                for d in picture.definitions { definitions[d.name] = d }
            }
            for d in sheet.palette { definitions[d.name] = d }
        }
        var palette: [String: RGBA] = [:]
        var visiting: [String] = []
        var failed: Set<String> = []
        let names = Set(definitions.keys)
        // The longest chain of references from each colour to literal ones, counted over the
        // definitions' text without recursion (`chainLengths`): more than 64 is an error at the
        // colour 65 references away, whatever the names; the colours are then evaluated
        // shortest chain first, so that every reference an evaluation follows is already
        // known, and the recursion stays shallow. Colours on a cycle, or reaching one, have no
        // length and are evaluated last, where the cycle is reported.
        let lengths = chainLengths(definitions)
        for name in names.sorted() {
            guard let length = lengths[name], length > 64 else { continue }
            failed.insert(name)
            if length == 65, let d = definitions[name] {
                diagnostics.error(
                    "palette colour '@\(name)' is reached through more than 64 references", at: d)
            }
        }
        func evaluate(_ name: String) -> RGBA? {
            if let c = palette[name] { return c }
            guard let d = definitions[name], !failed.contains(name) else { return nil }
            if let start = visiting.firstIndex(of: name) {
                let cycle = (visiting[start...] + [name]).map { "@" + $0 }.joined(separator: " → ")
                diagnostics.error(
                    visiting.count - start == 1
                        ? "palette colour '@\(name)' refers to itself"
                        : "palette colour '@\(name)' is part of a reference cycle (\(cycle))",
                    at: d)
                failed.insert(name)
                return nil
            }
            // Only a walk into a cycle recurses deeper than a level: keep it short enough for
            // any stack.
            guard visiting.count < 64 else {
                diagnostics.error(
                    "palette colour '@\(name)' is reached through more than 64 references", at: d)
                failed.insert(name)
                return nil
            }
            visiting.append(name)
            defer { visiting.removeLast() }
            var typer = ValueTyper(lookup: { evaluate($0) }, paletteNames: names)
            typer.sourceLine = d.sourceLine
            typer.suggests = diagnostics.suggests(d.location.file)
            var result: RGBA?
            if d.value.count == 1 {
                result = typer.color(d.value[0])
            } else {
                typer.error("'@define-color \(name)' takes one colour", at: d.value[1])
            }
            diagnostics.append(contentsOf: typer.diagnostics)
            if let result { palette[name] = result } else { failed.insert(name) }
            return result
        }
        for name in names.sorted(by: { (lengths[$0] ?? .max, $0) < (lengths[$1] ?? .max, $1) }) {
            _ = evaluate(name)
        }
        return (palette, names)
    }

    /// Phase 3: the metadata, the theme's own, then its ancestors' for what it leaves out.
    static func metadata(
        of chain: [ThemeSource], lookup: @escaping (String) -> RGBA?, paletteNames names: Set<String>,
        _ diagnostics: inout DiagnosticLog
    ) -> ThemeMetadata {
        var reader = MetadataReader(own: chain.last!)
        // The theme's own declarations first, then each ancestor's: the first value found for
        // a key wins, and the last declaration of a key in a sheet is the one it means.
        for (index, source) in chain.enumerated().reversed() {
            for d in source.sheet.metadata.reversed() {
                guard metadataKeys.contains(d.property) else {
                    let suggest = diagnostics.suggests(d.location.file)
                    diagnostics.error(
                        "unknown @theme key '\(d.property)'\(suggest ? didYouMean(d.property, metadataKeys) : "")",
                        at: d)
                    continue
                }
                var typer = ValueTyper(lookup: lookup, paletteNames: names)
                typer.sourceLine = d.sourceLine
                typer.suggests = diagnostics.suggests(d.location.file)
                reader.read(d, typer: &typer, isOwn: index == chain.count - 1)
                diagnostics.append(contentsOf: typer.diagnostics)
            }
        }
        if reader.meta.inherits == nil, chain.count > 1 { reader.meta.inherits = chain[chain.count - 2].id }
        return reader.meta
    }

    /// What a chain's `@theme` blocks declare, without compiling it: the theme's own name,
    /// description and parent, and the keys each ancestor passes down (`variant` above all),
    /// read as the compile reads them, for a listing of a theme not compiled yet. A colour
    /// naming the palette (`accent-color: @primary`) is left out, since the palette is not
    /// evaluated (a palette picture is not read); errors are the compile's to report.
    /// - Parameter chain: the theme's sources, root ancestor first, the theme itself last.
    public static func declaredMetadata(of chain: [ThemeSource]) -> ThemeMetadata {
        precondition(!chain.isEmpty)
        var ignored = DiagnosticLog()
        return metadata(of: chain, lookup: { _ in nil }, paletteNames: [], &ignored)
    }

    /// The `@theme` block's keys read into a `ThemeMetadata`, each set once (by the first
    /// declaration `read` is given for it).
    struct MetadataReader {
        let own: ThemeSource
        var meta: ThemeMetadata
        var variantSet = false
        var accentSet = false
        var contrastSet = false
        var motionSet = false
        var gtkThemeSet = false
        var abstractSet = false
        var wallpaperSet = false

        init(own: ThemeSource) {
            self.own = own
            meta = ThemeMetadata(
                id: own.id, name: own.id, description: "", variant: "light", inherits: nil, accentColor: nil,
                format: own.format, path: own.path)
        }

        /// Reads one declaration of a known key; errors go to `typer`. Only the theme's own
        /// (`isOwn`) name, description, parent and siblings count.
        mutating func read(_ d: Declaration, typer: inout ValueTyper, isOwn: Bool) {
            switch d.property {
            case "variant":
                guard let v = MetadataReader.text(d, &typer) else { return }
                if v != "light" && v != "dark" {
                    typer.error("'variant' is light or dark", at: d.value[0])
                } else if !variantSet {
                    meta.variant = v
                    variantSet = true
                }
            case "accent-color":
                if d.value.count == 1, let c = typer.color(d.value[0]), !accentSet {
                    meta.accentColor = c
                    accentSet = true
                }
            case "contrast", "reduced-motion":
                readLevel(d, &typer)
            case "abstract":
                readAbstract(d, &typer, isOwn: isOwn)
            case "palette-from", "palette-scheme", "palette-contrast", "wallpaper":
                readPicture(d, &typer)
            case "gtk-theme":
                guard let v = MetadataReader.text(d, &typer), !gtkThemeSet else { return }
                meta.gtkTheme = v
                gtkThemeSet = true
            default:
                guard let v = MetadataReader.text(d, &typer), isOwn else { return }
                readOwn(d, v, &typer)
            }
        }

        /// `abstract: true | false` of the theme itself: a theme that exists only to be
        /// inherited (a mapping theme imported schemes inherit) is not offered for selection.
        /// Not inherited: a theme inheriting an abstract one is selectable.
        private mutating func readAbstract(_ d: Declaration, _ typer: inout ValueTyper, isOwn: Bool) {
            guard d.value.count == 1, case .ident(let word) = d.value[0].kind,
                word == "true" || word == "false"
            else {
                typer.error("'abstract' is true or false", at: d.value[0])
                return
            }
            if isOwn && !abstractSet {
                meta.abstract = word == "true"
                abstractSet = true
            }
        }

        /// `contrast` and `reduced-motion`: xdg-desktop-portal's org.freedesktop.appearance
        /// keys, 0 no preference, 1 on.
        private mutating func readLevel(_ d: Declaration, _ typer: inout ValueTyper) {
            let words = d.property == "contrast" ? ["normal", "high"] : ["no-preference", "reduce"]
            var level: UInt32?
            if d.value.count == 1 {
                switch d.value[0].kind {
                case .ident(let w): level = words.firstIndex(of: w).map(UInt32.init)
                case .number(let n, unit: ""): level = n == 0 || n == 1 ? UInt32(n) : nil
                default: break
                }
            }
            guard let level else {
                typer.error("'\(d.property)' is \(words[0]) or \(words[1]) (0 or 1)", at: d.value[0])
                return
            }
            if d.property == "contrast", !contrastSet {
                meta.contrast = level
                contrastSet = true
            } else if d.property == "reduced-motion", !motionSet {
                meta.reducedMotion = level
                motionSet = true
            }
        }

        /// `name`, `description`, `inherits`, `dark-variant`, `light-variant` of the theme itself.
        private mutating func readOwn(_ d: Declaration, _ v: String, _ typer: inout ValueTyper) {
            if d.property.hasSuffix("-variant") || d.property == "inherits" {
                if !ThemeSource.isValidID(v) {
                    typer.error("'\(v)' is not a theme id (\(ThemeSource.idRule))", at: d.value[0])
                    return
                }
                if v == own.id {
                    typer.error("a theme cannot name itself as its '\(d.property)'", at: d.value[0])
                    return
                }
            }
            switch d.property {
            case "name": if meta.name == own.id { meta.name = v }
            case "description": if meta.description.isEmpty { meta.description = v }
            case "inherits": if meta.inherits == nil { meta.inherits = v }
            case "dark-variant": if meta.darkVariant == nil { meta.darkVariant = v }
            default: if meta.lightVariant == nil { meta.lightVariant = v }
            }
        }

        /// The one string or identifier `d` takes, control characters as spaces
        /// (``TemplateText``: a name reaches templates and terminals), or an error.
        private static func text(_ d: Declaration, _ typer: inout ValueTyper) -> String? {
            guard d.value.count == 1 else {
                typer.error("'\(d.property)' takes one value", at: d.value[0])
                return nil
            }
            switch d.value[0].kind {
            case .string(let s), .ident(let s): return TemplateText.clean(s)
            default:
                typer.error("'\(d.property)' takes a string", at: d.value[0])
                return nil
            }
        }
    }

    /// Phase 4: the rules, each selector checked against the schema and each declaration typed;
    /// a rule with a selector error is left out, its declarations still checked.
    /// - Parameter deadline: when given, the rules are checked until `clock` passes `at`; then an
    ///   error at the rule reached names `limit`, and the rest are not checked.
    static func compileRules(
        of sheets: [Sheet], schema: Schema, lookup: @escaping (String) -> RGBA?,
        paletteNames names: Set<String>,
        deadline: (clock: ContinuousClock, at: ContinuousClock.Instant, limit: Duration)?,
        _ diagnostics: inout DiagnosticLog
    ) -> [CompiledRule] {
        var rules: [CompiledRule] = []
        var order = 0
        var block = 0
        rulesOfSheets: for (sheet, isOverrides) in sheets {
            for rule in sheet.rules {
                if let deadline, deadline.clock.now > deadline.at {
                    diagnostics.add(
                        .error,
                        "checking the theme's rules took longer than \(deadline.limit) (the bound for one theme); stopped at this rule",
                        at: rule.location, sourceLine: "")
                    break rulesOfSheets
                }
                var selectorsOK = true
                for sel in rule.selectors {
                    for c in sel.compounds {
                        let suggest = diagnostics.suggests(c.location.file)
                        if let t = c.type, schema.types[t] == nil {
                            diagnostics.error(
                                "unknown component type '\(t)'\(suggest ? didYouMean(t, schema.types.keys) : "")",
                                at: c)
                            selectorsOK = false
                        }
                        for s in c.states where !schema.states.contains(s) {
                            var at = c.location
                            at.column =
                                column(of: ":" + s, in: c.sourceLine, from: c.location.column) ?? at.column
                            diagnostics.add(
                                .error, "unknown state ':\(s)'\(suggest ? didYouMean(s, schema.states) : "")",
                                at: at,
                                sourceLine: c.sourceLine)
                            selectorsOK = false
                        }
                    }
                }
                var decls: [CompiledDeclaration] = []
                for d in rule.declarations {
                    guard let def = schema.properties[d.property] else {
                        let suggest = diagnostics.suggests(d.location.file)
                        diagnostics.error(
                            "unknown property '\(d.property)'\(suggest ? didYouMean(d.property, schema.properties.keys) : "")",
                            at: d)
                        continue
                    }
                    var typer = ValueTyper(lookup: lookup, paletteNames: names)
                    typer.suggests = diagnostics.suggests(d.location.file)
                    let v = typer.value(d.value, for: def, declaration: d)
                    // A reference to a palette colour that failed is already reported there.
                    diagnostics.append(contentsOf: typer.diagnostics)
                    if let v {
                        decls.append(
                            CompiledDeclaration(property: d.property, value: v, location: d.location))
                    }
                }
                guard selectorsOK else { continue }
                let layer: Layer = rule.app != nil ? .app : (isOverrides ? .user : .theme)
                for sel in rule.selectors {
                    let subject = sel.compounds.last!
                    rules.append(
                        CompiledRule(
                            selector: sel, layer: layer, app: rule.app, order: order,
                            subjectDepth: subject.type.map { schema.depth(of: $0) } ?? -1,
                            specificity: sel.specificity, declarations: decls, block: block))
                    order += 1
                }
                block += 1
            }
        }
        return rules
    }

    /// Phase 5: the index budget (`IndexBudget`). The selector index lists a rule under each
    /// component type its subject can be, and each compound with a name, class or state likewise
    /// (`SelectorMap`): bounded, so that a theme (many `@component` types and `*` selectors)
    /// cannot make the daemon take gigabytes. The error is at the theme's own first rule or
    /// component, else at the first rule of the chain.
    static func checkIndexBudget(
        of rules: [CompiledRule], schema: Schema, chain: [ThemeSource], sheets: [Sheet],
        _ diagnostics: inout DiagnosticLog
    ) {
        let size = IndexBudget.size(rules: rules, schema: schema)
        if size > IndexBudget.limit,
            let at = chain.last!.sheet.rules.first?.location ?? chain.last!.sheet.components.first?.location
                ?? sheets.lazy.flatMap({ $0.0.rules }).first?.location
        {
            diagnostics.append(
                Diagnostic(
                    .error,
                    "the theme's selector index would take \(size >> 20) MiB (at most \(IndexBudget.limit >> 20) MiB): "
                        + "\(rules.count) rules over \(schema.types.count) component types; selectors of `*` or of a "
                        + "supertype are listed under every type they can match",
                    at: at))
        }
    }

    /// Drops repeated diagnostics (a palette error seen through two paths) and sorts the rest by
    /// file, line and column, as a compiler lists them.
    static func dedupe(_ ds: [Diagnostic]) -> [Diagnostic] {
        var seen = Set<Diagnostic>()
        var fileOrder: [String: Int] = [:]
        for d in ds where fileOrder[d.location.file] == nil { fileOrder[d.location.file] = fileOrder.count }
        return ds.filter { seen.insert($0).inserted }.enumerated().sorted { a, b in
            let (x, y) = (a.element.location, b.element.location)
            return (fileOrder[x.file]!, x.line, x.column, a.offset) < (
                fileOrder[y.file]!, y.line, y.column, b.offset
            )
        }.map(\.element)
    }

    /// The 1-based column where `needle` first occurs in `line` at or after `start`.
    static func column(of needle: String, in line: String, from start: Int) -> Int? {
        let scalars = Array(line.unicodeScalars)
        let n = Array(needle.unicodeScalars)
        guard start >= 1, n.count <= scalars.count else { return nil }
        var i = start - 1
        while i + n.count <= scalars.count {
            if Array(scalars[i..<(i + n.count)]) == n { return i + 1 }
            i += 1
        }
        return nil
    }
}

/// A piece of a sheet that a diagnostic points at: where it was written, and that source line.
protocol SourceSite {
    var location: SourceLocation { get }
    var sourceLine: String { get }
}

extension Declaration: SourceSite {}
extension PaletteDefinition: SourceSite {}
extension CompoundSelector: SourceSite {}

extension DiagnosticLog {
    /// An error at `site`, with its source line (the message built only when it is kept).
    mutating func error(_ message: @autoclosure () -> String, at site: some SourceSite) {
        add(.error, message(), at: site.location, sourceLine: site.sourceLine)
    }
}
