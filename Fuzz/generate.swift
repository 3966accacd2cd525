import Foundation

// Target: `livery generate`'s inputs. Line 1 the options as text (a scheme name, a contrast, a
// colour, separated by spaces), the rest a picture's bytes: the options read as the command
// reads them (`MaterialVariant(rawValue:)`, `Double` within -1...1, `RGBA(hexDigits:)`), the
// picture written to a scratch file and read by `PicturePixels` (gdk-pixbuf's loaders; an SVG
// goes to `livery-svg`, absent here, and fails as a missing renderer does), then generated. A
// picture read must give pixels that fill its size; every theme made must keep the terminal
// guarantees (foreground 7:1, ANSI 1-6 and 9-14 4.5:1, sixteen distinct colours).

let generateFile = fuzzScratch + "/picture"

@_cdecl("LLVMFuzzerTestOneInput")
public func generateTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let newline = bytes.firstIndex(of: 10) ?? size
    let options = String(decoding: bytes[..<newline], as: UTF8.self).split(separator: " ")
    let scheme = options.first.flatMap { MaterialVariant(rawValue: String($0)) } ?? .tonalSpot
    let contrast =
        options.dropFirst().first.flatMap { Double($0) }.flatMap {
            ThemeGenerator.contrastRange.contains($0) ? $0 : nil
        } ?? 0
    if let hex = options.dropFirst(2).first,
        let c = RGBA(hexDigits: hex.hasPrefix("#") ? hex.dropFirst() : hex)
    {
        let argb = UInt32(RGBA.eightBit(c.red) << 16 | RGBA.eightBit(c.green) << 8 | RGBA.eightBit(c.blue))
        check(ThemeGenerator.generate(source: argb, scheme: scheme, contrast: contrast))
    }
    let picture = Data(bytes[min(newline + 1, size)...])
    guard (try? picture.write(to: URL(fileURLWithPath: generateFile))) != nil else { return 0 }
    guard let pixels = try? PicturePixels(path: generateFile) else { return 0 }
    precondition(pixels.width >= 1 && pixels.height >= 1 && pixels.argb.count == pixels.width * pixels.height)
    check(
        ThemeGenerator.generate(
            pixels: pixels.argb, width: pixels.width, height: pixels.height, scheme: scheme,
            contrast: contrast))
    return 0
}

private func check(_ theme: GeneratedTheme) {
    for side in [theme.light, theme.dark] {
        let t = side.terminal
        let search = ToneSearch(background: t.background)
        precondition(search.ratio(t.foreground) >= GeneratedTerminal.foregroundRatio)
        for n in [1, 2, 3, 4, 5, 6, 9, 10, 11, 12, 13, 14] {
            precondition(search.ratio(t.colors[n]) >= GeneratedTerminal.colorRatio(contrast: theme.contrast))
        }
        precondition(Set(t.colors).count == 16)
    }
}
