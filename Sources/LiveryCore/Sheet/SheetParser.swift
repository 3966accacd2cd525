import Foundation

/// Parses the sheet language (the README, "The sheet language") into a `Stylesheet`, reporting every syntax error in one
/// pass: after an error the parser recovers at the next `;` or `}`.
public struct SheetParser {
    /// Reads `@import`ed files.
    public struct Importer: Sendable {
        /// Given the path as written and the importing file's label, the imported file's label:
        /// what diagnostics show, and what a parse reads and parses once.
        public var label: @Sendable (_ path: String, _ from: String) -> String
        /// Given the path as written and the importing file's label, the file's text, or a
        /// message saying why it may not be read.
        public var read: @Sendable (_ path: String, _ from: String) -> Result<String, ImportError>

        /// An importer of the two functions.
        public init(
            label: @escaping @Sendable (_ path: String, _ from: String) -> String,
            read: @escaping @Sendable (_ path: String, _ from: String) -> Result<String, ImportError>
        ) {
            self.label = label
            self.read = read
        }
    }

    /// Why an `@import` failed.
    public struct ImportError: Error, Sendable {
        /// Why, one line, e.g. `'x.css' is larger than 4194304 bytes`.
        public var message: String
        /// An import error saying `message`.
        public init(_ message: String) { self.message = message }
    }

    let importer: Importer?
    let bundleRoot: String?
    /// Deepest chain of `@import`s.
    public static let maximumImportDepth = 16

    /// A parser for one kind of sheet: a bundle's, or one that may name no files.
    /// - Parameters:
    ///   - bundleRoot: the directory `url()` and `@import` paths must stay inside; nil for sheets
    ///     that may name no files (single-file bundles, the user overrides).
    ///   - importer: reads imported files; nil forbids `@import`.
    public init(bundleRoot: String? = nil, importer: Importer? = nil) {
        self.bundleRoot = bundleRoot
        self.importer = importer
    }

    /// Most text, in bytes, a sheet's `@import`s may splice in, counting a file each time it is
    /// imported: a file imported from several places is read and parsed once, but its rules
    /// stand at each place, so a few files importing each other four times over would
    /// otherwise splice in exponentially many.
    public static let maximumImportedText = BundleFiles.maximumSheetSize

    /// Parses `text`, read from `file`.
    /// - Parameters:
    ///   - text: The sheet's text.
    ///   - file: The file name shown in diagnostics, and the start of the `@import` chain.
    /// - Returns: The sheet, imports spliced in; syntax errors are in its `diagnostics`, never thrown.
    public func parse(_ text: String, file: String) -> Stylesheet {
        let imports = Imports(root: file)
        var log = DiagnosticLog()
        var sheet = parse(text, file: file, imports: imports, log: &log)
        sheet.diagnostics = log.kept
        sheet.omittedDiagnostics = log.omitted
        return sheet
    }

    /// What one parse knows of the files it imports: the chain being parsed (for cycles and
    /// depth), each file parsed once, and the text spliced in so far.
    private final class Imports {
        var stack: [String]
        /// Parsed imported files by label, with their text's size including their own imports.
        var parsed: [String: (sheet: Stylesheet, bytes: Int)] = [:]
        var splicedBytes = 0
        init(root: String) { stack = [root] }
    }

    /// Parses one file, splicing in its imports; its diagnostics and its imports' go to `log` in
    /// the order found.
    private func parse(_ text: String, file: String, imports: Imports, log: inout DiagnosticLog) -> Stylesheet
    {
        var sheet = Stylesheet(file: file)
        var cursor = Cursor(lexer: Lexer(text: text, file: file), bundleRoot: bundleRoot)
        while !cursor.atEnd {
            let t = cursor.peek
            switch t.kind {
            case .atKeyword(let name):
                cursor.next()
                switch name {
                case "theme":
                    if let decls = cursor.declarationBlock() { sheet.metadata += decls }
                case "define-color":
                    cursor.defineColor(into: &sheet)
                case "import":
                    guard case .string(let path) = cursor.peek.kind else {
                        cursor.error("expected a quoted file name after '@import'", at: cursor.peek)
                        cursor.skipStatement()
                        continue
                    }
                    let pathToken = cursor.peek
                    cursor.next()
                    cursor.expectSemicolon()
                    // The importing file's diagnostics so far come before the imported file's.
                    log.merge(cursor.lexer.takeDiagnostics())
                    log.merge(cursor.diagnostics)
                    cursor.diagnostics = DiagnosticLog()
                    importFile(
                        path, at: pathToken, from: file, cursor: &cursor, into: &sheet, imports: imports,
                        log: &log)
                case "app":
                    cursor.appBlock(into: &sheet)
                case "component":
                    cursor.component(into: &sheet)
                default:
                    let known = ["theme", "define-color", "import", "app", "component"]
                    cursor.error("unknown at-rule '@\(name)'\(didYouMean(name, known))", at: t)
                    cursor.skipStatement()
                }
            case .delim("}"):
                cursor.error("unexpected '}'", at: t)
                cursor.next()
            default:
                if let rule = cursor.rule() { sheet.rules.append(rule) }
            }
        }
        log.merge(cursor.lexer.takeDiagnostics())
        log.merge(cursor.diagnostics)
        return sheet
    }

    private func importFile(
        _ path: String, at token: Token, from file: String, cursor: inout Cursor,
        into sheet: inout Stylesheet,
        imports: Imports, log: inout DiagnosticLog
    ) {
        func fail(_ message: String) {
            log.add(
                .error, message, at: cursor.location(token), sourceLine: cursor.lexer.sourceLine(token.line))
        }
        guard let importer else {
            fail("'@import' is only allowed in a bundle directory")
            return
        }
        let label = importer.label(path, file)
        guard !imports.stack.contains(label) else {
            fail("'\(path)' imports itself (an @import cycle)")
            return
        }
        var fragment: (sheet: Stylesheet, bytes: Int)
        if let parsed = imports.parsed[label] {
            fragment = parsed
        } else {
            // Each level is a level of recursion here: keep chains short enough for any stack.
            guard imports.stack.count <= SheetParser.maximumImportDepth else {
                fail("@import nested more than \(SheetParser.maximumImportDepth) files deep")
                return
            }
            switch importer.read(path, file) {
            case .failure(let e):
                fail(e.message)
                return
            case .success(let text):
                imports.stack.append(label)
                let before = imports.splicedBytes
                let parsed = parse(text, file: label, imports: imports, log: &log)
                imports.stack.removeLast()
                // Its size: its own text and what its imports spliced in.
                fragment = (parsed, text.utf8.count + imports.splicedBytes - before)
                imports.parsed[label] = fragment
                imports.splicedBytes = before
            }
        }
        guard imports.splicedBytes + fragment.bytes <= SheetParser.maximumImportedText else {
            fail(
                "'\(path)' would bring the text imported into this sheet past \(SheetParser.maximumImportedText) bytes "
                    + "(a file counts each time it is imported)")
            return
        }
        imports.splicedBytes += fragment.bytes
        sheet.metadata += fragment.sheet.metadata
        sheet.palette += fragment.sheet.palette
        sheet.rules += fragment.sheet.rules
        sheet.components += fragment.sheet.components
    }
}

/// A position in the token stream with the recovery rules of the sheet language.
private struct Cursor {
    /// Where tokens come from, one at a time.
    var lexer: Lexer
    let bundleRoot: String?
    /// The tokens pulled and not yet passed, `window[start...]`: the current one and the few
    /// that `token(_:)` has looked ahead to.
    private var window: [Token] = []
    private var start = 0
    /// Function nesting depth of the value being read.
    var depth = 0
    /// Deepest nesting of functions in a value, e.g. `alpha(mix(…))`.
    static let maximumNesting = 32
    /// Most compound selectors in one complex selector.
    static let maximumCompounds = 32
    var diagnostics = DiagnosticLog()

    init(lexer: Lexer, bundleRoot: String?) {
        self.lexer = lexer
        self.bundleRoot = bundleRoot
        window.append(self.lexer.next())
    }

    var peek: Token { window[start] }
    var atEnd: Bool { if case .eof = peek.kind { true } else { false } }
    mutating func next() {
        guard !atEnd else { return }
        start += 1
        if start == window.count {
            window.removeAll(keepingCapacity: true)
            start = 0
            window.append(lexer.next())
        }
    }

    /// The token `k` places after the current one (`.eof` past the end).
    mutating func token(_ k: Int) -> Token {
        while window.count - start <= k {
            window.append(window.last!.kind == .eof ? window.last! : lexer.next())
        }
        return window[start + k]
    }

    func location(_ t: Token) -> SourceLocation {
        SourceLocation(file: lexer.file, line: t.line, column: t.column)
    }

    mutating func error(_ message: String, at t: Token) {
        diagnostics.add(.error, message, at: location(t), sourceLine: lexer.sourceLine(t.line))
    }

    /// Skips to just after the next `;` at this level, or a whole `{ … }` block, or stops before
    /// a `}` that closes an enclosing block.
    mutating func skipStatement() {
        var depth = 0
        while !atEnd {
            switch peek.kind {
            case .delim(";") where depth == 0:
                next()
                return
            case .delim("{"):
                depth += 1
            case .delim("}"):
                if depth == 0 { return }
                depth -= 1
                if depth == 0 {
                    next()
                    return
                }
            default: break
            }
            next()
        }
    }

    /// Skips to just before the next `;` or `}` of the current declaration list.
    mutating func skipDeclaration() {
        var depth = 0
        while !atEnd {
            switch peek.kind {
            case .delim(";") where depth == 0, .delim("}") where depth == 0: return
            case .function, .delim("("): depth += 1
            case .delim(")"): depth = max(0, depth - 1)
            default: break
            }
            next()
        }
    }

    mutating func expectSemicolon() {
        if peek.kind == .delim(";") {
            next()
        } else if peek.kind != .delim("}") && !atEnd {
            error("expected ';'", at: peek)
            skipDeclaration()
            if peek.kind == .delim(";") { next() }
        }
    }

    // MARK: Rules

    mutating func rule() -> Rule? {
        let start = peek
        var selectors: [Selector] = []
        var failed = false
        while true {
            if let s = selector() {
                selectors.append(s)
            } else {
                failed = true
                break
            }
            if peek.kind == .delim(",") {
                next()
                continue
            }
            if peek.kind == .delim("{") { break }
            error("expected ',' or '{' after selector", at: peek)
            failed = true
            break
        }
        if failed {
            // Skip the whole rule, block included.
            while !atEnd && peek.kind != .delim("{") && peek.kind != .delim("}") && peek.kind != .delim(";") {
                next()
            }
            if peek.kind == .delim(";") {
                next()
            } else if peek.kind == .delim("{") {
                skipStatement()
            }
            return nil
        }
        guard let decls = declarationBlock() else { return nil }
        return Rule(selectors: selectors, declarations: decls, app: nil, location: location(start))
    }

    mutating func selector() -> Selector? {
        var compounds: [CompoundSelector] = []
        var combinators: [Combinator] = []
        var pending: Combinator?
        while true {
            let t = peek
            if case .delim(">") = t.kind {
                if compounds.isEmpty || pending == .child {
                    error("expected a selector before '>'", at: t)
                    return nil
                }
                pending = .child
                next()
                continue
            }
            let startsCompound: Bool
            switch t.kind {
            case .ident, .hash, .delim("*"), .delim("."), .delim(":"): startsCompound = true
            default: startsCompound = false
            }
            if !startsCompound { break }
            if !compounds.isEmpty {
                if pending == nil {
                    guard t.spaceBefore else {
                        error("unexpected \(describe(t)) in selector", at: t)
                        return nil
                    }
                    pending = .descendant
                }
                combinators.append(pending!)
            }
            pending = nil
            guard let c = compound() else { return nil }
            guard compounds.count < Cursor.maximumCompounds else {
                error("selector has more than \(Cursor.maximumCompounds) compound selectors", at: t)
                return nil
            }
            compounds.append(c)
        }
        if compounds.isEmpty {
            error("expected a selector, found \(describe(peek))", at: peek)
            return nil
        }
        if pending != nil {
            error("expected a selector after '>'", at: peek)
            return nil
        }
        return Selector(compounds: compounds, combinators: combinators)
    }

    mutating func compound() -> CompoundSelector? {
        let start = peek
        var c = CompoundSelector(
            type: nil, location: location(start), sourceLine: lexer.sourceLine(start.line))
        switch start.kind {
        case .ident(let name):
            c.type = name
            next()
        case .delim("*"):
            next()
        default: break
        }
        while true {
            let t = peek
            if t.spaceBefore && !(t.line == start.line && t.column == start.column) { break }
            switch t.kind {
            case .hash(let n):
                c.names.append(n)
                next()
            case .delim("."), .delim(":"):
                next()
                guard case .ident(let n) = peek.kind, !peek.spaceBefore else {
                    error("expected a name after \(describe(t))", at: peek)
                    return nil
                }
                if t.kind == .delim(".") { c.classes.append(n) } else { c.states.append(n) }
                next()
            default:
                return c
            }
        }
        return c
    }

    /// `{ property: value; … }`; returns nil (after skipping) when there is no block.
    mutating func declarationBlock() -> [Declaration]? {
        guard peek.kind == .delim("{") else {
            error("expected '{'", at: peek)
            skipStatement()
            return nil
        }
        next()
        var decls: [Declaration] = []
        while !atEnd && peek.kind != .delim("}") {
            if peek.kind == .delim(";") {
                next()
                continue
            }
            let t = peek
            guard case .ident(let property) = t.kind else {
                error("expected a property name, found \(describe(t))", at: t)
                skipDeclaration()
                if peek.kind == .delim(";") { next() }
                continue
            }
            next()
            guard peek.kind == .delim(":") else {
                error("expected ':' after '\(property)'", at: peek)
                skipDeclaration()
                if peek.kind == .delim(";") { next() }
                continue
            }
            next()
            if let value = values(until: [";", "}"]) {
                if value.isEmpty {
                    error("expected a value for '\(property)'", at: peek)
                } else {
                    decls.append(
                        Declaration(
                            property: property, value: value, location: location(t),
                            sourceLine: lexer.sourceLine(t.line), bundleRoot: bundleRoot))
                }
            }
            expectSemicolon()
        }
        if atEnd {
            error("expected '}' at end of block", at: peek)
        } else {
            next()
        }
        return decls
    }

    /// Component values up to (not including) one of the terminators; nil after an error, with the
    /// cursor left before the terminator.
    mutating func values(until terminators: Set<Character>) -> [ValueNode]? {
        var out: [ValueNode] = []
        while !atEnd {
            let t = peek
            if case .delim(let d) = t.kind, terminators.contains(d) { return out }
            // `a: 1 b: 2;`: a ':' after a word is most likely the next declaration.
            if t.kind == .delim(":"), let last = out.last, case .ident(let name) = last.kind {
                error("unexpected ':' in value (missing ';' before '\(name)'?)", at: t)
                skipDeclaration()
                return nil
            }
            guard let v = value() else {
                skipDeclaration()
                return nil
            }
            out.append(v)
        }
        return out
    }

    mutating func value() -> ValueNode? {
        let t = peek
        let loc = location(t)
        switch t.kind {
        case .number(let v, let unit):
            next()
            return ValueNode(kind: .number(v, unit: unit), location: loc)
        case .string(let s):
            next()
            return ValueNode(kind: .string(s), location: loc)
        case .ident(let s):
            next()
            return ValueNode(kind: .ident(s), location: loc)
        case .hash(let s):
            next()
            return ValueNode(kind: .hash(s), location: loc)
        case .atKeyword(let s):
            next()
            return ValueNode(kind: .reference(s), location: loc)
        case .delim("/"):
            next()
            return ValueNode(kind: .slash, location: loc)
        case .function(let name):
            guard depth < Cursor.maximumNesting else {
                error("functions nested more than \(Cursor.maximumNesting) deep", at: t)
                return nil
            }
            depth += 1
            defer { depth -= 1 }
            next()
            var args: [[ValueNode]] = []
            var current: [ValueNode] = []
            while true {
                switch peek.kind {
                case .delim(")"):
                    next()
                    if !current.isEmpty || !args.isEmpty { args.append(current) }
                    return ValueNode(kind: .function(name, args), location: loc)
                case .delim(","):
                    next()
                    args.append(current)
                    current = []
                case .eof, .delim(";"), .delim("}"), .delim("{"):
                    error("expected ')' to close '\(name)('", at: peek)
                    return nil
                default:
                    guard let v = value() else { return nil }
                    current.append(v)
                }
            }
        default:
            error("unexpected \(describe(t)) in value", at: t)
            return nil
        }
    }

    // MARK: At-rules

    /// An `@app "id" { rules }` block, after its keyword: the rules apply to that
    /// application's requests only.
    mutating func appBlock(into sheet: inout Stylesheet) {
        guard case .string(let app) = peek.kind else {
            error("expected a quoted application id after '@app'", at: peek)
            skipStatement()
            return
        }
        // Ids are matched exactly (the README): a glob would never match anything.
        if app.contains("*") {
            error(
                "'@app' matches application ids exactly: '\(app)' has '*', which would never match",
                at: peek)
        }
        next()
        guard peek.kind == .delim("{") else {
            error("expected '{' after '@app \"\(app)\"'", at: peek)
            skipStatement()
            return
        }
        next()
        while !atEnd && peek.kind != .delim("}") {
            if case .atKeyword(let inner) = peek.kind {
                error("'@\(inner)' is not allowed inside '@app'", at: peek)
                next()
                skipStatement()
                continue
            }
            if var r = rule() {
                r.app = app
                sheet.rules.append(r)
            }
        }
        if atEnd {
            error("expected '}' to close '@app'", at: peek)
        } else {
            next()
        }
    }

    mutating func defineColor(into sheet: inout Stylesheet) {
        let t = peek
        guard case .ident(let name) = t.kind else {
            error("expected a colour name after '@define-color'", at: t)
            skipStatement()
            return
        }
        next()
        if let value = values(until: [";", "}"]) {
            if value.isEmpty {
                error("expected a colour for '@define-color \(name)'", at: peek)
            } else {
                sheet.palette.append(
                    PaletteDefinition(
                        name: name, value: value, location: location(t), sourceLine: lexer.sourceLine(t.line))
                )
            }
        }
        expectSemicolon()
    }

    mutating func component(into sheet: inout Stylesheet) {
        let t = peek
        guard case .ident(let name) = t.kind else {
            error("expected a component name after '@component'", at: t)
            skipStatement()
            return
        }
        next()
        guard peek.kind == .delim(":"), case .ident(let superType) = token(1).kind else {
            error("expected ': SuperType' after '@component \(name)'", at: peek)
            skipStatement()
            return
        }
        func place(_ t: Token) -> (location: SourceLocation, sourceLine: String) {
            (location(t), lexer.sourceLine(t.line))
        }
        var typePlaces = [place(token(1))]
        var partPlaces: [(location: SourceLocation, sourceLine: String)] = []
        next()
        next()
        var parts: [(String, String)] = []
        if peek.kind == .delim("{") {
            next()
            while !atEnd && peek.kind != .delim("}") {
                if case .ident("part") = peek.kind, case .ident(let partName) = token(1).kind,
                    token(2).kind == .delim(":"), case .ident(let partType) = token(3).kind
                {
                    parts.append((partName, partType))
                    partPlaces.append(place(token(1)))
                    typePlaces.append(place(token(3)))
                    for _ in 0..<4 { next() }
                    expectSemicolon()
                } else {
                    error("expected 'part name: Type;'", at: peek)
                    skipDeclaration()
                    if peek.kind == .delim(";") { next() }
                }
            }
            if atEnd { error("expected '}' at end of '@component'", at: peek) } else { next() }
        } else {
            expectSemicolon()
        }
        sheet.components.append(
            ComponentDeclaration(
                name: name, superType: superType, parts: parts, location: location(t),
                sourceLine: lexer.sourceLine(t.line), typePlaces: typePlaces, partPlaces: partPlaces))
    }

    func describe(_ t: Token) -> String {
        switch t.kind {
        case .ident(let s): "'\(s)'"
        case .atKeyword(let s): "'@\(s)'"
        case .hash(let s): "'#\(s)'"
        case .string(let s): "\"\(s)\""
        case .number(let v, let u): "'\(v.formatted)\(u)'"
        case .function(let s): "'\(s)('"
        case .delim(let c): "'\(c)'"
        case .eof: "end of file"
        }
    }
}

extension Double {
    /// Shortest decimal form: `80` rather than `80.0`.
    var formatted: String {
        if self == rounded() && abs(self) < 1e15 { return String(Int(self)) }
        return String(self)
    }
}
