import Foundation
import LiveryAPI
import LiveryCore
import LiveryDBus
import LiveryService

/// The command line of `liveryd` (the README's "Installing as a user service" lists its flags).
public struct DaemonOptions: Sendable, Equatable {
    /// Each `--themes-dir`, searched in order before the XDG data directories.
    public var themesDirectories: [String] = []
    /// `--schema`: the schema file to use instead of the one found with the themes.
    public var schemaFile: String?
    /// A bus address; nil means the session bus (or the system bus with `system`).
    public var address: String?
    /// `--system`: connect to the system bus instead of the session bus.
    public var system = false
    /// Take the bus name over from a running instance.
    public var replace = false
    /// `--log-level`: the least severe level written; `info` by default.
    public var logLevel: Log.Level = .info
    /// Serve the desktop portal's Settings backend too.
    public var portal = true
    /// Serve darkman's interface too, when nobody owns its name.
    public var darkman = true
    /// Reload when theme files or the overrides change on disk.
    public var watch = true

    /// The defaults: session bus, portal and watching on, log level `info`.
    public init() {}

    /// The `--help` text.
    public static let usage = """
        Usage: liveryd [--themes-dir DIR]... [--schema FILE] [--address ADDR | --system] [--replace]
                       [--no-portal] [--no-darkman] [--no-watch]
                       [--log-level error|warning|notice|info|debug]

        Serves org.livery.Livery1 on the session bus: loads the theme bundles on the search path
        (each --themes-dir, then $XDG_DATA_HOME/livery/themes, then each $XDG_DATA_DIRS/livery/themes),
        activates the theme saved in $XDG_STATE_HOME/livery/state.json, and publishes switches. Also
        serves the desktop portal's Settings backend as org.freedesktop.impl.portal.desktop.livery
        unless --no-portal, darkman's interface as nl.whynothugo.darkman when no darkman runs unless
        --no-darkman, and reloads by itself when theme files or the overrides change on disk
        (inotify, after a short quiet period) unless --no-watch.
        """

    /// A command-line mistake: exit status 2 with the message and the usage.
    public struct UsageError: Error, CustomStringConvertible, Sendable {
        /// What is wrong, one line, e.g. `unknown option '--x'`.
        public var description: String
    }

    /// Parses the arguments after the program name.
    /// - Parameter arguments: The arguments; `--flag value` and `--flag=value` are both accepted.
    /// - Returns: The options, or nil for `-h`/`--help`; `--version` prints and exits.
    /// - Throws: `UsageError` for unknown flags or missing values.
    public static func parse(_ arguments: [String]) throws(UsageError) -> DaemonOptions? {
        var o = DaemonOptions()
        var i = 0
        func value(_ flag: String) throws(UsageError) -> String {
            i += 1
            guard i < arguments.count else { throw UsageError(description: "\(flag) needs a value") }
            return arguments[i]
        }
        while i < arguments.count {
            let a = arguments[i]
            var flag = a
            var inline: String?
            if a.hasPrefix("--"), let eq = a.firstIndex(of: "=") {
                flag = String(a[..<eq])
                inline = String(a[a.index(after: eq)...])
            }
            func arg() throws(UsageError) -> String {
                if let inline { return inline }
                return try value(flag)
            }
            switch flag {
            case "--themes-dir": o.themesDirectories.append(try arg())
            case "--schema": o.schemaFile = try arg()
            case "--address": o.address = try arg()
            case "--system": o.system = true
            case "--replace": o.replace = true
            case "--no-portal": o.portal = false
            case "--no-darkman": o.darkman = false
            case "--no-watch": o.watch = false
            case "--log-level":
                let v = try arg()
                guard let l = Log.Level(name: v) else {
                    throw UsageError(
                        description: "unknown log level '\(v)' (error, warning, notice, info, debug)")
                }
                o.logLevel = l
            case "-h", "--help": return nil
            case "--version":
                print("liveryd \(LiveryBus.version)")
                exit(0)
            default: throw UsageError(description: "unknown option '\(a)'")
            }
            i += 1
        }
        if o.system && o.address != nil {
            throw UsageError(description: "--system and --address exclude each other")
        }
        return o
    }
}

/// The running daemon: the bus connection, the service and its adapters on the bus.
public final class Daemon: Sendable {
    /// What Livery does: the themes, the switch queue, the watches, the plugins.
    public let service: Service
    /// The bus connection that owns `org.livery.Livery1`.
    public let connection: Connection
    /// The exported `org.livery.Livery1` object.
    public let interface: LiveryInterface
    let log: Log

    /// Loads themes, connects, takes the bus names, exports the objects and prepares to serve.
    ///
    /// Every name is taken before any object is exported: a call that comes meanwhile waits in
    /// the connection until `run()` dispatches it, when the objects are there to answer (nothing
    /// is dispatched before). The names come first so that `--replace` can start from what the
    /// instance it replaces saved last (`Handover`); the themes are read before, so that a
    /// replacement that cannot start leaves the running instance alone.
    /// - Parameters:
    ///   - options: The parsed command line.
    ///   - environment: The variables that locate the XDG directories (`HOME`, `XDG_*`).
    /// - Throws: a message for the log; the caller exits non-zero.
    public init(options: DaemonOptions, environment: [String: String] = ProcessInfo.processInfo.environment)
        throws
    {
        let log = Log(threshold: options.logLevel)
        self.log = log
        let paths = Paths(environment: environment)
        // Last, the themes shipped with this program (installed beside it, or the source tree of
        // a development build), so that `make install PREFIX=…` needs no XDG_DATA_DIRS.
        var configuration = ThemeService.Configuration(
            searchPath: paths.fullThemeSearchPath(extra: options.themesDirectories),
            schemaFile: options.schemaFile,
            stateFile: paths.stateFile, overridesFile: paths.overridesFile)
        configuration.formats = { paths.themeFormats(environment: environment) }
        configuration.configFile = paths.configFile
        configuration.savesAfterPublishing = true
        // A picture is decoded in a process of its own: any theme may ship one, and a loader that
        // crashes or hangs on it must cost that process, not the bus.
        configuration.pictures = PictureDecoder.palettePictures
        let themes = try ThemeService(configuration: configuration, log: log)
        let bus = Bus(address: options.address, system: options.system)
        do {
            connection = try Connection.open(bus)
        } catch {
            throw ServiceError(.accessDenied, "cannot connect to the bus: \(error.message)")
        }
        let handover = options.replace ? try Handover(bus: bus, log: log) : nil
        defer { handover?.close() }
        try Daemon.takeNames(connection, options: options, log: log)
        if let handover {
            handover.waitForPredecessor(of: connection.uniqueName)
            themes.restoreSavedTheme()
        }
        var serviceOptions = Service.Options()
        // Plugin commands reach the daemon's own bus (`livery` in a hook works under
        // `--address` too, as under `make run`'s private bus).
        var pluginEnvironment = environment
        if let address = options.address { pluginEnvironment["DBUS_SESSION_BUS_ADDRESS"] = address }
        serviceOptions.pluginEnvironment = pluginEnvironment
        serviceOptions.watchesFiles = options.watch
        serviceOptions.followsSchedule = true
        service = Service(themes: themes, options: serviceOptions)
        interface = try LiveryInterface(service: service, connection: connection)
        try interface.export()
        service.add(interface)
        if options.darkman {
            let compatibility = try DarkmanCompatibility(service: service, connection: connection)
            try compatibility.start()
            service.add(compatibility)
        }
        if options.portal {
            let backend = try PortalBackend(service: service, connection: connection)
            try backend.start()
            service.add(backend)
        }
        service.start()
        log(.notice, "serving \(LiveryBus.name) as \(connection.uniqueName)")
        connection.onNameLost = { [log, connection, interface] name in
            guard name == LiveryBus.name else {
                log(.notice, "lost the bus name \(name) to another instance")
                return
            }
            log(.notice, "replaced by another instance: finishing the switch under way, then exiting")
            interface.retire { connection.stop() }
        }
        connection.onDisconnect = { [log, connection] in
            log(.error, "disconnected from the bus; exiting")
            connection.stop()
        }
    }

    /// Takes `org.livery.Livery1`, then the portal backend's and darkman's names when they are
    /// served, each from a running Livery with `--replace` (all at once: a replaced instance
    /// that does not answer, stopped say, keeps none of them).
    /// - Throws: `ServiceError` `AccessDenied` naming the owner when `org.livery.Livery1` is
    ///   taken and `--replace` was not given.
    static func takeNames(_ connection: Connection, options: DaemonOptions, log: Log) throws {
        let replace: RequestNameFlags = options.replace ? [.replaceExisting] : []
        let reply = try connection.requestName(
            LiveryBus.busName, flags: replace.union([.doNotQueue, .allowReplacement]))
        guard reply == .primaryOwner || reply == .alreadyOwner else {
            var owner = "another process"
            if let o = try? connection.nameOwner(LiveryBus.name) {
                owner = "another process (\(o))"
            }
            connection.close()
            throw ServiceError(
                .accessDenied, "\(LiveryBus.name) is already owned by \(owner); use --replace to take it over"
            )
        }
        if options.portal {
            let reply = try connection.requestName(
                try BusName(PortalBackend.busName), flags: replace.union([.doNotQueue, .allowReplacement]))
            if reply != .primaryOwner && reply != .alreadyOwner {
                log(.warning, "\(PortalBackend.busName) is taken; the desktop portal backend is off")
            }
        }
        if options.darkman {
            // Queued behind a darkman that runs (it does not allow replacement), taken when it leaves.
            let reply = try connection.requestName(
                try BusName(DarkmanCompatibility.busName), flags: replace.union([.allowReplacement]))
            if reply != .primaryOwner && reply != .alreadyOwner {
                log(
                    .notice,
                    "\(DarkmanCompatibility.busName) is owned already (darkman runs?); Livery takes it when it is free"
                )
            }
        }
    }

    /// Runs the event loop on this thread until the name is lost or the bus goes away, then
    /// writes out the replies and signals still queued.
    public func run() {
        connection.run()
        connection.flush()
    }
}

/// `liveryd`'s whole program: parse, build, run. Returns the exit status.
/// - Parameter arguments: The arguments after the program name.
/// - Returns: 0 after `--help` or a clean stop, 1 when the daemon fails or the bus goes away, 2 for
///   a usage error.
public func runDaemon(arguments: [String]) -> Int32 {
    signal(SIGPIPE, SIG_IGN)
    let options: DaemonOptions
    do {
        guard let o = try DaemonOptions.parse(arguments) else {
            print(DaemonOptions.usage)
            return 0
        }
        options = o
    } catch {
        FileHandle.standardError.write(Data("liveryd: \(error)\n\n\(DaemonOptions.usage)\n".utf8))
        return 2
    }
    do {
        let daemon = try Daemon(options: options)
        daemon.run()
        return daemon.connection.isConnected ? 0 : 1
    } catch {
        let message = (error as? ServiceError)?.message ?? "\(error)"
        FileHandle.standardError.write(Data("<3>liveryd: \(message)\n".utf8))
        return 1
    }
}
