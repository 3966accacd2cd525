import CCairo
import Foundation
import LiveryCore

/// SVG images drawn by librsvg in a process of their own, `livery-svg`, which is killed when it
/// has not finished within `deadline`: librsvg cannot be stopped in the middle of a render, and
/// what a file costs to draw is not bounded by its size (`<feTurbulence numOctaves="100000">`
/// in 150 bytes takes minutes). A crash in librsvg ends that process, not the caller.
///
/// The protocol (its other end is `livery-svg`'s `main.swift`, which loads no Foundation so
/// that it starts fast): `livery-svg WIDTH HEIGHT` reads the SVG file on standard input (at most
/// `LoadedImage.maximumSVGBytes`, as loaded here), draws it stretched over WIDTH × HEIGHT pixels
/// (each 1 to 8,192), writes on standard output exactly HEIGHT rows of WIDTH Cairo `ARGB32`
/// pixels (32-bit words, native-endian, premultiplied alpha) and exits 0; otherwise it writes
/// librsvg's message on standard error and exits 1. It limits its own processor time to 10 s,
/// so that one whose caller is gone stops by itself.
public enum SVGRenderer {
    /// Seconds one image may take, from the renderer's start to its last pixel.
    public static let deadline: Double = 1

    /// Why an image was not drawn, said as a warning's reason.
    struct Failure: Error {
        var message: String
        init(_ message: String) { self.message = message }
    }

    static let deadlineText = deadline == deadline.rounded() ? "\(Int(deadline)) s" : "\(deadline) s"

    /// The largest side drawn, in pixels (`livery-svg` refuses more).
    static let maximumSide: Int32 = 8192

    /// The renderer: `livery-svg` in the directory of the running executable (`livery`, or the
    /// test bundle), where `swift build` and `make install` put it.
    static let executable: String = {
        let path = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
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
}
