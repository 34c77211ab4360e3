import Foundation
import Model
import OSM

/// The side traffic keeps to: the one `given`, else the one the map's `rings` say, else the right.
/// A caller that has read the rings passes the side so resolved to `RouteTurns.maneuvers`, which
/// then does not read them again.
func resolvedDrivingSide(given: DrivingSide?, rings: RingTurning?) -> DrivingSide {
    given ?? rings?.drivingSide ?? .right
}

/// The side traffic keeps to, where the map's roundabouts say it (`RingTurning`): a book whose side
/// was not given takes the map's, kept in the book when it is left (a book keeping right reads as
/// it always did) and said; a side given against the map is kept, with a warning, since the rings
/// decide the exits anyway but the side decides a track's small roundabouts and the router's turns.
/// - Parameter given: how a side given is named in the warning: the option, or the book.
public func settleDrivingSide(of settings: inout BookSettings, from rings: RingTurning, given source: String = "--driving-side",
                              log: any WorkflowLog) {
    guard let read = rings.drivingSide else { return }
    let runs = read == .left ? "clockwise" : "anticlockwise"
    if let given = settings.drivingSide {
        if given != read {
            log.record(WorkflowMessage(.warning, "\(source) \(given.rawValue), but the map's roundabouts run \(runs) "
                + "(\(rings.summary)), as where traffic keeps \(read.rawValue)"))
        }
        return
    }
    guard read == .left else { return }
    settings.drivingSide = .left
    log.record(WorkflowMessage(.information, "traffic keeps left here: the map's roundabouts run clockwise (\(rings.summary)); "
        + "the book keeps left"))
}
