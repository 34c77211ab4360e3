import Foundation
import RoadbookCLI

exit(Roadbook.main(Array(CommandLine.arguments.dropFirst())))
