import Foundation
import XCTest

/// A colour as a screenshot holds it: 8 bits per channel, sRGB.
struct PixelColor: Equatable, CustomStringConvertible {
    var red: UInt8
    var green: UInt8
    var blue: UInt8

    init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// The colour written `#rrggbb`, as in a CSS sheet (a test's own constant; a malformed one
    /// stops the test).
    init(_ hex: String) {
        guard hex.count == 7, hex.first == "#", let value = UInt32(hex.dropFirst(), radix: 16) else {
            preconditionFailure("not a #rrggbb colour: \(hex)")
        }
        self.init(red: UInt8(value >> 16 & 0xff), green: UInt8(value >> 8 & 0xff), blue: UInt8(value & 0xff))
    }

    var description: String { String(format: "#%02x%02x%02x", red, green, blue) }
}

/// A rectangle of pixels, `x` and `y` its top-left corner, in screen pixels from the top left.
struct PixelRect: Equatable {
    var x: Int
    var y: Int
    var width: Int
    var height: Int
}

/// A decoded screenshot: `width` × `height` pixels, row by row from the top left, three bytes
/// (red, green, blue) each.
struct Screenshot {
    let width: Int
    let height: Int
    /// `width * height * 3` bytes.
    let rgb: [UInt8]

    /// Decodes a binary PPM image (netpbm's `P6`: `P6 width height maxval`, one whitespace byte,
    /// then the samples, two bytes big-endian each when maxval is above 255), scaling samples to
    /// 8 bits. `xwdtopnm` writes maxval 65535 for a 24-bit X screen.
    /// - Throws: `HarnessFailure` when `ppm` is not such an image.
    init(ppm: Data) throws {
        let bytes = [UInt8](ppm)
        var index = 0
        func field() throws -> Int {
            while index < bytes.count {
                if bytes[index] == UInt8(ascii: "#") {
                    while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
                } else if isspace(Int32(bytes[index])) != 0 {
                    index += 1
                } else {
                    break
                }
            }
            let start = index
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                index += 1
            }
            guard index > start, index - start < 10,
                let value = Int(String(decoding: bytes[start..<index], as: UTF8.self))
            else { throw HarnessFailure("not a binary PPM image: bad header near byte \(start)") }
            return value
        }
        guard bytes.starts(with: Array("P6".utf8)) else {
            throw HarnessFailure("not a binary PPM image (\(bytes.count) bytes, starting \(bytes.prefix(2)))")
        }
        index = 2
        let width = try field()
        let height = try field()
        let maxval = try field()
        index += 1  // the single whitespace byte after maxval
        guard (1...65535).contains(maxval) else { throw HarnessFailure("PPM maxval \(maxval) out of range") }
        let sampleSize = maxval > 255 ? 2 : 1
        let samples = width * height * 3
        guard bytes.count - index >= samples * sampleSize else {
            throw HarnessFailure(
                "PPM image of \(width)×\(height) has \(bytes.count - index) bytes of samples, not \(samples * sampleSize)"
            )
        }
        var rgb = [UInt8](repeating: 0, count: samples)
        for i in 0..<samples {
            let at = index + i * sampleSize
            let sample = sampleSize == 2 ? Int(bytes[at]) << 8 | Int(bytes[at + 1]) : Int(bytes[at])
            rgb[i] = UInt8((sample * 255 + maxval / 2) / maxval)
        }
        self.width = width
        self.height = height
        self.rgb = rgb
    }

    /// The colour of the pixel at column `x`, row `y`.
    func pixel(x: Int, y: Int) -> PixelColor {
        precondition((0..<width).contains(x) && (0..<height).contains(y), "(\(x), \(y)) is off the image")
        let at = (y * width + x) * 3
        return PixelColor(red: rgb[at], green: rgb[at + 1], blue: rgb[at + 2])
    }

    /// Counts the pixels whose every channel is within `tolerance` of `color`'s.
    /// - Parameters:
    ///   - color: the colour looked for.
    ///   - tolerance: the largest difference allowed on each channel (0: exactly `color`).
    ///   - rect: where to count; the whole image when nil, clipped to the image.
    /// - Returns: the number of matching pixels.
    func count(of color: PixelColor, tolerance: UInt8 = 0, in rect: PixelRect? = nil) -> Int {
        let area = rect ?? PixelRect(x: 0, y: 0, width: width, height: height)
        let xs = max(area.x, 0)..<min(area.x + area.width, width)
        let ys = max(area.y, 0)..<min(area.y + area.height, height)
        guard !xs.isEmpty, !ys.isEmpty else { return 0 }
        let target = [color.red, color.green, color.blue].map(Int.init)
        let limit = Int(tolerance)
        var n = 0
        for y in ys {
            for x in xs {
                let at = (y * width + x) * 3
                if abs(Int(rgb[at]) - target[0]) <= limit && abs(Int(rgb[at + 1]) - target[1]) <= limit
                    && abs(Int(rgb[at + 2]) - target[2]) <= limit
                {
                    n += 1
                }
            }
        }
        return n
    }

    /// The most frequent colours, most frequent first, as `#rrggbb: count`: for failure messages.
    func commonestColors(_ limit: Int = 6) -> String {
        var counts: [Int: Int] = [:]
        for at in stride(from: 0, to: rgb.count, by: 3) {
            counts[Int(rgb[at]) << 16 | Int(rgb[at + 1]) << 8 | Int(rgb[at + 2]), default: 0] += 1
        }
        return counts.sorted { $0.value > $1.value }.prefix(limit).map {
            String(format: "#%06x: %d", $0.key, $0.value)
        }.joined(separator: ", ")
    }
}

/// An X server of the test's own: Debian's Xvfb on a display number it found free, 24-bit
/// colour, no TCP listener, a black root window (`-br`), so that everything not black on a
/// screenshot was drawn by a client. Started by `EndToEndTestCase.startDisplay`.
struct VirtualDisplay {
    /// The display name, `:N`.
    let name: String
    /// The screen's size in pixels.
    let width: Int
    let height: Int
    /// The Xvfb process (tearDown stops it).
    let server: Background
    /// Where screenshots and the tools' output go (the test's log directory).
    let directory: String
    let environment: [String: String]

    /// Takes a screenshot of the whole screen: `xwd -root` (x11-apps), converted by `xwdtopnm`
    /// (netpbm) to a PPM image and decoded.
    /// - Throws: `HarnessFailure` when a tool is missing, fails or prints no image.
    func screenshot() throws -> Screenshot {
        let dump = directory + "/screenshot-\(UUID().uuidString).xwd"
        defer { try? FileManager.default.removeItem(atPath: dump) }
        _ = try finish(Locations.tool("xwd"), ["-root", "-silent", "-display", name, "-out", dump])
        let convert = try finish(Locations.tool("xwdtopnm"), [dump])
        defer { try? FileManager.default.removeItem(atPath: convert.stdoutPath) }
        return try Screenshot(ppm: Data(contentsOf: URL(fileURLWithPath: convert.stdoutPath)))
    }

    /// Runs a tool to its end (at most 10 s), its output in files, and throws unless it exited 0.
    private func finish(_ tool: String, _ arguments: [String]) throws -> Background {
        guard FileManager.default.isExecutableFile(atPath: tool) else {
            throw HarnessFailure("\(tool) is missing (make deps-test installs x11-apps and netpbm)")
        }
        let process = try Background(tool, arguments, environment: environment, directory: directory)
        guard process.waitForExit(timeout: 10) else {
            process.kill9()
            throw HarnessFailure("\(tool) \(arguments) did not finish in 10 s")
        }
        guard process.process.terminationStatus == 0 else {
            throw HarnessFailure(
                "\(tool) \(arguments) exited \(process.process.terminationStatus): \(process.stderr)")
        }
        return process
    }
}

extension EndToEndTestCase {
    /// Starts Xvfb on a free display (`-displayfd`: the server picks the first free number and
    /// writes it once it accepts connections) and sets `DISPLAY` in `environment` (and unsets
    /// `WAYLAND_DISPLAY`), so that the programs the test starts afterwards draw on it. tearDown
    /// stops it.
    /// - Parameters:
    ///   - width: the screen's width in pixels.
    ///   - height: the screen's height in pixels.
    /// - Returns: the display.
    /// - Throws: `HarnessFailure` when Xvfb is missing or does not start.
    func startDisplay(width: Int = 640, height: Int = 480) throws -> VirtualDisplay {
        let xvfb = Locations.tool("Xvfb")
        guard FileManager.default.isExecutableFile(atPath: xvfb) else {
            throw HarnessFailure("\(xvfb) is missing (make deps-test installs xvfb)")
        }
        let server = try background(
            // -noreset: a desktop's server keeps its resources (xrdb's RESOURCE_MANAGER) when a
            // client leaves, as a session's own clients keep it from resetting.
            xvfb,
            [
                "-displayfd", "1", "-nolisten", "tcp", "-noreset", "-br", "-screen", "0",
                "\(width)x\(height)x24",
            ])
        guard waitUntil({ server.stdout.hasSuffix("\n") || !server.isRunning }), server.isRunning,
            let number = Int(server.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            throw HarnessFailure(
                "Xvfb printed no display number (running: \(server.isRunning)): \(server.stderr)")
        }
        environment["DISPLAY"] = ":\(number)"
        environment["WAYLAND_DISPLAY"] = nil
        return VirtualDisplay(
            name: ":\(number)", width: width, height: height, server: server, directory: logs,
            environment: environment)
    }

    /// A PNG of `width` × `height` pixels of one colour, made by netpbm (`pnmtopng`).
    func solidPNG(_ color: PixelColor, width: Int = 32, height: Int = 16) throws -> Data {
        var ppm = Data("P6\n\(width) \(height)\n255\n".utf8)
        for _ in 0..<(width * height) { ppm.append(contentsOf: [color.red, color.green, color.blue]) }
        let file = root + "/solid-\(color)-\(width)x\(height).ppm".replacingOccurrences(of: "#", with: "")
        try ppm.write(to: URL(fileURLWithPath: file))
        let r = try run("/bin/sh", ["-c", "/usr/bin/pnmtopng '\(file)' > '\(file).png'"])
        XCTAssertEqual(r.status, 0, r.stderr)
        return try Data(contentsOf: URL(fileURLWithPath: file + ".png"))
    }
}
