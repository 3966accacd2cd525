import Foundation
import LiveryCore
import LiveryPreview

/// `livery generate (IMAGE | --color HEX) [--scheme NAME] [--contrast C] [--json] [--out DIR]`:
/// a theme from a picture or a colour, with no daemon (DESIGN §12, `ThemeGenerator`).
///
/// Prints the source colour, Score's candidates, the main roles of both variants and the
/// terminal colours; with `--json` one object (`GeneratedTheme.jsonObject`). With `--out DIR`,
/// writes the bundles `DIR/ID` and `DIR/ID-dark` (`GeneratedBundle`), each whole or not at all:
/// both are written into a temporary directory inside DIR, then each renamed into place (an
/// earlier generated bundle of that id moved aside first, then removed). A directory of that
/// name that `livery generate` did not make is never replaced. Exit 0; 1 when the picture cannot
/// be read or the bundles cannot be written (`PATH: error: …`); 2 for a usage error.
func generate(_ inv: Invocation, output: Output) -> Int32 {
    let scheme = inv.scheme ?? .tonalSpot
    let contrast = inv.contrast ?? 0
    let theme: GeneratedTheme
    var picture: (path: String, kind: String)?
    if let color = inv.color {
        theme = ThemeGenerator.generate(source: color, scheme: scheme, contrast: contrast)
    } else {
        let path = inv.positional[0]
        let pixels: PicturePixels
        do { pixels = try PicturePixels(path: path) } catch {
            output.err("\(error)\n")
            return 1
        }
        picture = (path, pixels.kind)
        theme = ThemeGenerator.generate(
            pixels: pixels.argb, width: pixels.width, height: pixels.height, scheme: scheme,
            contrast: contrast)
    }
    if let out = inv.out {
        let id =
            picture.map { GeneratedBundle.id(fromFileName: $0.path) } ?? "color-"
            + GeneratedTheme.hex(theme.source).dropFirst()
        do { try writeBundles(theme, id: id, picture: picture, into: out) } catch {
            output.err("\(error.description)\n")
            return 1
        }
        if !inv.json { output.out("wrote \(out)/\(id) and \(out)/\(id)-dark\n") }
    }
    if inv.json {
        output.out(jsonLine(theme.jsonObject))
    } else {
        output.out(summary(theme, terminal: output.isTerminal))
    }
    if let note = theme.note, !inv.json { output.err("livery: note: \(note)\n") }
    return 0
}

/// The summary printed without `--json`.
private func summary(_ theme: GeneratedTheme, terminal: Bool) -> String {
    func show(_ argb: UInt32) -> String {
        let hex = GeneratedTheme.hex(argb)
        guard terminal else { return hex }
        return "\u{1b}[48;2;\(argb >> 16 & 255);\(argb >> 8 & 255);\(argb & 255)m  \u{1b}[0m \(hex)"
    }
    var lines = [
        "source \(show(theme.source))",
        "ranked " + theme.ranked.map(GeneratedTheme.hex).joined(separator: " "),
        "scheme \(theme.scheme.name), contrast \(theme.contrast)",
    ]
    if let note = theme.note { lines.append("note: \(note)") }
    let main: [MaterialRole] = [
        .primary, .onPrimary, .primaryContainer, .secondary, .tertiary, .error, .background, .onBackground,
        .surfaceContainer, .outline,
    ]
    for (name, variant) in [("light", theme.light), ("dark", theme.dark)] {
        lines.append("")
        lines.append("\(name):")
        for role in main { lines.append("  \(pad(role.snakeCaseName, 20)) \(show(variant.roles[role]!))") }
        let t = variant.terminal
        lines.append("  terminal: background \(show(t.background)), foreground \(show(t.foreground))")
        lines.append("   " + t.colors[0..<8].map { " " + show($0) }.joined())
        lines.append("   " + t.colors[8..<16].map { " " + show($0) }.joined())
        lines.append("  base16:" + variant.base16.map { " " + GeneratedTheme.hex($0) }.joined())
    }
    return lines.joined(separator: "\n") + "\n"
}

/// Why the bundles could not be written: the path and the reason.
struct BundleWriteError: Error, CustomStringConvertible {
    var path: String
    var reason: String
    var description: String { "\(path): error: \(reason)" }
}

/// The first line of every `theme.css` `livery generate` writes: what marks a bundle it may
/// replace.
private let generatedMark = "/* Made by livery generate "

/// Writes `DIR/id` and `DIR/id-dark` whole or not at all (see `generate`).
private func writeBundles(
    _ theme: GeneratedTheme, id: String, picture: (path: String, kind: String)?, into out: String
) throws(BundleWriteError) {
    let root: OutputRoot
    do { root = try OutputRoot(out) } catch { throw BundleWriteError(path: out, reason: error.description) }
    let names = [id, id + "-dark"]
    for name in names {
        let path = out + "/" + name
        var st = stat()
        guard lstat(path, &st) == 0 else { continue }
        let head = try? BundleFiles.head(of: path + "/theme.css", count: generatedMark.utf8.count).get()
        guard (st.st_mode & S_IFMT) == S_IFDIR, let head, head.starts(with: Data(generatedMark.utf8)) else {
            throw BundleWriteError(
                path: path,
                reason: "exists and was not made by livery generate; remove it or choose another --out")
        }
    }
    var pictureName: String?
    var pictureBytes: [UInt8] = []
    if let picture {
        switch BundleFiles.contents(of: picture.path, limit: PicturePixels.maximumFileSize) {
        case .failure(let refusal): throw BundleWriteError(path: picture.path, reason: refusal.message)
        case .success(let data): pictureBytes = [UInt8](data)
        }
        pictureName = "picture." + (picture.kind == "jpeg" ? "jpg" : picture.kind)
    }
    let from = picture.map { ($0.path as NSString).lastPathComponent } ?? GeneratedTheme.hex(theme.source)
    let staging = ".livery-generate-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    defer { try? FileManager.default.removeItem(atPath: out + "/" + staging) }
    do {
        for (name, isDark) in zip(names, [false, true]) {
            let sheet = GeneratedBundle.sheet(theme, isDark: isDark, id: id, from: from, picture: pictureName)
            try root.write(Array(sheet.utf8), to: "\(staging)/\(name)/theme.css", durable: true)
            if let pictureName {
                try root.write(pictureBytes, to: "\(staging)/\(name)/\(pictureName)", durable: true)
            }
        }
    } catch { throw BundleWriteError(path: out, reason: error.description) }
    for name in names {
        let target = out + "/" + name
        var st = stat()
        if lstat(target, &st) == 0, rename(target, "\(out)/\(staging)/old-\(name)") != 0 {
            throw BundleWriteError(
                path: target, reason: "cannot be replaced: \(String(cString: strerror(errno)))")
        }
        if rename("\(out)/\(staging)/\(name)", target) != 0 {
            throw BundleWriteError(
                path: target, reason: "cannot be written: \(String(cString: strerror(errno)))")
        }
    }
}
