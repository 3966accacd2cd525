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

    /// The pixel at (`x`, `y`) as opaque 8-bit RGB (the picture is opaque: the window fills it).
    public func pixel(_ x: Int, _ y: Int) -> (red: UInt8, green: UInt8, blue: UInt8) {
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = cairo_image_surface_get_data(surface)!
        let word = UnsafeRawPointer(data + y * stride).load(fromByteOffset: x * 4, as: UInt32.self)
        return (
            UInt8(truncatingIfNeeded: word >> 16), UInt8(truncatingIfNeeded: word >> 8),
            UInt8(truncatingIfNeeded: word)
        )
    }

    /// The picture encoded as PNG by Cairo.
    /// - Throws: `PreviewError.cairo` with Cairo's status when encoding fails.
    public func pngData() throws(PreviewError) -> Data {
        final class Sink {
            var data = Data()
        }
        let sink = Sink()
        let write: cairo_write_func_t = { closure, bytes, length in
            let sink = Unmanaged<Sink>.fromOpaque(closure!).takeUnretainedValue()
            if let bytes { sink.data.append(bytes, count: Int(length)) }
            return CAIRO_STATUS_SUCCESS
        }
        let status = cairo_surface_write_to_png_stream(
            surface, write, Unmanaged.passUnretained(sink).toOpaque())
        guard status == CAIRO_STATUS_SUCCESS else {
            throw .cairo(String(cString: cairo_status_to_string(status)))
        }
        return sink.data
    }

    /// Writes the picture as a PNG at `path`, whole or not at all: to a temporary file in the same
    /// directory, then renamed over `path`.
    /// - Throws: `PreviewError.write` with the path and the system's reason, `PreviewError.cairo`
    ///   when encoding fails.
    public func writePNG(to path: String) throws(PreviewError) {
        let data = try pngData()
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(
                ".\(url.lastPathComponent).\(getpid()).\(UInt64.random(in: 0...UInt64.max)).tmp")
        do { try data.write(to: temporary) } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw .write(path, (error as NSError).localizedFailureReason ?? error.localizedDescription)
        }
        guard rename(temporary.path, path) == 0 else {
            let why = String(cString: strerror(errno))
            unlink(temporary.path)
            throw .write(path, why)
        }
    }
}

/// Draws `SampleScreen` with a theme's values through Cairo: what `livery preview` writes and
/// `livery gallery` shows. The drawing follows the roles' documentation in `SampleScreen`.
public enum Preview {
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
