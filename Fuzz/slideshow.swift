import Foundation

// Target: a GNOME background slideshow (`livery generate --from-desktop` on an XML
// `picture-uri`), compiled with `Sources/LiveryPreview/GnomeSlideshow.swift` alone. Any
// bytes are read as the file is (nil when not a slideshow); a show read must answer which
// picture it shows at several moments (before its start, at it, far after) and on screens of
// several shapes, without trapping, and the picture is one of its slides' files.

@_cdecl("LLVMFuzzerTestOneInput")
public func slideshowTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size <= GnomeSlideshow.maximumSize else { return 0 }
    let xml = Data(bytes: data, count: size)
    guard let show = GnomeSlideshow(xml: xml, directory: "/fuzz") else { return 0 }
    let files = Set(show.slides.flatMap { ($0.from + $0.to).map(\.file) })
    for now in [-1e12, 0, show.start, show.start + show.total / 2, 1.7e9, 1e12] {
        for (width, height) in [(1920, 1080), (1, 1), (800, 1280), (7680, 4320)] {
            if let picture = show.picture(at: now, width: width, height: height) {
                precondition(files.contains(picture), "fuzz: \(picture) is no slide's file")
            }
        }
    }
    return 0
}
