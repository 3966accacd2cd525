/// The names of Livery's bus contract that the front calls. LiveryAPI's table holds every
/// member; the front cannot import it (LiveryAPI brings Foundation), so `FrontContractTests`
/// checks these against it.
enum FrontContract {
    /// The well-known bus name, `LiveryBus.name`.
    static let busName = "org.livery.Livery1"
    /// The object path, `LiveryBus.path`.
    static let objectPath = "/org/livery/Livery1"
    /// The interface, `LiveryBus.interface`.
    static let interface = "org.livery.Livery1"
    /// What every Livery error name starts with, `LiveryErrorKind.prefix`.
    static let errorPrefix = "org.livery.Livery1.Error."
    /// `org.freedesktop.DBus.Properties` (D-Bus specification, "Standard Interfaces").
    static let properties = "org.freedesktop.DBus.Properties"
    /// `SetTheme(s id)`.
    static let setTheme = "SetTheme"
    /// `Toggle() → s id`.
    static let toggle = "Toggle"
    /// The `ActiveTheme` property (`s`).
    static let activeTheme = "ActiveTheme"
    /// The `Variant` property (`s`).
    static let variant = "Variant"
}

/// What `livery` says after `livery: ` when talking to liveryd failed: what the failure means for
/// the client rather than libdbus's words. Both halves of the client print it (the front for
/// `get`, `set` and `toggle`; `LiveryCLI` for every command that calls liveryd).
/// - Parameters:
///   - name: The D-Bus error name.
///   - message: The error's message.
///   - timeout: The seconds each call waited for its reply.
///   - sessionBusAddress: `DBUS_SESSION_BUS_ADDRESS`, nil when unset.
/// - Returns: One line, without its newline.
public func busFailureText(name: String, message: String, timeout: Double, sessionBusAddress: String?)
    -> String
{
    switch name {
    case "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner":
        return "liveryd is not running on this bus (\(name))"
    case "org.freedesktop.DBus.Error.NoReply", "org.freedesktop.DBus.Error.Timeout":
        // Whole seconds without a fraction (`5`, not `5.0`), where Int holds them.
        let whole = timeout == timeout.rounded() && abs(timeout) < 1e15
        return
            "liveryd did not answer within \(whole ? String(Int(timeout)) : String(timeout)) s (is it stopped or busy?)"
    case _ where sessionBusAddress == "":
        return "no session bus (DBUS_SESSION_BUS_ADDRESS is set but empty): give one with --address ADDR, "
            + "or start liveryd with 'make run', which prints the address to export"
    case _ where sessionBusAddress == nil && message.contains("autolaunch"):
        return "no session bus (DBUS_SESSION_BUS_ADDRESS is not set): give one with --address ADDR, "
            + "or start liveryd with 'make run', which prints the address to export"
    default:
        let short =
            name.hasPrefix(FrontContract.errorPrefix)
            ? String(name.dropFirst(FrontContract.errorPrefix.count)) : name
        return "\(short): \(message)"
    }
}

/// One JSON object of one string member and a newline, written as the full client's
/// `JSONSerialization` writes it with sorted keys and slashes unescaped: `"` and `\` escaped,
/// `\b`, `\f`, `\n`, `\r`, `\t`, the other control characters below U+0020 as `\u00xx`
/// (lower-case hex), everything else as it is (`FrontJSONTests` compares the two).
/// - Parameters:
///   - key: The member's name.
///   - value: Its string.
/// - Returns: `{"key":"value"}` and `\n`.
public func jsonObjectLine(_ key: String, _ value: String) -> String {
    "{" + jsonString(key) + ":" + jsonString(value) + "}\n"
}

/// `s` as a JSON string literal, quotes included (`jsonObjectLine`'s escaping).
func jsonString(_ s: String) -> String {
    var out = "\""
    for scalar in s.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\u{8}": out += "\\b"
        case "\u{C}": out += "\\f"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case "\u{0}"..."\u{1F}":
            let hex = String(scalar.value, radix: 16)
            out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}
