import Foundation

// Target 3: a component path, an application and properties resolved on the shipped themes.
// The input is text: the first line a path (`Window/Button:highlighted`), the second the
// application id (empty for none), the third the property names, separated by spaces or
// commas (none: the type's own properties); a fourth line's first character picks the
// theme. Every fast path is checked against the reference (Common.swift), and the fast and
// the reference resolve must fail alike on unknown names.

/// The shipped themes that compile, compiled once, by id.
let pathThemes: [(id: String, theme: CompiledTheme)] = fuzzCatalog.ids.compactMap { id in
    fuzzCatalog.compile(id, schema: fuzzSchema).theme.map { (id, $0) }
}

/// One cascade per theme for the whole run, as the daemon keeps one per theme generation: its
/// style cache carries over from input to input (and starts over when full), so that lookups
/// from the cache are checked as well as fresh ones.
let pathCascades = pathThemes.map { Cascade(theme: $0.theme) }

@_cdecl("LLVMFuzzerTestOneInput")
public func pathsTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let lines = fuzzText(data, size).split(separator: "\n", maxSplits: 3, omittingEmptySubsequences: false)
        .map(String.init)
    guard !pathCascades.isEmpty, let first = lines.first else { return 0 }
    let pick = lines.count > 3 ? Int(lines[3].utf8.first ?? 0) : Int(fuzzHash(data, size) % 7)
    let theme = pathThemes[pick % pathThemes.count].theme
    let c = pathCascades[pick % pathCascades.count]
    let app: String? = lines.count > 1 && !lines[1].isEmpty ? lines[1] : nil
    let properties =
        lines.count > 2
        ? lines[2].split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init) : []

    let path: ComponentPath
    do { path = try ComponentPath(first, schema: theme.schema) } catch {
        _ = String(describing: error)
        return 0
    }
    // The asked properties, through the cache twice and through the reference.
    let fast = Result { () throws(Cascade.Failure) in try c.resolve(path, properties: properties, app: app) }
    let again = Result { () throws(Cascade.Failure) in try c.resolve(path, properties: properties, app: app) }
    let slow = Result { () throws(Cascade.Failure) in
        try c.resolveNaive(path, properties: properties, app: app)
    }
    switch (fast, again, slow) {
    case (.success(let f), .success(let a), .success(let s)):
        if !same(f.map(\.value), s.map(\.value)) {
            difference("resolve", path, app, s.map(\.property), f.map(\.value), s.map(\.value))
        }
        if !same(a.map(\.value), s.map(\.value)) {
            difference("resolve (cached)", path, app, s.map(\.property), a.map(\.value), s.map(\.value))
        }
        if f.map(\.property) != s.map(\.property) { fatalError("fuzz: properties differ at \(path)") }
    case (.failure(let f), .failure(let a), .failure(let s)):
        if f.description != s.description || a.description != s.description {
            fatalError("fuzz: resolve fails with '\(f)', the reference with '\(s)' at \(path)")
        }
    default:
        fatalError("fuzz: resolve and the reference disagree on failing at \(path): \(fast) \(slow)")
    }
    // Every property, the walker, the forest, and explain of the asked properties.
    let known = properties.filter { theme.schema.properties[$0] != nil }
    crossCheck(c, paths: [path], apps: [app], explain: Array(known.prefix(2)))
    if let p = properties.first, theme.schema.properties[p] == nil {
        guard
            case .failure = Result(catching: { () throws(Cascade.Failure) in
                try c.explain(path, property: p, app: app)
            })
        else { fatalError("fuzz: explain accepted unknown property '\(p)'") }
    }
    return 0
}
