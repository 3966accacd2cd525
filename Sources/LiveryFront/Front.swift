import LiveryText

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What the front did with a command line.
public enum FrontOutcome: Equatable, Sendable {
    /// It carried the command out; the process exits with this status (0 success, 1 failure).
    case exit(Int32)
    /// It does not carry this command line out: the full client must (`runFullClient`).
    case fullClient
}

/// The start of `livery`: `get`, `set ID` and `toggle` (the bus-only commands scripts and status
/// bars run in loops) carried out without Foundation, with the same standard output, standard
/// error and exit status as the full client (`LiveryCLI`'s `runClient`) gives them; every other
/// command line is left to the full client (`FrontInvocation`).
/// - Parameters:
///   - arguments: The arguments after the program name.
///   - output: Where to write; the process's standard streams by default.
/// - Returns: The exit status, or `.fullClient`.
public func runFront(arguments: [String], output: FrontOutput = .standard) -> FrontOutcome {
    guard let inv = FrontInvocation(arguments) else { return .fullClient }
    do {
        let bus = try BusCall(inv.bus)
        func call(_ interface: String, _ member: String, _ arguments: [String]) throws(BusFailure) -> String {
            try bus.call(
                destination: FrontContract.busName, path: FrontContract.objectPath, interface: interface,
                member: member, arguments: arguments, timeout: inv.timeout)
        }
        switch inv.command {
        case .get(let variant, let json):
            let property = variant ? FrontContract.variant : FrontContract.activeTheme
            let value = try call(FrontContract.properties, "Get", [FrontContract.interface, property])
            output.out(json ? jsonObjectLine(variant ? "variant" : "theme", value) : value + "\n")
        case .set(let id):
            _ = try call(FrontContract.interface, FrontContract.setTheme, [id])
        case .toggle:
            output.out(try call(FrontContract.interface, FrontContract.toggle, []) + "\n")
        }
        return .exit(0)
    } catch {
        let text = busFailureText(
            name: error.name, message: error.message, timeout: inv.timeout,
            sessionBusAddress: getenv("DBUS_SESSION_BUS_ADDRESS").map { String(cString: $0) })
        output.err("livery: \(text)\n")
        return .exit(1)
    }
}

/// Where the front writes: standard output and error, replaceable in tests.
public struct FrontOutput: Sendable {
    /// Writes text to standard output as given; callers supply the newlines.
    public var out: @Sendable (String) -> Void
    /// Writes text to standard error (`standard` passes it through `printable` first).
    public var err: @Sendable (String) -> Void

    /// An output writing to the given closures.
    public init(out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void) {
        self.out = out
        self.err = err
    }

    /// The process's standard output and error, written as the full client's `Output.standard`
    /// writes them: standard error's text through `printable` keeping its lines, and a failed
    /// write a trap (what Foundation's `FileHandle.write` does there), so that both halves of the
    /// client end alike on a full disk or a closed pipe.
    public static let standard = FrontOutput(
        out: { writeAll(1, $0) }, err: { writeAll(2, printable($0, keepingLines: true)) })
}

/// Writes all of `text` to file descriptor `fd`, again after a signal; traps when the write fails
/// (see `FrontOutput.standard`), but for a closed descriptor, which Foundation's
/// `FileHandle.write` passes over too.
private func writeAll(_ fd: Int32, _ text: String) {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
        let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        if n >= 0 {
            bytes = bytes.dropFirst(n)
            continue
        }
        let code = errno
        if code == EINTR { continue }
        if code == EBADF { return }
        fatalError("cannot write to file descriptor \(fd): \(String(cString: strerror(code)))")
    }
}

/// The full client's file name: `livery-cli`, in the directory of the running `livery`.
public let fullClientName = "livery-cli"

/// Where the full client is: `livery-cli` beside the running executable (`/proc/self/exe`, so
/// a `livery` reached through a link finds the one beside the file it links to).
/// - Returns: Its path as a C string (the bytes as the kernel gave them, NUL-terminated), or
///   nil when `/proc/self/exe` cannot be read.
public func fullClientPath() -> [CChar]? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard n > 0, let slash = buffer[..<n].lastIndex(of: CChar(UInt8(ascii: "/"))) else { return nil }
    return Array(buffer[...slash]) + fullClientName.utf8CString
}

/// Replaces the process with the full client, given this process's own arguments unchanged
/// (`CommandLine.unsafeArgv`, its program name included); returns only when that fails, after
/// saying so on standard error, and then the process should exit with status 1.
public func runFullClient() {
    guard let path = fullClientPath() else {
        FrontOutput.standard.err("livery: cannot find \(fullClientName): /proc/self/exe cannot be read\n")
        return
    }
    execv(path, CommandLine.unsafeArgv)
    let reason = String(cString: strerror(errno))
    let name = String(decoding: path.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    FrontOutput.standard.err("livery: cannot run \(name), which carries out this command: \(reason)\n")
}
