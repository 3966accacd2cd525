import Foundation
import LiveryPreview

// livery-svg WIDTH HEIGHT: draws one SVG image for livery's pictures in a process of its own,
// which livery kills at the deadline (`SVGRenderer`, where both ends of the protocol are).
exit(SVGRenderer.serve(arguments: CommandLine.arguments))
