import Foundation
import XCTest

@testable import LiveryCore

/// Shapes of input whose cost grew faster than their size. Each test checks a count that the
/// old code got wrong by a factor of the input's size (copies stored, files read, suggestions
/// computed, diagnostics kept, cache bytes), never a time; `make bench` times them at the size
/// limits (bench/README.md, "Hostile inputs").
final class SuperLinearInputTests: XCTestCase {
    /// `Button, Button, … { alpha: 1; … }`: S selectors over D declarations.
    func product(_ s: Int) -> String {
        "Button" + String(repeating: ", Button", count: s - 1) + " {"
            + String(repeating: " alpha: 0.5;", count: s) + " }\n"
    }

    /// A rule's declarations are stored once for all its selectors: the index holds one copy of
    /// the block (padded to a multiple of 4), not one per selector, and a selector repeated in
    /// its list is indexed once.
    func testSelectorListStoresItsDeclarationsOnce() throws {
        let s = 300
        let cascade = try compileSheet(
            product(s) + "Button, Switch { tint-color: #102030; row-height: 7; }\n")
        XCTAssertEqual(cascade.theme.rules.count, s + 2)
        // Block 1: 300 declarations (already a multiple of 4); block 2: 2, padded to 4; both
        // stored once though 302 rules use them.
        XCTAssertEqual(cascade.map.frozen.declarations.count, 300 + 4)
        XCTAssertEqual(cascade.map.frozen.rules.count, 1 + 2, "the 300 copies of 'Button' are one rule")
        XCTAssertEqual(try resolved(cascade, "Window/Button", "alpha"), "0.5")
        XCTAssertEqual(try resolved(cascade, "Window/Button", "tint-color"), "#102030ff")
        XCTAssertEqual(try resolved(cascade, "Window/Switch", "row-height"), "7")
    }

    /// Explain of a selector list of S selectors over S declarations of the property (S × S
    /// matches) lists the 1,000 nearest the winner and counts the rest.
    func testExplainOfASelectorListListsAThousandCandidates() throws {
        let s = 2_000
        let cascade = try compileSheet(product(s))
        let e = try cascade.explain(
            ComponentPath("Window/Button", schema: cascade.theme.schema), property: "alpha")
        XCTAssertEqual(e.candidates.count, 1000)
        XCTAssertEqual(e.omittedCandidates, s * s - 1000)
        XCTAssertEqual(e.candidates.filter(\.won).count, 1)
        XCTAssertEqual(e.candidates.last?.won, true)
        // The winner is the last declaration of the last selector; the 999 before it are that
        // selector's earlier declarations, all on the one line, in column order.
        let last = e.candidates.last!.location
        XCTAssertEqual(Set(e.candidates.map(\.selector)), ["Button"])
        XCTAssertEqual(Set(e.candidates.map(\.location.line)), [last.line])
        XCTAssertEqual(e.candidates.map(\.location.column), e.candidates.map(\.location.column).sorted())
        XCTAssertEqual(Set(e.candidates.dropLast().map(\.reason)), ["earlier in source order"])
    }

    /// A theme whose rules take longer to check than the daemon's bound is invalid, with an
    /// error at the rule reached that names the bound; within the bound it compiles.
    func testCheckingPastTheTimeLimitIsAnErrorNamingTheBound() throws {
        let source = try bundle("Button { alpha: 0.5; }\nLabel { alpha: 0.25; }\n", files: [:])
        let (late, diagnostics) = ThemeCompiler.compile(
            chain: [source], schema: shippedSchema, timeLimit: .zero)
        XCTAssertNil(late)
        XCTAssertEqual(
            diagnostics.map { "\($0.location.line):\($0.location.column) \($0.message)" },
            [
                "1:1 checking the theme's rules took longer than 0.0 seconds (the bound for one theme); stopped at this rule"
            ])
        XCTAssertNotNil(
            ThemeCompiler.compile(chain: [source], schema: shippedSchema, timeLimit: ThemeCompiler.timeLimit)
                .theme)
        XCTAssertEqual(ThemeCompiler.timeLimit, .seconds(10))
    }

    /// The lint looks at a block once: S − 1 earlier copies of the selector never win, and
    /// S − 1 declarations are set again later in the rule — each said once, not once per
    /// selector (the old lint said the latter S × (S − 1) times).
    func testLintOfASelectorListIsLinear() {
        let s = 40
        let source = ThemeSource(
            id: "t", format: "native", path: "t", sheet: SheetParser().parse(product(s), file: "t.css"))
        let warnings = Lint.warnings(chain: [source]).map(\.message)
        XCTAssertEqual(
            warnings.filter { $0.contains("the same selector is listed again later in this rule") }.count,
            s - 1)
        XCTAssertEqual(warnings.filter { $0.contains("is set again later in the same rule") }.count, s - 1)
        XCTAssertEqual(warnings.count, 2 * (s - 1))
    }

    /// The lint finds warnings last rule first; it keeps the first 100 of the file by position
    /// (not the first found) and counts the rest, without holding them.
    func testLintKeepsTheFirstHundredWarningsByPosition() {
        let css = (0..<150).map { "Button#n\($0) { tint-color: #111; tint-color: #222; }\n" }.joined()
        let source = ThemeSource(
            id: "t", format: "native", path: "t", sheet: SheetParser().parse(css, file: "t.css"))
        let warnings = Lint.warnings(chain: [source])
        XCTAssertEqual(warnings.count, 101)
        XCTAssertEqual(warnings.prefix(100).map(\.location.line), Array(1...100))
        XCTAssertTrue(
            warnings.prefix(100).allSatisfy { $0.message.contains("is set again later in the same rule") })
        XCTAssertEqual(warnings[100].message, "50 more problems in this file not shown (the first 100 are)")
        XCTAssertEqual(warnings[100].severity, .warning)
    }

    /// N misspelt component types: the first 100 errors are kept, the first 20 with their
    /// suggestion, and the rest are one line with their count.
    func testMisspeltTypesKeepTheFirstHundredErrors() throws {
        let n = 300
        var css = ""
        for i in 0..<n { css += String(format: "@component Comp%06d : View;\n", i) }
        for i in 0..<n { css += String(format: "Cxmp%06d { alpha: 1; }\n", i) }
        let d = try diagnostics(of: css)
        XCTAssertEqual(d.count, Diagnostic.maximumPerFile + 1)
        XCTAssertEqual(d[0].message, "unknown component type 'Cxmp000000' (did you mean 'Comp000000'?)")
        XCTAssertEqual(d[0].location.line, n + 1)
        XCTAssertEqual(d[19].message, "unknown component type 'Cxmp000019' (did you mean 'Comp000019'?)")
        XCTAssertEqual(
            d[20].message, "unknown component type 'Cxmp000020'", "past the first 20, no suggestion")
        XCTAssertEqual(d[99].message, "unknown component type 'Cxmp000099'")
        XCTAssertEqual(d[100].message, "200 more problems in this file not shown (the first 100 are)")
        XCTAssertEqual(d[100].severity, .error)
    }

    /// The banded distance agrees with the full Levenshtein table (written out here) wherever
    /// that is at most `k`, and is nil wherever it is more.
    func testBoundedDistanceAgreesWithTheFullTable() {
        func full(_ a: [UInt32], _ b: [UInt32]) -> Int {
            var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
            for i in 0...a.count { d[i][0] = i }
            for j in 0...b.count { d[0][j] = j }
            if !a.isEmpty && !b.isEmpty {
                for i in 1...a.count {
                    for j in 1...b.count {
                        d[i][j] = min(
                            d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                        )
                    }
                }
            }
            return d[a.count][b.count]
        }
        var state: UInt64 = 42
        func next(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(n))
        }
        for _ in 0..<5_000 {
            let a = (0..<next(9)).map { _ in UInt32(97 + next(3)) }
            let b = (0..<next(9)).map { _ in UInt32(97 + next(3)) }
            for k in 1...3 {
                let d = full(a, b)
                XCTAssertEqual(boundedDistance(a, b, k), d <= k ? d : nil, "\(a) \(b) k=\(k)")
            }
        }
        XCTAssertEqual(suggestion(for: "Buton", among: ["Switch", "Button", "Bottom"]), "Button")
        // Case is folded, beyond ASCII too.
        XCTAssertEqual(suggestion(for: "ÉCRAN", among: ["écran2", "other"]), "écran2")
    }

    /// The same for palette references; a name's being defined is a set lookup.
    func testMisspeltPaletteNamesKeepTheFirstHundredErrors() throws {
        let n = 250
        var css = ""
        for i in 0..<n { css += String(format: "@define-color col%06d #102030;\n", i) }
        for i in 0..<n { css += String(format: "Button { tint-color: @cxl%06d; }\n", i) }
        let d = try diagnostics(of: css)
        XCTAssertEqual(d.count, 101)
        XCTAssertEqual(d[0].message, "unknown palette colour '@cxl000000' (did you mean '@col000000'?)")
        XCTAssertEqual(d[100].message, "150 more problems in this file not shown (the first 100 are)")
    }

    /// Lines of 999 `}`: every one is an error; 100 are kept, and every diagnostic and
    /// declaration on a line shares the lexer's one copy of it.
    func testDiagnosticsOfLongLinesAreCappedAndShareTheLine() {
        let lines = 20
        let sheet = SheetParser().parse(
            String(repeating: String(repeating: "}", count: 999) + "\n", count: lines), file: "b.css")
        XCTAssertEqual(sheet.diagnostics.count, 100)
        XCTAssertEqual(sheet.omittedDiagnostics["b.css"], lines * 999 - 100)
        func storage(_ s: String) -> UnsafeRawPointer? {
            var s = s
            return s.withUTF8 { UnsafeRawPointer($0.baseAddress) }
        }
        XCTAssertEqual(sheet.diagnostics[0].sourceLine.utf8.count, 999)
        XCTAssertEqual(storage(sheet.diagnostics[0].sourceLine), storage(sheet.diagnostics[1].sourceLine))
        let decls = SheetParser().parse(
            "Button {" + String(repeating: " alpha: 1;", count: 50) + " }\n", file: "d.css")
        let declarations = decls.rules[0].declarations
        XCTAssertEqual(declarations.count, 50)
        XCTAssertEqual(storage(declarations[0].sourceLine), storage(declarations[49].sourceLine))
    }

    /// theme.css importing f0.css 4 times and each fK.css importing f(K+1).css 4 times, `depth`
    /// files deep, parsed with an importer that calls `read` with each path it reads.
    func importsFourWide(depth: Int, read: @escaping @Sendable (String) -> Void = { _ in }) -> Stylesheet {
        let label: @Sendable (String, String) -> String = { path, _ in path }
        let importer = SheetParser.Importer(label: label) { path, _ in
            read(path)
            let k = Int(path.dropFirst().dropLast(4))!
            var text = "Button { alpha: 0.5; }\n"
            if k + 1 < depth { text += String(repeating: "@import \"f\(k + 1).css\";\n", count: 4) }
            return .success(text)
        }
        return SheetParser(bundleRoot: "/nowhere", importer: importer).parse(
            String(repeating: "@import \"f0.css\";\n", count: 4), file: "theme.css")
    }

    /// theme.css imports f0.css 4 times, each fK.css imports f(K+1).css 4 times: each file is
    /// read once, and its rules stand at every place it is imported (4 + 16 + … + 4^6).
    func testRepeatedImportsAreReadOnce() {
        final class Reads: @unchecked Sendable {
            let lock = NSLock()
            var count: [String: Int] = [:]
        }
        let reads = Reads()
        let depth = 6
        let sheet = importsFourWide(depth: depth) { path in
            reads.lock.withLock { reads.count[path, default: 0] += 1 }
        }
        XCTAssertEqual(sheet.diagnostics.map(\.message), [])
        XCTAssertEqual(reads.count, Dictionary(uniqueKeysWithValues: (0..<depth).map { ("f\($0).css", 1) }))
        XCTAssertEqual(sheet.rules.count, (1...depth).reduce(0) { $0 + Int(pow(4.0, Double($1))) })
    }

    /// At depth 16 the same files would splice in 4^16 copies: refused past 4 MiB of text, at
    /// the import that would pass it, with each file still read once.
    func testImportsThatWouldSpliceTooMuchTextAreRefused() {
        let sheet = importsFourWide(depth: 16)
        XCTAssertFalse(sheet.diagnostics.isEmpty)
        XCTAssertTrue(
            sheet.diagnostics.allSatisfy {
                $0.message.hasPrefix("'f")
                    && $0.message.contains("past \(SheetParser.maximumImportedText) bytes")
            }, "\(sheet.diagnostics.prefix(3))")
        let total = sheet.rules.count * "Button { alpha: 0.5; }\n".utf8.count
        XCTAssertLessThanOrEqual(total, SheetParser.maximumImportedText)
    }

    /// A named pipe or a link to a device named like a sheet is refused before anything is read
    /// from it: a pipe blocked the reader for good, and `/dev/zero` (size 0) was read until memory
    /// ran out (found by a newcomer's trial).
    func testSpecialFilesAreRefusedUnread() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "livery-special-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        XCTAssertEqual(mkfifo(dir.appendingPathComponent("fifo.css").path, 0o644), 0)
        try FileManager.default.createSymbolicLink(
            atPath: dir.appendingPathComponent("zero.css").path, withDestinationPath: "/dev/zero")
        for name in ["fifo", "zero"] {
            let source = NativeFormat().read(dir.appendingPathComponent(name + ".css"), id: name)
            XCTAssertEqual(source.sheet.diagnostics.map(\.message), ["file is not a regular file"], name)
        }
        // A regular file past the limit is refused after reading at most one byte more.
        let big = dir.appendingPathComponent("big.css")
        try Data(repeating: 0x20, count: 100).write(to: big)
        guard case .failure(let e) = BundleFiles.contents(of: big.path, limit: 99) else {
            return XCTFail("read")
        }
        XCTAssertEqual(e.message, "is larger than 99 bytes")
        XCTAssertEqual(try BundleFiles.contents(of: big.path, limit: 100).get().count, 100)
    }

    /// Named pipes with a scheme's name (`x.yaml`, `x.yml`, `x.json`) on the search path: the
    /// catalog scans and reads them without blocking (the formats that look at a file's first
    /// bytes opened it for reading, which blocks on a pipe until something writes to it: the
    /// daemon never owned its name, `livery check` of a sibling never ended), and each is
    /// refused as not a regular file.
    func testNamedPipesWithSchemeNamesDoNotBlockTheScan() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "livery-pipes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for name in ["pipe.yaml", "pipe2.yml", "pipe3.json", "pipe4.colors", "pipe5.itermcolors"] {
            XCTAssertEqual(mkfifo(dir.appendingPathComponent(name).path, 0o644), 0)
        }
        let done = DispatchSemaphore(value: 0)
        let result = Box<ThemeCatalog?>(nil)
        Thread.detachNewThread {
            result.value = ThemeCatalog(searchPath: [dir.path])
            done.signal()
        }
        // A generous bound that only a hang can pass (the scan of five entries takes milliseconds).
        guard done.wait(timeout: .now() + 30) == .success, let catalog = result.value else {
            // Unblock the reader so that the thread can end.
            for name in ["pipe.yaml", "pipe2.yml", "pipe3.json"] {
                let fd = open(dir.appendingPathComponent(name).path, O_WRONLY | O_NONBLOCK)
                if fd >= 0 { close(fd) }
            }
            return XCTFail("the scan blocked on a named pipe")
        }
        for id in catalog.ids {
            XCTAssertEqual(
                catalog.sources[id]?.sheet.diagnostics.map(\.message).first, "file is not a regular file", id)
        }
        XCTAssertFalse(catalog.ids.contains("pipe3"), "a pipe is not claimed as colors.json")
    }

    /// A scheme of many plain keys is refused for its size, not for aliases it does not have.
    func testYAMLOfTooManyPlainNodesSaysSo() {
        var yaml = "extra:\n"
        for i in 0..<50_001 { yaml += "  k\(i): x\n" }
        guard case .failure(let e) = YAMLNode.parse(yaml) else { return XCTFail("parsed") }
        XCTAssertEqual(e.message, "YAML document has more than 100000 nodes")
    }

    /// Anchors and aliases are resolved by the parser here: an alias is the anchored node.
    func testYAMLAnchorsAndAliases() throws {
        var yaml = "base: &b \"#102030\"\nlist:\n"
        for i in 0..<5_000 { yaml += "  - &a\(i) x\(i)\n" }
        yaml += "again: *a4999\ncopy: *b\n"
        guard case .success(let root) = YAMLNode.parse(yaml), case .mapping(let pairs) = root.kind else {
            return XCTFail("not parsed")
        }
        XCTAssertEqual(pairs.map { $0.0.scalar }, ["base", "list", "again", "copy"])
        XCTAssertEqual(pairs[2].1.scalar, "x4999")
        XCTAssertEqual(pairs[3].1.scalar, "#102030")
        guard case .sequence(let items) = pairs[1].1.kind else { return XCTFail("no list") }
        XCTAssertEqual(items.count, 5_000)
        guard case .failure(let e) = YAMLNode.parse("a: *nope\n") else { return XCTFail("parsed") }
        XCTAssertTrue(e.message.contains("undefined alias"), e.message)
    }

    /// A path of n segments keeps keys of one segment each in the style cache: its bytes grow
    /// with n, not with the n² bytes of every prefix written out.
    func testStyleCacheKeysOfALongPathAreLinear() throws {
        let cascade = try compileSheet("Button { alpha: 0.5; }\n")
        let n = 2_000
        let path = ComponentPath(
            nodes: Array(repeating: PathNode(type: "View"), count: n - 1) + [PathNode(type: "Button")])
        XCTAssertEqual(try cascade.resolve(path, properties: ["alpha"]).first?.value, .number(0.5))
        let perEntry = cascade.map.propertyNames.count * 4 + 64 + 64 + 64
        let (bytes, entries) = cascade.cache.size
        XCTAssertEqual(entries, n + 1, "a prefix each, and the whole path")
        XCTAssertLessThan(bytes, (n + 1) * perEntry)
        // A longer path through the same prefix seeds from it and resolves the same.
        let longer = ComponentPath(
            nodes: path.nodes.dropLast() + [PathNode(type: "View"), PathNode(type: "Button")])
        XCTAssertEqual(
            try cascade.resolve(longer).map(\.value), try cascade.resolveNaive(longer).map(\.value))
    }
}

/// A value shared with another thread in a test.
final class Box<Value>: @unchecked Sendable {
    // Safe to share: written by one thread before the semaphore it signals, read after.
    var value: Value
    init(_ value: Value) { self.value = value }
}
