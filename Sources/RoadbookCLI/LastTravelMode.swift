import Foundation
import Model
import Workflows

/// The travel mode a person last asked for, remembered from one book to the next (`UserSettings`,
/// in the environment's config folder): a new book takes it when `--mode` is not given, and a mode
/// given to a command that succeeds is remembered.
enum LastTravelMode {
    /// `given`, else the mode last asked for, else drive.
    static func mode(_ given: TravelMode?, console: any Console) -> TravelMode {
        given ?? UserSettings(environment: console.environment).travelMode() ?? .drive
    }

    /// Remembers `mode`, when given; a file that cannot be written is a warning, never a failure.
    static func remember(_ mode: TravelMode?, console: any Console) {
        guard let mode else { return }
        do { try UserSettings(environment: console.environment).remember(mode) } catch { console.err("warning: \(error)") }
    }
}
