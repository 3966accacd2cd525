import CCairo
import Glibc

// livery-svg WIDTH HEIGHT: draws one SVG image for livery's pictures, in a process of its own
// that livery kills at the deadline; the protocol is described, and its other end written, in
// LiveryPreview's `SVGRenderer`. Only Glibc and librsvg's stack are loaded (no Foundation), so
// that a process per image starts in a few milliseconds.

/// Writes `message` and a newline on standard error; returns the failure status.
func fail(_ message: String) -> Int32 {
    let line = Array((message + "\n").utf8)
    _ = write(2, line, line.count)
    return 1
}

/// GLib's error message on one line (librsvg's may end in a newline), the error freed.
func message(_ error: UnsafeMutablePointer<GError>?) -> String {
    guard let error else { return "unknown error" }
    defer { g_error_free(error) }
    let text = error.pointee.message.map { String(cString: $0) } ?? "unknown error"
    return text.split(whereSeparator: \.isNewline).joined(separator: " ")
}

/// Draws `svg` stretched over a new `width` × `height` surface (scaled from its intrinsic size
/// when it has one) and writes its rows on standard output.
/// - Returns: The exit status.
func render(_ svg: [UInt8], width: Int32, height: Int32) -> Int32 {
    var error: UnsafeMutablePointer<GError>?
    guard let handle = rsvg_handle_new_from_data(svg, gsize(svg.count), &error) else {
        return fail("not an SVG image librsvg can read: " + message(error))
    }
    defer { g_object_unref(UnsafeMutableRawPointer(handle)) }
    guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height) else {
        return fail("no surface")
    }
    defer { cairo_surface_destroy(surface) }
    let cr = cairo_create(surface)!
    var iw = 0.0
    var ih = 0.0
    var viewport = RsvgRectangle(x: 0, y: 0, width: Double(width), height: Double(height))
    if rsvg_handle_get_intrinsic_size_in_pixels(handle, &iw, &ih) != 0, iw > 0, ih > 0 {
        cairo_scale(cr, Double(width) / iw, Double(height) / ih)
        viewport = RsvgRectangle(x: 0, y: 0, width: iw, height: ih)
    }
    let rendered = rsvg_handle_render_document(handle, cr, &viewport, &error) != 0
    let status = cairo_status(cr)
    cairo_destroy(cr)
    // librsvg stops at its own limits (a `<use>` bomb) and leaves the context in an error.
    guard rendered, status == CAIRO_STATUS_SUCCESS else {
        return fail(
            "librsvg cannot draw the SVG image: "
                + (error != nil ? message(error) : String(cString: cairo_status_to_string(status))))
    }
    if let error { g_error_free(error) }
    cairo_surface_flush(surface)
    let stride = Int(cairo_image_surface_get_stride(surface))
    let pixels = cairo_image_surface_get_data(surface)!
    let row = Int(width) * 4
    for y in 0..<Int(height) {
        var offset = 0
        while offset < row {
            let n = write(1, pixels + y * stride + offset, row - offset)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return 1 }
            offset += n
        }
    }
    return 0
}

let arguments = CommandLine.arguments
guard arguments.count == 3, let width = Int32(arguments[1]), let height = Int32(arguments[2]),
    (1...8192).contains(width), (1...8192).contains(height)
else { exit(fail("usage: livery-svg WIDTH HEIGHT (1 to 8192 pixels each), the SVG file on standard input")) }
// A renderer whose livery is gone (interrupted, killed) is stopped by no one at the deadline: it
// stops by itself after 10 s of processor time.
var cpu = rlimit(rlim_cur: 10, rlim_max: 11)
setrlimit(__rlimit_resource_t(RLIMIT_CPU.rawValue), &cpu)
var svg: [UInt8] = []
var chunk = [UInt8](repeating: 0, count: 64 << 10)
while true {
    let n = read(0, &chunk, chunk.count)
    if n < 0 && errno == EINTR { continue }
    guard n > 0 else { break }
    svg += chunk[0..<n]
}
exit(render(svg, width: width, height: height))
