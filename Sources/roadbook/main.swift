import Foundation
import RoadbookCLI
import Serve

// The one place that knows both the command line and the editor's HTTP server: `roadbook serve`
// starts Serve's editor through the launcher handed in here (docs/architecture.md).
Roadbook.installSignalCleanup()
exit(await Roadbook.main(editor: HTTPEditorLauncher()))
