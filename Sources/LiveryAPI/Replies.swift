import LiveryCore
import LiveryDBus

// The typed form of every argument list the client reads, each with the encoding the daemon
// sends, so that the two are one piece of code. Decoding is lenient, as a reader of a{sv}
// metadata must be: a missing or mistyped field reads as its default (empty, 0, or the value
// named on the field), never as a crash.

/// One installed theme, as an element `(ssa{sv})` of `ListThemes`' reply: id, name, and a
/// metadata dictionary with `variant`, `description`, `path`, `format` (s), `valid`, `checked`
/// (b), `errors` (as), and, when known, `inherits` and `accent-color` (s).
public struct ThemeListing: Sendable, Equatable {
    /// The theme id.
    public var id: String
    /// The display name.
    public var name: String
    /// `light` or `dark`.
    public var variant: String
    /// The description from its `@theme` block.
    public var description: String
    /// Where the theme was read from.
    public var path: String
    /// The name of the format that read it.
    public var format: String
    /// Whether it compiles without errors; true when not sent.
    public var valid: Bool
    /// Its errors, one rendered line each.
    public var errors: [String]
    /// Whether the daemon has checked it yet; true when not sent.
    public var checked: Bool
    /// The parent theme's id.
    public var inherits: String?
    /// The accent colour, `#rrggbbaa`.
    public var accentColor: String?

    /// A listing with every field given.
    public init(
        id: String, name: String, variant: String, description: String, path: String, format: String,
        valid: Bool, errors: [String], checked: Bool, inherits: String?, accentColor: String?
    ) {
        self.id = id
        self.name = name
        self.variant = variant
        self.description = description
        self.path = path
        self.format = format
        self.valid = valid
        self.errors = errors
        self.checked = checked
        self.inherits = inherits
        self.accentColor = accentColor
    }

    /// The element signature in `ListThemes`' reply `a(ssa{sv})`.
    public static let signature: Signature = "(ssa{sv})"

    /// Decodes one `(ssa{sv})`.
    public init(decoding value: DBusValue) {
        let fields = value.structureFields ?? []
        func field(_ i: Int) -> DBusValue? { i < fields.count ? fields[i] : nil }
        let meta = field(2)?.stringVariantDictionary ?? [:]
        func string(_ key: String) -> String? { meta[key]?.variantValue.string }
        self.init(
            id: field(0)?.string ?? "", name: field(1)?.string ?? "", variant: string("variant") ?? "",
            description: string("description") ?? "", path: string("path") ?? "",
            format: string("format") ?? "", valid: meta["valid"]?.variantValue.bool ?? true,
            errors: meta["errors"]?.variantValue.stringArray ?? [],
            checked: meta["checked"]?.variantValue.bool ?? true, inherits: string("inherits"),
            accentColor: string("accent-color"))
    }

    /// Decodes `ListThemes`' reply.
    /// - Parameter reply: The reply's arguments, `a(ssa{sv})`.
    /// - Returns: The themes in the order sent.
    public static func list(decoding reply: [DBusValue]) -> [ThemeListing] {
        (reply.first?.array ?? []).map(ThemeListing.init(decoding:))
    }

    /// The metadata dictionary's entries, before wrapping in variants.
    public var metadata: [String: DBusValue] {
        var meta: [String: DBusValue] = [
            "variant": .string(variant), "description": .string(description), "path": .string(path),
            "format": .string(format), "valid": .boolean(valid), "errors": .strings(errors),
            "checked": .boolean(checked),
        ]
        if let inherits { meta["inherits"] = .string(inherits) }
        if let accentColor { meta["accent-color"] = .string(accentColor) }
        return meta
    }

    /// `(ssa{sv})`.
    public var dbusValue: DBusValue { .structure([.string(id), .string(name), .dict(metadata)]) }
}

/// One item `(sas)` of `ResolveMany`'s request: a path and the properties asked.
public struct ResolveRequest: Sendable, Equatable {
    /// The component path.
    public var path: String
    /// The properties; empty for every property of the type.
    public var properties: [String]

    /// A request for `properties` of `path`.
    public init(path: String, properties: [String]) {
        self.path = path
        self.properties = properties
    }

    /// Decodes one `(sas)`.
    public init(decoding value: DBusValue) {
        let fields = value.structureFields ?? []
        path = fields.first?.string ?? ""
        properties = fields.count > 1 ? fields[1].stringArray ?? [] : []
    }

    /// `(sas)`.
    public var dbusValue: DBusValue { .structure([.string(path), .strings(properties)]) }
}

/// One element `a{sv}` of `Explain`'s reply `aa{sv}`.
///
/// A declaration has `kind` "declaration", `origin` "file:line:col", `file` s, `line` u,
/// `column` u, `selector` s, `layer` s (theme, user, app), `app` s when from an `@app` block,
/// `specificity` (uuu), `value` v, `winner` b, `reason` s (why it lost), and on the first,
/// `omitted` u when candidates of lower precedence were left out. When none matched there is
/// one element with `kind` "inherited" (and `from`, the container's path) or "initial", and
/// `value`.
public struct ExplainEntry: Sendable, Equatable {
    /// What the entry is.
    public enum Kind: String, Sendable {
        /// A declaration that matched the component.
        case declaration
        /// No declaration matched; the value came from a container.
        case inherited
        /// No declaration matched; the value is the schema's initial one.
        case initial
    }

    /// What the entry is; an unknown kind reads as a declaration.
    public var kind: Kind
    /// The value the declaration sets, or the inherited or initial value.
    public var value: DBusValue
    /// For `inherited`: the container's path.
    public var from: String = ""
    /// `file:line:col` of the declaration.
    public var origin: String = ""
    /// The file of the declaration.
    public var file: String = ""
    /// Its line, from 1.
    public var line: UInt32 = 0
    /// Its column, from 1.
    public var column: UInt32 = 0
    /// The rule's selector.
    public var selector: String = ""
    /// `theme`, `user` or `app`.
    public var layer: String = ""
    /// The application of the `@app` block it is in.
    public var app: String?
    /// (ids, classes and states, types).
    public var specificity: (ids: UInt32, classes: UInt32, types: UInt32) = (0, 0, 0)
    /// Whether it gives the property its value.
    public var winner = false
    /// Why it lost; empty for the winner.
    public var reason: String = ""
    /// On the first entry: how many candidates of lower precedence were left out.
    public var omitted: UInt32?

    /// An entry of `kind` with `value`; the other fields as set after.
    public init(_ kind: Kind, value: DBusValue) {
        self.kind = kind
        self.value = value
    }

    public static func == (a: ExplainEntry, b: ExplainEntry) -> Bool { a.fields == b.fields }

    /// The entries for an explanation, the daemon's encoding.
    public static func entries(for e: Explanation) -> [ExplainEntry] {
        guard !e.candidates.isEmpty else {
            var entry = ExplainEntry(.initial, value: e.value.dbusValue)
            if case .inherited(let from) = e.origin {
                entry.kind = .inherited
                entry.from = from
            }
            return [entry]
        }
        return e.candidates.enumerated().map { i, c in
            var d = ExplainEntry(.declaration, value: c.value.dbusValue)
            d.origin = c.location.description
            d.file = c.location.file
            d.line = UInt32(c.location.line)
            d.column = UInt32(c.location.column)
            d.selector = c.selector
            d.layer = c.layer.description
            d.app = c.app
            d.specificity = (
                UInt32(c.specificity.ids), UInt32(c.specificity.classes), UInt32(c.specificity.types)
            )
            d.winner = c.won
            d.reason = c.reason
            if i == 0 && e.omittedCandidates > 0 { d.omitted = UInt32(clamping: e.omittedCandidates) }
            return d
        }
    }

    /// Decodes one `a{sv}`.
    public init(decoding value: DBusValue) {
        let d = (value.stringVariantDictionary ?? [:]).mapValues(\.variantValue)
        kind = d["kind"]?.string.flatMap(Kind.init(rawValue:)) ?? .declaration
        self.value = d["value"] ?? .string("")
        from = d["from"]?.string ?? ""
        origin = d["origin"]?.string ?? ""
        file = d["file"]?.string ?? ""
        line = d["line"]?.uint32 ?? 0
        column = d["column"]?.uint32 ?? 0
        selector = d["selector"]?.string ?? ""
        layer = d["layer"]?.string ?? ""
        app = d["app"]?.string
        let s = (d["specificity"]?.structureFields ?? []).map { $0.uint32 ?? 0 }
        specificity = (s.count > 0 ? s[0] : 0, s.count > 1 ? s[1] : 0, s.count > 2 ? s[2] : 0)
        winner = d["winner"]?.bool ?? false
        reason = d["reason"]?.string ?? ""
        omitted = d["omitted"]?.uint32
    }

    /// Decodes `Explain`'s reply.
    /// - Parameter reply: The reply's arguments, `aa{sv}`.
    public static func list(decoding reply: [DBusValue]) -> [ExplainEntry] {
        (reply.first?.array ?? []).map(ExplainEntry.init(decoding:))
    }

    /// The dictionary's entries, before wrapping in variants.
    public var fields: [String: DBusValue] {
        switch kind {
        case .inherited: return ["kind": .string("inherited"), "from": .string(from), "value": value]
        case .initial: return ["kind": .string("initial"), "value": value]
        case .declaration:
            var d: [String: DBusValue] = [
                "kind": .string("declaration"), "origin": .string(origin), "file": .string(file),
                "line": .uint32(line), "column": .uint32(column), "selector": .string(selector),
                "layer": .string(layer),
                "specificity": .structure([
                    .uint32(specificity.ids), .uint32(specificity.classes), .uint32(specificity.types),
                ]),
                "value": value, "winner": .boolean(winner), "reason": .string(reason),
            ]
            if let app { d["app"] = .string(app) }
            if let omitted { d["omitted"] = .uint32(omitted) }
            return d
        }
    }

    /// `a{sv}`.
    public var dbusValue: DBusValue { .dict(fields) }
}

/// The interface's properties as `Properties.GetAll` returns them (`a{sv}`).
public struct DaemonProperties: Sendable, Equatable {
    /// `ActiveTheme`.
    public var activeTheme: String
    /// `Serial`.
    public var serial: UInt32
    /// `Variant`.
    public var variant: String
    /// `Version`.
    public var version: String
    /// `Problems`.
    public var problems: [String]

    /// Decodes `GetAll`'s reply.
    /// - Parameter reply: The reply's arguments, `a{sv}`.
    public init(decoding reply: [DBusValue]) {
        let all = reply.first?.stringVariantDictionary ?? [:]
        func get(_ p: LiveryProperty) -> DBusValue? { all[p.rawValue]?.variantValue }
        activeTheme = get(.activeTheme)?.string ?? ""
        serial = get(.serial)?.uint32 ?? 0
        variant = get(.variant)?.string ?? ""
        version = get(.version)?.string ?? ""
        problems = get(.problems)?.stringArray ?? []
    }
}

/// The reply `(u serial, a{sa{sv}} values)` of `Watch` (DESIGN §5): every property of each path
/// watched, all at one serial; a `Changed` whose serial is not above it is older than these
/// values.
public struct WatchReply: Sendable, Equatable {
    /// The serial the values are at.
    public var serial: UInt32
    /// Each path's values.
    public var values: ComponentValues

    /// A reply with `serial` and `values`.
    public init(serial: UInt32, values: ComponentValues) {
        self.serial = serial
        self.values = values
    }

    /// Decodes the reply's arguments: one struct `(ua{sa{sv}})`, or its two fields.
    /// - Returns: nil for anything else.
    public init?(decoding reply: [DBusValue]) {
        var fields = reply
        if reply.count == 1, let inner = reply[0].structureFields { fields = inner }
        guard fields.count == 2, let serial = fields[0].uint32 else { return nil }
        self.serial = serial
        values = ComponentValues(decoding: fields[1])
    }

    /// The reply's one argument, the struct `(ua{sa{sv}})`.
    public var arguments: [DBusValue] { [.structure([.uint32(serial), values.dbusValue])] }
}

/// The signal `Changed(s path, s app, u serial, a{sv} values)` (DESIGN §5): broadcast once per
/// watched (path, app) and published change, with the path's changed properties. Clients match
/// on `arg0` (the path) and `arg1` (the application id, empty for none).
public struct ChangedSignal: Sendable, Equatable {
    /// The signal's member name.
    public static let member = LiverySignal.changed.name
    /// The component path, as the watchers wrote it.
    public var path: String
    /// The application id whose `@app` blocks apply; empty for none.
    public var app: String
    /// The serial of the published change.
    public var serial: UInt32
    /// The changed properties.
    public var values: PropertyValues

    /// A signal with the given arguments.
    public init(path: String, app: String, serial: UInt32, values: PropertyValues) {
        self.path = path
        self.app = app
        self.serial = serial
        self.values = values
    }

    /// Decodes a received signal's arguments.
    /// - Returns: nil unless they are `(s, s, u, a{sv})`.
    public init?(decoding arguments: [DBusValue]) {
        guard arguments.count == 4, let path = arguments[0].string, let app = arguments[1].string,
            let serial = arguments[2].uint32
        else { return nil }
        self.path = path
        self.app = app
        self.serial = serial
        values = PropertyValues(decoding: arguments[3])
    }

    /// The signal's arguments.
    public var arguments: [DBusValue] { [.string(path), .string(app), .uint32(serial), values.dbusValue] }

    /// The match rule for the `Changed` signals of `path` for `app` (nil or empty for none):
    /// `arg0` and `arg1` select them, so that the bus routes to a client only what it watches.
    public static func rule(path: String, app: String?) -> String {
        LiveryBus.signalRule(member)
            + ",arg0='\(LiveryBus.quoted(path))',arg1='\(LiveryBus.quoted(app ?? ""))'"
    }
}

/// The signal `ThemeChanged(s id, u serial)`, broadcast after every published change.
public struct ThemeChangedSignal: Sendable, Equatable {
    /// The signal's member name.
    public static let member = LiverySignal.themeChanged.name
    /// The id of the theme now active.
    public var theme: String
    /// The serial of the change.
    public var serial: UInt32

    /// A signal with the given arguments.
    public init(theme: String, serial: UInt32) {
        self.theme = theme
        self.serial = serial
    }

    /// Decodes a received signal's arguments; missing ones read as empty and 0.
    public init(decoding arguments: [DBusValue]) {
        theme = arguments.first?.string ?? ""
        serial = arguments.count > 1 ? arguments[1].uint32 ?? 0 : 0
    }

    /// The signal's arguments.
    public var arguments: [DBusValue] { [.string(theme), .uint32(serial)] }
}

/// One row of `ListPlugins() → a(ssa{sv})`: `(name, kind, {origin, path, enabled, errors,
/// last-run, serial, result})`.
public struct PluginListing: Sendable, Equatable {
    /// The plugin's directory name, a darkman script's `dark-mode.d/NAME`, or a format's name.
    public var name: String
    /// `exporter`, `hook`, `darkman` or `format`.
    public var kind: String
    /// `user`, `system`, `shipped` or `built in`.
    public var origin: String
    /// Its directory (a script's file); empty for a built-in format.
    public var path: String
    /// False for a shipped plugin not linked into the user's plugin directory.
    public var enabled: Bool
    /// Manifest and template errors, one rendered line each.
    public var errors: [String]
    /// When it last ran, seconds since 1970; nil when it has not.
    public var lastRun: Int64?
    /// The serial of the change it last ran for.
    public var serial: UInt32
    /// `ok`, `running`, `not run yet`, or the failures.
    public var result: String

    /// A listing with every field given.
    public init(
        name: String, kind: String, origin: String, path: String, enabled: Bool, errors: [String],
        lastRun: Int64?, serial: UInt32, result: String
    ) {
        self.name = name
        self.kind = kind
        self.origin = origin
        self.path = path
        self.enabled = enabled
        self.errors = errors
        self.lastRun = lastRun
        self.serial = serial
        self.result = result
    }

    /// The element signature of `ListPlugins`' reply.
    public static let signature: Signature = "(ssa{sv})"

    /// Decodes one `(ssa{sv})`.
    public init(decoding value: DBusValue) {
        let fields = value.structureFields ?? []
        func field(_ i: Int) -> DBusValue? { i < fields.count ? fields[i] : nil }
        let meta = field(2)?.stringVariantDictionary ?? [:]
        func string(_ key: String) -> String? { meta[key]?.variantValue.string }
        self.init(
            name: field(0)?.string ?? "", kind: field(1)?.string ?? "", origin: string("origin") ?? "",
            path: string("path") ?? "", enabled: meta["enabled"]?.variantValue.bool ?? true,
            errors: meta["errors"]?.variantValue.stringArray ?? [],
            lastRun: meta["last-run"]?.variantValue.int64, serial: meta["serial"]?.variantValue.uint32 ?? 0,
            result: string("result") ?? "")
    }

    /// Decodes `ListPlugins`' reply.
    public static func list(decoding reply: [DBusValue]) -> [PluginListing] {
        (reply.first?.array ?? []).map(PluginListing.init(decoding:))
    }

    /// The metadata dictionary's entries, before wrapping in variants.
    public var metadata: [String: DBusValue] {
        var meta: [String: DBusValue] = [
            "origin": .string(origin), "path": .string(path), "enabled": .boolean(enabled),
            "errors": .strings(errors), "serial": .uint32(serial), "result": .string(result),
        ]
        if let lastRun { meta["last-run"] = .int64(lastRun) }
        return meta
    }

    /// `(ssa{sv})`.
    public var dbusValue: DBusValue { .structure([.string(name), .string(kind), .dict(metadata)]) }
}
