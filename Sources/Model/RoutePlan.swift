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
    /// The engine that answered the road legs last, by its name ("OSRM"), so a plan reopened from
    /// a book or a draft still names it in its messages ("OSRM is limiting requests"); nil before
    /// any engine was asked.
    public var engine: String?
    /// The most handles (stops) the route may have, as it was made with (`route --max-stops`, 14
    /// unless given) or last given (`handles add --max-stops`): a handle added past it is refused.
    /// Nil for no limit: a route traced from a track, or a book written before the limit was kept.
    public var maximumStops: Int?

    public init(handles: [Handle] = [], legs: [PlannedLeg] = [], mode: TravelMode = .drive,
                defaultLegKind: LegKind = .road, engine: String? = nil, maximumStops: Int? = nil) {
        self.handles = handles
        self.legs = legs
        self.mode = mode
        self.defaultLegKind = defaultLegKind
        self.engine = engine
        self.maximumStops = maximumStops
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

    // The state is written as its name with the fault's reason beside it (`"state": "serverError",
    // "detail": "…"`), not in Swift's default form for an enum with a value (`{"serverError": {"_0": …}}`,
    // which book files of schema version 2 have; `BookMigration` rewrites those).
    private enum CodingKeys: String, CodingKey { case kind, stroke, state, detail, answers, noRoadModes }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        kind = try c.decode(LegKind.self, forKey: .kind)
        stroke = try c.decodeIfPresent([Coordinate].self, forKey: .stroke)
        let detail = try c.decodeIfPresent(String.self, forKey: .detail)
        if let name = try c.decodeIfPresent(String.self, forKey: .state) {
            guard let state = LegState(name: name, detail: detail) else {
                throw DecodingError.dataCorruptedError(forKey: .state, in: c,
                    debugDescription: "'\(name)' is not a leg state (one of \(LegState.names.joined(separator: ", ")))")
            }
            self.state = state
        } else {
            state = nil
        }
        answers = try c.decodeIfPresent([TravelMode: RoadLeg].self, forKey: .answers) ?? [:]
        noRoadModes = try c.decodeIfPresent(Set<TravelMode>.self, forKey: .noRoadModes) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(kind, forKey: .kind)
        try c.encodeIfPresent(stroke, forKey: .stroke)
        try c.encodeIfPresent(state?.name, forKey: .state)
        try c.encodeIfPresent(state?.detail, forKey: .detail)
        try c.encode(answers, forKey: .answers)
        try c.encode(noRoadModes, forKey: .noRoadModes)
    }
}

extension RoutePlan {
    /// The road legs still waiting for the engine, by index: never asked, being asked, or asked and
    /// left to ask again (rate limited, a server error, unreachable). A leg with its road, one the
    /// engine found no road for, and a straight or as-drawn leg wait for nothing. Apply's refusal
    /// and `route`'s "not finished" both read this one list.
    public var waitingLegs: [Int] {
        legs.indices.filter { legs[$0].kind == .road && legs[$0].state != .road && legs[$0].state != .noRoad }
    }

    /// Legs by index as a message names them: "2–3, 3–4" (leg N from handle N to N + 1), the first
    /// five and "…" for more.
    public static func legNames(_ legs: [Int]) -> String {
        legs.prefix(5).map { "\($0 + 1)–\($0 + 2)" }.joined(separator: ", ") + (legs.count > 5 ? ", …" : "")
    }
}
