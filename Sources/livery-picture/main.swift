import Glibc
import LiveryCore
import LiveryPreview

// livery-picture --memory-limit BYTES --processor-limit SECONDS PATH: decodes one palette
// picture for liveryd, in a process of its own that liveryd stops at its deadline; the protocol
// is described, and its other end written, in LiveryCore's `PictureDecoder`.

/// Writes `message` and a newline on standard error; returns the failure status.
func fail(_ message: String) -> Int32 {
    let line = Array((message + "\n").utf8)
    _ = write(2, line, line.count)
    return 1
}

/// Writes all of `bytes` on standard output.
/// - Returns: Whether all was written.
func writeAll(_ bytes: [UInt8]) -> Bool {
    var offset = 0
    while offset < bytes.count {
        let n = bytes.withUnsafeBytes { write(1, $0.baseAddress! + offset, $0.count - offset) }
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { return false }
        offset += n
    }
    return true
}

/// Sets the soft limit of `resource` to `value` and the hard limit to `value + extra`.
/// - Returns: Whether the limits hold.
func limit(_ resource: __rlimit_resource, _ value: Int, extra: Int = 0) -> Bool {
    var r = rlimit(rlim_cur: rlim_t(value), rlim_max: rlim_t(value + extra))
    return setrlimit(__rlimit_resource_t(resource.rawValue), &r) == 0
}

/// The picture's path and limits from the command line, or nil when it is not the protocol's.
func parse(_ arguments: ArraySlice<String>) -> (path: String, memory: Int, processor: Int)? {
    var memory: Int?
    var processor: Int?
    var rest = arguments
    while rest.count > 1 {
        let flag = rest.removeFirst()
        let value = Int(rest.removeFirst())
        switch flag {
        case "--memory-limit": memory = value
        case "--processor-limit": processor = value
        default: return nil
        }
    }
    guard rest.count == 1, let memory, memory > 0, let processor, processor > 0 else { return nil }
    return (rest.first!, memory, processor)
}

guard let (path, memory, processor) = parse(CommandLine.arguments.dropFirst()) else {
    exit(
        fail(
            "usage: livery-picture --memory-limit BYTES --processor-limit SECONDS PATH (both limits more than 0)"
        ))
}
// The limits hold before a byte of the picture is read; no core file is written for a crash.
// Past its processor time the decoder gets SIGXCPU, which ends it, and SIGKILL a second later.
guard limit(RLIMIT_AS, memory), limit(RLIMIT_CPU, processor, extra: 1), limit(RLIMIT_CORE, 0) else {
    exit(fail("cannot limit this process's resources: \(String(cString: strerror(errno)))"))
}
do throws(PicturePixels.Failure) {
    let picture = try PicturePixels(path: path)
    let sampled = PalettePictures.Pixels(
        argb: ImageSampling.resizeExact(picture.argb, width: picture.width, height: picture.height),
        width: ImageSampling.side, height: ImageSampling.side)
    exit(writeAll(PictureDecoder.encoded(sampled)) ? 0 : 1)
} catch {
    exit(fail(error.reason))
}
