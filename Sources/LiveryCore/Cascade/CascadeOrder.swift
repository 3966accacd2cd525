/// The order in which rules cascade (the README, "The cascade"): a rule of a higher layer
/// (theme < user < app) wins; within a layer, the higher specificity (ids, then classes and
/// states, then types); then the more derived subject type (`CompiledRule.subjectDepth`); then
/// the later rule in source order. Total: no two rules have the same source order.
///
/// Its own type so that the selector index ranks its rules (`SelectorMap.init(theme:)`) by the
/// same rule as the public cascade and the reference matcher without depending on `Cascade`.
enum CascadeOrder {
    /// - Returns: Whether `a` comes before, so loses to, `b`.
    static func precedes(_ a: CompiledRule, _ b: CompiledRule) -> Bool {
        (
            a.layer.rawValue, a.specificity.ids, a.specificity.classes, a.specificity.types, a.subjectDepth,
            a.order
        )
            < (
                b.layer.rawValue, b.specificity.ids, b.specificity.classes, b.specificity.types,
                b.subjectDepth, b.order
            )
    }
}
