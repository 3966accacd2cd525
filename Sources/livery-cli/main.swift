import Foundation
import LiveryCLI

exit(runClient(arguments: Array(CommandLine.arguments.dropFirst())))
