import CCairo
import Foundation
import LiveryCore

/// What can go wrong drawing or writing a preview.
public enum PreviewError: Error, Sendable, CustomStringConvertible {
    /// An image of the theme could not be drawn: its path and why.
    case image(String, String)
    /// The size asked for is out of range: the text given and why.
    case size(String, String)
    /// Cairo failed: its status text.
    case cairo(String)
    /// The picture could not be written: the path and why.
    case write(String, String)

    public var description: String {
        switch self {
        case .image(let path, let why): "\(path): warning: \(why); drawn without it"
        case .size(let text, let why): "livery: bad size '\(text)': \(why)"
        case .cairo(let why): "livery: cairo: \(why)"
        case .write(let path, let why): "\(path): error: cannot write the picture: \(why)"
        }
    }
}

/// The size of a picture in pixels.
public struct PreviewSize: Sendable, Equatable {
    public var width: Int
    public var height: Int

    /// The canvas at one pixel per point (`SampleScreen.width` × `SampleScreen.height`).
    public static let standard = PreviewSize(width: Int(SampleScreen.width), height: Int(SampleScreen.height))

    /// The largest side drawn, in pixels; a picture also has at most `maximumPixels` pixels.
    public static let maximumSide = 8192
    /// The most pixels in a picture (128 MiB of ARGB32).
    public static let maximumPixels = 32 << 20

    public init(width: Int, height: Int) { (self.width, self.height) = (width, height) }

    /// Parses `WxH` (`720x1280`; `×` accepted too).
    /// - Throws: `PreviewError.size` for text that is not two positive integers or a size out of range.
    public init(parsing text: String) throws(PreviewError) {
        let parts = text.lowercased().split(
            omittingEmptySubsequences: false, whereSeparator: { $0 == "x" || $0 == "×" })
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]) else {
            throw .size(text, "expected WIDTHxHEIGHT in pixels, e.g. 720x1280")
        }
        guard w >= 1, h >= 1, w <= Self.maximumSide, h <= Self.maximumSide, w * h <= Self.maximumPixels else {
            let most = Self.maximumPixels / (1 << 20)
            throw .size(
                text, "each side is 1 to \(Self.maximumSide) pixels, at most \(most) Mi pixels in all")
        }
        (width, height) = (w, h)
    }
}

/// A drawn sample screen: an ARGB32 image in memory.
public final class Picture: @unchecked Sendable {
    // The surface is owned here and touched by one thread at a time (the one holding the picture).
    private let surface: OpaquePointer

    public let width: Int
    public let height: Int
    /// Images that could not be drawn (`PreviewError.image`), each said once.
    public let warnings: [PreviewError]

    init(surface: OpaquePointer, warnings: [PreviewError]) {
        self.surface = surface
        width = Int(cairo_image_surface_get_width(surface))
        height = Int(cairo_image_surface_get_height(surface))
        self.warnings = warnings
    }

    deinit { cairo_surface_destroy(surface) }

    /// The picture encoded as PNG: 8-bit RGB when every pixel is opaque (the window's colour
    /// fills the picture, so unless that colour is translucent), else RGBA, written by libpng's
    /// simplified API with `PNG_IMAGE_FLAG_FAST` (no row filters, light zlib compression). Cairo's
    /// own writer compresses harder and so spent most of a gallery's time in zlib (bench/README.md,
    /// "Pictures").
    /// - Throws: `PreviewError.cairo` with libpng's message when encoding fails.
    public func pngData() throws(PreviewError) -> Data {
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        let source = UnsafeRawPointer(cairo_image_surface_get_data(surface)!)
        var opaque = true
        for y in 0..<height where opaque {
            let row = (source + y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width where row[x] >> 24 != 0xff {
                opaque = false
                break
            }
        }
        // Cairo's pixels are premultiplied native-endian ARGB words; PNG's are straight R, G, B[, A].
        let channels = opaque ? 3 : 4
        var pixels = [UInt8](repeating: 0, count: width * height * channels)
        pixels.withUnsafeMutableBufferPointer { buffer in
            var out = buffer.baseAddress!
            for y in 0..<height {
                let row = (source + y * stride).assumingMemoryBound(to: UInt32.self)
                if opaque {
                    for x in 0..<width {
                        let word = row[x]
                        out[0] = UInt8(truncatingIfNeeded: word >> 16)
                        out[1] = UInt8(truncatingIfNeeded: word >> 8)
                        out[2] = UInt8(truncatingIfNeeded: word)
                        out += 3
                    }
                    continue
                }
                for x in 0..<width {
                    let word = row[x]
                    let a = word >> 24
                    for (k, shift) in [16, 8, 0].enumerated() {
                        let c = word >> UInt32(shift) & 0xff
                        out[k] = a == 0 ? 0 : UInt8(min(255, (c * 255 + a / 2) / a))
                    }
                    out[3] = UInt8(a)
                    out += 4
                }
            }
        }
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(width)
        image.height = UInt32(height)
        image.format = UInt32(opaque ? PNG_FORMAT_RGB : PNG_FORMAT_RGB | PNG_FORMAT_FLAG_ALPHA)
        image.flags = UInt32(PNG_IMAGE_FLAG_FAST)
        // Room for the pixels stored, which compressed PNG data of these pictures never exceeds;
        // libpng says how much it needs when it does, and the write is made again.
        var capacity = pixels.count + height + (64 << 10)
        for _ in 0..<2 {
            var data = Data(count: capacity)
            var size = png_alloc_size_t(capacity)
            let ok = data.withUnsafeMutableBytes { memory in
                pixels.withUnsafeBytes { buffer in
                    png_image_write_to_memory(
                        &image, memory.baseAddress, &size, 0, buffer.baseAddress, 0, nil)
                }
            }
            if ok != 0 {
                data.count = Int(size)
                return data
            }
            guard size > capacity else { break }
            capacity = Int(size)
            png_image_free(&image)
        }
        let message = withUnsafeBytes(of: image.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        png_image_free(&image)
        throw .cairo("libpng: " + (message.isEmpty ? "cannot encode the picture" : message))
    }

    /// Writes the picture as a PNG at `path`, a path the user named, whole or not at all and only
    /// as a file (`OutputFile.write`: a link written through, a device, pipe or directory refused).
    /// - Throws: `PreviewError.write` with the path and why, `PreviewError.cairo` when encoding fails.
    public func writePNG(to path: String) throws(PreviewError) {
        let data = try pngData()
        do {
            _ = try OutputFile.write(Array(data), to: path, makingDirectories: false)
        } catch {
            throw .write(path, error.description)
        }
    }

    /// Writes the picture as a PNG named `name` beneath `root` (a gallery's directory), whole or
    /// not at all, never through a link (`OutputRoot.write`). Not fsynced: a gallery writes
    /// hundreds, and the rename alone keeps a crash from leaving half a file.
    /// - Throws: `PreviewError.write` with the path and why, `PreviewError.cairo` when encoding fails.
    public func writePNG(into root: OutputRoot, as name: String) throws(PreviewError) {
        let data = try pngData()
        do {
            try root.write(Array(data), to: name)
        } catch {
            throw .write(root.path + "/" + name, error.description)
        }
    }
}

/// Draws `SampleScreen` with a theme's values through Cairo: what `livery preview` writes and
/// `livery gallery` shows. The drawing follows the roles' documentation in `SampleScreen`.
public enum Preview {
    /// Draws the screen with `theme`'s values: its paths resolved (`SampleScreen.resolve`), then
    /// drawn as `draw(_:size:)` draws them.
    /// - Throws: `Cascade.Failure` when the theme's schema lacks a type or property of the
    ///   screen; `PreviewError.cairo` as `draw(_:size:)`.
    public static func draw(_ theme: CompiledTheme, app: String? = nil, size: PreviewSize = .standard) throws
        -> Picture
    {
        try draw(SampleScreen.resolve(Cascade(theme: theme), app: app), size: size)
    }

    /// Draws the screen.
    /// - Parameters:
    ///   - styles: The values of each path of `SampleScreen.paths` (`SampleScreen.resolve`); a
    ///     missing path or value is drawn with the fallbacks below (white window, black text).
    ///   - size: The picture's size; the canvas is scaled uniformly to fit and centred on the
    ///     window's background colour.
    /// - Returns: The picture, with a warning for each image that could not be drawn.
    /// - Throws: `PreviewError.cairo` when Cairo cannot make the surface (out of memory).
    public static func draw(_ styles: [String: SampleStyle], size: PreviewSize = .standard)
        throws(PreviewError)
        -> Picture
    {
        guard
            let surface = cairo_image_surface_create(
                CAIRO_FORMAT_ARGB32, Int32(size.width), Int32(size.height))
        else { throw .cairo("no surface") }
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            throw .cairo(String(cString: cairo_status_to_string(status)))
        }
        let cr = cairo_create(surface)!
        defer { cairo_destroy(cr) }
        var painter = Painter(cr: cr, styles: styles)
        let window = styles["Window"] ?? SampleStyle()
        painter.fill(
            SampleScreen.Frame(x: 0, y: 0, width: Double(size.width), height: Double(size.height)),
            window.color("background-color") ?? .white)
        let scale = min(Double(size.width) / SampleScreen.width, Double(size.height) / SampleScreen.height)
        cairo_translate(
            cr, ((Double(size.width) - SampleScreen.width * scale) / 2).rounded(),
            ((Double(size.height) - SampleScreen.height * scale) / 2).rounded())
        cairo_scale(cr, scale, scale)
        var rows = 0
        for element in SampleScreen.elements {
            painter.draw(element, rowIndex: element.role == .tableRow ? rows : 0)
            if element.role == .tableRow { rows += 1 }
        }
        return Picture(surface: surface, warnings: painter.warnings)
    }
}

extension RGBA {
    static let white = RGBA(red: 1, green: 1, blue: 1)
    static let black = RGBA(red: 0, green: 0, blue: 0)
    static let gray = RGBA(red: 0.5, green: 0.5, blue: 0.5)

    func withAlpha(_ a: Double) -> RGBA { RGBA(red: red, green: green, blue: blue, alpha: alpha * a) }
}
