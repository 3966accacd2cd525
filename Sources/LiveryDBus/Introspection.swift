/// Generation of `org.freedesktop.DBus.Introspectable` XML (D-Bus specification,
/// "Introspection Data Format").
enum Introspection {
    static let doctype = """
        <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
        """

    /// The XML for one node: its interfaces in order, then one `<node name=…/>` per child.
    static func xml(interfaces: [Interface], children: [String]) -> String {
        var out = doctype + "\n<node>\n"
        for interface in interfaces {
            out += "  <interface name=\"\(escape(interface.name.rawValue))\">\n"
            for method in interface.methods {
                if method.inputs.isEmpty && method.outputs.isEmpty {
                    out += "    <method name=\"\(escape(method.name))\"/>\n"
                    continue
                }
                out += "    <method name=\"\(escape(method.name))\">\n"
                for a in method.inputs { out += "      " + arg(a, direction: "in") + "\n" }
                for a in method.outputs { out += "      " + arg(a, direction: "out") + "\n" }
                out += "    </method>\n"
            }
            for signal in interface.signals {
                if signal.arguments.isEmpty {
                    out += "    <signal name=\"\(escape(signal.name))\"/>\n"
                    continue
                }
                out += "    <signal name=\"\(escape(signal.name))\">\n"
                for a in signal.arguments { out += "      " + arg(a, direction: nil) + "\n" }
                out += "    </signal>\n"
            }
            for p in interface.properties {
                let access = p.access == .read ? "read" : "readwrite"
                let open =
                    "    <property name=\"\(escape(p.name))\" type=\"\(escape(p.signature.rawValue))\" access=\"\(access)\""
                if p.emitsChangedSignal {
                    out += open + "/>\n"
                } else {
                    out += open + ">\n"
                    out +=
                        "      <annotation name=\"org.freedesktop.DBus.Property.EmitsChangedSignal\" value=\"false\"/>\n"
                    out += "    </property>\n"
                }
            }
            out += "  </interface>\n"
        }
        for child in children {
            out += "  <node name=\"\(escape(child))\"/>\n"
        }
        return out + "</node>\n"
    }

    private static func arg(_ a: Argument, direction: String?) -> String {
        var s = "<arg"
        if !a.name.isEmpty { s += " name=\"\(escape(a.name))\"" }
        s += " type=\"\(escape(a.signature.rawValue))\""
        if let direction { s += " direction=\"\(direction)\"" }
        return s + "/>"
    }

    static func escape(_ s: String) -> String {
        var out = ""
        for c in s {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(c)
            }
        }
        return out
    }

    /// The first path element below `parent` of every exported path strictly inside it.
    static func children(of parent: ObjectPath, among exported: some Sequence<ObjectPath>) -> [String] {
        var names = Set<String>()
        let prefix = parent.rawValue == "/" ? "/" : parent.rawValue + "/"
        for path in exported where path != parent && path.rawValue.hasPrefix(prefix) {
            let rest = path.rawValue.dropFirst(prefix.count)
            if let first = rest.split(separator: "/").first { names.insert(String(first)) }
        }
        return names.sorted()
    }
}
