import Foundation

// Target: a template repository's tree with links, built into itself as `livery build` builds
// it (`TemplateRepository`'s plan, every file through `OutputRoot`). The input, split at 0x00
// bytes: the repository's `templates/config.yaml`; the tree under the root, one node a line
// (`d PATH` a directory, `f PATH` a file, `p PATH` a named pipe, `l PATH TARGET` a symbolic
// link, TARGET taken as written or one of `@outside` (a directory beside the root), `@kept` (a
// file in it), `@pipe` (a named pipe in it), `@up` (`..`), `@root` (the root)); then more paths
// to write beneath the root as they are, `..` and all, one a line. Nothing outside the root may
// change (every file's bytes, mode and kind, every link's target, no entry added or removed),
// no link under the root may be replaced, every file written must hold its bytes when read
// without following a link, every refusal must name a path under the root, and no temporary
// file may be left.

/// The scratch directory of this target: the root (`repo`) and what lies beside it (`outside`).
let outputsBase = fuzzScratch + "/outputs"

/// Two schemes, one per system, for the plan.
let outputsSchemes = [
    TintedScheme(system: "base16", name: "Alpha", author: "", variant: "dark", palette: [:]),
    TintedScheme(system: "base24", name: "Beta Two", author: "", variant: "light", palette: [:]),
]

@_cdecl("LLVMFuzzerTestOneInput")
public func outputsTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let parts = UnsafeBufferPointer(start: data, count: size).split(
        separator: 0, omittingEmptySubsequences: false
    )
    .map { String(decoding: $0, as: UTF8.self) }
    let config = parts.first ?? ""
    let tree = parts.count > 1 ? parts[1] : ""
    let extra = parts.count > 2 ? parts[2] : ""

    try? FileManager.default.removeItem(atPath: outputsBase)
    let root = outputsBase + "/repo"
    let outside = outputsBase + "/outside"
    for dir in [root + "/templates", outside + "/sub"] {
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }
    FileManager.default.createFile(atPath: outside + "/kept.txt", contents: Data("kept\n".utf8))
    FileManager.default.createFile(atPath: outside + "/sub/deeper", contents: Data("deeper\n".utf8))
    mkfifo(outside + "/pipe", 0o644)
    FileManager.default.createFile(atPath: root + "/templates/config.yaml", contents: Data(config.utf8))
    makeTree(tree, root: root, outside: outside)

    let outsideBefore = snapshot(outputsBase, skipping: root)
    let rootBefore = snapshot(root, skipping: nil)
    let linksBefore = rootBefore.filter { $0.value.hasPrefix("link ") }

    var paths: [String] = []
    if let repo = try? TemplateRepository(root: URL(fileURLWithPath: root)),
        let plan = try? repo.outputs(for: outputsSchemes)
    {
        paths = plan.map(\.path)
    }
    paths += extra.split(separator: "\n", omittingEmptySubsequences: true).prefix(64).map(String.init)

    let writer: OutputRoot
    do { writer = try OutputRoot(root) } catch { fatalError("fuzz: the root cannot be opened: \(error)") }
    var expected: [String: [UInt8]] = [:]
    for (k, path) in paths.enumerated() {
        let bytes = Array("\(k) \(path)\n".utf8)
        do {
            try writer.write(bytes, to: path)
            let parts = path.split(separator: "/").filter { $0 != "." }
            if parts.contains("..") || parts.isEmpty {
                fatalError("fuzz: wrote \(path), not beneath the root")
            }
            expected[parts.joined(separator: "/")] = bytes
        } catch {
            if !error.description.contains(root) {
                fatalError("fuzz: a refusal names no path under the root: \(error)")
            }
        }
    }

    let outsideAfter = snapshot(outputsBase, skipping: root)
    if outsideAfter != outsideBefore {
        let changed = Set(outsideBefore.keys).union(outsideAfter.keys).filter {
            outsideBefore[$0] != outsideAfter[$0]
        }
        fatalError("fuzz: outside the root changed: \(changed.sorted())")
    }
    let after = snapshot(root, skipping: nil)
    for (path, link) in linksBefore where after[path] != link {
        fatalError("fuzz: the link \(path) (\(link)) became \(after[path] ?? "nothing")")
    }
    if let temporary = after.keys.first(where: {
        rootBefore[$0] == nil && OutputFile.isTemporary(Array(($0 as NSString).lastPathComponent.utf8))
    }) {
        fatalError("fuzz: a temporary is left: \(temporary)")
    }
    for (path, bytes) in expected where readBeneath(root, path) != bytes {
        fatalError("fuzz: \(path) does not hold what was written last")
    }
    return 0
}

/// Makes the nodes `tree` describes under `root` (paths with `..` and absolute ones skipped: the
/// tree is the root's own).
private func makeTree(_ tree: String, root: String, outside: String) {
    for line in tree.split(separator: "\n").prefix(64) {
        let words = line.split(separator: " ", maxSplits: 2).map(String.init)
        guard words.count >= 2, !words[1].hasPrefix("/"), !words[1].split(separator: "/").contains("..")
        else { continue }
        let path = root + "/" + words[1]
        let parent = (path as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        switch words[0] {
        case "d": try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        case "f": FileManager.default.createFile(atPath: path, contents: Data("tree\n".utf8))
        case "p": mkfifo(path, 0o644)
        case "l" where words.count == 3:
            let targets = [
                "@outside": outside, "@kept": outside + "/kept.txt", "@pipe": outside + "/pipe", "@up": "..",
                "@root": root,
            ]
            symlink(targets[words[2]] ?? words[2], path)
        default: continue
        }
    }
}

/// Every entry under `top` (links not followed, `skipping` and what is under it left out) by
/// its path: its kind, mode and bytes, or its link's target.
private func snapshot(_ top: String, skipping: String?) -> [String: String] {
    var out: [String: String] = [:]
    func visit(_ path: String) {
        if path == skipping { return }
        var st = stat()
        guard lstat(path, &st) == 0 else { return }
        switch st.st_mode & S_IFMT {
        case S_IFLNK:
            out[path] = "link " + ((try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?")
        case S_IFDIR:
            out[path] = "dir \(st.st_mode & 0o7777)"
            for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] {
                visit(path + "/" + name)
            }
        case S_IFREG:
            // Read by hand: Foundation keeps 4 KiB of every empty file it reads (Fuzz/README.md).
            let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
            let bytes = fd >= 0 ? readAll(fd) : []
            if fd >= 0 { close(fd) }
            out[path] = "file \(st.st_mode & 0o7777) \(bytes.count) \(fuzzHash(bytes, bytes.count))"
        default: out[path] = "other \(st.st_mode)"
        }
    }
    visit(top)
    return out
}

/// The bytes of the regular file `relative` under `root`, every component opened without
/// following a link; nil when there is none.
private func readBeneath(_ root: String, _ relative: String) -> [UInt8]? {
    var fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    let parts = relative.split(separator: "/")
    for (k, part) in parts.enumerated() {
        guard fd >= 0 else { return nil }
        let last = k == parts.count - 1
        let next = openat(
            fd, String(part), (last ? O_RDONLY | O_NONBLOCK : O_RDONLY | O_DIRECTORY) | O_NOFOLLOW | O_CLOEXEC
        )
        close(fd)
        fd = next
    }
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    return readAll(fd)
}

/// Everything left to read from `fd`.
private func readAll(_ fd: Int32) -> [UInt8] {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = read(fd, &buffer, buffer.count)
        guard n > 0 else { break }
        bytes += buffer[0..<n]
    }
    return bytes
}
