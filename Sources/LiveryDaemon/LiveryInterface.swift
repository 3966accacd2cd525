import Foundation
import LiveryAPI
import LiveryCore
import LiveryDBus
import Synchronization

/// Maps `org.livery.Livery1` onto a `ThemeService` and publishes its changes.
public final class LiveryInterface: Sendable {
    /// The model the methods call into.
    public let service: ThemeService
    /// The live subscriptions made with `Subscribe`.
    public let subscriptions = SubscriptionRegistry()
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
    /// The desktop portal backend, told of every published change.
    let portal = Mutex<PortalBackend?>(nil)

    /// Publishes to the portal backend too from now on.
    /// - Parameter backend: The started portal backend; it replaces any attached before.
    public func attach(_ backend: PortalBackend) { portal.withLock { $0 = backend } }
    /// The plugin runner, told of every published change.
    let plugins = Mutex<PluginRunner?>(nil)

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
        self.announcedProblems = Mutex(service.problems)
        self.connection = connection
        self.path = LiveryBus.objectPath
        self.interfaceName = LiveryBus.interfaceName
    }

    /// Exports the object with its interface at `/org/livery/Livery1`.
    /// - Throws: `DBusError` `org.freedesktop.DBus.Error.ObjectPathInUse` when something is
    ///   already exported there.
    public func export() throws(DBusError) {
        try connection.export([interface], at: path)
    }

    /// The interface description: methods, signals and properties with their signatures (the
    /// interface file `org.livery.Livery1.xml` of LiveryAPI says the same, in the same order).
    var interface: Interface {
        Interface(
            interfaceName,
            methods: [
                listThemesMethod, setThemeMethod, resolveMethod, resolveManyMethod, explainMethod,
                toggleMethod,
                subscribeMethod, unsubscribeMethod, reloadMethod, listPluginsMethod,
            ],
            signals: LiveryInterface.signals, properties: properties)
    }

    /// `ListThemes() → a(ssa{sv})`: every installed theme, checked or not.
    var listThemesMethod: Method {
        let service = self.service
        return Method("ListThemes", outputs: [Argument("themes", "a(ssa{sv})")]) { _ in
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
        return Method.deferred("SetTheme", inputs: [Argument("id", "s")]) { [weak self] call, reply in
            let id = call.arguments[0].string ?? ""
            self?.switchTheme(reply) { () throws(ServiceError) in (try service.setTheme(id), []) }
        }
    }

    /// `Resolve(s path, as properties, a{sv} options) → a{sv}`: on the loop thread, from the reply
    /// cache when the same call was answered in this theme generation.
    var resolveMethod: Method {
        let service = self.service
        return Method.prepared(
            "Resolve",
            inputs: [
                Argument("path", "s"), Argument("properties", "as"), Argument("options", "a{sv}"),
            ],
            outputs: [Argument("values", "a{sv}")]
        ) { [replies] call in
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
        return Method(
            "ResolveMany", inputs: [Argument("requests", "a(sas)"), Argument("options", "a{sv}")],
            outputs: [Argument("values", "aa{sv}")]
        ) { call in
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
        return Method.deferred(
            "Explain",
            inputs: [Argument("path", "s"), Argument("property", "s"), Argument("options", "a{sv}")],
            outputs: [Argument("candidates", "aa{sv}")]
        ) { call, reply in
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

    /// `Toggle() → s`: the other variant, answered from the switch queue.
    var toggleMethod: Method {
        let service = self.service
        return Method.deferred("Toggle", outputs: [Argument("id", "s")]) { [weak self] _, reply in
            self?.switchTheme(reply) { () throws(ServiceError) in
                let (id, change) = try service.toggle()
                return (change, [.string(id)])
            }
        }
    }

    /// `Subscribe(as paths, as properties, a{sv} options) → (u id, a{sa{sv}} current)`.
    var subscribeMethod: Method {
        let service = self.service
        return Method(
            "Subscribe",
            inputs: [
                Argument("paths", "as"), Argument("properties", "as"), Argument("options", "a{sv}"),
            ],
            outputs: [Argument("id", "u"), Argument("current", "a{sa{sv}}")]
        ) { [weak self] call in
            guard let self else { return [] }
            let app = try LiveryInterface.app(call.arguments[2])
            let paths = call.arguments[0].stringArray ?? []
            let properties = call.arguments[1].stringArray ?? []
            let s = try self.subscriptions.add(
                owner: call.sender, paths: paths, properties: properties, app: app
            ) { () throws(ServiceError) in
                try service.snapshot(paths: paths, properties: properties, app: app)
            }
            self.watch(call.sender)
            return SubscribeReply(id: s.id, current: ComponentValues(s.values)).arguments
        }
    }

    /// `Unsubscribe(u id)`.
    var unsubscribeMethod: Method {
        return Method("Unsubscribe", inputs: [Argument("id", "u")]) { [weak self] call in
            guard let self else { return [] }
            try self.subscriptions.remove(call.arguments[0].uint32 ?? 0, owner: call.sender)
            if self.subscriptions.count(of: call.sender) == 0 { self.unwatch(call.sender) }
            return []
        }
    }

    /// `Reload()`: rescans the themes, answered from the switch queue after the switches before.
    var reloadMethod: Method {
        return Method.deferred("Reload") { [weak self] _, reply in
            guard let self else { return }
            self.switches.async { [weak self] in
                self?.reloadNow()
                reply.succeed([])
            }
        }
    }

    /// `ListPlugins() → a(ssa{sv})`: every plugin, darkman script and built-in format.
    var listPluginsMethod: Method {
        return Method("ListPlugins", outputs: [Argument("plugins", "a(ssa{sv})")]) { [weak self] _ in
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
    static let signals: [SignalDescription] = [
        SignalDescription(
            ChangedSignal.member,
            arguments: [
                Argument("id", "u"), Argument("serial", "u"), Argument("changes", "a{sa{sv}}"),
            ]),
        SignalDescription(
            ThemeChangedSignal.member, arguments: [Argument("id", "s"), Argument("serial", "u")]),
    ]

    /// `ActiveTheme`, `Serial`, `Version` and `Problems`.
    var properties: [Property] {
        let service = self.service
        return [
            Property(LiveryProperty.activeTheme.rawValue, "s") { .string(service.activeTheme) },
            Property(LiveryProperty.serial.rawValue, "u") { .uint32(service.serial) },
            Property(LiveryProperty.version.rawValue, "s", emitsChangedSignal: false) {
                .string(LiveryBus.version)
            },
            Property(LiveryProperty.problems.rawValue, "as") { [weak self] in .strings(self?.problems ?? [])
            },
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
            defer {
                self?.announceProblems()
                ThemeService.returnFreedMemory()
            }
            do {
                let (change, values) = try work()
                if let change { self?.publish(change) }
                reply.succeed(values)
            } catch {
                reply.fail(error)
            }
        }
    }

    /// Rescans themes and overrides and publishes what changed (the `Reload` method and live
    /// reload), after any switch queued before; returns when it is published.
    public func reload() {
        switches.sync { reloadNow() }
    }

    /// Queues a reload after the switches already queued and returns at once (live reload).
    public func reloadLater() {
        switches.async { [weak self] in self?.reloadNow() }
    }

    /// A reload, on the switch queue.
    private func reloadNow() {
        if let change = service.reload() { publish(change) }
        announceProblems()
        ThemeService.returnFreedMemory()
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
            path: path, interface: interfaceName, changed: ["Problems": .strings(now)])
    }

    /// Emits `ThemeChanged(s id, u serial)` and `PropertiesChanged` for `ActiveTheme`, `Serial`
    /// and `Problems`.
    /// - Parameter change: The new active theme and serial, as `ThemeService` returned them.
    public func publish(_ change: ThemeService.Change) {
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
                changed: [
                    "ActiveTheme": .string(change.theme), "Serial": .uint32(change.serial),
                    "Problems": .strings(problems),
                ])
        } catch {
            service.log(.error, "cannot publish theme change: \(error)")
        }
        portal.withLock { $0 }?.publish()
        let service = self.service
        let deliveries = subscriptions.update(editedImages: change.editedImages) { r in
            service.resolvableSnapshot(paths: r.paths, properties: r.properties, app: r.app)
        }
        // Subscribers asking for the same things get the same changes: encode and validate them
        // once per group; each message differs only in its destination and subscription id.
        for d in deliveries {
            let signal: FanOutSignal
            do {
                signal = try FanOutSignal(
                    path: path, interface: interfaceName, member: LiveryInterface.changedMember,
                    arguments: ChangedSignal(
                        id: 0, serial: change.serial, changes: ComponentValues(d.changes)
                    )
                    .arguments)
            } catch {
                service.log(.error, "cannot encode Changed: \(error)")
                continue
            }
            for r in d.recipients {
                do {
                    try connection.emit(signal, first: r.id, destination: try BusName(r.owner))
                } catch {
                    service.log(.warning, "cannot send Changed to \(r.owner): \(error)")
                }
            }
        }
    }

    static let changedMember = try! MemberName(ChangedSignal.member)
    static let themeChangedMember = try! MemberName(ThemeChangedSignal.member)

    /// Follows a subscriber's unique name with a `NameOwnerChanged` match, so its
    /// subscriptions go when it leaves the bus.
    func watch(_ owner: String) {
        guard watcher.insert(owner) else { return }
        let rule = OwnerWatch.rule(for: owner)
        do {
            try connection.addMatch(rule) { [weak self] message in
                guard let self, NameOwnerChange(decoding: message.arguments)?.newOwner == "" else { return }
                let dropped = self.subscriptions.removeAll(of: owner)
                self.unwatch(owner)
                self.service.log(.debug, "\(owner) left the bus; dropped \(dropped) subscription(s)")
            }
            // The client may have gone between its call and the match: ask the bus.
            _ = try connection.nameOwner(owner)
        } catch {
            subscriptions.removeAll(of: owner)
            unwatch(owner)
        }
    }

    func unwatch(_ owner: String) {
        guard watcher.remove(owner) else { return }
        try? connection.removeMatch(OwnerWatch.rule(for: owner))
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
    /// - Returns: true when the name was watched.
    func remove(_ name: String) -> Bool { names.withLock { $0.remove(name) != nil } }

    static func rule(for owner: String) -> String {
        "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',"
            + "path='/org/freedesktop/DBus',arg0='\(owner)'"
    }
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
