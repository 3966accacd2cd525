import LiveryDBus

// The members of `org.livery.Livery1`, each spelt once: the daemon exports them from these
// values (so its dispatch checks every call against their input signatures), and the client,
// the demo and the bench call them through the same values. `org.livery.Livery1.xml` beside
// this file describes the same members; a test checks that the two agree.

/// A method of `org.livery.Livery1`: its name and its arguments in and out.
public struct LiveryMethod: Sendable, Equatable {
    /// The member name, e.g. `Resolve`.
    public let member: MemberName
    /// The arguments a caller sends, in order.
    public let inputs: [Argument]
    /// The values the reply carries, in order.
    public let outputs: [Argument]

    /// The member name as text.
    public var name: String { member.rawValue }
    /// The concatenated signature of `inputs`: what a call's body must have.
    public var inputSignature: Signature { Signature(concatenating: inputs.map(\.signature)) }
    /// The concatenated signature of `outputs`: what the reply's body has.
    public var outputSignature: Signature { Signature(concatenating: outputs.map(\.signature)) }

    private init(_ name: String, inputs: [Argument] = [], outputs: [Argument] = []) {
        member = try! MemberName(name)
        self.inputs = inputs
        self.outputs = outputs
    }

    /// `ListThemes() → a(ssa{sv}) themes`: every installed theme (`ThemeListing`).
    public static let listThemes = LiveryMethod("ListThemes", outputs: [Argument("themes", "a(ssa{sv})")])
    /// `SetTheme(s id)`: switches to a theme.
    public static let setTheme = LiveryMethod("SetTheme", inputs: [Argument("id", "s")])
    /// `Resolve(s path, as properties, a{sv} options) → a{sv} values`.
    public static let resolve = LiveryMethod(
        "Resolve",
        inputs: [Argument("path", "s"), Argument("properties", "as"), Argument("options", "a{sv}")],
        outputs: [Argument("values", "a{sv}")])
    /// `ResolveMany(a(sas) requests, a{sv} options) → aa{sv} values` (`ResolveRequest`).
    public static let resolveMany = LiveryMethod(
        "ResolveMany", inputs: [Argument("requests", "a(sas)"), Argument("options", "a{sv}")],
        outputs: [Argument("values", "aa{sv}")])
    /// `Explain(s path, s property, a{sv} options) → aa{sv} candidates` (`ExplainEntry`).
    public static let explain = LiveryMethod(
        "Explain", inputs: [Argument("path", "s"), Argument("property", "s"), Argument("options", "a{sv}")],
        outputs: [Argument("candidates", "aa{sv}")])
    /// `Toggle() → s id`: the other variant's theme.
    public static let toggle = LiveryMethod("Toggle", outputs: [Argument("id", "s")])
    /// `SetVariant(s variant) → s id`: the theme of `dark` or `light`.
    public static let setVariant = LiveryMethod(
        "SetVariant", inputs: [Argument("variant", "s")], outputs: [Argument("id", "s")])
    /// `Watch(as paths, a{sv} options) → (ua{sa{sv}}) reading` (`WatchReply`).
    public static let watch = LiveryMethod(
        "Watch", inputs: [Argument("paths", "as"), Argument("options", "a{sv}")],
        outputs: [Argument("reading", "(ua{sa{sv}})")])
    /// `Unwatch(as paths, a{sv} options)`.
    public static let unwatch = LiveryMethod(
        "Unwatch", inputs: [Argument("paths", "as"), Argument("options", "a{sv}")])
    /// `Reload()`: rescans themes and overrides.
    public static let reload = LiveryMethod("Reload")
    /// `ListPlugins() → a(ssa{sv}) plugins` (`PluginListing`).
    public static let listPlugins = LiveryMethod("ListPlugins", outputs: [Argument("plugins", "a(ssa{sv})")])

    /// Every method, in the order the interface lists them.
    public static let all: [LiveryMethod] = [
        listThemes, setTheme, resolve, resolveMany, explain, toggle, setVariant, watch, unwatch, reload,
        listPlugins,
    ]
}

/// A signal of `org.livery.Livery1`: its name and arguments.
public struct LiverySignal: Sendable, Equatable {
    /// The member name, e.g. `Changed`.
    public let member: MemberName
    /// The values the signal carries, in order.
    public let arguments: [Argument]

    /// The member name as text.
    public var name: String { member.rawValue }
    /// The signal as an interface declares it for introspection.
    public var description: SignalDescription { SignalDescription(name, arguments: arguments) }

    private init(_ name: String, arguments: [Argument]) {
        member = try! MemberName(name)
        self.arguments = arguments
    }

    /// `Changed(s path, s app, u serial, a{sv} values)` (`ChangedSignal`).
    public static let changed = LiverySignal(
        "Changed",
        arguments: [
            Argument("path", "s"), Argument("app", "s"), Argument("serial", "u"), Argument("values", "a{sv}"),
        ])
    /// `ThemeChanged(s id, u serial)` (`ThemeChangedSignal`).
    public static let themeChanged = LiverySignal(
        "ThemeChanged", arguments: [Argument("id", "s"), Argument("serial", "u")])

    /// Every signal, in the order the interface lists them.
    public static let all: [LiverySignal] = [changed, themeChanged]
}

/// The interface's properties, as `org.freedesktop.DBus.Properties` names them; all are read
/// only.
public enum LiveryProperty: String, Sendable, CaseIterable {
    /// `s`: the id of the active theme.
    case activeTheme = "ActiveTheme"
    /// `u`: the number of published changes.
    case serial = "Serial"
    /// `s`: the active theme's variant, `light` or `dark`.
    case variant = "Variant"
    /// `s`: the daemon's version.
    case version = "Version"
    /// `as`: problems the user should see.
    case problems = "Problems"

    /// The property's type.
    public var signature: Signature {
        switch self {
        case .activeTheme, .variant, .version: "s"
        case .serial: "u"
        case .problems: "as"
        }
    }

    /// Whether a change is announced with `PropertiesChanged`: every property but `Version`,
    /// which never changes while the daemon runs.
    public var emitsChangedSignal: Bool { self != .version }

    /// A `PropertiesChanged` body's changed properties, keyed by name.
    /// - Parameter values: Each changed property with its new value, of its `signature`.
    /// - Returns: The `a{sv}` entries, name → value.
    public static func changed(_ values: KeyValuePairs<LiveryProperty, DBusValue>) -> [String: DBusValue] {
        var out: [String: DBusValue] = [:]
        for (property, value) in values { out[property.rawValue] = value }
        return out
    }
}

extension Method {
    /// An exported method of `org.livery.Livery1`, its name and arguments from the table.
    /// - Parameters:
    ///   - method: The member.
    ///   - handler: Answers a call, on the loop thread.
    public init(_ method: LiveryMethod, handler: @escaping Handler) {
        self.init(method.name, inputs: method.inputs, outputs: method.outputs, handler: handler)
    }

    /// A method of `org.livery.Livery1` answered with prepared bodies
    /// (`Method.prepared(_:inputs:outputs:handler:)`).
    public static func prepared(_ method: LiveryMethod, handler: @escaping PreparedHandler) -> Method {
        prepared(method.name, inputs: method.inputs, outputs: method.outputs, handler: handler)
    }

    /// A method of `org.livery.Livery1` answered later (`Method.deferred(_:inputs:outputs:handler:)`).
    public static func deferred(_ method: LiveryMethod, handler: @escaping DeferredHandler) -> Method {
        deferred(method.name, inputs: method.inputs, outputs: method.outputs, handler: handler)
    }
}

extension Property {
    /// A read-only property of `org.livery.Livery1`, its type and `PropertiesChanged` behaviour
    /// from the table.
    /// - Parameters:
    ///   - property: The property.
    ///   - get: Returns its value, of `property.signature`.
    public init(_ property: LiveryProperty, get: @escaping @Sendable () -> DBusValue) {
        self.init(
            property.rawValue, property.signature, emitsChangedSignal: property.emitsChangedSignal, get: get)
    }
}

extension Connection {
    /// Calls a method of the daemon's object, `org.livery.Livery1` at `/org/livery/Livery1`.
    /// - Parameters:
    ///   - method: The member.
    ///   - arguments: The call's body, of `method.inputSignature`.
    ///   - timeout: Seconds to wait for the reply.
    /// - Returns: The reply's arguments.
    /// - Throws: `DBusError`: `InvalidArgs` before sending when `arguments` are not of the
    ///   method's input signature; otherwise as `call(destination:path:interface:member:arguments:timeout:)`.
    public func call(_ method: LiveryMethod, _ arguments: [DBusValue] = [], timeout: Double = 25)
        throws(DBusError) -> [DBusValue]
    {
        let sent = Signature(concatenating: arguments.map(\.signature))
        guard sent == method.inputSignature else {
            throw DBusError(
                .invalidArgs, "\(method.name) takes '\(method.inputSignature)', not '\(sent)'")
        }
        return try call(
            destination: LiveryBus.busName, path: LiveryBus.objectPath, interface: LiveryBus.interfaceName,
            member: method.member, arguments: arguments, timeout: timeout)
    }
}
