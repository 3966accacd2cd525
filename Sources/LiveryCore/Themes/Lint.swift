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
        // The rules are looked at last first, so warnings are found in no useful order: only
        // the first of each file by position are kept as they come, the rest counted.
        var out = FirstDiagnostics()
        shadowedRules(in: own, into: &out)
        unusedPaletteNames(in: chain, into: &out)
        return out.diagnostics(severity: .warning)
    }

    /// A rule's selector within its `@app` block, if any.
    private struct Key: Hashable {
        var app: String?
        var selector: String
    }

    /// Warns of the rules of `own` that can never win. By (app, selector): the properties later
    /// rules with that selector set, and where the latest sets each. A block's declarations
    /// are looked at once for the block and once for each of its selectors that another block
    /// also lists; a copy of a selector earlier in its own list never wins, whatever it sets.
    /// What is left is bounded by `work`, past which the check stops with a warning saying so.
    private static func shadowedRules(in own: ThemeSource, into out: inout FirstDiagnostics) {
        let texts = own.sheet.rules.map { $0.selectors.map(\.text) }
        var blocksListing: [Key: Int] = [:]
        for (rule, selectorTexts) in zip(own.sheet.rules, texts) {
            for text in Set(selectorTexts) {
                blocksListing[Key(app: rule.app, selector: text), default: 0] += 1
            }
        }
        var work =
            1_000_000 + 16 * own.sheet.rules.reduce(0) { $0 + $1.selectors.count + $1.declarations.count }
        var laterSetters: [Key: [String: SourceLocation]] = [:]
        rules: for (rule, selectorTexts) in zip(own.sheet.rules, texts).reversed() {
            let properties = distinctProperties(of: rule, into: &out)
            var listedLater: Set<String> = []
            for (selector, text) in zip(rule.selectors, selectorTexts).reversed() {
                let key = Key(app: rule.app, selector: text)
                let later = laterSetters[key]
                let c = selector.compounds[0]
                if !listedLater.insert(text).inserted {
                    guard !properties.isEmpty else { continue }
                    // Cite a later rule's declaration when there is one.
                    work -= properties.count
                    let cited = later.flatMap { l in properties.lazy.compactMap { l[$0] }.first }
                    let message =
                        cited.map {
                            "rule '\(text)' can never win: every property it sets is set again by a later rule with the same selector (\($0.line):\($0.column))"
                        }
                        ?? "rule '\(text)' can never win: the same selector is listed again later in this rule"
                    out.append(Diagnostic(.warning, message, at: c.location, sourceLine: c.sourceLine))
                    continue
                }
                if let later, !properties.isEmpty, later.count >= properties.count {
                    work -= properties.count
                    if properties.allSatisfy({ later[$0] != nil }) {
                        let at = later[properties[0]]!
                        out.append(
                            Diagnostic(
                                .warning,
                                "rule '\(text)' can never win: every property it sets is set again by a later rule with the same selector (\(at.line):\(at.column))",
                                at: c.location, sourceLine: c.sourceLine))
                    }
                }
            }
            // Record this block for the earlier blocks that list the same selectors.
            for text in listedLater {
                let key = Key(app: rule.app, selector: text)
                blocksListing[key]! -= 1
                guard blocksListing[key]! > 0 else { continue }
                work -= rule.declarations.count
                var setters = laterSetters.removeValue(forKey: key) ?? [:]
                for d in rule.declarations.reversed() where setters[d.property] == nil {
                    setters[d.property] = d.location
                }
                laterSetters[key] = setters
            }
            if work < 0, let first = rule.selectors.first?.compounds.first {
                out.append(
                    Diagnostic(
                        .warning,
                        "rules from here up were not checked for rules that can never win: too many selectors share too many declarations",
                        at: first.location, sourceLine: first.sourceLine))
                break rules
            }
        }
    }

    /// The properties `rule` sets, each once, the last declaration first; warns of each
    /// declaration set again later in the rule.
    private static func distinctProperties(of rule: Rule, into out: inout FirstDiagnostics) -> [String] {
        var properties: [String] = []
        var seenInRule: Set<String> = []
        for d in rule.declarations.reversed() {
            if seenInRule.insert(d.property).inserted {
                properties.append(d.property)
            } else {
                out.append(
                    Diagnostic(
                        .warning, "'\(d.property)' is set again later in the same rule; this one never wins",
                        at: d.location, sourceLine: d.sourceLine))
            }
        }
        return properties
    }

    /// Warns of the palette names of the theme's own sheet (the last of `chain`) that nothing in
    /// the chain refers to.
    private static func unusedPaletteNames(in chain: [ThemeSource], into out: inout FirstDiagnostics) {
        guard let own = chain.last else { return }
        var used: Set<String> = []
        func collect(_ nodes: [ValueNode]) { ValueNode.forEachReference(in: nodes) { used.insert($0) } }
        for source in chain {
            for m in source.sheet.metadata { collect(m.value) }
            for d in source.sheet.palette { collect(d.value) }
            for rule in source.sheet.rules { for d in rule.declarations { collect(d.value) } }
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
    }
}

/// The first `Diagnostic.maximumPerFile` diagnostics of each file by position, whatever the order
/// they are added in, and a count of the rest: memory bounded however many are found.
struct FirstDiagnostics {
    private var byFile: [String: [Diagnostic]] = [:]
    private var omitted: [String: Int] = [:]

    /// Keeps `d` among its file's first by position, or counts it.
    mutating func append(_ d: Diagnostic) {
        let file = d.location.file
        var list = byFile.removeValue(forKey: file) ?? []
        defer { byFile[file] = list }
        let key = (d.location.line, d.location.column)
        // After every kept one at or before its position (binary search).
        var (lo, hi) = (0, list.count)
        while lo < hi {
            let mid = (lo + hi) / 2
            if (list[mid].location.line, list[mid].location.column) <= key { lo = mid + 1 } else { hi = mid }
        }
        guard lo < Diagnostic.maximumPerFile else {
            omitted[file, default: 0] += 1
            return
        }
        list.insert(d, at: lo)
        if list.count > Diagnostic.maximumPerFile {
            list.removeLast()
            omitted[file, default: 0] += 1
        }
    }

    /// The kept ones, sorted by file and position, each file's followed by the count of the rest.
    func diagnostics(severity: Diagnostic.Severity) -> [Diagnostic] {
        DiagnosticLog.limited(
            byFile.keys.sorted().flatMap { byFile[$0]! }, omitted: omitted, severity: severity)
    }
}
