import Foundation
import XCTest

/// Whom a test's headless sway runs as. sway 1.7 (Debian 12's) refuses to run as root, and the
/// tests run as root.
enum SwayUser {
    /// `nobody` (setpriv) when the test runs as root, in a runtime directory of nobody's, whose
    /// sockets root's programs reach. The sway plugin does not reach it (it is not the user's):
    /// for the programs that draw on sway (wlr-layer-shell, which weston lacks) and for swaybg.
    case nobody
    /// The test's user, in a user namespace of its own (`unshare --user`) when root: there its
    /// uid is the overflow uid while the files it makes (its IPC socket) are still the user's,
    /// so that the sway plugin, which reloads only the user's own sways, reaches it.
    case user
}

/// A headless sway a test started; tearDown stops it.
struct HeadlessSway {
    /// The sway process (or the setpriv or unshare that became it).
    var process: Background
    /// Its IPC socket: `sway-ipc.UID.PID.sock` in its runtime directory, or the `SWAYSOCK` it was
    /// started with.
    var socket: String
    /// A screenshot of its output: grim (wlr-screencopy) as a PPM image.
    var screenshot: () throws -> Screenshot
}

extension EndToEndTestCase {
    /// Starts sway 1.7 on wlroots' headless backend with its pixman renderer (one output), as
    /// `user`, and sets in `environment` what the programs started afterwards need: the runtime
    /// directory (the test's `XDG_RUNTIME_DIR`, made when it has none), `WAYLAND_DISPLAY`, the
    /// system's data directories after the test's in `XDG_DATA_DIRS` (GTK's gdk-pixbuf tells a
    /// picture's or an icon's format by shared-mime-info's database, /usr/share/mime, and GTK
    /// programs abort or swaybg draws nothing without it), and no `DISPLAY`.
    /// - Parameters:
    ///   - user: Whom it runs as.
    ///   - config: Its configuration file; nil for one of the test's own with just the output
    ///     `HEADLESS-1` of `width` × `height` pixels and no Xwayland.
    /// - Throws: `HarnessFailure` when sway or grim is missing, or sway made no Wayland and IPC
    ///   sockets within 20 s (with sway's error output).
    func startSway(
        as user: SwayUser, config: String? = nil, width: Int = 640, height: Int = 480
    ) throws -> HeadlessSway {
        let sway = try tool("sway")
        let grim = try tool("grim")
        let runtime = try environment["XDG_RUNTIME_DIR"] ?? makeDirectory("runtime")
        if user == .nobody && getuid() == 0 { chown(runtime, 65534, 65534) }
        chmod(runtime, 0o700)
        environment["XDG_RUNTIME_DIR"] = runtime
        environment["XDG_DATA_DIRS"] = dataDirs + ":/usr/local/share:/usr/share"
        environment["DISPLAY"] = nil
        environment["WAYLAND_DISPLAY"] = nil
        let file = config ?? root + "/sway-config"
        if config == nil {
            try "output HEADLESS-1 resolution \(width)x\(height)\nxwayland disable\n".write(
                toFile: file, atomically: true, encoding: .utf8)
        }
        let saved = environment
        environment["WLR_BACKENDS"] = "headless"
        environment["WLR_HEADLESS_OUTPUTS"] = "1"
        environment["WLR_RENDERER"] = "pixman"
        environment["WLR_LIBINPUT_NO_DEVICES"] = "1"
        let process: Background
        switch (user, getuid() == 0) {
        case (.nobody, true):
            process = try background(
                try tool("setpriv"), ["--reuid=65534", "--regid=65534", "--clear-groups", sway, "-c", file])
        case (.user, true): process = try background(try tool("unshare"), ["--user", sway, "-c", file])
        case (_, false): process = try background(sway, ["-c", file])
        }
        environment = saved
        var socket: String?
        var display: String?
        let up = waitUntil(timeout: 20) {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: runtime)) ?? []
            socket = names.first { $0.hasPrefix("sway-ipc.") && $0.hasSuffix(".sock") }
            display = names.first { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }
            return (socket != nil && display != nil) || !process.isRunning
        }
        guard up, process.isRunning, let socket, let display else {
            throw HarnessFailure("sway did not start: \(process.stderr.suffix(1500))")
        }
        environment["WAYLAND_DISPLAY"] = display
        let shot = logs + "/grim.ppm"
        return HeadlessSway(process: process, socket: runtime + "/" + socket) {
            let r = try self.run(grim, ["-t", "ppm", shot])
            guard r.status == 0 else { throw HarnessFailure("grim: \(r)") }
            return try Screenshot(ppm: Data(contentsOf: URL(fileURLWithPath: shot)))
        }
    }
}
