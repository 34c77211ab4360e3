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
        let roads = self.roads(of: junction, arrivingAlong: entry)
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

    /// The tulip of a junction as a generated note keeps it (`GeneratedTurn.junction`, a roundabout's
    /// combined junction): what a person's corrections are taken back to.
    /// - Parameter roundabout: the ring, for a roundabout's exit.
    public static func tulip(for junction: Junction, roundabout: Tulip.Roundabout? = nil) -> Tulip? {
        guard let entry = junction.entry else { return nil }
        return Tulip(origin: .generated, roads: roads(of: junction, arrivingAlong: entry), roundabout: roundabout)
    }

    /// Every road of `junction` at its turn angle from the arrival along `entry`, with its class.
    static func roads(of junction: Junction, arrivingAlong entry: Spoke) -> [Tulip.Road] {
        junction.spokes.map { spoke in
            let role: RoadRole = switch spoke.role {
            case .entry: .entry
            case .exit: .exit
            case .side: .side
            }
            return Tulip.Road(role: role, angle: TurnPasses.relativeAngle(of: spoke, arrivingAlong: entry), roadClass: spoke.roadClass)
        }
    }
}
