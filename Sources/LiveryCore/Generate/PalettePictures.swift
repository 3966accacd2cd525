import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The generated themes of palette pictures (`@theme { palette-from: url("wall.jpg") }`, the
/// README's "A skin's colours from its picture"), for the compiler: each picture decoded by the
/// program's decoder and run through `ThemeGenerator`, and kept by its file's identity (device,
/// inode, size, modification and change times), so that a picture is decoded once per version
/// however often its theme is compiled (each switch, each check of the installed themes), and
/// an edited picture is decoded again.
///
/// LiveryCore decodes no image itself (gdk-pixbuf and librsvg are LiveryPreview's): `livery`
/// gives `PicturePixels`' decoder, `liveryd` `PictureDecoder`'s (the same decoder, in a process
/// of its own), tests whatever they like.
public final class PalettePictures: Sendable {
    /// A picture's pixels: ARGB (0xAARRGGBB, straight alpha), row by row; the whole picture, or
    /// the picture already sampled to 112 × 112 (`ImageSampling.resizeExact`), which
    /// `ThemeGenerator` samples to itself.
    public struct Pixels: Sendable {
        /// The pixels, `width × height`.
        public var argb: [UInt32]
        /// Pixels per row, at least 1.
        public var width: Int
        /// Rows, at least 1.
        public var height: Int

        /// Pixels as given.
        public init(argb: [UInt32], width: Int, height: Int) {
            self.argb = argb
            self.width = width
            self.height = height
        }
    }

    /// Reads the picture at an absolute path: its pixels, or why not (one line, without the path).
    public typealias Decoder = @Sendable (_ path: String) -> Result<Pixels, BundleFiles.Refusal>

    /// The most generated themes kept; the oldest goes first.
    public static let capacity = 32

    private struct Key: Hashable {
        var path: String
        var scheme: MaterialVariant
        var contrast: Double
    }

    private struct Cached {
        var identity: [Int]
        var result: Result<GeneratedTheme, BundleFiles.Refusal>
    }

    private let decoder: Decoder
    private let cache = Mutex<(entries: [Key: Cached], order: [Key])>(([:], []))

    /// Palette pictures read with `decoder`.
    public init(decoder: @escaping Decoder) { self.decoder = decoder }

    /// The generated theme of the picture at `path` (absolute, a regular file), or why there is
    /// none; a decoding failure is kept for that version of the file too.
    /// - Parameters:
    ///   - path: the picture, confined to its bundle already (`BundleFiles.checkImage`).
    ///   - scheme: the dynamic scheme variant.
    ///   - contrast: the contrast level, within `ThemeGenerator.contrastRange`.
    public func theme(of path: String, scheme: MaterialVariant, contrast: Double)
        -> Result<GeneratedTheme, BundleFiles.Refusal>
    {
        let key = Key(path: path, scheme: scheme, contrast: contrast)
        guard let identity = Self.identity(path) else {
            return .failure(BundleFiles.Refusal(message: "cannot be read"))
        }
        if let hit = cache.withLock({ $0.entries[key] }), hit.identity == identity { return hit.result }
        let result = decoder(path).map { pixels in
            ThemeGenerator.generate(
                pixels: pixels.argb, width: pixels.width, height: pixels.height, scheme: scheme,
                contrast: contrast)
        }
        cache.withLock { cache in
            if cache.entries.updateValue(Cached(identity: identity, result: result), forKey: key) == nil {
                cache.order.append(key)
            }
            while cache.order.count > Self.capacity { cache.entries[cache.order.removeFirst()] = nil }
        }
        return result
    }

    /// The file's identity: what changes when it is replaced or written.
    static func identity(_ path: String) -> [Int]? {
        var s = stat()
        guard stat(path, &s) == 0 else { return nil }
        return [
            Int(s.st_dev), Int(s.st_ino), Int(s.st_size), Int(s.st_mtim.tv_sec), Int(s.st_mtim.tv_nsec),
            Int(s.st_ctim.tv_sec), Int(s.st_ctim.tv_nsec),
        ]
    }
}
