import Foundation
import LiveryAPI
import LiveryCore
import LiveryDBus
import Synchronization

/// Maps `org.livery.Livery1` onto a `ThemeService` and publishes its changes.
public final class LiveryInterface: Sendable {
    /// The model the methods call into.
    public let service: ThemeService
    /// The watches made with `Watch`.
    public let watches: WatchRegistry
    /// Where `Watch` and `Unwatch` run, and where a client's watches are released when it
    /// leaves: away from the loop thread (a `Watch` of many paths resolves them all), a queue
    /// per client taking turns, so that a client's calls keep their order, a release comes
    /// after the watches it releases, and no client waits for another's backlog.
    let calls = WatchQueue(label: "org.livery.watch")
    /// Whether watches went since memory was last given back (`releaseFreedMemory`), which the
    /// watch queue does when it is idle: once after a burst, not once per client that left.
    let freedMemory = Atomic<Bool>(false)
    /// Where the `Changed` signals of each published change are computed and sent, one change
    /// at a time in serial order; a newer change supersedes an unfinished one.
    let publications = DispatchQueue(label: "org.livery.publish")
    /// Images edited on disk by changes whose `Changed` signals are not all sent yet.
    let pendingEditedImages = Mutex<Set<String>>([])
    let connection: Connection
    let path: ObjectPath
    let interfaceName: InterfaceName
    let watcher = OwnerWatch()
    /// `Resolve` replies of the current theme generation: a repeated call costs a lookup.
    let replies = ReplyCache()
    /// The `Problems` last announced, to signal every change of it.
    let announcedProblems: Mutex<[String]>
    /// Where switches run, one at a time in the order they were asked for: reading and compiling
    /// a theme, then publishing the change, away from the loop thread, which goes on answering
    /// (`Resolve` gets the old theme until the new one is in place). Publishing from this one
    /// queue keeps the signals in serial order.
    let switches = DispatchQueue(label: "org.livery.switch")
    /// Whether a live reload is queued on `switches` and has not begun.
    let liveReloadQueued = Mutex(false)
    /// The desktop portal backend, told of every published change.
    let portal = Mutex<PortalBackend?>(nil)
    /// Set by `retire`: switches that have not started are refused from then on.
    let retired = Atomic<Bool>(false)

    /// Publishes to the portal backend too from now on.
    /// - Parameter backend: The started portal backend; it replaces any attached before.
    public func attach(_ backend: PortalBackend) { portal.withLock { $0 = backend } }
    /// The plugin runner, told of every published change.
    let plugins = Mutex<PluginRunner?>(nil)
    /// darkman's interface, told of every published change.
    let darkman = Mutex<DarkmanCompatibility?>(nil)

    /// Publishes darkman's `ModeChanged` too from now on.
    public func attach(_ compatibility: DarkmanCompatibility) { darkman.withLock { $0 = compatibility } }

    /// Queues a switch to `variant` (as `SetVariant`) and returns at once; a failure is logged
    /// and stays in `Problems` until a switch succeeds. `done` runs on the switch queue when the
    /// switch is published and saved, or has failed, with the failure.
    func switchVariantLater(_ variant: String, done: (@Sendable (ServiceError?) -> Void)? = nil) {
        switches.async { [weak self] in
            guard let self else { return }
            if let refusal = self.refusal {
                done?(refusal)
                return
            }
            var failure: ServiceError?
            defer {
                self.announceProblems()
                done?(failure)
            }
            do throws(ServiceError) {
                if let change = try self.service.setVariant(variant).change { self.publish(change) }
                self.service.savePending()
            } catch {
                failure = error
                self.service.log(.warning, "cannot switch to the \(variant) variant: \(error.message)")
            }
        }
    }

    /// Runs the plugins on every published change from now on, and shows their problems.
    /// - Parameter runner: The runner; it replaces any attached before.
    public func attach(_ runner: PluginRunner) {
        plugins.withLock { $0 = runner }
        runner.onProblemsChanged { [weak self] in self?.announceProblems() }
        announceProblems()
    }

    /// `Problems`: the service's, then the plugins'.
    var problems: [String] { service.problems + (plugins.withLock { $0 }?.problems ?? []) }

    /// Maps `service` onto `connection`; nothing is exported until `export()`.
    /// - Parameters:
    ///   - service: The model to serve.
    ///   - connection: The bus connection to export on and emit signals from.
    /// - Throws: `DBusError` if the fixed names fail validation (they do not).
    public init(service: ThemeService, connection: Connection) throws(DBusError) {
        self.service = service
        self.watches = WatchRegistry(serial: service.serial)
        self.announcedProblems = Mutex(service.problems)
        self.connection = connection
        self.path = LiveryBus.objectPath
        self.interfaceName = LiveryBus.interfaceName
        calls.whenIdle { [weak self] in
            guard let self, self.freedMemory.exchange(false, ordering: .acquiringAndReleasing) else { return }
            self.releaseFreedMemory()
        }
    }

    /// Exports the object with its interface at `/org/livery/Livery1`.
    /// - Throws: `DBusError` `org.freedesktop.DBus.Error.ObjectPathInUse` when something is
    ///   already exported there.
    public func export() throws(DBusError) {
        try connection.export([interface], at: path)
        // One match for every client that leaves the bus (its unique name loses its owner),
        // added before any Watch: a watcher's leaving is heard however soon after its call it
        // comes, with no call to the bus per watcher on the loop thread (each would block it and
        // make libdbus scan every message queued meanwhile: a burst of large Watch calls took
        // minutes that way).
        try connection.addMatch(OwnerWatch.departures) { [weak self] message in
            guard let self, let change = NameOwnerChange(decoding: message.arguments),
                change.newOwner.isEmpty,
                self.watcher.contains(change.name)
            else { return }
            self.release(change.name)
        }
    }

    /// The interface description: methods, signals and properties with their signatures (the
    /// interface file `org.livery.Livery1.xml` of LiveryAPI says the same, in the same order).
    var interface: Interface {
        Interface(
            interfaceName,
            methods: [
                listThemesMethod, setThemeMethod, resolveMethod, resolveManyMethod, explainMethod,
                toggleMethod, setVariantMethod,
                watchMethod, unwatchMethod, reloadMethod, listPluginsMethod,
            ],
            signals: LiveryInterface.signals, properties: properties)
    }

    /// `ListThemes() → a(ssa{sv})`: every installed theme, checked or not.
    var listThemesMethod: Method {
        let service = self.service
        return Method(.listThemes) { _ in
            [
                .array(
                    element: ThemeListing.signature,
                    service.listThemes().map { LiveryInterface.listing($0).dbusValue })
            ]
        }
    }

    /// `SetTheme(s id)`: answered from the switch queue once the switch is published.
    var setThemeMethod: Method {
        let service = self.service
        return Method.deferred(.setTheme) { [weak self] call, reply in
            let id = call.arguments[0].string ?? ""
            self?.switchTheme(reply) { () throws(ServiceError) in (try service.setTheme(id), []) }
        }
    }

    /// `Resolve(s path, as properties, a{sv} options) → a{sv}`: on the loop thread, from the reply
    /// cache when the same call was answered in this theme generation.
    var resolveMethod: Method {
        let service = self.service
        return Method.prepared(.resolve) { [replies] call in
            // The key is the call's body, so a repeated call is answered before its
            // arguments are read; a reply is stored under the generation it was
            // resolved in, so a switch in between cannot leave an old answer behind.
            let key = ReplyCache.Key(call.marshalledBody)
            if let hit = replies.lookup(service.generation, key) { return hit }
            let app = try LiveryInterface.app(call.arguments[2])
            let path = call.arguments[0].string ?? ""
            let properties = call.arguments[1].stringArray ?? []
            let resolution = try service.resolve(path, properties: properties, app: app)
            let reply = try PreparedValues([PropertyValues(resolved: resolution.values).dbusValue])
            replies.store(resolution.generation, key, reply)
            return reply
        }
    }

    /// `ResolveMany(a(sas) requests, a{sv} options) → aa{sv}`.
    var resolveManyMethod: Method {
        let service = self.service
        return Method(.resolveMany) { call in
            let app = try LiveryInterface.app(call.arguments[1])
            let items = (call.arguments[0].array ?? []).map {
                let request = ResolveRequest(decoding: $0)
                return (path: request.path, properties: request.properties)
            }
            let results = try service.resolveMany(items, app: app)
            return [.array(element: "a{sv}", results.map { PropertyValues(resolved: $0).dbusValue })]
        }
    }

    /// `Explain(s path, s property, a{sv} options) → aa{sv}`: the candidates in cascade order,
    /// answered from a worker thread.
    var explainMethod: Method {
        let service = self.service
        return Method.deferred(.explain) { call, reply in
            // Explaining walks every rule that matches (a large theme's selector list takes
            // seconds): answered from a worker thread, so that the loop thread goes on
            // answering the calls behind it.
            let app = try LiveryInterface.app(call.arguments[2])
            let (path, property) = (call.arguments[0].string ?? "", call.arguments[1].string ?? "")
            DispatchQueue.global(qos: .userInitiated).async {
                do {
                    let e = try service.explain(path, property: property, app: app)
                    reply.succeed([.array(element: "a{sv}", ExplainEntry.entries(for: e).map(\.dbusValue))])
                } catch {
                    reply.fail(error)
                }
            }
        }
    }

    /// `SetVariant(s variant) → s`: the theme of `dark` or `light`, answered from the switch queue.
    var setVariantMethod: Method {
        let service = self.service
        return Method.deferred(.setVariant) { [weak self] call, reply in
            let variant = call.arguments[0].string ?? ""
            guard variant == "dark" || variant == "light" else {
                reply.fail(DBusError(.invalidArgs, "variant '\(variant)': expected 'dark' or 'light'"))
                return
            }
            self?.switchTheme(reply) { () throws(ServiceError) in
                let (id, change) = try service.setVariant(variant)
                return (change, [.string(id)])
            }
        }
    }

    /// `Toggle() → s`: the other variant, answered from the switch queue.
    var toggleMethod: Method {
        let service = self.service
        return Method.deferred(.toggle) { [weak self] _, reply in
            self?.switchTheme(reply) { () throws(ServiceError) in
                let (id, change) = try service.toggle()
                return (change, [.string(id)])
            }
        }
    }

    /// `Watch(as paths, a{sv} options) → (ua{sa{sv}})`: every property of each path, with the
    /// serial they are at; answered from the watch queue. Option `app` (s).
    var watchMethod: Method {
        Method.deferred(.watch) { [weak self] call, reply in
            guard let self else { return }
            do {
                let paths = try LiveryInterface.pathCount(call)
                let owner = call.sender
                // Follow the client from now on, on the loop thread, so that its leaving is heard.
                self.followOwner(owner)
                try self.calls.enqueue(
                    WatchCall(call: call.detached(), paths: paths, reply: reply, interface: self), from: owner
                )
            } catch {
                reply.fail(error)
            }
        }
    }

    /// The number of paths of a `Watch` or `Unwatch` call, counted on the loop thread without
    /// reading them: the call's first step reads them (`keys`), on the watch queue, or never
    /// when the caller leaves first.
    /// - Throws: `LimitExceeded` past `WatchRegistry.maximumPathsPerCall` paths.
    static func pathCount(_ call: MethodInvocation) throws(ServiceError) -> Int {
        let count = call.count(ofArrayArgument: 0) ?? 0
        guard count <= WatchRegistry.maximumPathsPerCall else {
            throw ServiceError(
                .limitExceeded,
                "\(count) paths; \(call.member) takes at most \(WatchRegistry.maximumPathsPerCall) a call")
        }
        return count
    }

    /// The keys of a `Watch` or `Unwatch` call: its paths with the option `app`.
    /// - Throws: `InvalidArgs` when `app` is not a string.
    static func keys(_ call: MethodInvocation) throws(DBusError) -> [WatchRegistry.Key] {
        let app = try LiveryInterface.app(call.arguments[1])
        return (call.arguments[0].stringArray ?? []).map { WatchRegistry.Key(path: $0, app: app) }
    }

    /// `Unwatch(as paths, a{sv} options)`: removes one of the caller's watches of each path
    /// (for the option `app`); paths it does not watch are ignored. Answered from the watch
    /// queue, after the caller's `Watch` calls before it.
    var unwatchMethod: Method {
        Method.deferred(.unwatch) { [weak self] call, reply in
            guard let self else { return }
            do {
                let paths = try LiveryInterface.pathCount(call)
                self.followOwner(call.sender)
                try self.calls.enqueue(
                    UnwatchCall(call: call.detached(), paths: paths, reply: reply, interface: self),
                    from: call.sender)
            } catch {
                reply.fail(error)
            }
        }
    }

    /// `Reload()`: rescans the themes and runs every export again, answered from the switch
    /// queue after the switches before.
    var reloadMethod: Method {
        return Method.deferred(.reload) { [weak self] _, reply in
            guard let self else { return }
            self.switches.async { [weak self] in
                guard let self else { return }
                if let refusal = self.refusal {
                    reply.fail(refusal)
                    return
                }
                // Every export runs again, whether or not a theme file changed: a reload is how a
                // user asks for outputs deleted or edited by hand to be written again.
                if !self.reloadNow() { self.plugins.withLock { $0 }?.renderAgain() }
                reply.succeed([])
            }
        }
    }

    /// `ListPlugins() → a(ssa{sv})`: every plugin, darkman script and built-in format.
    var listPluginsMethod: Method {
        return Method(.listPlugins) { [weak self] _ in
            let rows = self?.plugins.withLock { $0 }?.list() ?? []
            return [
                .array(
                    element: PluginListing.signature,
                    rows.map {
                        PluginListing(
                            name: $0.name, kind: $0.kind, origin: $0.origin, path: $0.path,
                            enabled: $0.enabled,
                            errors: $0.errors, lastRun: $0.lastRun.map { Int64($0.timeIntervalSince1970) },
                            serial: $0.serial, result: $0.result
                        ).dbusValue
                    })
            ]
        }
    }

    /// `Changed` and `ThemeChanged`.
    static let signals = LiverySignal.all.map(\.description)

    /// `ActiveTheme`, `Serial`, `Version` and `Problems`.
    var properties: [Property] {
        let service = self.service
        return [
            Property(.activeTheme) { .string(service.activeTheme) },
            Property(.serial) { .uint32(service.serial) },
            Property(.variant) { .string(service.activeVariant) },
            Property(.version) { .string(LiveryBus.version) },
            Property(.problems) { [weak self] in .strings(self?.problems ?? []) },
        ]
    }

    /// Runs a switch (`SetTheme`, `Toggle`) on the switch queue and answers `reply` when it is
    /// published: `work` returns the change to publish and the reply's values, or throws the
    /// error reply. The active theme's problems are announced either way.
    func switchTheme(
        _ reply: PendingReply,
        _ work: @escaping @Sendable () throws(ServiceError) -> (ThemeService.Change?, [DBusValue])
    ) {
        switches.async { [weak self] in
            guard let self else { return }
            if let refusal = self.refusal {
                reply.fail(refusal)
                return
            }
            defer {
                self.announceProblems()
                ThemeService.returnFreedMemory()
            }
            do {
                let (change, values) = try work()
                if let change { self.publish(change) }
                self.service.savePending()
                reply.succeed(values)
            } catch {
                reply.fail(error)
            }
        }
    }

    /// Rescans themes and overrides and publishes what changed (the `Reload` method and live
    /// reload), after any switch queued before; returns when it is published (or refused after
    /// `retire`).
    public func reload() {
        switches.sync { if refusal == nil { reloadNow() } }
    }

    /// Queues a reload after the switches already queued and returns at once (live reload).
    /// While one is queued and not begun, another is not queued: the one waiting reads every
    /// file when it begins, so however often files change, reloads never pile up.
    public func reloadLater() {
        let queue = liveReloadQueued.withLock { queued in
            defer { queued = true }
            return !queued
        }
        guard queue else { return }
        switches.async { [weak self] in
            self?.liveReloadQueued.withLock { $0 = false }
            guard let self, self.refusal == nil else { return }
            self.reloadNow()
        }
    }

    /// Stops taking switches, because another instance took `org.livery.Livery1` over
    /// (`liveryd --replace`; the README's "Replacing a running liveryd" and `Handover` give
    /// the protocol): every switch, variant change and reload that has not started yet is
    /// refused (`AccessDenied`, nothing changed); the one under way finishes, saved before it
    /// is answered; then `done` runs on the switch queue, once the plugins have rendered the
    /// last change. Call it on the loop thread, where `NameLost` arrives after every call the
    /// bus routed here before the name moved.
    /// - Parameter done: What to do then: leave the bus.
    public func retire(then done: @escaping @Sendable () -> Void) {
        retired.store(true, ordering: .sequentiallyConsistent)
        switches.async { [weak self] in
            self?.plugins.withLock { $0 }?.drain()
            done()
        }
    }

    /// The error a switch gets after `retire`; nil before.
    var refusal: ServiceError? {
        guard retired.load(ordering: .sequentiallyConsistent) else { return nil }
        return ServiceError(
            .accessDenied,
            "this liveryd (\(connection.uniqueName)) was replaced by another instance and starts no more switches; "
                + "call \(LiveryBus.name) again")
    }

    /// A reload, on the switch queue.
    /// - Returns: whether a change was published (and so handed to the plugins).
    @discardableResult
    private func reloadNow() -> Bool {
        let change = service.reload()
        if let change { publish(change) }
        announceProblems()
        ThemeService.returnFreedMemory()
        return change != nil
    }

    /// Emits `PropertiesChanged` for `Problems` when it differs from what was last announced.
    func announceProblems() {
        let now = problems
        let before = announcedProblems.withLock { announced in
            defer { announced = now }
            return announced
        }
        guard before != now else { return }
        try? connection.emitPropertiesChanged(
            path: path, interface: interfaceName, changed: LiveryProperty.changed([.problems: .strings(now)]))
    }

    /// Emits `ThemeChanged(s id, u serial)` and `PropertiesChanged` for `ActiveTheme`, `Serial`
    /// and `Problems`.
    /// - Parameter change: The new active theme and serial, as `ThemeService` returned them.
    public func publish(_ change: ThemeService.Change) {
        // The watchers' `Changed` is computed and sent on the publication queue (the other core),
        // so that nothing here waits for the watched keys to resolve; the broadcasts below usually
        // reach the bus before it (dbus-monitor shows `ThemeChanged`, `PropertiesChanged` and the
        // portal's `SettingChanged` first). Holding them until the bus had routed `Changed` (a
        // round trip) did not shorten the fan-out (bench/README.md, "Watching"). Its order
        // against `ThemeChanged` is not part of the protocol (a watcher orders by serial).
        pendingEditedImages.withLock { $0.formUnion(change.editedImages) }
        publications.async { [weak self] in self?.publishWatches() }
        // The plugins' own queue renders and runs them: nothing here waits for one.
        plugins.withLock { $0 }?.published(service.activeCascade, serial: change.serial)
        let problems = self.problems
        announcedProblems.withLock { $0 = problems }
        do {
            try connection.emitSignal(
                path: path, interface: interfaceName, member: LiveryInterface.themeChangedMember,
                arguments: ThemeChangedSignal(theme: change.theme, serial: change.serial).arguments)
            try connection.emitPropertiesChanged(
                path: path, interface: interfaceName,
                changed: LiveryProperty.changed([
                    .activeTheme: .string(change.theme), .serial: .uint32(change.serial),
                    .variant: .string(service.activeVariant), .problems: .strings(problems),
                ]))
        } catch {
            service.log(.error, "cannot publish theme change: \(error)")
        }
        portal.withLock { $0 }?.publish()
        darkman.withLock { $0 }?.publish()
    }

    /// Keys recomputed between two checks for a newer change.
    static let publicationBatch = 256

    /// Sends the `Changed` signals of the newest published change, on the publication queue:
    /// recomputes every watched (path, app) below its serial in batches, broadcasts one
    /// `Changed` per key whose values changed, and marks the serial complete when none is left
    /// below it (keys watched meanwhile are recomputed too). A newer change stops it between two
    /// batches: its own run recomputes what is left, from the values last sent, so nobody sees
    /// a value go back or misses the last one.
    func publishWatches() {
        let (cascade, serial) = service.published
        guard serial > watches.completedSerial else { return }
        let edited = pendingEditedImages.withLock { $0 }
        // One scan for the keys to recompute, then batches of them; keys watched meanwhile are
        // found by the scan after the last batch.
        var pending: [WatchRegistry.Key] = []
        var steps: SwitchSteps? = SwitchSteps()
        while true {
            if service.serial != serial { return }  // superseded: the newer change's run is queued
            if pending.isEmpty {
                pending = watches.stale(below: serial).reversed()
                if pending.isEmpty {
                    if watches.complete(serial) { break }
                    continue
                }
            }
            let keys = Array(pending.suffix(LiveryInterface.publicationBatch).reversed())
            pending.removeLast(keys.count)
            var values: [WatchRegistry.Key: [String: Value]] = [:]
            for key in keys {
                values[key] = try? ThemeService.values(of: key.path, app: key.app, in: cascade)
            }
            steps?.mark("resolve")
            for (key, changes) in watches.commit(values, serial: serial, editedImages: edited, keys: keys) {
                do {
                    try connection.emitSignal(
                        path: path, interface: interfaceName, member: LiveryInterface.changedMember,
                        arguments: ChangedSignal(
                            path: key.path, app: key.app ?? "", serial: serial,
                            values: PropertyValues(sorted: changes)
                        ).arguments)
                } catch {
                    service.log(.warning, "cannot send Changed for \(key.path): \(error)")
                }
            }
            if var first = steps, .debug <= service.log.threshold {
                first.mark("send")
                service.log(.debug, "serial \(serial)'s first batch of \(keys.count) keys: \(first.summary)")
            }
            steps = nil
        }
        pendingEditedImages.withLock { $0.subtract(edited) }
    }

    /// Gives memory back to the system after many watches went: the active theme's resolved
    /// styles when nobody watches anything any more, then what malloc keeps (`malloc_trim`).
    func releaseFreedMemory() {
        if watches.watchedCount == 0 { service.forgetResolvedStyles() }
        ThemeService.returnFreedMemory()
    }

    /// Notes that a client's last watches went: memory is given back when the watch queue is
    /// idle.
    func memoryFreed() { freedMemory.store(true, ordering: .releasing) }

    static let changedMember = LiverySignal.changed.member
    static let themeChangedMember = LiverySignal.themeChanged.member

    /// Follows the unique name of a client of `Watch` or `Unwatch`, so that its waiting calls
    /// and its watches go when it leaves the bus (the `OwnerWatch.departures` match, added at
    /// `export`).
    func followOwner(_ owner: String) {
        _ = watcher.insert(owner)
    }

    /// Drops the calls a client that left has waiting, unanswered, and releases every watch
    /// it holds once the step in progress is done (the bus routes a client's messages before
    /// its leaving, so none of its calls comes after).
    func release(_ owner: String) {
        calls.depart(owner) { [weak self] dropped in
            guard let self else { return }
            let released = self.watches.removeAll(of: owner)
            _ = self.watcher.remove(owner)
            self.service.log(
                .debug,
                "\(owner) left the bus; released \(released) watch(es), dropped \(dropped) waiting call(s)")
            if released > 0 { self.memoryFreed() }
        }
    }

    /// Reads the `app` option (`s`) of an `a{sv}` options dictionary.
    /// - Throws: `InvalidArgs` when `app` is not a string.
    static func app(_ options: DBusValue) throws(DBusError) -> String? {
        guard let dict = options.stringVariantDictionary, let app = dict["app"] else { return nil }
        guard let s = app.variantValue.string else {
            throw DBusError(.invalidArgs, "option 'app' must be a string (s)")
        }
        return s.isEmpty ? nil : s
    }

    /// The bus form of one installed theme.
    static func listing(_ l: ThemeService.Listing) -> ThemeListing {
        ThemeListing(
            id: l.metadata.id, name: l.metadata.name, variant: l.metadata.variant,
            description: l.metadata.description, path: l.metadata.path, format: l.metadata.format,
            valid: l.valid, errors: l.errors, checked: l.checked, inherits: l.metadata.inherits,
            accentColor: l.metadata.accentColor?.hex)
    }
}

/// The unique names whose `NameOwnerChanged` the daemon follows.
final class OwnerWatch: Sendable {
    private let names = Mutex<Set<String>>([])

    /// - Returns: true when the name was not watched yet.
    func insert(_ name: String) -> Bool { names.withLock { $0.insert(name).inserted } }
    /// Whether the name is followed.
    func contains(_ name: String) -> Bool { names.withLock { $0.contains(name) } }
    /// - Returns: true when the name was watched.
    func remove(_ name: String) -> Bool { names.withLock { $0.remove(name) != nil } }

    /// Every unique name that loses its owner: a client leaving the bus.
    static let departures =
        "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',"
        + "path='/org/freedesktop/DBus',arg2=''"
}

/// Replies to `Resolve` by the call's marshalled body (its path, properties and options, so
/// the application too), marshalled once, for one theme generation at a time and bounded in
/// size; a new generation empties it.
final class ReplyCache: Sendable {
    private struct State {
        /// Held, not just identified, so that a freed generation's address cannot be mistaken
        /// for a new one.
        var generation: (AnyObject & Sendable)?
        var replies: [Key: PreparedValues] = [:]
    }
    private let state = Mutex(State())
    /// Entries kept at most before the cache starts over.
    static let capacity = 4096
    /// Bodies longer than this are answered but not kept (a path of `Limits.pathBytes` and a
    /// few properties fit): at most `capacity` × this many bytes of keys.
    static let maximumKeyBytes = 4096

    /// A call's marshalled body (`MethodInvocation.marshalledBody`), hashed as one run of bytes.
    struct Key: Hashable {
        let bytes: [UInt8]
        init(_ bytes: [UInt8]) { self.bytes = bytes }
        func hash(into hasher: inout Hasher) {
            bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }

    func lookup(_ g: AnyObject & Sendable, _ key: Key) -> PreparedValues? {
        state.withLock { $0.generation === g ? $0.replies[key] : nil }
    }

    func store(_ g: AnyObject & Sendable, _ key: Key, _ reply: PreparedValues) {
        guard key.bytes.count <= ReplyCache.maximumKeyBytes else { return }
        state.withLock {
            if $0.generation !== g || $0.replies.count >= ReplyCache.capacity {
                $0.replies.removeAll(keepingCapacity: true)
                $0.generation = g
            }
            $0.replies[key] = reply
        }
    }
}
