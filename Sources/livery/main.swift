import LiveryFront
import LiveryText

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

// No Foundation here: the front starts with the Swift standard library linked in and libdbus
// (ARCHITECTURE.md, "The client's start").
// A closed standard stream is /dev/null, not the bus connection's descriptor.
openClosedStandardStreams()
switch runFront(arguments: Array(CommandLine.arguments.dropFirst())) {
case .exit(let status): exit(status)
case .fullClient:
    runFullClient()
    exit(1)
}
