import Foundation
import XCTest

@testable import LiveryCore

/// The daemon's palette picture decoder, `livery-picture` in a process of its own: the built
/// decoder on real and hostile pictures, its memory limit holding, and the ways a decoder can
/// fail (a crash, a hang, missing) with stand-in programs.
final class PictureDecoderTests: XCTestCase {
    var directory = ""

    override func setUpWithError() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "livery-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        directory = url.path
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// A shell script at `directory/name` with `body`, executable.
    func script(_ name: String, _ body: String) throws -> String {
        let path = directory + "/" + name
        try ("#!/bin/sh\n" + body + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        return path
    }

    /// The refusal's message, or a failure when `result` has pixels.
    func refusal(
        _ result: Result<PalettePictures.Pixels, BundleFiles.Refusal>, file: StaticString = #filePath,
        line: UInt = #line
    ) -> String {
        switch result {
        case .failure(let refusal): return refusal.message
        case .success(let pixels):
            XCTFail("decoded \(pixels.width) × \(pixels.height) pixels", file: file, line: line)
            return ""
        }
    }

    /// A PNG whose header says `width` × `height` pixels of one grey, written by Debian's python3
    /// (zlib, not Livery), at `path`, with `rows` rows of pixels (all of them when nil).
    func writeFlatPNG(_ path: String, width: Int, height: Int, rows: Int? = nil) throws {
        let source = """
            import struct, sys, zlib
            path, w, h, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
            def chunk(kind, data):
                return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
            z = zlib.compressobj(1)
            row = b"\\0" + b"\\x80" * (3 * w)
            body = b"".join(z.compress(row) for _ in range(n)) + z.flush()
            ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
            with open(path, "wb") as f:
                f.write(b"\\x89PNG\\r\\n\\x1a\\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", body) + chunk(b"IEND", b""))
            """
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        p.arguments = ["-c", source, path, String(width), String(height), String(rows ?? height)]
        try p.run()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, "python3 did not write \(path)")
    }

    /// The protocol's form, written out from its description: width, height, then each pixel,
    /// 32-bit little-endian words.
    func testTheProtocolsFormIsLittleEndianWordsAfterTheSize() throws {
        let pixels = PalettePictures.Pixels(argb: [0xff10_2030, 0x8040_5060], width: 1, height: 2)
        let bytes: [UInt8] = [1, 0, 0, 0, 2, 0, 0, 0, 0x30, 0x20, 0x10, 0xff, 0x60, 0x50, 0x40, 0x80]
        XCTAssertEqual(PictureDecoder.encoded(pixels), bytes)
        let read = try XCTUnwrap(PictureDecoder.pixels(bytes))
        XCTAssertEqual([read.width, read.height], [1, 2])
        XCTAssertEqual(read.argb, pixels.argb)
        // A pixel short, a pixel over, no pixels, a size that overflows: not the protocol's.
        XCTAssertNil(PictureDecoder.pixels(Array(bytes.dropLast(4))))
        XCTAssertNil(PictureDecoder.pixels(bytes + [0, 0, 0, 0]))
        XCTAssertNil(PictureDecoder.pixels([0, 0, 0, 0, 0, 0, 0, 0]))
        XCTAssertNil(PictureDecoder.pixels([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]))
    }

    /// The built decoder refuses a picture cut short with the reason `livery generate` gives,
    /// and one whose header claims more than it decodes before decoding anything.
    func testTheDecoderRefusesAHostilePictureWithItsReason() throws {
        let whole = try Data(
            contentsOf: URL(fileURLWithPath: "/usr/share/desktop-base/joy-theme/grub/grub-16x9.png"))
        let cut = directory + "/cut.png"
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: cut))
        XCTAssertEqual(refusal(PictureDecoder().decode(cut)), "cannot decode the png image: truncated")

        // A header of 60,000 × 60,000 pixels (13 GiB decoded) and one row of them.
        let bomb = directory + "/bomb.png"
        try writeFlatPNG(bomb, width: 60_000, height: 60_000, rows: 1)
        XCTAssertEqual(
            refusal(PictureDecoder().decode(bomb)),
            "the image is 60000×60000 pixels; at most 65535 per side and 64 Mi pixels decoded")

        XCTAssertEqual(
            refusal(PictureDecoder().decode(directory + "/missing.png")),
            "cannot be read: No such file or directory")
    }

    /// The largest picture the decoder accepts (8,192 × 8,192, 64 Mi pixels) decodes within the
    /// memory limit. With a quarter of it, gdk-pixbuf cannot allocate the picture's 192 MiB and
    /// says so; with half, it can, and the decoder then crashes allocating the 256 MiB of ARGB
    /// words: a crash of the real decoder, reported with the signal and what it said.
    func testTheMemoryLimitHoldsAndLeavesRoomForTheLargestPicture() throws {
        let largest = directory + "/largest.png"
        try writeFlatPNG(largest, width: 8192, height: 8192)
        switch PictureDecoder().decode(largest) {
        case .failure(let refusal): XCTFail(refusal.message)
        case .success(let pixels):
            XCTAssertEqual([pixels.width, pixels.height], [ImageSampling.side, ImageSampling.side])
            XCTAssertEqual(Set(pixels.argb), [0xff80_8080])
        }
        let starved = refusal(PictureDecoder(memoryLimit: PictureDecoder.memoryLimit / 4).decode(largest))
        XCTAssertTrue(starved.hasPrefix("cannot decode the png image: Insufficient memory"), starved)
        let crashed = refusal(PictureDecoder(memoryLimit: PictureDecoder.memoryLimit / 2).decode(largest))
        XCTAssertTrue(
            crashed.hasPrefix(PictureDecoder.besideThisProgram + " crashed decoding it (SIG"), crashed)
        XCTAssertTrue(crashed.contains("failed to allocate"), crashed)
    }

    /// A decoder that crashes (what a crafted picture does to a loader with a bug) is a refusal
    /// naming the signal and the decoder.
    func testADecoderThatCrashesIsARefusalNamingTheSignal() throws {
        let crashing = try script("crashing", "echo 'about to fall over' >&2; kill -SEGV $$")
        XCTAssertEqual(
            refusal(PictureDecoder(executable: crashing).decode("/nonexistent.png")),
            "\(crashing) crashed decoding it (SIGSEGV): about to fall over")
    }

    /// A decoder past its processor time (SIGXCPU, from the limit it set) says so; another
    /// signal of a crash is named too.
    func testADecoderPastItsProcessorTimeOrTrappedSaysSo() throws {
        let spinning = try script("spinning", "kill -XCPU $$")
        XCTAssertEqual(
            refusal(PictureDecoder(executable: spinning).decode("/nonexistent.png")),
            "decoding it used up 10 s of processor time and \(spinning) was stopped (SIGXCPU)")
        let trapped = try script("trapped", "kill -TRAP $$")
        XCTAssertEqual(
            refusal(PictureDecoder(executable: trapped).decode("/nonexistent.png")),
            "\(trapped) crashed decoding it (SIGTRAP)")
    }

    /// A decoder still running at the deadline is stopped, and the refusal says after how long.
    func testADecoderPastTheDeadlineIsStoppedAndSaysAfterHowLong() throws {
        let hanging = try script("hanging", "exec sleep 60")
        XCTAssertEqual(
            refusal(PictureDecoder(executable: hanging, deadline: 0.2).decode("/nonexistent.png")),
            "decoding it timed out after 0.2 s and \(hanging) was stopped")
    }

    /// A decoder that writes what is not the protocol's, or cannot be started, is a refusal too.
    func testADecoderThatMisbehavesOrIsMissingIsARefusal() throws {
        let chatty = try script("chatty", "echo hello")
        XCTAssertEqual(
            refusal(PictureDecoder(executable: chatty).decode("/nonexistent.png")),
            "\(chatty) wrote 6 bytes, not a sampled picture")
        let failing = try script("failing", "exit 3")
        XCTAssertEqual(
            refusal(PictureDecoder(executable: failing).decode("/nonexistent.png")),
            "\(failing) exited with status 3 decoding it")
        XCTAssertEqual(
            refusal(PictureDecoder(executable: directory + "/absent").decode("/nonexistent.png")),
            "cannot start \(directory)/absent to decode it: No such file or directory")
    }
}
