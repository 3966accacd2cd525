import Foundation
import LiveryCore
import LiveryDBus

/// The names of Livery's bus API (DESIGN §5).
public enum LiveryBus {
    /// The well-known bus name the daemon owns.
    public static let name = "org.livery.Livery1"
    /// The object path of the one exported object.
    public static let path = "/org/livery/Livery1"
    /// The interface name.
    public static let interface = "org.livery.Livery1"
    /// The daemon's version, published as the `Version` property.
    public static let version = "0.1.0"
}

extension Value {
    /// The D-Bus form of DESIGN §5: colour `s` `#rrggbbaa`; image `s` absolute path (empty for
    /// none); length, number `d`; duration `d` seconds; keyword and string `s`; size `(dd)`;
    /// insets `(dddd)` top, right, bottom, left.
    public var dbusValue: DBusValue {
        switch self {
        case .color(let c): .string(c.hex)
        case .image(let p): .string(p ?? "")
        case .length(let v), .number(let v), .duration(let v): .double(v)
        case .keyword(let k): .string(k)
        case .string(let s): .string(s)
        case .size(let w, let h): .structure([.double(w), .double(h)])
        case .insets(let t, let r, let b, let l):
            .structure([.double(t), .double(r), .double(b), .double(l)])
        }
    }
}

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
    let announcedProblems: LockedBox<[String]>
    /// Where switches run, one at a time in the order they were asked for: reading and compiling
    /// a theme, then publishing the change, away from the loop thread, which goes on answering
    /// (`Resolve` gets the old theme until the new one is in place). Publishing from this one
    /// queue keeps the signals in serial order.
    let switches = DispatchQueue(label: "org.livery.switch")
    /// The desktop portal backend, told of every published change.
    let portal: LockedBox<PortalBackend?> = LockedBox(nil)

    /// Publishes to the portal backend too from now on.
    /// - Parameter backend: The started portal backend; it replaces any attached before.
    public func attach(_ backend: PortalBackend) { _ = portal.exchange(backend) }

    /// Maps `service` onto `connection`; nothing is exported until `export()`.
    /// - Parameters:
    ///   - service: The model to serve.
    ///   - connection: The bus connection to export on and emit signals from.
    /// - Throws: `DBusError` if the fixed names fail validation (they do not).
    public init(service: ThemeService, connection: Connection) throws(DBusError) {
        self.service = service
        self.announcedProblems = LockedBox(service.problems)
        self.connection = connection
        self.path = try ObjectPath(LiveryBus.path)
        self.interfaceName = try InterfaceName(LiveryBus.interface)
    }

    /// Exports the object with its interface at `/org/livery/Livery1`.
    /// - Throws: `DBusError` `org.freedesktop.DBus.Error.ObjectPathInUse` when something is
    ///   already exported there.
    public func export() throws(DBusError) {
        try connection.export([interface], at: path)
    }

    /// The interface description: methods, signals and properties with their signatures.
    var interface: Interface {
        let service = self.service
        return Interface(
            interfaceName,
            methods: [
                Method("ListThemes", outputs: [Argument("themes", "a(ssa{sv})")]) { _ in
                    [.array(element: "(ssa{sv})", service.listThemes().map(LiveryInterface.listing))]
                },
                Method.deferred("SetTheme", inputs: [Argument("id", "s")]) { [weak self] call, reply in
                    let id = call.arguments[0].string ?? ""
                    self?.switchTheme(reply) { () throws(ServiceError) in (try service.setTheme(id), []) }
                },
                Method.prepared(
                    "Resolve",
                    inputs: [
                        Argument("path", "s"), Argument("properties", "as"), Argument("options", "a{sv}"),
                    ],
                    outputs: [Argument("values", "a{sv}")]
                ) { [replies] call in
                    // One snapshot of the theme for the lookup and the store; the key is the
                    // call's body, so a repeated call is answered before its arguments are read.
                    let cascade = service.activeCascade
                    let key = ReplyCache.Key(call.marshalledBody)
                    if let hit = replies.lookup(cascade.generation, key) { return hit }
                    let app = try LiveryInterface.app(call.arguments[2])
                    let path = call.arguments[0].string ?? ""
                    let properties = call.arguments[1].stringArray ?? []
                    let values = try ThemeService.resolve(path, properties: properties, app: app, in: cascade)
                    let reply = try PreparedValues([LiveryInterface.dictionary(values)])
                    replies.store(cascade.generation, key, reply)
                    return reply
                },
                Method(
                    "ResolveMany", inputs: [Argument("requests", "a(sas)"), Argument("options", "a{sv}")],
                    outputs: [Argument("values", "aa{sv}")]
                ) { call in
                    let app = try LiveryInterface.app(call.arguments[1])
                    let items = (call.arguments[0].array ?? []).map {
                        item -> (path: String, properties: [String]) in
                        let fields = item.structureFields ?? []
                        return (
                            fields.first?.string ?? "", fields.count > 1 ? fields[1].stringArray ?? [] : []
                        )
                    }
                    let results = try service.resolveMany(items, app: app)
                    return [.array(element: "a{sv}", results.map(LiveryInterface.dictionary))]
                },
                Method(
                    "Explain",
                    inputs: [Argument("path", "s"), Argument("property", "s"), Argument("options", "a{sv}")],
                    outputs: [Argument("candidates", "aa{sv}")]
                ) { call in
                    let app = try LiveryInterface.app(call.arguments[2])
                    let e = try service.explain(
                        call.arguments[0].string ?? "", property: call.arguments[1].string ?? "", app: app)
                    return [.array(element: "a{sv}", LiveryInterface.explanation(e))]
                },
                Method.deferred("Toggle", outputs: [Argument("id", "s")]) { [weak self] _, reply in
                    self?.switchTheme(reply) { () throws(ServiceError) in
                        let (id, change) = try service.toggle()
                        return (change, [.string(id)])
                    }
                },
                Method(
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
                    return [.uint32(s.id), LiveryInterface.snapshot(s.values)]
                },
                Method("Unsubscribe", inputs: [Argument("id", "u")]) { [weak self] call in
                    guard let self else { return [] }
                    try self.subscriptions.remove(call.arguments[0].uint32 ?? 0, owner: call.sender)
                    if self.subscriptions.count(of: call.sender) == 0 { self.unwatch(call.sender) }
                    return []
                },
                Method.deferred("Reload") { [weak self] _, reply in
                    guard let self else { return }
                    self.switches.async { [weak self] in
                        self?.reloadNow()
                        reply.succeed([])
                    }
                },
            ],
            signals: [
                SignalDescription(
                    "Changed",
                    arguments: [
                        Argument("id", "u"), Argument("serial", "u"), Argument("changes", "a{sa{sv}}"),
                    ]),
                SignalDescription("ThemeChanged", arguments: [Argument("id", "s"), Argument("serial", "u")]),
            ],
            properties: [
                Property("ActiveTheme", "s") { .string(service.activeTheme) },
                Property("Serial", "u") { .uint32(service.serial) },
                Property("Version", "s", emitsChangedSignal: false) { .string(LiveryBus.version) },
                Property("Problems", "as") { .strings(service.problems) },
            ])
    }

    /// Runs a switch (`SetTheme`, `Toggle`) on the switch queue and answers `reply` when it is
    /// published: `work` returns the change to publish and the reply's values, or throws the
    /// error reply. The active theme's problems are announced either way.
    func switchTheme(
        _ reply: PendingReply, _ work: @escaping @Sendable () throws(ServiceError) -> (ThemeService.Change?, [DBusValue])
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
        let now = service.problems
        guard announcedProblems.exchange(now) != now else { return }
        try? connection.emitPropertiesChanged(
            path: path, interface: interfaceName, changed: ["Problems": .strings(now)])
    }

    /// Emits `ThemeChanged(s id, u serial)` and `PropertiesChanged` for `ActiveTheme`, `Serial`
    /// and `Problems`.
    /// - Parameter change: The new active theme and serial, as `ThemeService` returned them.
    public func publish(_ change: ThemeService.Change) {
        let problems = service.problems
        _ = announcedProblems.exchange(problems)
        do {
            try connection.emitSignal(
                path: path, interface: interfaceName, member: try MemberName("ThemeChanged"),
                arguments: [.string(change.theme), .uint32(change.serial)])
            try connection.emitPropertiesChanged(
                path: path, interface: interfaceName,
                changed: [
                    "ActiveTheme": .string(change.theme), "Serial": .uint32(change.serial),
                    "Problems": .strings(problems),
                ])
        } catch {
            service.log(.error, "cannot publish theme change: \(error)")
        }
        portal.current?.publish()
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
                    arguments: [.uint32(0), .uint32(change.serial), LiveryInterface.snapshot(d.changes)])
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

    static let changedMember = try! MemberName("Changed")

    /// Follows a subscriber's unique name with a `NameOwnerChanged` match (DESIGN §9), so its
    /// subscriptions go when it leaves the bus.
    func watch(_ owner: String) {
        guard watcher.insert(owner) else { return }
        let rule = OwnerWatch.rule(for: owner)
        do {
            try connection.addMatch(rule) { [weak self] message in
                guard let self, message.arguments.count == 3, message.arguments[2].string == "" else {
                    return
                }
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

    /// `a{sa{sv}}`: path → property → value.
    static func snapshot(_ s: StyleSnapshot) -> DBusValue {
        .dictionary(
            key: "s", value: "a{sv}",
            s.keys.sorted().map { path in
                DBusDictEntry(
                    key: .string(path),
                    value: .dictionary(
                        key: "s", value: "v",
                        s[path]!.keys.sorted().map {
                            DBusDictEntry(key: .string($0), value: .variant(s[path]![$0]!.dbusValue))
                        }))
            })
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

    static func dictionary(_ values: [(property: String, value: Value)]) -> DBusValue {
        .dictionary(
            key: "s", value: "v",
            values.map { DBusDictEntry(key: .string($0.property), value: .variant($0.value.dbusValue)) })
    }

    /// `aa{sv}`: one dictionary per matching declaration in cascade order (lowest first) with
    /// `kind` "declaration", `origin` "file:line:col", `file` s, `line` u, `column` u, `selector`
    /// s, `layer` s (theme, user, app), `app` s when from an `@app` block, `specificity` (uuu),
    /// `value` v, `winner` b, `reason` s (why it lost); or, when none matched, one dictionary with
    /// `kind` "inherited" (and `from`, the container's path) or "initial", and `value`.
    static func explanation(_ e: Explanation) -> [DBusValue] {
        guard !e.candidates.isEmpty else {
            var d: [String: DBusValue] = ["value": e.value.dbusValue]
            switch e.origin {
            case .inherited(let from):
                d["kind"] = .string("inherited")
                d["from"] = .string(from)
            default:
                d["kind"] = .string("initial")
            }
            return [.dict(d)]
        }
        return e.candidates.enumerated().map { i, c in
            var d: [String: DBusValue] = [
                "kind": .string("declaration"), "origin": .string(c.location.description),
                "file": .string(c.location.file), "line": .uint32(UInt32(c.location.line)),
                "column": .uint32(UInt32(c.location.column)), "selector": .string(c.selector),
                "layer": .string(c.layer.description),
                "specificity": .structure([
                    .uint32(UInt32(c.specificity.ids)), .uint32(UInt32(c.specificity.classes)),
                    .uint32(UInt32(c.specificity.types)),
                ]),
                "value": c.value.dbusValue, "winner": .boolean(c.won), "reason": .string(c.reason),
            ]
            if let app = c.app { d["app"] = .string(app) }
            if i == 0 && e.omittedCandidates > 0 { d["omitted"] = .uint32(UInt32(clamping: e.omittedCandidates)) }
            return .dict(d)
        }
    }

    /// `(ssa{sv})`: id, name, and metadata: variant, description, path, format, valid, errors,
    /// inherits, accent-color.
    static func listing(_ l: ThemeService.Listing) -> DBusValue {
        var meta: [String: DBusValue] = [
            "variant": .string(l.metadata.variant), "description": .string(l.metadata.description),
            "path": .string(l.metadata.path), "format": .string(l.metadata.format),
            "valid": .boolean(l.valid),
            "errors": .strings(l.errors),
            "checked": .boolean(l.checked),
        ]
        if let i = l.metadata.inherits { meta["inherits"] = .string(i) }
        if let a = l.metadata.accentColor { meta["accent-color"] = .string(a.hex) }
        return .structure([.string(l.metadata.id), .string(l.metadata.name), .dict(meta)])
    }
}

/// The unique names whose `NameOwnerChanged` the daemon follows.
final class OwnerWatch: @unchecked Sendable {
    // Safe to share: `names` is only touched with `lock` held.
    private let lock = NSLock()
    private var names: Set<String> = []

    /// - Returns: true when the name was not watched yet.
    func insert(_ name: String) -> Bool { lock.withLock { names.insert(name).inserted } }
    /// - Returns: true when the name was watched.
    func remove(_ name: String) -> Bool { lock.withLock { names.remove(name) != nil } }

    static func rule(for owner: String) -> String {
        "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',"
            + "path='/org/freedesktop/DBus',arg0='\(owner)'"
    }
}

/// Replies to `Resolve` by the call's marshalled body (its path, properties and options, so
/// the application too), marshalled once, for one theme generation at a time and bounded in
/// size; a new generation empties it.
final class ReplyCache: @unchecked Sendable {
    // Safe to share: all state is only touched with `lock` held.
    private let lock = NSLock()
    /// Held, not just identified, so that a freed generation's address cannot be mistaken for a
    /// new one.
    private var generation: (AnyObject & Sendable)?
    private var replies: [Key: PreparedValues] = [:]
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
        lock.withLock { generation === g ? replies[key] : nil }
    }

    func store(_ g: AnyObject & Sendable, _ key: Key, _ reply: PreparedValues) {
        guard key.bytes.count <= ReplyCache.maximumKeyBytes else { return }
        lock.withLock {
            if generation !== g || replies.count >= ReplyCache.capacity {
                replies.removeAll(keepingCapacity: true)
                generation = g
            }
            replies[key] = reply
        }
    }
}
