/// Why a value won: every declaration that matched the node, in cascade order, and where the
/// value came from when none did (`livery explain`; the README, "The cascade").
public struct Explanation: Sendable {
    /// One declaration that matched the node.
    public struct Candidate: Sendable, Equatable {
        /// Where the declaration's property name was written.
        public var location: SourceLocation
        /// The rule's selector in canonical form.
        public var selector: String
        /// The layer the rule belongs to.
        public var layer: Layer
        /// The application id of the rule's `@app` block, if any.
        public var app: String?
        /// The selector's specificity.
        public var specificity: Specificity
        /// The subject type's depth in the type hierarchy (−1 for `*`).
        public var subjectDepth: Int
        /// The value the declaration sets.
        public var value: Value
        /// Whether this declaration gives the property its value; true for the last one only.
        public var won: Bool
        /// Why it lost to the winner (empty for the winner): the first cascade step that decided.
        public var reason: String
    }

    /// The component path as text, e.g. `Window/Button:highlighted`.
    public var path: String
    /// The property explained.
    public var property: String
    /// Lowest precedence first; the winner, if any, is last. At most ``maximumCandidates``:
    /// the ones of highest precedence.
    public var candidates: [Candidate]
    /// How many candidates of lower precedence than the first listed were left out.
    public var omittedCandidates = 0
    /// The most candidates an explanation lists (the winner and those nearest to winning): a
    /// selector list of S selectors over a block declaring the property D times makes S × D
    /// candidates, which a theme within the size limits can make billions of.
    public static let maximumCandidates = 1000
    /// The resolved value.
    public var value: Value
    /// Where the value came from: the winning declaration, a container or the initial value.
    public var origin: Cascade.Origin
}

extension Cascade {
    /// Explains how `property` of the last node of `path` was resolved.
    /// - Parameters:
    ///   - path: The component; its last node is explained.
    ///   - property: A property name of the schema.
    ///   - app: The asking application's id, selecting its `@app` blocks.
    /// - Returns: The matching declarations, why each lost, and the value with its origin.
    /// - Throws: `Failure.unknownProperty`.
    public func explain(_ path: ComponentPath, property: String, app: String? = nil) throws(Failure)
        -> Explanation
    {
        let (value, origin) = try resolveWithOrigin(path, property: property, app: app)
        let rules = matchingRules(path, at: path.nodes.count - 1, app: app)
        // The property's declarations of each block, found once per block: a selector list's
        // rules share their block's declarations (`CompiledRule.block`).
        var declarationsOfBlock: [Int: [CompiledDeclaration]] = [:]
        func declarations(of rule: CompiledRule) -> [CompiledDeclaration] {
            if let known = declarationsOfBlock[rule.block] { return known }
            let found = rule.declarations.filter { $0.property == property }
            declarationsOfBlock[rule.block] = found
            return found
        }
        // From the winner back, until the list is full; the rest are counted.
        var candidates: [Explanation.Candidate] = []
        var omitted = 0
        for rule in rules.reversed() {
            let ds = declarations(of: rule)
            let room = Explanation.maximumCandidates - candidates.count
            omitted += max(0, ds.count - room)
            for d in ds.suffix(max(0, room)).reversed() {
                candidates.append(
                    Explanation.Candidate(
                        location: d.location, selector: rule.selector.text, layer: rule.layer, app: rule.app,
                        specificity: rule.specificity, subjectDepth: rule.subjectDepth, value: d.value,
                        won: false,
                        reason: ""))
            }
        }
        candidates.reverse()
        if let winner = candidates.indices.last {
            candidates[winner].won = true
            let w = candidates[winner]
            for i in candidates.indices.dropLast() {
                let c = candidates[i]
                if c.layer != w.layer {
                    candidates[i].reason = "lower layer (\(c.layer) < \(w.layer))"
                } else if c.specificity != w.specificity {
                    candidates[i].reason = "lower specificity (\(c.specificity) < \(w.specificity))"
                } else if c.subjectDepth != w.subjectDepth {
                    candidates[i].reason = "less derived subject type"
                } else {
                    candidates[i].reason = "earlier in source order"
                }
            }
        }
        return Explanation(
            path: path.description, property: property, candidates: candidates, omittedCandidates: omitted,
            value: value, origin: origin)
    }
}
