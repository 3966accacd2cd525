import Foundation
import LiveryDemo

exit(runDemo(arguments: Array(CommandLine.arguments.dropFirst())))
