import Foundation
import Geo

/// A tulip diagram as vectors: the junction seen from the rider, arriving from the bottom.
///
/// Angles are turn angles relative to the direction of arrival: 0 is straight on (up in the
/// drawing), +90 right, −90 left, 180 back where the rider came from.
/// A generated tulip is redrawn when the road under it changes; a drawn one is never touched.
public struct Tulip: Codable, Sendable, Equatable {
    /// Who made the drawing: it decides whether regeneration may redraw it.
    public enum Origin: String, Codable, Sendable {
        /// Made from the road geometry by roadbook.
        case generated
        /// Drawn by a person.
        case drawn
    }

    /// The kind of road, styled as riders know it.
    public enum RoadClass: String, Codable, Sendable, CaseIterable {
        /// Motorway or dual carriageway.
        case motorway
        /// Tarmac road: an open double line.
        case tarmac
        /// Gravel or dirt road: a filled line.
        case gravel
        /// Track: a thin line.
        case track
        /// Path or trail: a thin dashed line.
        case path
        /// Off-piste, across country: dotted.
        case offPiste
    }

    /// One road at the junction.
    public struct Road: Codable, Sendable, Equatable {
        /// The road the rider arrives on, the one taken, or another.
        public var role: RoadRole
        /// Turn angle of the road leaving the junction, in (−180, 180]; the entry is at 180.
        public var angle: Degrees
        public var roadClass: RoadClass
        /// The rider may not leave by this road: at a roundabout, an arm that only enters the ring
        /// (one-way towards it) or one closed to the travel mode. Drawn with a bar across its end,
        /// and no exit is counted on it. Written only when true.
        public var noExit: Bool
        /// At a roundabout: whether traffic going round from the entry meets this road before the
        /// exit taken (it is among the exits counted before it, where one may leave by it) or after
        /// it. Nil for the entry and the exit, and where not known (a road a person added, a book
        /// before it): its angle then decides. A drawing keeps every road on its side of the exit
        /// (`TulipLayout`), so the roads one may leave by drawn before the exit are the ones counted.
        /// Written only when known.
        public var metBeforeExit: Bool?

        public init(role: RoadRole, angle: Degrees, roadClass: RoadClass = .tarmac, noExit: Bool = false,
                    metBeforeExit: Bool? = nil) {
            self.role = role
            self.angle = angle
            self.roadClass = roadClass
            self.noExit = noExit
            self.metBeforeExit = metBeforeExit
        }

        private enum CodingKeys: String, CodingKey { case role, angle, roadClass, noExit, metBeforeExit }

        /// A road written without its class is tarmac, the common case; one written without
        /// `noExit` (every road of books before it) may be left by.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            role = try c.decode(RoadRole.self, forKey: .role)
            angle = try c.decode(Degrees.self, forKey: .angle)
            roadClass = try c.decodeIfPresent(RoadClass.self, forKey: .roadClass) ?? .tarmac
            noExit = try c.decodeIfPresent(Bool.self, forKey: .noExit) ?? false
            metBeforeExit = try c.decodeIfPresent(Bool.self, forKey: .metBeforeExit)
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(role, forKey: .role)
            try c.encode(angle, forKey: .angle)
            try c.encode(roadClass, forKey: .roadClass)
            if noExit { try c.encode(true, forKey: .noExit) }
            try c.encodeIfPresent(metBeforeExit, forKey: .metBeforeExit)
        }
    }

    /// A roundabout: the ring replaces the junction point; roads leave from it.
    public struct Roundabout: Codable, Sendable, Equatable {
        /// The exit taken, counted from the entry: 1 is the first exit.
        public var exitNumber: Int
        /// True where traffic goes round clockwise (driving on the left).
        public var clockwise: Bool

        public init(exitNumber: Int, clockwise: Bool = false) {
            self.exitNumber = exitNumber
            self.clockwise = clockwise
        }

        private enum CodingKeys: String, CodingKey { case exitNumber, clockwise }

        /// Written without a direction, a roundabout turns counterclockwise (driving on the right).
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            exitNumber = try c.decode(Int.self, forKey: .exitNumber)
            clockwise = try c.decodeIfPresent(Bool.self, forKey: .clockwise) ?? false
        }
    }

    /// A point of a hand-drawn stroke in the tulip's square, x right and y up, each in [−1, 1].
    public struct Point: Codable, Sendable, Equatable {
        public var x: Double
        public var y: Double
        public init(x: Double, y: Double) { self.x = x; self.y = y }
    }

    public var origin: Origin
    /// Every road at the junction, the entry and exit among them.
    public var roads: [Road]
    public var roundabout: Roundabout?
    /// Extra strokes a person drew (landmarks, a fence, a cattle grid), in the tulip's square.
    public var strokes: [[Point]]

    public init(origin: Origin, roads: [Road], roundabout: Roundabout? = nil, strokes: [[Point]] = []) {
        self.origin = origin
        self.roads = roads
        self.roundabout = roundabout
        self.strokes = strokes
    }

    /// The road taken, if any.
    public var exit: Road? { roads.first { $0.role == .exit } }
    /// The road arrived on, if any.
    public var entry: Road? { roads.first { $0.role == .entry } }

    private enum CodingKeys: String, CodingKey { case origin, roads, roundabout, strokes }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        origin = try c.decode(Origin.self, forKey: .origin)
        roads = try c.decodeIfPresent([Road].self, forKey: .roads) ?? []
        roundabout = try c.decodeIfPresent(Roundabout.self, forKey: .roundabout)
        strokes = try c.decodeIfPresent([[Point]].self, forKey: .strokes) ?? []
        for (i, road) in roads.enumerated() where !(road.angle.isFinite && road.angle > -180 - 1e-9 && road.angle <= 180) {
            throw DecodingError.dataCorruptedError(forKey: .roads, in: c,
                debugDescription: "roads[\(i)].angle \(road.angle) is not a turn angle in (−180, 180]")
        }
        if roads.filter({ $0.role == .exit }).count > 1 {
            throw DecodingError.dataCorruptedError(forKey: .roads, in: c, debugDescription: "has more than one exit")
        }
        if let r = roundabout, r.exitNumber < 1 {
            throw DecodingError.dataCorruptedError(forKey: .roundabout, in: c, debugDescription: "exitNumber must be 1 or more")
        }
    }
}
