import Foundation
import Geo
import Model

/// Draws a generated tulip from a maneuver's junction(s).
///
/// Every road is placed at its turn angle relative to the direction of arrival:
/// `normalizedTurn(spoke.bearing − (entry.bearing + 180))`, the entry itself at 180. Road classes
/// come from `Spoke.roadClass`. A roundabout is drawn from its combined junction (see
/// `Maneuver.combinedJunction`): the entry, every road leaving the ring at every ring node, each at
/// its own bearing relative to the arrival at the first node, and the exit taken.
public enum TulipBuilder {
    /// The tulip of `maneuver`, origin `.generated`.
    /// - Returns: a straight road (entry and exit) for a maneuver without a junction (a keep-straight
    ///   reminder).
    public static func tulip(for maneuver: Maneuver) -> Tulip {
        let junction = maneuver.combinedJunction
        guard let entry = junction.entry else {
            return Tulip(origin: .generated, roads: [Tulip.Road(role: .entry, angle: 180), Tulip.Road(role: .exit, angle: 0)])
        }
        var roads: [Tulip.Road] = []
        for spoke in junction.spokes {
            let role: RoadRole
            switch spoke.role {
            case .entry: role = .entry
            case .exit: role = .exit
            case .side: role = .side
            }
            roads.append(Tulip.Road(role: role, angle: TurnPasses.relativeAngle(of: spoke, arrivingAlong: entry),
                                    roadClass: spoke.roadClass))
        }
        var roundabout: Tulip.Roundabout? = nil
        if maneuver.kind == .roundabout, let number = maneuver.exitNumber, let first = maneuver.junctions.first {
            // The way traffic goes round, from the ring's one-way road where the route reaches it.
            let ringOut = first.exit.flatMap { $0.isRoundabout ? $0 : nil }
                ?? first.spokes.first { $0.isRoundabout && $0.canLeave }
            roundabout = Tulip.Roundabout(exitNumber: number,
                                          clockwise: ringOut.map { TurnPasses.ringRunsClockwise(at: first, leavingBy: $0) } ?? false)
        }
        return Tulip(origin: .generated, roads: roads, roundabout: roundabout)
    }
}
