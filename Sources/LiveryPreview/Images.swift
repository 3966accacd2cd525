import CCairo
import Foundation
import LiveryCore

/// A theme's image, loaded once per picture: PNG, JPEG and WebP through gdk-pixbuf (WebP with
/// Debian's webp-pixbuf-loader) into a Cairo image surface; SVG kept as its bytes and drawn by
/// librsvg at the pixel size it fills, in a process of its own with a deadline (`SVGRenderer`).
final class LoadedImage {
    private enum Content {
        case raster(OpaquePointer)  // cairo_surface_t
        case vector([UInt8])
    }

    private let content: Content
    /// An SVG's pictures drawn so far, by pixel size: an image named by several elements of one
    /// size is drawn once.
    private var drawn: [PixelSize: OpaquePointer] = [:]

    private struct PixelSize: Hashable {
        var width: Int32
        var height: Int32
    }

    /// The largest raster image read, in pixels per side: what a bundle's button background
    /// needs many times over, and a bound on the memory one image may take (64 MiB decoded).
    static let maximumSide: Int32 = 4096

    /// The largest SVG file read, in bytes.
    static let maximumSVGBytes = 4 << 20

    /// Loads the image at `path`.
    /// - Throws: `PreviewError.image` naming the file and what is wrong: unreadable, not an image
    ///   gdk-pixbuf can decode, larger than `maximumSide` per side, or an SVG file over
    ///   `maximumSVGBytes` (librsvg reads an SVG when it is drawn).
    init(path: String) throws(PreviewError) {
        // Read once, bounded as the theme compiler bounds it, and told apart by its first bytes
        // as the compiler checked it (`BundleFiles.imageKind`).
        let data: Data
        switch BundleFiles.contents(of: path, limit: BundleFiles.maximumImageSize) {
        case .failure(let refusal): throw .image(path, refusal.message)
        case .success(let d): data = d
        }
        switch BundleFiles.imageKind([UInt8](data.prefix(4096))) {
        case "svg":
            guard data.count <= Self.maximumSVGBytes else {
                throw .image(path, "the SVG file is larger than \(Self.maximumSVGBytes >> 20) MiB")
            }
            content = .vector([UInt8](data))
        case let kind?: content = .raster(try Self.loadRaster(data, kind: kind, path: path))
        case nil: throw .image(path, "not a PNG, JPEG, WebP or SVG image")
        }
    }

    deinit {
        if case .raster(let surface) = content { cairo_surface_destroy(surface) }
        for (_, surface) in drawn { cairo_surface_destroy(surface) }
    }

    /// Draws the image stretched to fill `rect` (user space of `cr`), as `background-image` is
    /// drawn (schema: "stretched to fill").
    /// - Returns: Why the image could not be drawn (librsvg's error, its deadline passed), or nil
    ///   when it was.
    func draw(_ cr: OpaquePointer, in rect: SampleScreen.Frame) -> String? {
        switch content {
        case .raster(let surface):
            paint(surface, on: cr, in: rect)
            return nil
        case .vector(let svg):
            // Rendered at the pixel size it fills, into a surface of its own.
            var w = rect.width
            var h = rect.height
            cairo_user_to_device_distance(cr, &w, &h)
            let size = PixelSize(
                width: Int32(min(max(abs(w).rounded(.up), 1), Double(SVGRenderer.maximumSide))),
                height: Int32(min(max(abs(h).rounded(.up), 1), Double(SVGRenderer.maximumSide))))
            if drawn[size] == nil {
                switch SVGRenderer.render(svg, width: size.width, height: size.height) {
                case .failure(let failure): return failure.message
                case .success(let surface): drawn[size] = surface
                }
            }
            paint(drawn[size]!, on: cr, in: rect)
            return nil
        }
    }

    /// Paints `surface` stretched over `rect`.
    private func paint(_ surface: OpaquePointer, on cr: OpaquePointer, in rect: SampleScreen.Frame) {
        let w = Double(cairo_image_surface_get_width(surface))
        let h = Double(cairo_image_surface_get_height(surface))
        guard w > 0, h > 0 else { return }
        cairo_save(cr)
        cairo_rectangle(cr, rect.x, rect.y, rect.width, rect.height)
        cairo_clip(cr)
        cairo_translate(cr, rect.x, rect.y)
        cairo_scale(cr, rect.width / w, rect.height / h)
        cairo_set_source_surface(cr, surface, 0, 0)
        // Pad, so that the edges are not blended with transparent black when stretched.
        cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_PAD)
        cairo_paint(cr)
        cairo_restore(cr)
    }

    private static func message(_ error: UnsafeMutablePointer<GError>?) -> String {
        guard let error else { return "unknown error" }
        defer { g_error_free(error) }
        // One line: librsvg's messages may end in a newline.
        let text = error.pointee.message.map { String(cString: $0) } ?? "unknown error"
        return text.split(whereSeparator: \.isNewline).joined(separator: " ").trimmingCharacters(
            in: .whitespaces)
    }

    /// Decodes a PNG, JPEG or WebP file with the gdk-pixbuf loader of its kind (`kind` as
    /// `BundleFiles.imageKind` names it). The loader is chosen by name, not by gdk-pixbuf's MIME
    /// sniffing, which needs shared-mime-info on `XDG_DATA_DIRS`, a variable Livery's users set
    /// for their themes. Images larger than `maximumSide` are refused from their header
    /// (`ImageHeader`) before the loader sees them, and so are files cut short.
    private static func loadRaster(_ data: Data, kind: String, path: String) throws(PreviewError)
        -> OpaquePointer
    {
        let (header, whole) = data.withUnsafeBytes { bytes in
            (ImageHeader.size(bytes, kind: kind), ImageHeader.isWhole(bytes, kind: kind))
        }
        if let (w, h) = header, w > maximumSide || h > maximumSide || w < 1 || h < 1 {
            throw .image(path, "the image is \(w)×\(h) pixels; at most \(maximumSide) per side is drawn")
        }
        guard whole else { throw .image(path, "cannot decode the \(kind) image: truncated") }
        var error: UnsafeMutablePointer<GError>?
        guard let loader = gdk_pixbuf_loader_new_with_type(kind, &error) else {
            let hint = kind == "webp" ? " (Debian's webp-pixbuf-loader reads WebP)" : ""
            throw .image(path, "no gdk-pixbuf loader for \(kind) images\(hint): " + message(error))
        }
        defer { g_object_unref(UnsafeMutableRawPointer(loader)) }
        let check = SizeCheck()
        let prepared:
            @convention(c) (UnsafeMutableRawPointer?, Int32, Int32, UnsafeMutableRawPointer?) -> Void = {
                loader, width, height, context in
                let check = Unmanaged<SizeCheck>.fromOpaque(context!).takeUnretainedValue()
                check.size = (width, height)
                if width > LoadedImage.maximumSide || height > LoadedImage.maximumSide || width < 1
                    || height < 1
                {
                    // A size the header check missed: decode to one pixel instead, refused below.
                    gdk_pixbuf_loader_set_size(loader?.assumingMemoryBound(to: GdkPixbufLoader.self), 1, 1)
                }
            }
        g_signal_connect_data(
            UnsafeMutableRawPointer(loader), "size-prepared", unsafeBitCast(prepared, to: GCallback.self),
            Unmanaged.passUnretained(check).toOpaque(), nil, GConnectFlags(rawValue: 0))
        // A loader given too few bytes may close without an error, leaving rows it never decoded:
        // the rows it reports decoded (`area-updated`) tell a whole image from a truncated one.
        let updated:
            @convention(c) (UnsafeMutableRawPointer?, Int32, Int32, Int32, Int32, UnsafeMutableRawPointer?) ->
                Void = {
                    _, _, y, _, height, context in
                    let check = Unmanaged<SizeCheck>.fromOpaque(context!).takeUnretainedValue()
                    check.rowsDecoded = max(check.rowsDecoded, y + height)
                }
        g_signal_connect_data(
            UnsafeMutableRawPointer(loader), "area-updated", unsafeBitCast(updated, to: GCallback.self),
            Unmanaged.passUnretained(check).toOpaque(), nil, GConnectFlags(rawValue: 0))
        let (written, closed) = feed(loader, data, &error)
        if let (w, h) = check.size, w > maximumSide || h > maximumSide || w < 1 || h < 1 {
            if let error { g_error_free(error) }
            throw .image(path, "the image is \(w)×\(h) pixels; at most \(maximumSide) per side is drawn")
        }
        guard written, closed, let pixbuf = gdk_pixbuf_loader_get_pixbuf(loader) else {
            throw .image(path, "cannot decode the \(kind) image: " + message(error))
        }
        let height = gdk_pixbuf_get_height(pixbuf)
        guard check.rowsDecoded >= height else {
            throw .image(
                path, "cannot decode the \(kind) image: truncated (\(check.rowsDecoded) of \(height) rows)")
        }
        // The pixbuf belongs to the loader; its pixels are copied before the loader goes.
        return surface(from: pixbuf)
    }

    /// The size a loader announced, read back after decoding.
    private final class SizeCheck {
        var size: (Int32, Int32)?
        /// One past the last row decoded.
        var rowsDecoded: Int32 = 0
    }

    /// A Cairo ARGB32 surface with the pixbuf's pixels: Cairo's pixels are premultiplied native-
    /// endian 32-bit words, gdk-pixbuf's are unpremultiplied R, G, B[, A] bytes.
    private static func surface(from pixbuf: OpaquePointer) -> OpaquePointer {
        let width = gdk_pixbuf_get_width(pixbuf)
        let height = gdk_pixbuf_get_height(pixbuf)
        let channels = Int(gdk_pixbuf_get_n_channels(pixbuf))
        let hasAlpha = gdk_pixbuf_get_has_alpha(pixbuf) != 0
        let sourceStride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        let source = gdk_pixbuf_read_pixels(pixbuf)!
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height)!
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        let target = cairo_image_surface_get_data(surface)!
        for y in 0..<Int(height) {
            let row = source + y * sourceStride
            let out = UnsafeMutableRawPointer(target + y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<Int(width) {
                let p = row + x * channels
                let a = hasAlpha ? UInt32(p[3]) : 255
                func pre(_ c: UInt8) -> UInt32 { (UInt32(c) * a + 127) / 255 }
                out[x] = a << 24 | pre(p[0]) << 16 | pre(p[1]) << 8 | pre(p[2])
            }
        }
        cairo_surface_mark_dirty(surface)
        return surface
    }
}
