import CDBus

// Exported objects and the dispatch of method calls, including the standard interfaces every
// object gets (D-Bus specification, "Standard Interfaces"). The connection's filter hands every
// method call to `handleObjectMessage` (libdbus's own object tree is not used: it splits each
// call's path into a list of new strings to look it up). Everything here past `export` runs on
// the loop thread.

extension Connection {
    /// Exports an object: `interfaces` plus `org.freedesktop.DBus.Introspectable`,
    /// `org.freedesktop.DBus.Properties` and `org.freedesktop.DBus.Peer`, at `path`.
    ///
    /// Calls are checked against each method's input signature (`InvalidArgs` naming the
    /// expected and received signatures), unknown members get `UnknownMethod`, and every
    /// call gets exactly one reply unless the caller set `NO_REPLY_EXPECTED`. Export before
    /// requesting a well-known name so no call arrives at a missing object.
    ///
    /// - Parameters:
    ///   - interfaces: the object's own interfaces.
    ///   - path: where to export it.
    /// - Throws: ``DBusError`` `InvalidArgs` for invalid member names or argument signatures,
    ///   a duplicate or reserved interface name; `org.freedesktop.DBus.Error.ObjectPathInUse`
    ///   when something is already exported at `path`.
    public func export(_ interfaces: [Interface], at path: ObjectPath) throws(DBusError) {
        var names = Set<InterfaceName>()
        for interface in interfaces {
            try interface.validate()
            if [.introspectable, .properties, .peer].contains(interface.name) {
                throw .invalidArgs(
                    "interface \(interface.name) is provided automatically and cannot be exported")
            }
            if !names.insert(interface.name).inserted {
                throw .invalidArgs("interface \(interface.name) is listed twice for \(path)")
            }
        }
        let claimed = state.withLock { s -> Bool in
            if s.closed { return false }
            return s.objects.insert(interfaces, at: path)
        }
        guard claimed else {
            throw DBusError(
                ErrorName(rawValue: "org.freedesktop.DBus.Error.ObjectPathInUse"),
                "an object is already exported at \(path), or the connection is closed")
        }
    }

    /// Removes the object exported at `path`; later calls to it get `UnknownObject`.
    ///
    /// - Parameter path: a path given to ``export(_:at:)``.
    public func unexport(at path: ObjectPath) {
        _ = state.withLock { $0.objects.remove(at: path) }
    }

    /// The paths that currently have an exported object.
    public var exportedPaths: [ObjectPath] {
        state.withLock { $0.objects.paths }.sorted()
    }

    func handleObjectMessage(_ raw: OpaquePointer) -> DBusHandlerResult {
        guard dbus_message_get_type(raw) == CDBUS_MESSAGE_TYPE_METHOD_CALL else {
            return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        }
        let result = route(raw)
        if case .success(.deferred) = result { return DBUS_HANDLER_RESULT_HANDLED }
        if dbus_message_get_no_reply(raw) == 0 {
            // A prepared body is addressed from the call itself, its sender never made a String.
            if case .success(.prepared(let p)) = result, let message = p.reply(toCall: raw) {
                message.send(on: self.raw)
            } else {
                reply(to: ReplyAddress(call: raw), with: result)
            }
        }
        return DBUS_HANDLER_RESULT_HANDLED
    }

    /// What a handler answered.
    enum Answer: Sendable {
        case values([DBusValue])
        case prepared(PreparedValues)
        /// The handler took a ``PendingReply``, which sends the reply later.
        case deferred
    }

    /// Sends the reply to the call at `caller` (on the loop thread).
    func reply(to caller: ReplyAddress, with answer: Result<Answer, DBusError>) {
        let result: Result<[DBusValue], DBusError>
        switch answer {
        case .failure(let e): result = .failure(e)
        case .success(.values(let v)): result = .success(v)
        case .success(.deferred): return
        case .success(.prepared(let p)):
            if let message = p.reply(to: caller) {
                message.send(on: self.raw)
                return
            }
            result = .failure(DBusError(.noMemory, "cannot allocate a reply"))
        }
        var outcome = result
        if case .success(let values) = result, let message = caller.methodReturn() {
            do throws(DBusError) {
                try Marshalling.append(values, to: message.raw)
                message.send(on: self.raw)
                return
            } catch {
                outcome = .failure(DBusError(.failed, "the reply could not be built: \(error.message)"))
            }
        }
        let error: DBusError
        switch outcome {
        case .failure(let e): error = e.sanitizedForWire
        case .success: error = DBusError(.noMemory, "cannot allocate a reply")
        }
        guard let message = caller.error(error) else { return }
        message.send(on: self.raw)
    }

    /// The answer to the method call `raw`. Its header fields are read as they are needed and
    /// its arguments only when the handler asks for them (`MethodInvocation`), so that a
    /// handler answering from a cache keyed by the body never reads them.
    private func route(_ raw: OpaquePointer) -> Result<Answer, DBusError> {
        if let own = ownMethod(raw) {
            let invocation = MethodInvocation(
                sender: dbus_message_get_sender(raw).map { String(cString: $0) } ?? "", path: own.path,
                member: own.method.name, message: raw)
            return invoke(own.method, of: own.interface, with: invocation, call: raw)
        }
        return routeByName(raw)
    }

    /// The method of the object's own interfaces that `raw` names by path, interface and
    /// member, when `raw` has its input signature: the usual call, found by comparing the
    /// header's bytes with the exported names. Nil for anything else, which
    /// ``routeByName(_:)`` answers (the standard interfaces, a call without an interface, the
    /// errors).
    private func ownMethod(_ raw: OpaquePointer) -> ExportedMethod? {
        guard let path = dbus_message_get_path(raw), let interface = dbus_message_get_interface(raw),
            let member = dbus_message_get_member(raw), let signature = dbus_message_get_signature(raw),
            let own = state.withLock({
                $0.objects.object(atPath: path)?.method(interface: interface, member: member)
            }),
            sameName(own.method.inputSignature, signature)
        else { return nil }
        return own
    }

    /// ``route(_:)`` for every call ``ownMethod(_:)`` does not find, by the header's text.
    private func routeByName(_ raw: OpaquePointer) -> Result<Answer, DBusError> {
        func text(_ p: UnsafePointer<CChar>?) -> String? { p.map { String(cString: $0) } }
        let pathText = text(dbus_message_get_path(raw)) ?? "/"
        let path = ObjectPath(unchecked: pathText)
        let member = text(dbus_message_get_member(raw)) ?? ""
        let signature = text(dbus_message_get_signature(raw)) ?? ""
        let object = state.withLock { $0.objects[path]?.interfaces }
        let own = object ?? []
        // The standard interfaces (and the object's children, which introspection lists) are
        // built only when the call is not for one of the object's own interfaces.
        func standard() -> [Interface] {
            let allPaths = state.withLock { $0.objects.paths }
            return standardInterfaces(
                path: path, own: own, children: Introspection.children(of: path, among: allPaths))
        }
        if object == nil {
            let allPaths = state.withLock { $0.objects.paths }
            guard !Introspection.children(of: path, among: allPaths).isEmpty else {
                return .failure(DBusError(.unknownObject, "No object is exported at path '\(pathText)'"))
            }
        }

        let interface: Interface
        let method: Method
        if let name = text(dbus_message_get_interface(raw)) {
            guard
                let found = own.first(where: { $0.name.rawValue == name })
                    ?? standard().first(where: { $0.name.rawValue == name })
            else {
                return .failure(
                    DBusError(.unknownMethod, "No such interface '\(name)' at object path '\(pathText)'"))
            }
            guard let m = found.method(named: member) else {
                return .failure(
                    DBusError(
                        .unknownMethod,
                        "No such method '\(member)' in interface '\(name)' at object path '\(pathText)' (signature '\(signature)')"
                    ))
            }
            interface = found
            method = m
        } else {
            // No interface field: the first interface with a method of that name answers.
            guard
                let found = own.first(where: { $0.method(named: member) != nil })
                    ?? standard().first(where: { $0.method(named: member) != nil })
            else {
                return .failure(
                    DBusError(
                        .unknownMethod,
                        "No such method '\(member)' at object path '\(pathText)' (signature '\(signature)')"
                    ))
            }
            interface = found
            method = found.method(named: member)!
        }

        if signature != method.inputSignature {
            return .failure(
                .invalidArgs(
                    "Method '\(interface.name).\(method.name)' expects signature '\(method.inputSignature)' but got '\(signature)'"
                ))
        }
        let invocation = MethodInvocation(
            sender: text(dbus_message_get_sender(raw)) ?? "", path: path, member: member, message: raw)
        return invoke(method, of: interface, with: invocation, call: raw)
    }

    /// Runs the handler `method` has (deferred, prepared or plain) and checks what it returned
    /// against the method's output signature.
    private func invoke(
        _ method: Method, of interface: Interface, with invocation: MethodInvocation, call raw: OpaquePointer
    ) -> Result<Answer, DBusError> {
        func wrongSignature(_ returned: String) -> DBusError {
            DBusError(
                .failed,
                "Method '\(interface.name).\(method.name)' returned signature '\(returned)' instead of its declared '\(method.outputSignature)'"
            )
        }
        if let deferred = method.deferredHandler {
            let pending = PendingReply(
                call: raw, connection: self, methodName: "\(interface.name).\(method.name)",
                outputSignature: method.outputSignature)
            do {
                try deferred(invocation, pending)
            } catch {
                // Thrown before anything was sent: the error is the reply, now.
                if pending.claim() { return .failure(DBusError.from(error)) }
            }
            return .success(.deferred)
        }
        if let prepared = method.preparedHandler {
            let p: PreparedValues
            do { p = try prepared(invocation) } catch { return .failure(DBusError.from(error)) }
            guard p.signature == method.outputSignature else { return .failure(wrongSignature(p.signature)) }
            return .success(.prepared(p))
        }
        let values: [DBusValue]
        do {
            values = try method.handler(invocation)
        } catch {
            return .failure(DBusError.from(error))
        }
        let returned = values.map(\.signatureText).joined()
        guard returned == method.outputSignature else { return .failure(wrongSignature(returned)) }
        return .success(.values(values))
    }

    /// The standard interfaces of the object at `path`, built per call so that introspection
    /// sees the current children. The XML itself is built only when `Introspect` is called: it
    /// is by far the largest piece, and every other call would pay for it.
    private func standardInterfaces(path: ObjectPath, own: [Interface], children: [String]) -> [Interface] {
        let introspectable = Interface(
            .introspectable,
            methods: [
                Method("Introspect", inputs: [], outputs: [Argument("xml_data", .string)]) { _ in
                    [
                        .string(
                            Introspection.xml(
                                interfaces: own + Connection.standardInterfaceDescriptions, children: children
                            ))
                    ]
                }
            ])
        let properties = Interface(
            .properties,
            methods: [
                Method(
                    "Get", inputs: [Argument("interface_name", .string), Argument("property_name", .string)],
                    outputs: [Argument("value", .variant)]
                ) { call in
                    let (_, property) = try Connection.findProperty(
                        call.arguments[0].string!, call.arguments[1].string!, in: own, path: path)
                    return [.variant(try Connection.read(property))]
                },
                Method(
                    "GetAll", inputs: [Argument("interface_name", .string)],
                    outputs: [Argument("properties", .stringVariantDictionary)]
                ) { call in
                    let name = call.arguments[0].string!
                    let matching = try Connection.interfaces(named: name, in: own, path: path)
                    var entries: [DBusDictEntry] = []
                    for interface in matching {
                        for p in interface.properties {
                            entries.append(
                                DBusDictEntry(key: .string(p.name), value: .variant(try Connection.read(p))))
                        }
                    }
                    return [.dictionary(key: .string, value: .variant, entries)]
                },
                propertySet(path: path, own: own),
            ],
            signals: Connection.standardInterfaceDescriptions[1].signals)
        let peer = Interface(
            .peer,
            methods: [
                Method("Ping") { _ in [] },
                Method("GetMachineId", outputs: [Argument("machine_uuid", .string)]) { _ in
                    [.string(try Connection.machineID())]
                },
            ])
        return [introspectable, properties, peer]
    }

    /// `org.freedesktop.DBus.Properties.Set` on the object at `path`: a read-write property of
    /// `own` takes a value of its type, deferred when the property says so, and its change is
    /// signalled when it emits `PropertiesChanged`.
    private func propertySet(path: ObjectPath, own: [Interface]) -> Method {
        Method.deferred(
            "Set",
            inputs: [
                Argument("interface_name", .string), Argument("property_name", .string),
                Argument("value", .variant),
            ], outputs: []
        ) { [weak self] call, reply in
            let (interface, property) = try Connection.findProperty(
                call.arguments[0].string!, call.arguments[1].string!, in: own, path: path)
            guard property.access == .readWrite, property.set != nil || property.deferredSet != nil
            else {
                throw DBusError(.propertyReadOnly, "Property '\(property.name)' is read-only")
            }
            guard case .variant(let value) = call.arguments[2] else {
                reply.succeed([])
                return
            }
            if value.signature != property.signature {
                throw DBusError.invalidArgs(
                    "Property '\(property.name)' has type '\(property.signature)', not '\(value.signature)'"
                )
            }
            if let later = property.deferredSet {
                try later(value, reply)
                return
            }
            try property.set?(value)
            if property.emitsChangedSignal {
                try self?.emitPropertiesChanged(
                    path: path, interface: interface.name,
                    changed: [property.name: try Connection.read(property)])
            }
            reply.succeed([])
        }
    }

    /// The standard interfaces as introspection shows them (D-Bus specification, "Standard
    /// Interfaces").
    static let standardInterfaceDescriptions: [Interface] = [
        Interface(
            .introspectable,
            methods: [Method("Introspect", outputs: [Argument("xml_data", .string)]) { _ in [] }]),
        Interface(
            .properties,
            methods: [
                Method(
                    "Get", inputs: [Argument("interface_name", .string), Argument("property_name", .string)],
                    outputs: [Argument("value", .variant)]
                ) { _ in [] },
                Method(
                    "GetAll", inputs: [Argument("interface_name", .string)],
                    outputs: [Argument("properties", .stringVariantDictionary)]
                ) { _ in [] },
                Method(
                    "Set",
                    inputs: [
                        Argument("interface_name", .string), Argument("property_name", .string),
                        Argument("value", .variant),
                    ]
                ) { _ in [] },
            ],
            signals: [
                SignalDescription(
                    "PropertiesChanged",
                    arguments: [
                        Argument("interface_name", .string),
                        Argument("changed_properties", .stringVariantDictionary),
                        Argument("invalidated_properties", .stringArray),
                    ])
            ]),
        Interface(
            .peer,
            methods: [
                Method("Ping") { _ in [] },
                Method("GetMachineId", outputs: [Argument("machine_uuid", .string)]) { _ in [] },
            ]),
    ]

    private static func interfaces(named name: String, in own: [Interface], path: ObjectPath)
        throws(DBusError)
        -> [Interface]
    {
        if name.isEmpty { return own }  // "" means: search every interface
        if let found = own.first(where: { $0.name.rawValue == name }) { return [found] }
        if [InterfaceName.introspectable, .properties, .peer].contains(where: { $0.rawValue == name }) {
            return []
        }
        throw DBusError(.unknownInterface, "No such interface '\(name)' at object path '\(path)'")
    }

    private static func findProperty(
        _ interfaceName: String, _ name: String, in own: [Interface], path: ObjectPath
    )
        throws(DBusError) -> (Interface, Property)
    {
        for interface in try interfaces(named: interfaceName, in: own, path: path) {
            if let p = interface.property(named: name) { return (interface, p) }
        }
        throw DBusError(
            .unknownProperty,
            "No such property '\(name)' in interface '\(interfaceName)' at object path '\(path)'")
    }

    private static func read(_ property: Property) throws(DBusError) -> DBusValue {
        let value = property.get()
        if value.signature != property.signature {
            throw DBusError(
                .failed,
                "Property '\(property.name)' produced type '\(value.signature)' instead of '\(property.signature)'"
            )
        }
        return value
    }

    static func machineID() throws(DBusError) -> String {
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        guard let id = dbus_try_get_local_machine_id(&error) else {
            throw DBusError.take(&error, fallback: "cannot read the machine id")
        }
        defer { dbus_free(id) }
        return String(cString: id)
    }
}
