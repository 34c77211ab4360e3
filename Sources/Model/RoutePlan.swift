import Foundation
import Geo

/// The stored form of an edited route: the handles, the legs between them (always one fewer than
/// the handles, or none), the travel mode and the kind new legs take. Kept in the book file so the
/// route reopens editable and renders offline.
public struct RoutePlan: Codable, Sendable, Equatable {
    public var handles: [Handle]
    /// `legs[i]` runs from `handles[i]` to `handles[i + 1]`.
    public var legs: [PlannedLeg]
    public var mode: TravelMode
    /// The kind a new leg takes (the editor's "New legs" setting).
    public var defaultLegKind: LegKind

    public init(handles: [Handle] = [], legs: [PlannedLeg] = [], mode: TravelMode = .drive,
                defaultLegKind: LegKind = .road) {
        self.handles = handles
        self.legs = legs
        self.mode = mode
        self.defaultLegKind = defaultLegKind
    }
}

/// One leg between two neighbouring handles, as the book file stores it: its kind, the stroke it was
/// drawn with, and every road already received for it, per travel mode. With the roads stored, a
/// reopened book draws its route offline and switching modes asks nothing already answered.
public struct PlannedLeg: Codable, Sendable, Equatable {
    public var kind: LegKind
    /// The hand-drawn stroke from the leg's start to its end, when the leg was drawn. An as-drawn leg
    /// follows it; a road leg is checked against it (the road should run near where it was drawn).
    public var stroke: [Coordinate]?
    /// Where the leg's answer stands in the plan's current mode; nil for a leg that is never asked
    /// (straight or as drawn).
    public var state: LegState?
    /// The road received in each mode, for the handles' current placed positions.
    public var answers: [TravelMode: RoadLeg]
    /// Modes in which the engine answered that there is no road: an answer too, kept like a road.
    public var noRoadModes: Set<TravelMode>

    public init(kind: LegKind, stroke: [Coordinate]? = nil, state: LegState? = nil,
                answers: [TravelMode: RoadLeg] = [:], noRoadModes: Set<TravelMode> = []) {
        self.kind = kind
        self.stroke = stroke
        self.state = state
        self.answers = answers
        self.noRoadModes = noRoadModes
    }
}
