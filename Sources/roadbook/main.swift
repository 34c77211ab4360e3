import Foundation
import RoadbookCLI

Roadbook.installSignalCleanup()
exit(await Roadbook.main())
