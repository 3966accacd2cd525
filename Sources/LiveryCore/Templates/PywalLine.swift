import Foundation

/// One line of a pywal template rendered as pywal renders it, in time linear in the line and its
/// output.
///
/// pywal replaces each marker, in order, at the first occurrence of its text in the line as it
/// then stands (`line.replace(marker, value, 1)`). An occurrence of `{c}` (c holding no brace) is
/// an opening brace followed by a closing one with no brace between: two adjacent braces of the
/// line's sequence of braces. So the line is kept as that sequence (a linked list of brace tokens,
/// each with the text up to the next, as a list of pieces of the template or of values), and each
/// marker text has a heap of the adjacent pairs currently spelling it, ordered by position. A
/// replacement removes its pair, puts the value's own braces (a wallpaper's path may hold some)
/// in its place and checks only the new adjacent pairs. Every byte is part of at most one pair's
/// text over the line's life (a pair's braces go only when its text is replaced), so reading the
/// texts of new pairs costs the line's and the values' length in all.
///
/// Positions of tokens are order-maintenance labels (Bender et al., "Two simplified algorithms for
/// maintaining order in a list", 2002): a token put between two others takes the label between
/// theirs, and when there is none, the smallest aligned range of labels around it that is sparse
/// enough is labelled again evenly; order never changes, so the heaps stay valid.
struct PywalLine {
    let text: [UInt8]
    let contents: [[UInt8]: Int]
    let values: [[UInt8]]
    /// The offsets of each value's braces.
    let valueBraces: [[Int]]

    // Tokens: 0 is the line's start (no brace); each other is a `{` or `}`.
    private var brace: [UInt8] = []
    private var prev: [Int] = []
    private var next: [Int] = []
    private var label: [UInt64] = []
    private var gapHead: [Int] = []
    private var gapTail: [Int] = []
    // Pieces of text: `source` -1 is the template, else a value's index; a linked list each gap.
    private var pieceSource: [Int] = []
    private var pieceStart: [Int] = []
    private var pieceEnd: [Int] = []
    private var pieceNext: [Int] = []
    /// The heap of pairs of each marker text of the line (their opening tokens).
    private var heaps: [Int: [Int]] = [:]
    /// Bytes of pairs' texts read and tokens labelled again, over every line: the work that is
    /// not plain copying, linear in the text and the output (`PywalTemplateTests` counts it).
    private(set) var work = 0

    static let labelLimit: UInt64 = 1 << 62

    init(text: [UInt8], contents: [[UInt8]: Int], values: [[UInt8]]) {
        self.text = text
        self.contents = contents
        self.values = values
        valueBraces = values.map { v in
            v.indices.filter { v[$0] == UInt8(ascii: "{") || v[$0] == UInt8(ascii: "}") }
        }
    }

    // MARK: Pieces and tokens

    private mutating func piece(_ source: Int, _ start: Int, _ end: Int) -> Int {
        pieceSource.append(source)
        pieceStart.append(start)
        pieceEnd.append(end)
        pieceNext.append(-1)
        return pieceSource.count - 1
    }

    /// Appends a piece (when not empty) to the gap after `token`.
    private mutating func append(_ source: Int, _ start: Int, _ end: Int, to token: Int) {
        guard end > start else { return }
        let p = piece(source, start, end)
        if gapTail[token] < 0 { gapHead[token] = p } else { pieceNext[gapTail[token]] = p }
        gapTail[token] = p
    }

    /// Moves the gap of `from` to the end of the gap of `to`.
    private mutating func join(_ from: Int, to: Int) {
        guard gapHead[from] >= 0 else { return }
        if gapTail[to] < 0 { gapHead[to] = gapHead[from] } else { pieceNext[gapTail[to]] = gapHead[from] }
        gapTail[to] = gapTail[from]
    }

    private mutating func token(_ b: UInt8) -> Int {
        brace.append(b)
        prev.append(-1)
        next.append(-1)
        label.append(0)
        gapHead.append(-1)
        gapTail.append(-1)
        return brace.count - 1
    }

    private func bytes(of p: Int) -> ArraySlice<UInt8> {
        pieceSource[p] < 0
            ? text[pieceStart[p]..<pieceEnd[p]] : values[pieceSource[p]][pieceStart[p]..<pieceEnd[p]]
    }

    // MARK: Rendering

    /// Renders `text[start..<end]`, whose markers are `matches`, onto `out`.
    mutating func render(
        _ start: Int, _ end: Int, _ matches: ArraySlice<(open: Int, close: Int, marker: Int)>,
        into out: inout [UInt8]
    ) {
        brace.removeAll(keepingCapacity: true)
        prev.removeAll(keepingCapacity: true)
        next.removeAll(keepingCapacity: true)
        label.removeAll(keepingCapacity: true)
        gapHead.removeAll(keepingCapacity: true)
        gapTail.removeAll(keepingCapacity: true)
        pieceSource.removeAll(keepingCapacity: true)
        pieceStart.removeAll(keepingCapacity: true)
        pieceEnd.removeAll(keepingCapacity: true)
        pieceNext.removeAll(keepingCapacity: true)
        heaps = [:]
        for m in matches { heaps[m.marker] = [] }

        var last = token(0)
        var from = start
        for i in start..<end where text[i] == UInt8(ascii: "{") || text[i] == UInt8(ascii: "}") {
            append(-1, from, i, to: last)
            let t = token(text[i])
            (next[last], prev[t]) = (t, last)
            last = t
            from = i + 1
        }
        append(-1, from, end, to: last)
        let spacing = PywalLine.labelLimit / UInt64(brace.count + 1)
        for t in 1..<brace.count { label[t] = UInt64(t) * spacing }
        for t in 1..<brace.count where brace[t] == UInt8(ascii: "{") { consider(t) }

        for m in matches {
            let o = popMin(m.marker)
            replace(o, with: m.marker)
        }

        var t = 0
        while t >= 0 {
            if t > 0 { out.append(brace[t]) }
            var p = gapHead[t]
            while p >= 0 {
                out.append(contentsOf: bytes(of: p))
                p = pieceNext[p]
            }
            t = next[t]
        }
    }

    /// Puts the pair opened by `o` in its text's heap when `o` is followed by `}` and its text is
    /// one of the line's markers.
    private mutating func consider(_ o: Int) {
        let c = next[o]
        guard brace[o] == UInt8(ascii: "{"), c >= 0, brace[c] == UInt8(ascii: "}"), gapHead[o] >= 0 else {
            return
        }
        var interior: [UInt8] = []
        var p = gapHead[o]
        while p >= 0 {
            interior.append(contentsOf: bytes(of: p))
            p = pieceNext[p]
        }
        work += interior.count
        guard let id = contents[interior], heaps[id] != nil else { return }
        push(o, id)
    }

    /// Replaces the pair opened by `o` with the value of marker `id`.
    private mutating func replace(_ o: Int, with id: Int) {
        let c = next[o]
        let before = prev[o]
        let after = next[c]
        let value = values[id]
        let braces = valueBraces[id]
        var last = before
        next[before] = after
        if after >= 0 { prev[after] = before }
        var from = 0
        for b in braces {
            append(id, from, b, to: last)
            let t = token(value[b])
            (next[t], prev[t]) = (next[last], last)
            if next[t] >= 0 { prev[next[t]] = t }
            next[last] = t
            place(t)
            last = t
            from = b + 1
        }
        append(id, from, value.count, to: last)
        join(c, to: last)
        // The pairs that may be new: each new brace with the one before it, and the last with
        // the one after.
        if brace[before] == UInt8(ascii: "{") { consider(before) }
        var t = next[before]
        while t >= 0 && t != after {
            consider(t)
            t = next[t]
        }
    }

    // MARK: Order

    /// Gives the newly linked token `t` a label between its neighbours', labelling a range around
    /// it again when they are adjacent.
    private mutating func place(_ t: Int) {
        let low = label[prev[t]]
        let high = next[t] >= 0 ? label[next[t]] : PywalLine.labelLimit
        if high - low >= 2 {
            label[t] = low + (high - low) / 2
            return
        }
        // The first token of a range and the last; the start token (label 0) never moves.
        var lo = t
        var hi = t
        var count = 1
        for bits in 1...62 {
            let size = UInt64(1) << UInt64(bits)
            let base = max(1, low & ~(size - 1))
            let top = min(PywalLine.labelLimit, (low & ~(size - 1)) + size)
            while prev[lo] > 0 && label[prev[lo]] >= base {
                lo = prev[lo]
                count += 1
            }
            while next[hi] >= 0 && label[next[hi]] < top {
                hi = next[hi]
                count += 1
            }
            let room = top - base
            guard Double(count) <= pow(1.5, Double(bits)) || bits == 62, room / UInt64(count + 1) >= 2
            else { continue }
            work += count
            let step = room / UInt64(count + 1)
            var u = lo
            var k: UInt64 = 1
            while true {
                label[u] = base + k * step
                if u == hi { break }
                u = next[u]
                k += 1
            }
            return
        }
    }

    // MARK: Heaps

    private mutating func push(_ o: Int, _ id: Int) {
        var h = heaps[id]!
        heaps[id] = nil
        h.append(o)
        var i = h.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard label[h[i]] < label[h[parent]] else { break }
            h.swapAt(i, parent)
            i = parent
        }
        heaps[id] = h
    }

    /// The leftmost pair spelling marker `id`: there is one, since each marker's own pair is in
    /// its heap until a marker of the same text takes a pair.
    private mutating func popMin(_ id: Int) -> Int {
        var h = heaps[id]!
        heaps[id] = nil
        let top = h[0]
        let end = h.removeLast()
        if !h.isEmpty {
            h[0] = end
            var i = 0
            while true {
                let l = 2 * i + 1
                let r = l + 1
                var m = i
                if l < h.count && label[h[l]] < label[h[m]] { m = l }
                if r < h.count && label[h[r]] < label[h[m]] { m = r }
                if m == i { break }
                h.swapAt(i, m)
                i = m
            }
        }
        heaps[id] = h
        return top
    }
}
