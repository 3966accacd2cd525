/// The bound on the selector index a theme may make the daemon build (the compiler's last phase,
/// `ThemeCompiler.checkIndexBudget`): the index lists a rule under each component type its
/// subject can be, and each compound with a name, class or state likewise, so that a theme with
/// many `@component` types and `*` selectors could otherwise make the daemon take gigabytes.
/// Computed from the compiled rules and the schema alone, so that the compiler needs nothing of
/// the runtime index (`SelectorMap`), which follows the layout counted here.
enum IndexBudget {
    /// The most bytes a theme's index may take (`size`); a theme past it is a load error.
    static let limit = 64 << 20

    /// The words of a container state that a position with `count` prefixes takes: a bit each,
    /// in whole pairs of words (`SelectorMap.ContainerRules.pairSources` reads them in pairs).
    static func containerWords(forPrefixes count: Int) -> Int { ((count + 63) / 64 + 1) / 2 * 2 }

    /// An estimate, in bytes, of the index `SelectorMap.init(theme:)` builds for `rules` and of what a
    /// walker allocates for it, counting the tables that grow with the number of types: the
    /// rules whose subject has a name or class, or that have containers, are listed under each
    /// type their subject can be (every type for `*`), and so are the compounds left of a
    /// subject with a name, class or state (48 bytes a listing); each such name, class or state
    /// has a range per type in each index that keys by it (8 bytes); the type-by-type tables
    /// (`isKind`, a byte per pair of types; a walker's direct (type, states) table, 1,280 bytes
    /// a type; the container state's words per type, and a step per type for each compound that
    /// is a type alone, which building them takes); a chunk's fixed 256 bytes per type; and per
    /// type a word for each class and up to 64 `.class` candidates again (`FrozenTables.classMasks`). It grows
    /// with rules × types and with types² (`bench/README.md` has the sizes of real and
    /// generated themes).
    static func size(rules: [CompiledRule], schema: Schema) -> Int {
        let types = schema.types.keys
        let t = types.count
        var subtypes: [String: Int] = [:]
        for type in types { for s in schema.chain(of: type) { subtypes[s, default: 0] += 1 } }
        func listed(_ c: CompoundSelector) -> Int { c.type.map { subtypes[$0] ?? 0 } ?? t }
        var listings = 0
        var subjectKeys = Set<String>()
        var containerKeys = Set<String>()
        var typeAlone = 0
        var longer: [Int] = []  // rules with more than i + 1 compounds, per position i
        var classNames = Set<String>()
        for r in rules {
            let compounds = r.selector.compounds
            for c in compounds { classNames.formUnion(c.classes) }
            let subject = compounds[compounds.count - 1]
            if let key = subject.names.first.map({ "#" + $0 }) ?? subject.classes.first.map({ "." + $0 }) {
                subjectKeys.insert(key)
                listings += listed(subject)
            } else if compounds.count > 1 {
                listings += listed(subject)
            }
            for (i, c) in compounds.dropLast().enumerated() {
                if longer.count <= i { longer.append(0) }
                longer[i] += 1
                if c.names.isEmpty && c.classes.isEmpty && c.states.isEmpty {
                    typeAlone += 1
                } else {
                    containerKeys.insert(
                        c.names.first.map { "#" + $0 } ?? c.classes.first.map { "." + $0 } ?? ":"
                            + c.states[0])
                    listings += listed(c)
                }
            }
        }
        let stateWords = longer.reduce(0) { $0 + containerWords(forPrefixes: $1) }
        return listings * 48 + (subjectKeys.count + containerKeys.count) * t * 8 + t * t + t * 1_280
            + t * stateWords * 8 + t * typeAlone + t * 256 + t * classNames.count * 8 + t * 64 * 48
    }
}
