import LiveryCore
import LiveryDBus

extension Value {
    /// The value as the bus carries it: colour `s` `#rrggbbaa`; image `s` absolute path (empty
    /// for none); length, number `d`; duration `d` seconds; keyword and string `s`; size `(dd)`;
    /// insets `(dddd)` top, right, bottom, left (the README's "D-Bus API").
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

    /// Reads a value of a property of `type` as the bus carries it, the inverse of `dbusValue`
    /// (a client of `Watch` and `Changed` knows each property's type from the schema): colour
    /// `s` `#rrggbbaa` (or `#rrggbb`); image `s`, the empty string for none; length, number and
    /// duration `d`; keyword and string `s`; size `(dd)`; insets `(dddd)`.
    /// - Parameters:
    ///   - value: The value as received, in its variant or not.
    ///   - type: The property's type in the schema.
    /// - Returns: nil when `value` does not have the shape `type` is sent in, or a colour is not
    ///   `#` and hex digits.
    public init?(decoding value: DBusValue, type: ValueType) {
        let v = value.variantValue
        func doubles(_ count: Int) -> [Double]? {
            guard let fields = v.structureFields, fields.count == count else { return nil }
            let numbers = fields.compactMap(\.double)
            return numbers.count == count ? numbers : nil
        }
        switch type {
        case .color:
            guard let text = v.string, text.hasPrefix("#"), let c = RGBA(hexDigits: text.dropFirst()) else {
                return nil
            }
            self = .color(c)
        case .image:
            guard let path = v.string else { return nil }
            self = .image(path.isEmpty ? nil : path)
        case .length, .number, .duration:
            guard let d = v.double else { return nil }
            self = type == .length ? .length(d) : type == .number ? .number(d) : .duration(d)
        case .keyword:
            guard let k = v.string else { return nil }
            self = .keyword(k)
        case .string:
            guard let s = v.string else { return nil }
            self = .string(s)
        case .size:
            guard let n = doubles(2) else { return nil }
            self = .size(n[0], n[1])
        case .insets:
            guard let n = doubles(4) else { return nil }
            self = .insets(n[0], n[1], n[2], n[3])
        }
    }
}

/// One property's value as the bus carries it (`Value.dbusValue`, unwrapped from its variant).
public struct PropertyValue: Sendable, Equatable {
    /// The property name, e.g. `tint-color`.
    public var property: String
    /// The value, e.g. `.string("#008000ff")`.
    public var value: DBusValue

    /// A property and its value.
    public init(_ property: String, _ value: DBusValue) {
        self.property = property
        self.value = value
    }
}

/// The values of one component, `a{sv}` property → value, in the order sent: the reply of
/// `Resolve`, each item of `ResolveMany`'s reply, each path of `Watch`, and `Changed`.
public struct PropertyValues: Sendable, Equatable {
    /// The properties in the order the dictionary has them.
    public var values: [PropertyValue]

    /// The given values.
    public init(_ values: [PropertyValue]) { self.values = values }

    /// Resolved values in the order given (the daemon's encoding).
    /// - Parameter resolved: (property, value) pairs, as `ThemeService.resolve` returns them.
    public init(resolved: some Sequence<(property: String, value: Value)>) {
        values = resolved.map { PropertyValue($0.property, $0.value.dbusValue) }
    }

    /// Resolved values sorted by property name (the order of `Watch` and `Changed`).
    public init(sorted dictionary: [String: Value]) {
        values = dictionary.keys.sorted().map { PropertyValue($0, dictionary[$0]!.dbusValue) }
    }

    /// Decodes an `a{sv}`; entries whose key is not a string are skipped, and anything but a
    /// dictionary reads as no values.
    /// - Parameter value: The dictionary as received.
    public init(decoding value: DBusValue) {
        values = (value.dictionaryEntries ?? []).compactMap { e in
            e.key.string.map { PropertyValue($0, e.value.variantValue) }
        }
    }

    /// `a{sv}`, each value in a variant, in the order of `values`.
    public var dbusValue: DBusValue {
        .dictionary(
            key: "s", value: "v",
            values.map { DBusDictEntry(key: .string($0.property), value: .variant($0.value)) })
    }

    /// The property names in order.
    public var properties: [String] { values.map(\.property) }

    /// The value of a property; the last one when a name came twice.
    public subscript(property: String) -> DBusValue? {
        values.last { $0.property == property }?.value
    }
}

/// The values of several components, `a{sa{sv}}` path → property → value: what `Watch`
/// returns and what a `Changed` signal carries.
public struct ComponentValues: Sendable, Equatable {
    /// One component path and its values.
    public struct Component: Sendable, Equatable {
        /// The component path as the subscriber gave it.
        public var path: String
        /// Its values.
        public var values: PropertyValues
    }

    /// The components in the order sent (sorted by path when the daemon sends them).
    public var components: [Component]

    /// A snapshot's values sorted by path and property, the daemon's encoding.
    public init(_ snapshot: StyleSnapshot) {
        components = snapshot.keys.sorted().map {
            Component(path: $0, values: PropertyValues(sorted: snapshot[$0]!))
        }
    }

    /// Decodes an `a{sa{sv}}`; a key that is not a string reads as the empty path.
    public init(decoding value: DBusValue) {
        components = (value.dictionaryEntries ?? []).map {
            Component(path: $0.key.string ?? "", values: PropertyValues(decoding: $0.value))
        }
    }

    /// `a{sa{sv}}`.
    public var dbusValue: DBusValue {
        .dictionary(
            key: "s", value: "a{sv}",
            components.map { DBusDictEntry(key: .string($0.path), value: $0.values.dbusValue) })
    }
}

extension PropertyValues {
    /// The values read as the types `schema` gives their properties (`Value(decoding:type:)`):
    /// what a client of `Watch` and `Changed` shows. A property the schema does not have, or a
    /// value not in its type's shape, is left out.
    /// - Parameter schema: The schema the daemon's themes use (`themes/schema.json`).
    /// - Returns: Property name → value; the last value when a name came twice.
    public func typed(by schema: Schema) -> [String: Value] {
        var out: [String: Value] = [:]
        for v in values {
            guard let type = schema.properties[v.property]?.type,
                let value = Value(decoding: v.value, type: type)
            else { continue }
            out[v.property] = value
        }
        return out
    }
}
