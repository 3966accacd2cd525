import CCairo
import Foundation
import LiveryCore

/// A picture's pixels for `ThemeGenerator`, read through the loaders previews use: PNG, JPEG and
/// WebP through gdk-pixbuf's loader of the kind the first bytes say, SVG through librsvg in
/// `livery-svg` (a process of its own, killed after `SVGRenderer.deadline`).
///
/// Only what the generator needs is decoded: its sampling (`ImageSampling`) turns any image into
/// 112 × 112 pixels. A JPEG is decoded by libjpeg at a reduced scale (1/2, 1/4 or 1/8, as
/// gdk-pixbuf's JPEG loader offers when asked for a smaller size in `size-prepared`): the
/// smallest that leaves at least ``reducedSide`` pixels on each side, asked for exactly, so
/// that gdk-pixbuf has nothing left to rescale. An SVG is drawn stretched over exactly
/// 112 × 112. Other images are decoded whole.
public struct PicturePixels: Sendable {
    /// ARGB pixels (0xAARRGGBB, straight alpha), row by row.
    public var argb: [UInt32]
    /// Pixels per row.
    public var width: Int
    /// Rows.
    public var height: Int
    /// The image's own width, as its header says (an SVG's: the width it was drawn at).
    public var imageWidth: Int
    /// The image's own height, likewise.
    public var imageHeight: Int
    /// What the file is, by its first bytes: `png`, `jpeg`, `webp` or `svg`.
    public var kind: String

    /// Why a picture could not be read: its path and what is wrong.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// The picture's path, as given.
        public var path: String
        /// What is wrong, one line.
        public var reason: String
        /// `PATH: error: REASON`.
        public var description: String { "\(path): error: \(reason)" }
    }

    /// The largest picture file read, in bytes.
    public static let maximumFileSize = 256 << 20
    /// The most pixels decoded (after a JPEG's reduction): 64 Mi, 256 MiB of pixels.
    public static let maximumPixels = 64 << 20
    /// The largest side of a picture, in pixels, as its header says.
    public static let maximumSide = 65_535
    /// The least side a JPEG is reduced to: twice the sampled side, so that the triangle filter
    /// still averages several decoded pixels for each sample.
    public static let reducedSide = 2 * ImageSampling.side

    /// Reads the picture at `path`.
    /// - Parameter path: a PNG, JPEG, WebP or SVG file (told apart by its content).
    /// - Throws: `Failure`: the file missing or unreadable (the system's reason), too large, not
    ///   an image of those kinds, not decodable, truncated, larger than ``maximumSide`` or
    ///   ``maximumPixels``, or an SVG librsvg fails on or does not finish within the deadline.
    public init(path: String) throws(Failure) {
        let data: Data
        switch BundleFiles.contents(of: path, limit: Self.maximumFileSize) {
        case .failure(let refusal): throw Failure(path: path, reason: refusal.message)
        case .success(let d): data = d
        }
        switch BundleFiles.imageKind([UInt8](data.prefix(4096))) {
        case "svg":
            guard data.count <= LoadedImage.maximumSVGBytes else {
                throw Failure(
                    path: path, reason: "the SVG file is larger than \(LoadedImage.maximumSVGBytes >> 20) MiB"
                )
            }
            let side = Int32(ImageSampling.side)
            switch SVGRenderer.render([UInt8](data), width: side, height: side) {
            case .failure(let failure): throw Failure(path: path, reason: failure.message)
            case .success(let surface):
                defer { cairo_surface_destroy(surface) }
                self = Self.pixels(of: surface)
                kind = "svg"
            }
        case let kind?: self = try Self.decode(data, kind: kind, path: path)
        case nil: throw Failure(path: path, reason: "not a PNG, JPEG, WebP or SVG image")
        }
    }

    private init(argb: [UInt32], width: Int, height: Int, imageWidth: Int, imageHeight: Int, kind: String) {
        self.kind = kind
        self.argb = argb
        self.width = width
        self.height = height
        self.imageWidth = imageWidth
        self.imageHeight = imageHeight
    }

    /// The straight-alpha pixels of a Cairo ARGB32 surface (premultiplied, native-endian words).
    private static func pixels(of surface: OpaquePointer) -> PicturePixels {
        cairo_surface_flush(surface)
        let width = Int(cairo_image_surface_get_width(surface))
        let height = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = cairo_image_surface_get_data(surface)!
        var out = [UInt32](repeating: 0, count: width * height)
        for y in 0..<height {
            let row = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width {
                let p = row[x]
                let a = p >> 24
                func straight(_ c: UInt32) -> UInt32 { a == 0 ? 0 : min((c * 255 + a / 2) / a, 255) }
                out[y * width + x] =
                    a << 24 | straight(p >> 16 & 255) << 16 | straight(p >> 8 & 255) << 8
                    | straight(p & 255)
            }
        }
        return PicturePixels(
            argb: out, width: width, height: height, imageWidth: width, imageHeight: height, kind: "svg")
    }

    /// What `size-prepared` saw and asked for.
    private final class Sizes {
        var kind: String
        var image: (Int32, Int32)?
        var refused = false
        var rowsDecoded: Int32 = 0
        init(kind: String) { self.kind = kind }
    }

    /// The reduced size a JPEG of `width` × `height` is asked for, or nil to decode it whole:
    /// `ceil(side / d)` for the largest `d` of 2, 4, 8 leaving both sides at least
    /// ``reducedSide``, what libjpeg's scaled decoding gives for `1/d`.
    static func reducedJPEGSize(width: Int32, height: Int32) -> (Int32, Int32)? {
        for d: Int32 in [8, 4, 2] {
            let w = (width + d - 1) / d
            let h = (height + d - 1) / d
            if w >= Int32(reducedSide) && h >= Int32(reducedSide) { return (w, h) }
        }
        return nil
    }

    /// Whether an image of `width` × `height` (decoded at `decoded`) is refused.
    static func refuses(width: Int32, height: Int32, decoded: (Int32, Int32)) -> Bool {
        width < 1 || height < 1 || width > maximumSide || height > maximumSide
            || Int(decoded.0) * Int(decoded.1) > maximumPixels
    }

    /// The size an image of `width` × `height` and `kind` is decoded at.
    static func decodedSize(width: Int32, height: Int32, kind: String) -> (Int32, Int32) {
        kind == "jpeg" ? reducedJPEGSize(width: width, height: height) ?? (width, height) : (width, height)
    }

    private static func sizeRefusal(_ width: some BinaryInteger, _ height: some BinaryInteger) -> String {
        "the image is \(width)×\(height) pixels; at most \(maximumSide) per side and \(maximumPixels >> 20) Mi pixels decoded"
    }

    private static func decode(_ data: Data, kind: String, path: String) throws(Failure) -> PicturePixels {
        // The header's size and the file's wholeness are checked before the loader sees a byte:
        // the loader allocates and decodes an image of any size, and completes a JPEG cut short.
        let (header, whole) = data.withUnsafeBytes { bytes in
            (ImageHeader.size(bytes, kind: kind), ImageHeader.isWhole(bytes, kind: kind))
        }
        if let (w, h) = header {
            let width = Int32(clamping: w)
            let height = Int32(clamping: h)
            if refuses(
                width: width, height: height, decoded: decodedSize(width: width, height: height, kind: kind))
            {
                throw Failure(path: path, reason: sizeRefusal(w, h))
            }
        }
        guard whole else { throw Failure(path: path, reason: "cannot decode the \(kind) image: truncated") }
        var error: UnsafeMutablePointer<GError>?
        guard let loader = gdk_pixbuf_loader_new_with_type(kind, &error) else {
            let hint = kind == "webp" ? " (Debian's webp-pixbuf-loader reads WebP)" : ""
            throw Failure(
                path: path, reason: "no gdk-pixbuf loader for \(kind) images\(hint): " + message(error))
        }
        defer { g_object_unref(UnsafeMutableRawPointer(loader)) }
        let sizes = Sizes(kind: kind)
        let prepared:
            @convention(c) (UnsafeMutableRawPointer?, Int32, Int32, UnsafeMutableRawPointer?) -> Void = {
                loader, width, height, context in
                let sizes = Unmanaged<Sizes>.fromOpaque(context!).takeUnretainedValue()
                sizes.image = (width, height)
                let target = loader?.assumingMemoryBound(to: GdkPixbufLoader.self)
                let decoded = PicturePixels.decodedSize(width: width, height: height, kind: sizes.kind)
                if PicturePixels.refuses(width: width, height: height, decoded: decoded) {
                    sizes.refused = true
                    gdk_pixbuf_loader_set_size(target, 1, 1)  // a size the header check missed: refused below
                } else if decoded != (width, height) {
                    gdk_pixbuf_loader_set_size(target, decoded.0, decoded.1)
                }
            }
        g_signal_connect_data(
            UnsafeMutableRawPointer(loader), "size-prepared", unsafeBitCast(prepared, to: GCallback.self),
            Unmanaged.passUnretained(sizes).toOpaque(), nil, GConnectFlags(rawValue: 0))
        let updated:
            @convention(c) (UnsafeMutableRawPointer?, Int32, Int32, Int32, Int32, UnsafeMutableRawPointer?) ->
                Void = {
                    _, _, y, _, height, context in
                    let sizes = Unmanaged<Sizes>.fromOpaque(context!).takeUnretainedValue()
                    sizes.rowsDecoded = max(sizes.rowsDecoded, y + height)
                }
        g_signal_connect_data(
            UnsafeMutableRawPointer(loader), "area-updated", unsafeBitCast(updated, to: GCallback.self),
            Unmanaged.passUnretained(sizes).toOpaque(), nil, GConnectFlags(rawValue: 0))
        let (written, closed) = feed(loader, data, &error)
        if sizes.refused, let (w, h) = sizes.image {
            if let error { g_error_free(error) }
            throw Failure(path: path, reason: sizeRefusal(w, h))
        }
        guard written, closed, let pixbuf = gdk_pixbuf_loader_get_pixbuf(loader) else {
            throw Failure(path: path, reason: "cannot decode the \(kind) image: " + message(error))
        }
        if let error { g_error_free(error) }
        let width = Int(gdk_pixbuf_get_width(pixbuf))
        let height = Int(gdk_pixbuf_get_height(pixbuf))
        guard sizes.rowsDecoded >= Int32(height) else {
            throw Failure(
                path: path,
                reason: "cannot decode the \(kind) image: truncated (\(sizes.rowsDecoded) of \(height) rows)")
        }
        let out = argb(of: pixbuf, width: width, height: height)
        let (imageWidth, imageHeight) = sizes.image.map { (Int($0.0), Int($0.1)) } ?? (width, height)
        return PicturePixels(
            argb: out, width: width, height: height, imageWidth: imageWidth, imageHeight: imageHeight,
            kind: kind)
    }

    /// The pixbuf's pixels as ARGB words, row by row (opaque when it has no alpha channel).
    private static func argb(of pixbuf: OpaquePointer, width: Int, height: Int) -> [UInt32] {
        let channels = Int(gdk_pixbuf_get_n_channels(pixbuf))
        let hasAlpha = gdk_pixbuf_get_has_alpha(pixbuf) != 0
        let stride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        let source = gdk_pixbuf_read_pixels(pixbuf)!
        var out = [UInt32](repeating: 0, count: width * height)
        out.withUnsafeMutableBufferPointer { target in
            for y in 0..<height {
                let row = source + y * stride
                for x in 0..<width {
                    let p = row + x * channels
                    let a: UInt32 = hasAlpha ? UInt32(p[3]) : 255
                    target[y * width + x] = a << 24 | UInt32(p[0]) << 16 | UInt32(p[1]) << 8 | UInt32(p[2])
                }
            }
        }
        return out
    }

    private static func message(_ error: UnsafeMutablePointer<GError>?) -> String {
        guard let error else { return "unknown error" }
        defer { g_error_free(error) }
        let text = error.pointee.message.map { String(cString: $0) } ?? "unknown error"
        return text.split(whereSeparator: \.isNewline).joined(separator: " ").trimmingCharacters(
            in: .whitespaces)
    }
}

extension PicturePixels {
    /// Palette pictures (`palette-from`) read as `livery generate` reads a picture, for the
    /// compiles of `livery` (liveryd's are read by `PictureDecoder`): one cache for the process.
    public static let palettePictures = PalettePictures { path in
        do throws(Failure) {
            let pixels = try PicturePixels(path: path)
            return .success(
                PalettePictures.Pixels(argb: pixels.argb, width: pixels.width, height: pixels.height))
        } catch {
            return .failure(BundleFiles.Refusal(message: error.reason))
        }
    }
}
