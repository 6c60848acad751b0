import Foundation
import MapCLI

exit(MapRasterCLI.run(Array(CommandLine.arguments.dropFirst())))
