import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Palette pictures decoded in a process of their own, `livery-picture`, for the daemon: a
/// picture is a file any theme may ship, and the loaders that read it (gdk-pixbuf's, librsvg)
/// can crash on a crafted file or take as long as it likes, so the process that crashes or is
/// stopped is that one, never the one serving the bus. The decoder is stopped at ``deadline``
/// and limits itself to ``memoryLimit`` bytes of address space and ``processorLimit`` seconds
/// of processor time before it reads a byte of the picture.
///
/// The child also takes the first step of `ThemeGenerator.generate`, the 112 × 112 sampling
/// (`ImageSampling.resizeExact`), so that 49 KiB cross the pipe whatever the picture's size;
/// sampling what is already 112 × 112 changes nothing, so the generated theme is the one the
/// whole picture gives.
///
/// The protocol (its other end is `livery-picture`'s `main.swift`):
/// `livery-picture --memory-limit BYTES --processor-limit SECONDS PATH` reads the picture at
/// PATH as `livery generate` reads one (`PicturePixels`), samples it to 112 × 112 and writes on
/// standard output its width and its height (each a 32-bit little-endian unsigned integer), then
/// width × height pixels row by row, each a 32-bit little-endian ARGB word (0xAARRGGBB, straight
/// alpha), and exits 0; or writes why it cannot, one line without the path, on standard error
/// and exits 1.
public struct PictureDecoder: Sendable {
    /// Seconds one picture may take, from the decoder's start to its last pixel.
    public static let deadline: Double = 10
    /// The decoder's address space (`RLIMIT_AS`), in bytes: 1 GiB, room for the largest picture
    /// decoded (`PicturePixels.maximumPixels`: 256 MiB of loader pixels and as much again of ARGB
    /// words) and the libraries it loads, and the most a picture can take of the machine.
    public static let memoryLimit = 1 << 30
    /// The decoder's processor time (`RLIMIT_CPU`), in seconds: one whose caller is gone, so
    /// that no one stops it at the deadline, stops by itself.
    public static let processorLimit = 10

    /// The decoder program.
    public var executable: String
    /// Seconds before it is stopped (SIGTERM to its process group, SIGKILL two seconds later).
    public var deadline: Double
    /// Bytes of address space it may use.
    public var memoryLimit: Int

    /// The decoder of this installation: `livery-picture` in the directory of the running
    /// executable, where `swift build` and `make install` put it beside `liveryd`.
    public static let besideThisProgram: String = {
        let path = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        return (path as NSString).deletingLastPathComponent + "/livery-picture"
    }()

    /// The palette pictures of a daemon: read through ``besideThisProgram`` with the limits
    /// above, one cache for the process.
    public static let palettePictures = PalettePictures(decoder: PictureDecoder().decode)

    /// A decoder run as `executable` with these limits.
    /// - Parameters:
    ///   - executable: the program speaking the protocol above.
    ///   - deadline: seconds, more than 0.
    ///   - memoryLimit: bytes of address space the program is told to limit itself to.
    public init(
        executable: String = PictureDecoder.besideThisProgram, deadline: Double = PictureDecoder.deadline,
        memoryLimit: Int = PictureDecoder.memoryLimit
    ) {
        self.executable = executable
        self.deadline = deadline
        self.memoryLimit = memoryLimit
    }

    /// The sampled pixels of the picture at `path`, from the decoder's process.
    /// - Parameter path: the picture, an absolute path.
    /// - Returns: 112 × 112 pixels, or why there are none, one line without the path: the
    ///   decoder's own reason (the file unreadable, not an image, truncated, too large), or that
    ///   it did not finish within the deadline, crashed (the signal named), or did not start.
    public func decode(_ path: String) -> Result<PalettePictures.Pixels, BundleFiles.Refusal> {
        // The loaders are found as this process finds them (GDK_PIXBUF_MODULE_FILE …). A crash
        // ends the decoder at once, with no backtrace drawn by the Swift runtime, which takes
        // seconds and would be cut short by the deadline.
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        let outcome = ProcessRunner.run(
            [
                executable, "--memory-limit", String(memoryLimit), "--processor-limit",
                String(Self.processorLimit), path,
            ],
            environment: environment, directory: "/", input: [],
            timeout: deadline, outputLimit: Self.headerSize + 4 * ImageSampling.side * ImageSampling.side,
            separateErrors: true)
        func refusal(_ message: String) -> Result<PalettePictures.Pixels, BundleFiles.Refusal> {
            .failure(BundleFiles.Refusal(message: message))
        }
        let said = outcome.firstErrorLine.map { ": " + $0 } ?? ""
        switch outcome.end {
        case .exited(0):
            guard outcome.total == outcome.output.count, let pixels = Self.pixels(outcome.output) else {
                return refusal("\(executable) wrote \(outcome.total) bytes, not a sampled picture")
            }
            return .success(pixels)
        case .exited(1):
            return refusal(outcome.firstErrorLine ?? "\(executable) cannot decode it")
        case .exited(let status):
            return refusal("\(executable) exited with status \(status) decoding it\(said)")
        case .timedOut:
            return refusal(
                "decoding it timed out after \(Self.seconds(deadline)) and \(executable) was stopped")
        case .signalled(SIGXCPU):
            return refusal(
                "decoding it used up \(Self.processorLimit) s of processor time and \(executable) was stopped (SIGXCPU)"
            )
        case .signalled(let signal):
            return refusal(
                "\(executable) crashed decoding it (\(ProcessRunner.signalName(signal)))\(said)")
        case .notStarted(let why):
            return refusal("cannot start \(executable) to decode it: \(why)")
        }
    }

    /// `10 s`, `0.5 s`.
    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }

    /// Bytes before the pixels: the width and the height.
    static let headerSize = 8

    /// The protocol's form of `pixels`: width, height, then the pixels, little-endian words.
    /// - Parameter pixels: at least 1 × 1, `width × height` words.
    /// - Returns: `8 + 4 × width × height` bytes.
    public static func encoded(_ pixels: PalettePictures.Pixels) -> [UInt8] {
        precondition(
            pixels.width > 0 && pixels.height > 0 && pixels.argb.count == pixels.width * pixels.height)
        var out: [UInt8] = []
        out.reserveCapacity(headerSize + 4 * pixels.argb.count)
        for word in [UInt32(pixels.width), UInt32(pixels.height)] + pixels.argb {
            withUnsafeBytes(of: word.littleEndian) { out.append(contentsOf: $0) }
        }
        return out
    }

    /// The pixels `bytes` holds in the protocol's form; nil unless it is exactly a header of a
    /// size of at least 1 × 1 and that many pixels.
    public static func pixels(_ bytes: [UInt8]) -> PalettePictures.Pixels? {
        func word(_ i: Int) -> UInt32 {
            UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16 | UInt32(bytes[i + 3])
                << 24
        }
        guard bytes.count >= headerSize else { return nil }
        let width = Int(word(0))
        let height = Int(word(4))
        let (area, overflow) = width.multipliedReportingOverflow(by: height)
        guard width > 0, height > 0, !overflow, area <= bytes.count, bytes.count - headerSize == 4 * area
        else { return nil }
        let argb = (0..<width * height).map { word(headerSize + 4 * $0) }
        return PalettePictures.Pixels(argb: argb, width: width, height: height)
    }
}
