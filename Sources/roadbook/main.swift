import Foundation
import RoadbookCLI

Roadbook.installSignalCleanup()
exit(await Roadbook.main(Array(CommandLine.arguments.dropFirst())))
