import CCairo
import Foundation
import LiveryCore

/// SVG images drawn by librsvg in a process of their own, `livery-svg`, which is killed when it
/// has not finished within `deadline`: librsvg cannot be stopped in the middle of a render, and
/// what a file costs to draw is not bounded by its size (`<feTurbulence numOctaves="100000">`
/// in 150 bytes takes minutes). A crash in librsvg ends that process, not the caller.
///
/// Both ends of the protocol are here. `livery-svg WIDTH HEIGHT` reads the SVG file on standard
/// input (at most `LoadedImage.maximumSVGBytes`), draws it stretched over WIDTH × HEIGHT pixels
/// (each 1 to 8,192), and writes on standard output exactly HEIGHT rows of WIDTH Cairo `ARGB32`
/// pixels (32-bit words, native-endian, premultiplied alpha) and exits 0; otherwise it writes
/// librsvg's message on standard error and exits 1.
public enum SVGRenderer {
    /// Seconds one image may take, from the renderer's start to its last pixel.
    public static let deadline: Double = 1

    /// Why an image was not drawn, said as a warning's reason.
    struct Failure: Error {
        var message: String
        init(_ message: String) { self.message = message }
    }

    static let deadlineText = deadline == deadline.rounded() ? "\(Int(deadline)) s" : "\(deadline) s"

    /// Seconds of processor time after which a renderer stops by itself.
    static let orphanSeconds: rlim_t = 10

    /// The largest side drawn, in pixels.
    static let maximumSide: Int32 = 8192

    /// The renderer: `livery-svg` in the directory of the running executable (`livery`, or the
    /// test bundle), where `swift build` and `make install` put it.
    static let executable: String = {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let path = n > 0 ? String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        return (path as NSString).deletingLastPathComponent + "/livery-svg"
    }()

    /// Draws `svg` stretched over `width` × `height` pixels in the renderer's process.
    /// - Returns: A new Cairo image surface (the caller destroys it), or why there is none:
    ///   librsvg's error, the deadline passed, the renderer crashed or could not be started.
    static func render(_ svg: [UInt8], width: Int32, height: Int32) -> Result<OpaquePointer, Failure> {
        let size = Int(width) * Int(height) * 4
        let outcome = ProcessRunner.run(
            [executable, String(width), String(height)], environment: ProcessInfo.processInfo.environment,
            directory: "/", input: svg, timeout: deadline, outputLimit: size, separateErrors: true)
        switch outcome.end {
        case .exited(0) where outcome.total == size:
            guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height) else {
                return .failure(Failure("no surface"))
            }
            cairo_surface_flush(surface)
            let stride = Int(cairo_image_surface_get_stride(surface))
            let target = cairo_image_surface_get_data(surface)!
            outcome.output.withUnsafeBytes { pixels in
                for y in 0..<Int(height) {
                    let row = UnsafeRawBufferPointer(
                        rebasing: pixels[y * Int(width) * 4..<(y + 1) * Int(width) * 4])
                    UnsafeMutableRawPointer(target + y * stride).copyMemory(
                        from: row.baseAddress!, byteCount: row.count)
                }
            }
            cairo_surface_mark_dirty(surface)
            return .success(surface)
        case .exited(0):
            return .failure(Failure("\(executable) wrote \(outcome.total) bytes of pixels, not \(size)"))
        case .exited:
            let message = String(decoding: outcome.errors, as: UTF8.self)
                .split(whereSeparator: \.isNewline).joined(separator: " ").trimmingCharacters(
                    in: .whitespaces)
            return .failure(Failure(message.isEmpty ? "librsvg cannot draw the SVG image" : message))
        case .timedOut:
            return .failure(
                Failure(
                    "librsvg did not finish drawing the SVG image within \(deadlineText) and was stopped"))
        case .signalled(let signal):
            return .failure(
                Failure("librsvg crashed drawing the SVG image (\(ProcessRunner.signalName(signal)))"))
        case .notStarted(let why):
            return .failure(Failure("cannot start \(executable) to draw the SVG image: \(why)"))
        }
    }

    /// `livery-svg`'s program: the renderer's end of the protocol above.
    /// - Parameter arguments: The command line, the program's name first.
    /// - Returns: The exit status.
    public static func serve(arguments: [String]) -> Int32 {
        func fail(_ message: String) -> Int32 {
            FileHandle.standardError.write(Data((message + "\n").utf8))
            return 1
        }
        guard arguments.count == 3, let width = Int32(arguments[1]), let height = Int32(arguments[2]),
            (1...maximumSide).contains(width), (1...maximumSide).contains(height)
        else {
            return fail(
                "usage: livery-svg WIDTH HEIGHT (1 to \(maximumSide) pixels each), the SVG on standard input")
        }
        // A renderer whose livery is gone (interrupted, killed) is killed by no one at the
        // deadline: it stops by itself after this much processor time.
        var cpu = rlimit(rlim_cur: orphanSeconds, rlim_max: orphanSeconds + 1)
        setrlimit(__rlimit_resource_t(RLIMIT_CPU.rawValue), &cpu)
        var svg = Data()
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while svg.count <= LoadedImage.maximumSVGBytes {
            let n = read(0, &chunk, chunk.count)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            svg.append(contentsOf: chunk[0..<n])
        }
        guard svg.count <= LoadedImage.maximumSVGBytes else {
            return fail("the SVG file is larger than \(LoadedImage.maximumSVGBytes >> 20) MiB")
        }
        let surface: OpaquePointer
        switch draw(svg, width: width, height: height) {
        case .failure(let failure): return fail(failure.message)
        case .success(let s): surface = s
        }
        defer { cairo_surface_destroy(surface) }
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        let pixels = cairo_image_surface_get_data(surface)!
        var rows = Data(capacity: Int(width) * Int(height) * 4)
        for y in 0..<Int(height) { rows.append(pixels + y * stride, count: Int(width) * 4) }
        FileHandle.standardOutput.write(rows)
        return 0
    }

    /// Draws `svg` with librsvg into a new surface of `width` × `height` pixels, scaled from its
    /// intrinsic size when it has one.
    private static func draw(_ svg: Data, width: Int32, height: Int32) -> Result<OpaquePointer, Failure> {
        var error: UnsafeMutablePointer<GError>?
        let handle = svg.withUnsafeBytes { raw in
            rsvg_handle_new_from_data(raw.bindMemory(to: UInt8.self).baseAddress, gsize(raw.count), &error)
        }
        guard let handle else {
            return .failure(Failure("not an SVG image librsvg can read: " + LoadedImage.message(error)))
        }
        defer { g_object_unref(UnsafeMutableRawPointer(handle)) }
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height) else {
            return .failure(Failure("no surface"))
        }
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
            cairo_surface_destroy(surface)
            return .failure(
                Failure(
                    "librsvg cannot draw the SVG image: "
                        + (error != nil
                            ? LoadedImage.message(error) : String(cString: cairo_status_to_string(status)))))
        }
        if let error { g_error_free(error) }
        return .success(surface)
    }
}
