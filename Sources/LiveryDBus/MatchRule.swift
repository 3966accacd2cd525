/// A parsed match rule, used to route signals that the bus delivered to the handler that
/// asked for them (D-Bus specification, "Match Rules").
///
/// The bus does the real filtering; this matcher only decides which of this connection's
/// handlers see a message. It checks `type`, `sender`, `interface`, `member`, `path`,
/// `path_namespace`, `destination`, `argN`, `argNpath` and `arg0namespace`. A `sender` that is
/// a well-known name other than `org.freedesktop.DBus` is not checked here, because messages
/// carry the owner's unique name.
public struct MatchRule: Sendable, Equatable {
    /// The rule text as given.
    public let text: String
    /// The `key='value'` pairs in order.
    public let pairs: [(key: String, value: String)]

    /// Parses a rule such as `type='signal',interface='org.example.Service1'`.
    ///
    /// - Parameter text: comma-separated `key='value'` pairs; inside quotes everything is
    ///   literal, outside them `\'` is an apostrophe.
    /// - Throws: ``DBusError`` `InvalidArgs` (or `MatchRuleInvalid`) naming the problem.
    public init(_ text: String) throws(DBusError) {
        try NameRules.checkString(text, what: "match rule")
        self.text = text
        var pairs: [(String, String)] = []
        var chars = Array(text)[...]
        func skipSpaces() { while chars.first?.isWhitespace == true { chars.removeFirst() } }
        while true {
            skipSpaces()
            if chars.isEmpty { break }
            var key = ""
            while let c = chars.first, c != "=" {
                key.append(c)
                chars.removeFirst()
            }
            key = key.trimmingSpaces
            guard chars.first == "=", !key.isEmpty else {
                throw DBusError(
                    ErrorName(rawValue: "org.freedesktop.DBus.Error.MatchRuleInvalid"),
                    "invalid match rule \(NameRules.quoted(text)): expected key='value'")
            }
            chars.removeFirst()
            var value = ""
            var quoted = false
            while let c = chars.first {
                if quoted {
                    chars.removeFirst()
                    if c == "'" { quoted = false } else { value.append(c) }
                } else if c == "'" {
                    quoted = true
                    chars.removeFirst()
                } else if c == "\\" && chars.dropFirst().first == "'" {
                    value.append("'")
                    chars.removeFirst(2)
                } else if c == "," {
                    break
                } else {
                    value.append(c)
                    chars.removeFirst()
                }
            }
            if quoted {
                throw DBusError(
                    ErrorName(rawValue: "org.freedesktop.DBus.Error.MatchRuleInvalid"),
                    "invalid match rule \(NameRules.quoted(text)): unterminated quote")
            }
            pairs.append((key, value))
            if chars.first == "," { chars.removeFirst() }
        }
        self.pairs = pairs
    }

    /// Rules are equal when their text is.
    public static func == (a: MatchRule, b: MatchRule) -> Bool { a.text == b.text }

    /// Whether `message` satisfies every key of the rule that this matcher checks.
    ///
    /// - Parameter message: a received message.
    /// - Returns: true if the handler registered with this rule should see it.
    public func matches(_ message: Message) -> Bool {
        for (key, value) in pairs {
            switch key {
            case "type":
                let type: String
                switch message.type {
                case .signal: type = "signal"
                case .methodCall: type = "method_call"
                case .methodReturn: type = "method_return"
                case .error: type = "error"
                }
                if type != value { return false }
            case "sender":
                if value.hasPrefix(":") || value == BusName.bus.rawValue {
                    if message.sender != value { return false }
                }
            case "interface": if message.interface != value { return false }
            case "member": if message.member != value { return false }
            case "path": if message.path != value { return false }
            case "destination": if message.destination != value { return false }
            case "path_namespace":
                guard let path = message.path else { return false }
                if !(value == "/" || path == value || path.hasPrefix(value + "/")) { return false }
            case "arg0namespace":
                guard let arg = message.arguments.first?.string else { return false }
                if !(arg == value || arg.hasPrefix(value + ".")) { return false }
            default:
                guard key.hasPrefix("arg") else { continue }
                var digits = key.dropFirst(3)
                let isPath = digits.hasSuffix("path")
                if isPath { digits = digits.dropLast(4) }
                guard let index = Int(digits), index >= 0, index < 64 else { continue }
                guard index < message.arguments.count else { return false }
                let argument = message.arguments[index]
                if isPath {
                    let text = argument.string ?? argument.objectPath?.rawValue
                    guard let text else { return false }
                    let prefixMatch =
                        text == value || (value.hasSuffix("/") && text.hasPrefix(value))
                        || (text.hasSuffix("/") && value.hasPrefix(text))
                    if !prefixMatch { return false }
                } else {
                    guard argument.string == value else { return false }
                }
            }
        }
        return true
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        var s = Substring(self)
        while s.first?.isWhitespace == true { s.removeFirst() }
        while s.last?.isWhitespace == true { s.removeLast() }
        return String(s)
    }
}
