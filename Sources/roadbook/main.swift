import Foundation
import RoadbookCLI

exit(await Roadbook.main(Array(CommandLine.arguments.dropFirst())))
