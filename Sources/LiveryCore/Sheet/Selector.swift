/// How two compound selectors relate (CSS Selectors 4 §16).
public enum Combinator: Sendable, Hashable {
    /// Whitespace: the left compound matches any container of the right one.
    case descendant
    /// `>`: the left compound matches the right one's direct container.
    case child
}

/// `Type#name.class:state`, the unit a selector is made of; `type == nil` stands for `*`.
public struct CompoundSelector: Sendable, Hashable {
    /// The component type to match, or nil for `*` or no type at all.
    public var type: String?
    /// The `#name` parts; the component must have every one.
    public var names: [String] = []
    /// The `.class` parts; the component must have every one.
    public var classes: [String] = []
    /// The `:state` parts; the component must be in every one.
    public var states: [String] = []
    /// Where the compound starts.
    public var location: SourceLocation
    /// The text of the line the compound starts on, for carets.
    public var sourceLine: String = ""
}

/// A complex selector: compounds joined by combinators, the last compound is the subject.
public struct Selector: Sendable, Hashable {
    /// The compounds from left to right; never empty.
    public var compounds: [CompoundSelector]
    /// `combinators[i]` joins `compounds[i]` and `compounds[i + 1]`.
    public var combinators: [Combinator]

    /// Specificity as CSS Selectors 4 §17 counts it: (ids, classes and states, types).
    public var specificity: Specificity {
        var s = Specificity(ids: 0, classes: 0, types: 0)
        for c in compounds {
            s.ids += c.names.count
            s.classes += c.classes.count + c.states.count
            if c.type != nil { s.types += 1 }
        }
        return s
    }

    /// The selector written back in canonical form, e.g. `Window > Button.destructive:highlighted`.
    public var text: String {
        var out = ""
        for (i, c) in compounds.enumerated() {
            if i > 0 { out += combinators[i - 1] == .child ? " > " : " " }
            out += c.type ?? "*"
            for n in c.names { out += "#" + n }
            for k in c.classes { out += "." + k }
            for s in c.states { out += ":" + s }
        }
        return out
    }
}

/// CSS specificity (a, b, c), compared lexicographically.
public struct Specificity: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// a: the number of `#name` parts.
    public var ids: Int
    /// b: the number of `.class` and `:state` parts.
    public var classes: Int
    /// c: the number of compounds with a type (`*` does not count).
    public var types: Int
    /// Whether `l` is less specific than `r`, comparing a, then b, then c (CSS Selectors 4 §17).
    public static func < (l: Self, r: Self) -> Bool {
        (l.ids, l.classes, l.types) < (r.ids, r.classes, r.types)
    }
    /// `(a,b,c)`, e.g. `(0,2,1)`.
    public var description: String { "(\(ids),\(classes),\(types))" }
}
