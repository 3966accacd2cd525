extension PywalTemplate {
    /// pywal's own loop, step for step (`export.template`): for each marker of a line, in order,
    /// the first occurrence of its text in the line as it then stands is replaced by its value
    /// (`str.replace(…, 1)`), then the escapes. Its cost is the line's length for each marker;
    /// `render` gives the same bytes in linear time. The reference the fuzz target and the tests
    /// compare `render` with.
    func renderNaive(_ colors: PywalColors) throws(Diagnostic) -> [UInt8] {
        var values: [[UInt8]] = []
        for marker in markers {
            do { values.append(Array(try PywalTemplate.value(of: marker, colors).utf8)) } catch {
                throw Diagnostic(.error, error.message, at: marker.location, sourceLine: marker.sourceLine)
            }
        }
        var out: [UInt8] = []
        var copied = 0
        for l in lines {
            out.append(contentsOf: text[copied..<l.start])
            var line = Array(text[l.start..<l.end])
            for m in matches[l.matches] {
                let needle = Array(text[m.open...m.close])
                guard let at = PywalTemplate.firstIndex(of: needle, in: line) else { continue }
                line.replaceSubrange(at..<(at + needle.count), with: values[m.marker])
            }
            out.append(contentsOf: line)
            copied = l.end
        }
        out.append(contentsOf: text[copied...])
        return PywalTemplate.unescape(out)
    }

    static func firstIndex(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        for i in 0...(haystack.count - needle.count) where haystack[i] == needle[0] {
            if haystack[i..<(i + needle.count)].elementsEqual(needle) { return i }
        }
        return nil
    }
}
