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
        let path: String
        if inv.fromDesktop {
            switch desktopWallpaper() {
            case .failure(let why):
                output.err("livery: error: \(why.message)\n")
                return 1
            case .success(let p): path = p
            }
        } else {
            path = inv.positional[0]
        }
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
            inv.fromDesktop
            ? "desktop"
            : picture.map { GeneratedBundle.id(fromFileName: $0.path) } ?? "color-"
                + GeneratedTheme.hex(theme.source).dropFirst()
        // The desktop has its wallpaper already: naming it again would have the wallpaper
        // plugins set the bundle's copy, a change of the wallpaper a follower would take again.
        do {
            try writeBundles(theme, id: id, picture: picture, wallpaper: !inv.fromDesktop, into: out)
        } catch {
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
    _ theme: GeneratedTheme, id: String, picture: (path: String, kind: String)?, wallpaper: Bool,
    into out: String
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
            // A picture larger than a bundle's images may be is kept but not named.
            let sheet = GeneratedBundle.sheet(
                theme, isDark: isDark, id: id, from: from, picture: pictureName,
                wallpaper: wallpaper && pictureBytes.count <= BundleFiles.maximumImageSize)
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

/// GNOME's current wallpaper: `org.gnome.desktop.background picture-uri`, or `picture-uri-dark`
/// when `org.gnome.desktop.interface color-scheme` is `prefer-dark` and it is not empty (empty,
/// it is unset: `picture-uri`'s picture), read with `gsettings` (its GVariant string unquoted,
/// the `file://` URI percent-decoded). A slideshow's current picture (`shownPicture`).
func desktopWallpaper() -> Result<String, BundleFiles.Refusal> {
    func get(_ schema: String, _ key: String) -> Result<String, BundleFiles.Refusal> {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["gsettings", "get", schema, key]
        let pipe = Pipe()
        let errors = Pipe()
        process.standardOutput = pipe
        process.standardError = errors
        do { try process.run() } catch {
            return .failure(BundleFiles.Refusal(message: "cannot run gsettings: \(error)"))
        }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        let why = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let text = String(decoding: why, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            return .failure(
                BundleFiles.Refusal(
                    message: "gsettings get \(schema) \(key) failed"
                        + (text.isEmpty ? " (is gsettings installed? Debian: libglib2.0-bin)" : ": \(text)")))
        }
        var value = Substring(
            String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        if value.hasPrefix("'"), value.hasSuffix("'"), value.count >= 2 {
            value = value.dropFirst().dropLast()
        }
        var unescaped = ""
        var escaping = false
        for c in value {
            if escaping || c != "\\" {
                unescaped.append(c)
                escaping = false
            } else {
                escaping = true
            }
        }
        return .success(unescaped)
    }
    let dark: Bool
    switch get("org.gnome.desktop.interface", "color-scheme") {
    case .failure(let why): return .failure(why)
    case .success(let scheme): dark = scheme == "prefer-dark"
    }
    var key = dark ? "picture-uri-dark" : "picture-uri"
    var uri = get("org.gnome.desktop.background", key)
    if case .success("") = uri, dark {
        key = "picture-uri"
        uri = get("org.gnome.desktop.background", key)
    }
    switch uri {
    case .failure(let why): return .failure(why)
    case .success(let uri):
        guard let url = URL(string: uri), url.isFileURL, !url.path.isEmpty else {
            return .failure(
                BundleFiles.Refusal(message: "GNOME's \(key) is '\(uri)', not a file:// URI of a picture"))
        }
        return shownPicture(url.path, key: key)
    }
}

/// The picture GNOME shows for the file at `path`: the file itself when it is a picture (or is
/// not a slideshow: the decoder then says what it is), else the slideshow's picture of this
/// moment (`GnomeSlideshow`, as GNOME tries a picture first and a slideshow then).
func shownPicture(_ path: String, key: String) -> Result<String, BundleFiles.Refusal> {
    guard case .success(let head) = BundleFiles.head(of: path, count: 4096),
        BundleFiles.imageKind([UInt8](head)) == nil,
        case .success(let xml) = BundleFiles.contents(of: path, limit: GnomeSlideshow.maximumSize),
        let show = GnomeSlideshow(xml: xml, directory: (path as NSString).deletingLastPathComponent)
    else { return .success(path) }
    guard let picture = show.picture(at: Date().timeIntervalSince1970) else {
        return .failure(
            BundleFiles.Refusal(
                message: "GNOME's \(key) is the slideshow \(path), which shows no picture now"))
    }
    return .success(picture)
}
