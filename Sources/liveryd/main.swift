import Foundation
import LiveryDaemon

exit(runDaemon(arguments: Array(CommandLine.arguments.dropFirst())))
