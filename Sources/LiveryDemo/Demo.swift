import CGtk
import Foundation
import LiveryAPI
import LiveryCore
import LiveryDBus

/// `livery-demo`'s usage text.
public let demoUsage = """
    Usage: livery-demo [--address ADDR] [--app ID] [--themes-dir DIR]...
    Shows the sample screen in a GTK 4 window whose widgets take their colours from liveryd
    (Watch, then Changed on every switch).
      --address ADDR    the bus liveryd is on (default: the session bus)
      --app ID          show the values of ID's @app blocks
      --themes-dir DIR  a theme directory liveryd was given, searched first for schema.json
    """

/// The command line of `livery-demo`.
struct DemoOptions {
    var address: String?
    var app: String?
    var themesDirectories: [String] = []
    var help = false

    /// Reads the arguments after the program name.
    /// - Throws: A message for a usage error.
    init(_ arguments: [String]) throws(UsageMessage) {
        var rest = arguments[...]
        func value(_ option: String) throws(UsageMessage) -> String {
            guard let v = rest.popFirst() else { throw UsageMessage(text: "\(option) needs a value") }
            return v
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--address": address = try value(argument)
            case "--app": app = try value(argument)
            case "--themes-dir": themesDirectories.append(try value(argument))
            case "-h", "--help": help = true
            default: throw UsageMessage(text: "unknown argument '\(argument)'")
            }
        }
    }
}

/// A usage error's message.
struct UsageMessage: Error {
    var text: String
}

/// Writes `livery-demo: message` and a newline to standard error.
func warn(_ message: String) {
    FileHandle.standardError.write(Data("livery-demo: \(message)\n".utf8))
}

/// The main loop and the exit status of one run.
@MainActor
private final class DemoRun {
    let loop = g_main_loop_new(nil, 0)
    var status: Int32 = 0

    /// Ends the main loop; `runDemo` returns `status`.
    func quit(_ status: Int32) {
        self.status = max(self.status, status)
        g_main_loop_quit(loop)
    }
}

/// The schema of the theme search path (`--themes-dir` first, the shipped themes last), which
/// types the values liveryd sends; nil, said on standard error, when there is none or it is
/// broken.
private func loadSchema(_ themesDirectories: [String]) -> Schema? {
    let searchPath = Paths().fullThemeSearchPath(extra: themesDirectories)
    guard let file = Paths.schemaFile(on: searchPath) else {
        warn("no schema.json in \(searchPath.joined(separator: ", ")); give --themes-dir DIR")
        return nil
    }
    do { return try Schema.load(from: URL(fileURLWithPath: file)) } catch {
        warn("\(error)")
        return nil
    }
}

/// `livery-demo`'s whole program: reads the schema, watches the sample screen's paths on
/// liveryd, then shows the window and follows every change until it is closed or the bus goes
/// away. Fails before opening a window when liveryd is not on the bus.
/// - Parameter arguments: The arguments after the program name.
/// - Returns: The exit status: 0 when the window was closed, 1 on a failure, 2 on a usage error.
@MainActor
public func runDemo(arguments: [String]) -> Int32 {
    let options: DemoOptions
    do { options = try DemoOptions(arguments) } catch {
        warn(error.text + "\n" + demoUsage)
        return 2
    }
    if options.help {
        print(demoUsage)
        return 0
    }
    guard let schema = loadSchema(options.themesDirectories) else { return 1 }
    let sources = ScreenSources(schema: schema)
    let window = ScreenWindow(sources: sources)
    let run = DemoRun()
    let connection: Connection
    do { connection = try Connection.open(Bus(address: options.address, system: false)) } catch {
        warn("cannot connect to \(options.address ?? "the session bus"): \(error.message)")
        return 1
    }
    let watch: ScreenWatch
    do {
        watch = ScreenWatch(
            connection: connection, paths: sources.paths, app: options.app, schema: schema,
            // Updates go through the main loop, so the values `start` returns are applied first.
            deliver: { update in GtkMainThread.run { window.apply(update) } },
            report: { message in warn(message) })
        window.apply(try watch.start())
    } catch {
        warn(ScreenWatch.describe(error))
        return 1
    }
    connection.onDisconnect = {
        GtkMainThread.run {
            warn("the bus went away")
            run.quit(1)
        }
    }

    guard gtk_init_check() != 0 else {
        warn("cannot open a display (is DISPLAY or WAYLAND_DISPLAY set?)")
        return 1
    }
    window.build { run.quit(0) }
    // SIGTERM, SIGINT and SIGHUP (its terminal closed) end the loop as closing the window does, so that what the window made
    // (its images' names) is removed.
    let stop: GSourceFunc = { data in
        MainActor.assumeIsolated { Unmanaged<DemoRun>.fromOpaque(data!).takeUnretainedValue().quit(0) }
        return 1  // G_SOURCE_CONTINUE
    }
    for signal in [SIGTERM, SIGINT, SIGHUP] {
        g_unix_signal_add(signal, stop, Unmanaged.passUnretained(run).toOpaque())
    }
    connection.startThread()
    g_main_loop_run(run.loop)
    window.removeImageNames()
    withExtendedLifetime(watch) {}
    connection.close()
    return run.status
}
