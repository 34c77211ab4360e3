import Foundation
import Geo

/// What turning at a junction costs a travel mode, in seconds added to the route's time: slowing
/// for a turn, waiting to cross oncoming traffic, turning round. Without them the quickest route
/// is the one with the least time on the road, however many turns it takes: round a block of
/// small streets rather than along the main road, and round a forbidden turn by whatever loop is a
/// few metres shorter. With them the embedded router picks the routes OSRM picks, whose profiles
/// cost turns the same way (`car.lua` and `bicycle.lua`; the figures are theirs).
///
/// A turn is costed where more than two roads the mode may use meet (at a bend of one road, or
/// where one way continues as another, there is no choice to slow for), and at every U-turn.
/// Its `angle` is the change of heading from the road one arrives by to the road one leaves by,
/// 0 straight on, + right, ±180 back.
public struct TurnCosts: Sendable, Equatable {
    /// How the cost grows with the angle.
    public enum Shape: Sendable, Equatable {
        /// `penalty` / (1 + e^−(13/b · |angle|/180 − 6.5 b)) for a turn towards the kerb side and
        /// with b inverted for one across the road (b the `bias`): next to nothing straight on,
        /// a steep rise through 60–120°, `penalty` at the sharpest (OSRM's `car.lua`, fitted there
        /// to turns timed in real driving). At 90°, 2.1 s to the right and 5.4 s to the left where
        /// traffic keeps right, with the car's figures.
        case sigmoid
        /// `penalty` · (angle/90)², divided by `bias` towards the kerb side and multiplied across
        /// (OSRM's `bicycle.lua`): a cyclist slows in proportion to the turn.
        case quadratic
    }
    public var shape: Shape
    /// Seconds: the most a turn costs (`sigmoid`), or what a right angle costs (`quadratic`).
    public var penalty: TimeInterval
    /// Above 1: turns towards the kerb side (right where traffic keeps right) cost less than turns
    /// across the road.
    public var bias: Double
    /// Seconds added to a turn across oncoming traffic at a junction, rising with the angle as the
    /// sigmoid (1 / (1 + e^−(13 |angle|/180 − 3.25))): the wait for a gap. Not on or off a
    /// roundabout, whose traffic all runs one way.
    public var oncoming: TimeInterval
    /// Seconds added to a U-turn, on top of the turn.
    public var uTurn: TimeInterval

    /// A car, as OSRM's `car.lua`: sigmoid up to 7.5 s, bias 1.075, 2 s to wait for oncoming traffic,
    /// 20 s to turn round.
    public static let car = TurnCosts(shape: .sigmoid, penalty: 7.5, bias: 1.075, oncoming: 2, uTurn: 20)
    /// A bicycle, as OSRM's `bicycle.lua`: 6 s at a right angle, bias 1.4, 20 s to turn round.
    public static let bicycle = TurnCosts(shape: .quadratic, penalty: 6, bias: 1.4, oncoming: 0, uTurn: 20)

    /// Seconds a turn of `angle` costs (see the type).
    /// - Parameters:
    ///   - angle: degrees, 0 straight on, + right, ±180 back.
    ///   - uTurn: the turn goes back along the road it came by.
    ///   - roundabout: the road arrived by or left by is a roundabout's.
    ///   - leftHandTraffic: traffic keeps left, so the kerb side is the left.
    /// - Complexity: O(1).
    public func seconds(angle: Degrees, uTurn isUTurn: Bool, roundabout: Bool, leftHandTraffic: Bool) -> TimeInterval {
        let kerbSide = leftHandTraffic ? angle <= 0 : angle >= 0
        let a = abs(angle)
        var seconds: TimeInterval
        switch shape {
        case .sigmoid:
            seconds = kerbSide
                ? penalty / (1 + exp(-((13 / bias) * a / 180 - 6.5 * bias)))
                : penalty / (1 + exp(-((13 * bias) * a / 180 - 6.5 / bias)))
            if !kerbSide, !isUTurn, !roundabout, oncoming > 0 {
                seconds += oncoming / (1 + exp(-(13 * a / 180 - 3.25)))
            }
        case .quadratic:
            seconds = (a / 90) * (a / 90) * (kerbSide ? penalty / bias : penalty * bias)
        }
        return isUTurn ? seconds + uTurn : seconds
    }
}
