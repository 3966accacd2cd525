import Foundation

/// Reads declaration values by the property's type, evaluating colour expressions against a
/// palette; problems become diagnostics at the offending value.
struct ValueTyper {
    /// Looks up a palette name; nil when it is not defined.
    var lookup: (String) -> RGBA?
    /// The palette's names: a reference to another is unknown; offered for "did you mean".
    var paletteNames: Set<String>
    /// Whether errors offer "did you mean": false once the file's diagnostics are past the limit
    /// (`DiagnosticLog.accepts`), since the suggestion compares the word with every candidate.
    var suggests = true
    var diagnostics: [Diagnostic] = []
    /// The source line of the declaration being read, for carets.
    var sourceLine = ""

    init(palette: [String: RGBA]) {
        self.lookup = { palette[$0] }
        self.paletteNames = Set(palette.keys)
    }

    init(lookup: @escaping (String) -> RGBA?, paletteNames: Set<String>) {
        self.lookup = lookup
        self.paletteNames = paletteNames
    }

    /// " (did you mean 'x'?)" while `suggests`, else the empty string.
    func hint(_ word: String, _ candidates: some Sequence<String>, prefix: String = "") -> String {
        suggests ? didYouMean(word, candidates, prefix: prefix) : ""
    }

    mutating func error(_ message: String, at node: ValueNode) {
        diagnostics.append(Diagnostic(.error, message, at: node.location, sourceLine: sourceLine))
    }

    /// Reads `nodes` as a value of the property's type.
    mutating func value(_ nodes: [ValueNode], for property: PropertyDefinition, declaration: Declaration)
        -> Value?
    {
        sourceLine = declaration.sourceLine
        let name = property.name
        func single() -> ValueNode? {
            guard nodes.count == 1 else {
                error(
                    "'\(name)' takes one \(property.type.rawValue) value, found \(nodes.count)",
                    at: nodes[min(1, nodes.count - 1)])
                return nil
            }
            return nodes[0]
        }
        switch property.type {
        case .color:
            guard let n = single(), let c = color(n) else { return nil }
            return .color(c)
        case .image:
            guard let n = single() else { return nil }
            return image(n, for: name, declaration: declaration)
        case .length:
            guard let n = single(), let v = number(n, units: ["", "px"], what: "a length") else { return nil }
            return .length(v)
        case .number:
            guard let n = single(), let v = number(n, units: [""], what: "a number") else { return nil }
            return .number(v)
        case .duration:
            guard let n = single() else { return nil }
            return duration(n, for: name)
        case .keyword:
            guard let n = single() else { return nil }
            return keyword(n, for: property)
        case .string:
            guard let n = single() else { return nil }
            guard case .string(let s) = n.kind else {
                error("'\(name)' takes a quoted string", at: n)
                return nil
            }
            // A string value reaches templates and clients: no control characters (TemplateText).
            return .string(TemplateText.clean(s))
        case .size:
            guard nodes.count == 2 else {
                error("'\(name)' takes two lengths (width height)", at: nodes[0])
                return nil
            }
            guard let w = number(nodes[0], units: ["", "px"], what: "a length"),
                let h = number(nodes[1], units: ["", "px"], what: "a length")
            else { return nil }
            return .size(w, h)
        case .insets:
            return insets(nodes, for: name)
        }
    }

    /// `url("path")` (a file of the bundle, checked) or `none`.
    private mutating func image(_ n: ValueNode, for name: String, declaration: Declaration) -> Value? {
        if case .ident("none") = n.kind { return .image(nil) }
        guard case .function("url", let args) = n.kind, args.count == 1, args[0].count == 1,
            case .string(let path) = args[0][0].kind
        else {
            error("'\(name)' takes url(\"path\") or none", at: n)
            return nil
        }
        guard let root = declaration.bundleRoot else {
            error(
                "url() is only allowed in a bundle directory (this sheet has no bundle to hold images)", at: n
            )
            return nil
        }
        switch BundleFiles.checkImage(path, in: root) {
        case .success(let abs): return .image(abs)
        case .failure(let e):
            error(e.message, at: args[0][0])
            return nil
        }
    }

    /// Seconds: `0.6s`, `600ms`, or a unitless 0.
    private mutating func duration(_ n: ValueNode, for name: String) -> Value? {
        if case .number(let v, let unit) = n.kind {
            switch unit {
            case "s": return .duration(v)
            case "ms": return .duration(v / 1000 + 0)  // + 0: an underflow to −0 is 0
            case "" where v == 0: return .duration(0)
            default: break
            }
        }
        error("'\(name)' takes a duration such as 0.6s or 600ms", at: n)
        return nil
    }

    /// One of the property's keywords.
    private mutating func keyword(_ n: ValueNode, for property: PropertyDefinition) -> Value? {
        guard case .ident(let k) = n.kind, property.keywords.contains(k) else {
            let word: String
            if case .ident(let k) = n.kind { word = k } else { word = "" }
            error(
                "'\(property.name)' takes one of \(property.keywords.joined(separator: ", "))"
                    + (word.isEmpty ? "" : hint(word, property.keywords)), at: n)
            return nil
        }
        return .keyword(k)
    }

    /// One to four lengths, expanded as CSS's shorthand (CSS Box 3 §4, "margin"): top, right,
    /// bottom, left.
    private mutating func insets(_ nodes: [ValueNode], for name: String) -> Value? {
        guard (1...4).contains(nodes.count) else {
            error("'\(name)' takes one to four lengths (top right bottom left)", at: nodes[0])
            return nil
        }
        var v: [Double] = []
        for n in nodes {
            guard let x = number(n, units: ["", "px"], what: "a length") else { return nil }
            v.append(x)
        }
        switch v.count {
        case 1: return .insets(v[0], v[0], v[0], v[0])
        case 2: return .insets(v[0], v[1], v[0], v[1])
        case 3: return .insets(v[0], v[1], v[2], v[1])
        default: return .insets(v[0], v[1], v[2], v[3])
        }
    }

    mutating func number(_ n: ValueNode, units: Set<String>, what: String) -> Double? {
        guard case .number(let v, let unit) = n.kind, units.contains(unit) else {
            error(
                "expected \(what)"
                    + (units.count > 1
                        ? " (\(units.filter { !$0.isEmpty }.sorted().joined(separator: ", ")) or no unit)"
                        : ""),
                at: n)
            return nil
        }
        return v
    }

    // MARK: Colours

    /// Reads a colour expression: hex, `rgb()`/`rgba()`, `hsl()`/`hsla()`, named colours,
    /// `transparent`, `@name`, and GTK's `alpha()`, `mix()`, `shade()`, `lighter()`, `darker()`.
    mutating func color(_ n: ValueNode) -> RGBA? {
        switch n.kind {
        case .hash(let h):
            guard let c = RGBA(hexDigits: Substring(h)) else {
                error("'#\(h)' is not a colour: use #rgb, #rgba, #rrggbb or #rrggbbaa", at: n)
                return nil
            }
            return c
        case .ident(let name):
            let lower = name.lowercased()
            if lower == "transparent" { return RGBA(red: 0, green: 0, blue: 0, alpha: 0) }
            if let v = cssNamedColors[lower] {
                return RGBA(red8: Int(v >> 16), green8: Int((v >> 8) & 0xff), blue8: Int(v & 0xff))
            }
            error(
                "unknown colour '\(name)'\(hint(lower, Array(cssNamedColors.keys) + ["transparent"]))",
                at: n)
            return nil
        case .reference(let name):
            guard let c = lookup(name) else {
                // A defined colour that failed has its own error where it is defined.
                if !paletteNames.contains(name) {
                    error("unknown palette colour '@\(name)'\(hint(name, paletteNames, prefix: "@"))", at: n)
                }
                return nil
            }
            return c
        case .function(let f, let args):
            return colorFunction(f.lowercased(), args, at: n)
        default:
            error("expected a colour", at: n)
            return nil
        }
    }

    private mutating func colorFunction(_ f: String, _ args: [[ValueNode]], at n: ValueNode) -> RGBA? {
        func arity(_ k: Int) -> Bool {
            guard args.count == k, args.allSatisfy({ $0.count == 1 }) else {
                error("'\(f)()' takes \(k) comma-separated argument\(k == 1 ? "" : "s")", at: n)
                return false
            }
            return true
        }
        switch f {
        case "rgb", "rgba", "hsl", "hsla":
            return cssColorFunction(f, args, at: n)
        case "alpha":
            guard arity(2), let c = color(args[0][0]), let a = factor(args[1][0]) else { return nil }
            var out = c
            out.alpha = RGBA.clamp(c.alpha * a)
            return out
        case "mix":
            guard arity(3), let a = color(args[0][0]), let b = color(args[1][0]), let t = factor(args[2][0])
            else { return nil }
            return RGBA.mix(a, b, t)
        case "shade":
            guard arity(2), let c = color(args[0][0]), let k = factor(args[1][0]) else { return nil }
            return c.shaded(k)
        case "lighter":
            guard arity(1), let c = color(args[0][0]) else { return nil }
            return c.shaded(1.3)
        case "darker":
            guard arity(1), let c = color(args[0][0]) else { return nil }
            return c.shaded(0.7)
        default:
            let known = ["rgb", "rgba", "hsl", "hsla", "alpha", "mix", "shade", "lighter", "darker"]
            error("unknown colour function '\(f)()'\(hint(f, known))", at: n)
            return nil
        }
    }

    private mutating func factor(_ n: ValueNode) -> Double? {
        guard case .number(let v, let unit) = n.kind, unit == "" || unit == "%" else {
            error("expected a number", at: n)
            return nil
        }
        return unit == "%" ? v / 100 + 0 : v  // + 0: an underflow to −0 is 0
    }

    /// CSS Color 4 §5.1 and §7.1: modern `rgb(r g b / a)` and legacy `rgb(r, g, b, a)`; channels
    /// 0–255 or percentages, alpha 0–1 or a percentage; `hsl(h s% l% / a)`.
    private mutating func cssColorFunction(_ f: String, _ args: [[ValueNode]], at n: ValueNode) -> RGBA? {
        var parts: [ValueNode]
        var alphaNode: ValueNode?
        if args.count == 1 {
            parts = args[0]
            if let slash = parts.firstIndex(where: { if case .slash = $0.kind { true } else { false } }) {
                guard slash == parts.count - 2 else {
                    error("'\(f)()' expects one alpha value after '/'", at: parts[slash])
                    return nil
                }
                alphaNode = parts[slash + 1]
                parts.removeSubrange(slash...)
            }
        } else {
            guard args.allSatisfy({ $0.count == 1 }) else {
                error("'\(f)()' mixes commas and spaces", at: n)
                return nil
            }
            parts = args.map { $0[0] }
            if parts.count == 4 { alphaNode = parts.removeLast() }
        }
        guard parts.count == 3 else {
            error("'\(f)()' takes three components and an optional alpha", at: n)
            return nil
        }
        var alpha = 1.0
        if let a = alphaNode {
            guard let v = factor(a) else { return nil }
            alpha = v
        }
        var nums: [(Double, String)] = []
        for p in parts {
            guard case .number(let v, let unit) = p.kind else {
                error("expected a number in '\(f)()'", at: p)
                return nil
            }
            nums.append((v, unit))
        }
        if f.hasPrefix("rgb") {
            var ch: [Double] = []
            for (i, (v, unit)) in nums.enumerated() {
                switch unit {
                case "": ch.append(v / 255)
                case "%": ch.append(v / 100)
                default:
                    error("'\(f)()' channels are 0–255 or percentages", at: parts[i])
                    return nil
                }
            }
            return RGBA(red: ch[0], green: ch[1], blue: ch[2], alpha: alpha)
        }
        guard nums[0].1 == "" || nums[0].1 == "deg", nums[1].1 == "%", nums[2].1 == "%" else {
            error("'\(f)()' takes a hue in degrees and two percentages", at: n)
            return nil
        }
        return RGBA(hue: nums[0].0, saturation: nums[1].0 / 100, lightness: nums[2].0 / 100, alpha: alpha)
    }
}
