import Foundation

// Target 5: a Mustache template, its data and three partials, split at 0x00 bytes: template,
// data (JSON; anything else is used as one string), partials `a`, `b` and `c`. Compiled with
// the Mustache target's sources only (no LiveryCore). Compiling must either succeed or give an
// error inside the text; rendering, with small limits, must end (in text or a limit error)
// and give the same text twice from one compiled template.

let mustacheLimits = Template.Limits(output: 1 << 20, steps: 1_000_000, depth: 20)

func mustacheValue(_ any: Any) -> MustacheValue {
    switch any {
    case let s as String: return .string(s)
    case let n as NSNumber:
        return String(cString: n.objCType) == "c" ? .bool(n.boolValue) : .number(n.doubleValue)
    case let a as [Any]: return .list(a.map(mustacheValue))
    case let d as [String: Any]: return .object(d.mapValues(mustacheValue))
    default: return .null
    }
}

func checkedError(_ e: TemplateError, _ text: String) {
    let lines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).count
    guard e.line >= 1, e.line <= lines, e.column >= 1 else {
        fatalError("fuzz: error position \(e.line):\(e.column) outside the template (\(lines) lines): \(e)")
    }
    _ = e.rendered
}

@_cdecl("LLVMFuzzerTestOneInput")
public func mustacheTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let parts = UnsafeBufferPointer(start: data, count: size).split(
        separator: 0, maxSplits: 4, omittingEmptySubsequences: false
    ).map { String(decoding: $0, as: UTF8.self) }
    let text = parts[0]
    var context: MustacheValue = .string(parts.count > 1 ? parts[1] : "")
    if parts.count > 1,
        let json = try? JSONSerialization.jsonObject(with: Data(parts[1].utf8), options: [.fragmentsAllowed])
    {
        context = mustacheValue(json)
    }
    var partials: [String: Template] = [:]
    for (name, source) in zip(["a", "b", "c"], parts.dropFirst(2)) {
        do { partials[name] = try Template(source, name: name) } catch { checkedError(error, source) }
    }
    let template: Template
    do { template = try Template(text, name: "fuzz.mustache") } catch {
        checkedError(error, text)
        return 0
    }
    let first = try? template.render(context, partials: partials, limits: mustacheLimits)
    let second = try? template.render(context, partials: partials, limits: mustacheLimits)
    guard first == second else { fatalError("fuzz: one template rendered two different texts") }
    return 0
}
