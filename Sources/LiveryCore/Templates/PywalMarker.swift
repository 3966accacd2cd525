extension PywalTemplate {
    /// pywal16's `Parser.parse_marker` of a marker's text (between its braces), checked against
    /// the keys, properties and methods pywal has.
    /// - Throws: A `Diagnostic` at `location` naming what pywal would not render.
    static func parse(_ bytes: [UInt8], at location: SourceLocation, sourceLine: String) throws(Diagnostic)
        -> Marker
    {
        let s = Array(String(decoding: bytes, as: UTF8.self).unicodeScalars)
        let written = "{" + String(decoding: bytes, as: UTF8.self) + "}"
        func error(_ message: String) -> Diagnostic {
            Diagnostic(.error, message, at: location, sourceLine: sourceLine)
        }
        guard let (key, afterKey) = name(s, 0) else { throw error(syntax(written)) }
        var calls: [(name: String, arguments: [PywalNumber])] = []
        var property: String?
        var i = afterKey
        while i < s.count, s[i] == "." {
            i += 1
            if let (call, after) = function(s, i) {
                calls.append(call)
                i = after
            } else if let (p, after) = name(s, i) {
                property = p
                i = after
                break
            } else {
                throw error(syntax(written))
            }
        }
        guard i == s.count else { throw error(syntax(written)) }
        guard PywalColors.keys.contains(key) else {
            let hint = suggestion(for: key, among: PywalColors.keys).map { " (did you mean '\($0)'?)" } ?? ""
            throw error(
                "unknown key '\(key)'\(hint) in '\(written)': pywal's keys are color0…color15, background, foreground, cursor, wallpaper, checksum and alpha; write '{\(written)}' for the text '\(written)'"
            )
        }
        for call in calls {
            if PywalColor.properties.contains(call.name) {
                throw error(
                    "'\(call.name)' is a property of pywal's colours, not a method: write '.\(call.name)' without parentheses"
                )
            }
            guard let arity = PywalColor.methods[call.name] else {
                throw error(unknown("method", call.name))
            }
            guard arity.contains(call.arguments.count) else {
                let n =
                    arity.lowerBound == arity.upperBound
                    ? "\(arity.lowerBound)" : "at most \(arity.upperBound)"
                throw error(
                    "'\(call.name)' takes \(n) argument\(arity.upperBound == 1 ? "" : "s"), not \(call.arguments.count) (pywal stops with a TypeError)"
                )
            }
        }
        if let p = property, !PywalColor.properties.contains(p) {
            if PywalColor.methods[p] != nil {
                throw error("'\(p)' is a method of pywal's colours: call it, as '\(p)(10)'")
            }
            throw error(unknown("property", p))
        }
        return Marker(key: key, calls: calls, property: property, location: location, sourceLine: sourceLine)
    }

    private static func syntax(_ written: String) -> String {
        "'\(written)' is not a pywal marker (key, then .method(numbers) and one .property), so pywal skips the whole file; write '{{' and '}}' for literal braces"
    }

    private static func unknown(_ what: String, _ name: String) -> String {
        let all = Array(PywalColor.properties) + Array(PywalColor.methods.keys)
        let hint = suggestion(for: name, among: all.sorted()).map { " (did you mean '\($0)'?)" } ?? ""
        return "unknown \(what) '\(name)'\(hint) of pywal's colours"
    }

    /// `Parser.parse_name`: `[a-zA-Z][a-zA-Z0-9_]*` from `i`.
    static func name(_ s: [Unicode.Scalar], _ i: Int) -> (String, Int)? {
        func letter(_ c: Unicode.Scalar) -> Bool { ("a"..."z").contains(c) || ("A"..."Z").contains(c) }
        guard i < s.count, letter(s[i]) else { return nil }
        var j = i + 1
        while j < s.count, letter(s[j]) || ("0"..."9").contains(s[j]) || s[j] == "_" { j += 1 }
        return (String(String.UnicodeScalarView(s[i..<j])), j)
    }

    /// `Parser.parse_function`: a name, then `(`, arguments split at `,` up to the first `)`, `)`.
    static func function(_ s: [Unicode.Scalar], _ i: Int) -> ((name: String, arguments: [PywalNumber]), Int)?
    {
        guard let (name, j) = name(s, i), j < s.count, s[j] == "(",
            let close = s[(j + 1)...].firstIndex(of: ")")
        else { return nil }
        let inner = s[(j + 1)..<close]
        var arguments: [PywalNumber] = []
        if !inner.isEmpty {
            for part in inner.split(separator: ",", omittingEmptySubsequences: false) {
                guard let n = number(PywalPython.strip(Array(part))) else { return nil }
                arguments.append(n)
            }
        }
        return ((name, arguments), close + 1)
    }

    /// `Parser.parse_number`: `-?\d+(\.\d+)?` at the start of `s` (what follows is ignored), an
    /// `int` without a fraction; `\d` is any Unicode decimal digit, as Python's `re` has it.
    static func number(_ s: ArraySlice<Unicode.Scalar>) -> PywalNumber? {
        var i = s.startIndex
        let negative = i < s.endIndex && s[i] == "-"
        if negative { i += 1 }
        var whole = ""
        while i < s.endIndex, let d = PywalPython.digit(s[i]) {
            whole += String(d)
            i += 1
        }
        guard !whole.isEmpty else { return nil }
        var fraction = ""
        if i + 1 < s.endIndex, s[i] == ".", PywalPython.digit(s[i + 1]) != nil {
            i += 1
            while i < s.endIndex, let d = PywalPython.digit(s[i]) {
                fraction += String(d)
                i += 1
            }
        }
        if fraction.isEmpty {
            let digits = String(whole.drop { $0 == "0" })
            return digits.isEmpty
                ? .int(negative: false, digits: "0") : .int(negative: negative, digits: digits)
        }
        guard let x = Double((negative ? "-" : "") + whole + "." + fraction) else { return nil }
        return .float(x)
    }
}
