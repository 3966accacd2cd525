import CCairo
import Foundation

/// Writes all of `data` to `loader` and closes it (gdk-pixbuf's incremental loader, which
/// `LoadedImage` and `PicturePixels` both decode through); `error` is the first error either
/// step reported (the other one freed). Returns whether the write and the close succeeded.
func feed(
    _ loader: UnsafeMutablePointer<GdkPixbufLoader>, _ data: Data,
    _ error: inout UnsafeMutablePointer<GError>?
) -> (written: Bool, closed: Bool) {
    let written = data.withUnsafeBytes { raw in
        gdk_pixbuf_loader_write(loader, raw.bindMemory(to: UInt8.self).baseAddress, gsize(raw.count), &error)
    }
    var closeError: UnsafeMutablePointer<GError>?
    let closed = gdk_pixbuf_loader_close(loader, &closeError)
    if error == nil { error = closeError } else if let closeError { g_error_free(closeError) }
    return (written != 0, closed != 0)
}
