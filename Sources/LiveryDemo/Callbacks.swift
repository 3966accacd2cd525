import CGtk

// Swift closures handed to GLib: each is boxed in a class whose retained pointer is the C
// callback's user data, and released by the destroy notify GLib calls when the signal handler
// or the source goes away. The trampolines are C function pointers that capture nothing; they
// run on the GTK main thread (GLib dispatches the default main context there), which is the
// main actor's thread, and say so with `MainActor.assumeIsolated`.

/// A closure kept alive by GLib as a callback's user data.
final class ClosureBox<Function> {
    let function: Function

    init(_ function: Function) { self.function = function }

    /// The box retained once, for GLib to hold; `releaseBox(_:)` gives that retain back.
    ///
    /// Safety: hand each pointer to exactly one GLib registration (a signal handler, a source)
    /// whose destroy notify calls `releaseBox`, and read it only through `unretained(_:)` while
    /// that registration lives.
    var retainedPointer: gpointer { Unmanaged.passRetained(self).toOpaque() }

    /// The box behind user data that `retainedPointer` made.
    static func unretained(_ data: gpointer?) -> ClosureBox {
        Unmanaged<ClosureBox>.fromOpaque(data!).takeUnretainedValue()
    }

}

/// Releases the retain of a box's `retainedPointer`: GLib's destroy notify (not generic, so that
/// C function pointers can call it).
func releaseBox(_ data: gpointer?) { Unmanaged<AnyObject>.fromOpaque(data!).release() }

/// Hands work to the GTK main thread from any other, as GTK requires (it is single-threaded).
enum GtkMainThread {
    /// A main-actor closure that may be sent from another thread.
    typealias Work = @MainActor @Sendable () -> Void

    /// Runs `work` once on the GTK main thread, after what was handed over before it (an idle
    /// source of GLib's default main context at the default priority, so that redraws do not
    /// starve it).
    static func run(_ work: @escaping Work) {
        let trampoline: GSourceFunc = { data in
            let work = ClosureBox<Work>.unretained(data).function
            MainActor.assumeIsolated { work() }
            return 0  // G_SOURCE_REMOVE: once.
        }
        g_idle_add_full(G_PRIORITY_DEFAULT, trampoline, ClosureBox<Work>(work).retainedPointer) {
            releaseBox($0)
        }
    }
}

/// Connects a C trampoline to `signal` of `instance` with `box` as its user data, which GLib
/// releases when the handler is disconnected or the instance finalised.
/// - Parameters:
///   - instance: A GObject.
///   - signal: The signal's name, e.g. `close-request`.
///   - trampoline: A C function of the signal's signature, its last argument the user data.
///   - box: What the trampoline calls.
func connect<Function>(
    _ instance: gpointer, _ signal: String, trampoline: GCallback, box: ClosureBox<Function>
) {
    g_signal_connect_data(
        instance, signal, trampoline, box.retainedPointer, { data, _ in releaseBox(data) },
        GConnectFlags(rawValue: 0))
}
