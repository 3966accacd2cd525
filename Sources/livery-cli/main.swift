import Foundation
import LiveryCLI
import LiveryText

// As the front does: a closed standard stream is /dev/null, not the bus connection's descriptor.
openClosedStandardStreams()
exit(runClient(arguments: Array(CommandLine.arguments.dropFirst())))
