/// Warnings for `livery check --warnings`: things that are not errors but are almost certainly
/// mistakes.
public enum Lint {
    /// Finds, in the theme's own sheet (the last of `chain`):
    /// - rules that can never win: every property they set is set again, later, by a rule with the
    ///   same selector in the same layer (or twice in the same rule);
    /// - `@define-color` names that nothing in the chain refers to (but for a base16 or base24
    ///   scheme's slots, and the mapping theme's: data, not a mistake).
    /// - Parameter chain: The theme's sources, root ancestor first, the theme itself last.
    /// - Returns: warnings, sorted by position.
    public static func warnings(chain: [ThemeSource]) -> [Diagnostic] {
        guard let own = chain.last else { return [] }
        var out: [Diagnostic] = []

        // Shadowed rules: key each declaration by (layer, app, selector, property).
        struct Key: Hashable {
            var app: String?
            var selector: String
            var property: String
        }
        var lastSetter: [Key: SourceLocation] = [:]
        for rule in own.sheet.rules.reversed() {
            // Later selectors of a list first: `Button, Button` — the first never wins.
            let ownDeclarations = Set(rule.declarations.map(\.location))
            for selector in rule.selectors.reversed() {
                var shadowedBy: [SourceLocation] = []
                var seenInRule: Set<String> = []
                for d in rule.declarations.reversed() {
                    let key = Key(app: rule.app, selector: selector.text, property: d.property)
                    if !seenInRule.insert(d.property).inserted {
                        out.append(
                            Diagnostic(
                                .warning,
                                "'\(d.property)' is set again later in the same rule; this one never wins",
                                at: d.location, sourceLine: d.sourceLine))
                        continue
                    }
                    if let later = lastSetter[key] { shadowedBy.append(later) }
                }
                if !rule.declarations.isEmpty
                    && shadowedBy.count == Set(rule.declarations.map(\.property)).count
                {
                    let c = selector.compounds[0]
                    // Cite a later rule's declaration when there is one (not this rule's own).
                    let later = shadowedBy.first { !ownDeclarations.contains($0) }
                    let message =
                        later.map {
                            "rule '\(selector.text)' can never win: every property it sets is set again by a later rule with the same selector (\($0.line):\($0.column))"
                        }
                        ?? "rule '\(selector.text)' can never win: the same selector is listed again later in this rule"
                    out.append(Diagnostic(.warning, message, at: c.location, sourceLine: c.sourceLine))
                }
                for d in rule.declarations {
                    let key = Key(app: rule.app, selector: selector.text, property: d.property)
                    if lastSetter[key] == nil { lastSetter[key] = d.location }
                }
            }
        }

        // Unused palette names: references anywhere in the chain count.
        var used: Set<String> = []
        func collect(_ nodes: [ValueNode]) { ValueNode.forEachReference(in: nodes) { used.insert($0) } }
        for source in chain {
            source.sheet.metadata.forEach { collect($0.value) }
            source.sheet.palette.forEach { collect($0.value) }
            source.sheet.rules.forEach { $0.declarations.forEach { collect($0.value) } }
        }
        // A scheme's palette is its data, and the mapping theme defines every slot for schemes
        // to override: which slots show is the mapping's choice, not a mistake in either.
        let slots = Set(Base16Format.slots)
        func isData(_ name: String) -> Bool {
            own.format != "native" || (own.id == Base16Format.mappingTheme && slots.contains(name))
        }
        for d in own.sheet.palette where !used.contains(d.name) && !isData(d.name) {
            out.append(
                Diagnostic(
                    .warning, "palette colour '@\(d.name)' is never used", at: d.location,
                    sourceLine: d.sourceLine))
        }
        return out.sorted {
            ($0.location.file, $0.location.line, $0.location.column) < (
                $1.location.file, $1.location.line, $1.location.column
            )
        }
    }
}
