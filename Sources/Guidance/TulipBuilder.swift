import Foundation
import Geo
import Model

/// Draws a generated tulip from a maneuver's junction(s).
///
/// Every road is placed at its turn angle relative to the direction of arrival:
/// `normalizedTurn(spoke.bearing − (entry.bearing + 180))`, the entry itself at 180. Road classes
/// come from `Spoke.roadClass`. A roundabout is drawn from its combined junction (see
/// `Maneuver.combinedJunction`): every road meeting the ring, at the nodes the route passes and
/// past the exit, each at its own bearing relative to the arrival at the first node, the exit taken
/// among them, each side road with whether traffic meets it before the exit (`metBeforeExit`); a
/// road one may not leave the ring by (`Spoke.canLeave` false: one-way into the ring, or closed to
/// the travel mode) is marked `noExit`. The angles are the true ones: a painter spreads roads drawn
/// too close and keeps each on its side of the exit (`TulipLayout`).
public enum TulipBuilder {
    /// The tulip of `maneuver`, origin `.generated`.
    /// - Returns: a straight road (entry and exit) for a maneuver without a junction (a keep-straight
    ///   reminder).
    public static func tulip(for maneuver: Maneuver) -> Tulip {
        let junction = maneuver.combinedJunction
        guard let entry = junction.entry else {
            return Tulip(origin: .generated, roads: [Tulip.Road(role: .entry, angle: 180), Tulip.Road(role: .exit, angle: 0)])
        }
        var roundabout: Tulip.Roundabout? = nil
        if maneuver.kind == .roundabout, let number = maneuver.exitNumber {
            // The way traffic goes round, from the ring's one-way road where the route reaches it.
            roundabout = Tulip.Roundabout(exitNumber: number, clockwise: maneuver.ringClockwise ?? false)
        }
        return Tulip(origin: .generated, roads: roads(of: junction, arrivingAlong: entry, atRing: roundabout != nil),
                     roundabout: roundabout)
    }

    /// The tulip of a junction as a generated note keeps it (`GeneratedTurn.junction`, a roundabout's
    /// combined junction): what a person's corrections are taken back to.
    /// - Parameter roundabout: the ring, for a roundabout's exit.
    public static func tulip(for junction: Junction, roundabout: Tulip.Roundabout? = nil) -> Tulip? {
        guard let entry = junction.entry else { return nil }
        return Tulip(origin: .generated, roads: roads(of: junction, arrivingAlong: entry, atRing: roundabout != nil),
                     roundabout: roundabout)
    }

    /// Every road of `junction` at its turn angle from the arrival along `entry`, with its class. At
    /// a ring (`atRing`), a side road one may not leave by is marked `noExit`, and where the junction
    /// is a roundabout's combined one (`ringArms` present) each side road says whether it is met
    /// before the exit (`spokes`) or after it (`ringArms`).
    static func roads(of junction: Junction, arrivingAlong entry: Spoke, atRing: Bool = false) -> [Tulip.Road] {
        let ordered = atRing && junction.ringArms != nil
        let sides = junction.spokes.map { ($0, true) } + (atRing ? junction.ringArms ?? [] : []).map { ($0, false) }
        return sides.map { spoke, met in
            let role: RoadRole = switch spoke.role {
            case .entry: .entry
            case .exit: .exit
            case .side: .side
            }
            return Tulip.Road(role: role, angle: TurnPasses.relativeAngle(of: spoke, arrivingAlong: entry), roadClass: spoke.roadClass,
                              noExit: atRing && role == .side && !spoke.canLeave,
                              metBeforeExit: ordered && role == .side ? met : nil)
        }
    }
}
