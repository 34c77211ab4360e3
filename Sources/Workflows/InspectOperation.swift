import Foundation
import Formats
import Geo
import Model
import BookAssembly
import Guidance
import RouteEditing

// What `inspect` prints: the notes of a book as records (`inspectBook`), and, with `--explain`,
// what the turn detector did with every junction the route passes (`explainTurns`).

/// One note as `inspect` lists it; `inspect --json` prints it as it encodes.
public struct InspectedNote: Encodable, Sendable, Equatable {
    /// The note's place in the book's order of notes, from 1, off-route notes counted.
    public var index: Int
    /// The row number the page prints, from 1; nil for a note off the route, which no page prints.
    public var row: Int?
    public var id: Int
    /// Metres, rounded to the centimetre.
    public var distanceAlong: Double
    public var kind: String
    public var text: String
    public var marker: String?
    public var waypointType: String?
    /// Degrees, rounded to a tenth.
    public var cap: Double?
    public var latitude: Double
    public var longitude: Double
    /// Metres, + right of travel, rounded to the centimetre.
    public var offsetFromRoute: Double
    public var onRoute: Bool
    /// Metres, or null where the book has no terrain.
    public var elevation: Double?
    /// For a generated turn, where it was read from: `map` or `shape` (`GeneratedTurn.source`).
    public var turnSource: String? = nil

    private enum CodingKeys: String, CodingKey {
        case index, row, id, distanceAlong, kind, text, marker, waypointType, cap, latitude, longitude, offsetFromRoute,
             onRoute, elevation, turnSource
    }

    /// Writes every key, `null` included, so a script always finds `elevation`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(index, forKey: .index)
        try c.encode(row, forKey: .row)
        try c.encode(id, forKey: .id)
        try c.encode(distanceAlong, forKey: .distanceAlong)
        try c.encode(kind, forKey: .kind)
        try c.encode(text, forKey: .text)
        try c.encode(marker, forKey: .marker)
        try c.encode(waypointType, forKey: .waypointType)
        try c.encode(cap, forKey: .cap)
        try c.encode(latitude, forKey: .latitude)
        try c.encode(longitude, forKey: .longitude)
        try c.encode(offsetFromRoute, forKey: .offsetFromRoute)
        try c.encode(onRoute, forKey: .onRoute)
        try c.encode(elevation, forKey: .elevation)
        try c.encode(turnSource, forKey: .turnSource)
    }
}

/// A book as `inspect --json` prints it.
public struct InspectedBook: Encodable, Sendable, Equatable {
    public var title: String
    /// Metres, rounded to the centimetre.
    public var routeLength: Double
    public var climb: Double?
    public var descent: Double?
    /// "No terrain for this route" when heights are missing for part of it.
    public var terrain: String
    /// Road legs drawn straight ("2 legs straight (no road)"), absent when none.
    public var straight: String?
    public var notes: [InspectedNote]
}

/// A book read for `inspect`.
public struct BookInspection: Sendable {
    /// The records `inspect --json` prints.
    public var record: InspectedBook
    /// The route's length in metres, as measured (the record's is rounded).
    public var routeLength: Metres
    /// The book's profile, when it has terrain.
    public var profile: Profile?
}

/// Reads the book file `url` for `inspect`.
/// - Throws: `FormatError` for the book.
public func inspectBook(_ url: URL) throws -> BookInspection {
    let book = try BookFile.read(contentsOf: url)
    let length = Polyline(book.route.coordinates).length
    var printed = 0
    let notes = book.notes.enumerated().map { i, note in
        if note.placement == .onRoute { printed += 1 }
        return InspectedNote(index: i + 1, row: note.placement == .onRoute ? printed : nil, id: note.id,
                             distanceAlong: (note.distanceAlong * 100).rounded() / 100,
                             kind: note.kind.rawValue, text: note.text, marker: note.marker,
                             waypointType: note.waypointType?.rawValue, cap: note.cap.map { ($0 * 10).rounded() / 10 },
                             latitude: note.coordinate.latitude, longitude: note.coordinate.longitude,
                             offsetFromRoute: (note.offsetFromRoute * 100).rounded() / 100,
                             onRoute: note.placement == .onRoute, elevation: note.elevation,
                             turnSource: note.generated?.source)
    }
    let terrain = book.profile.map { $0.isComplete ? ($0.source ?? "terrain") : "No terrain for this route" } ?? "none"
    let complete = book.profile?.isComplete == true
    let record = InspectedBook(title: book.title, routeLength: (length * 100).rounded() / 100,
                               climb: complete ? book.profile?.climb : nil, descent: complete ? book.profile?.descent : nil,
                               terrain: terrain, straight: book.route.straightSummary, notes: notes)
    return BookInspection(record: record, routeLength: length, profile: book.profile)
}

/// What the turn detector did along a book's route, junction by junction (`explainTurns`).
public struct TurnExplanation: Sendable {
    /// One junction as `inspect --explain --json` prints it.
    public struct Junction: Encodable, Sendable, Equatable {
        /// A pass's verdict, and the handler of the pass that gave it (the kind of junction), if any.
        public struct Decision: Encodable, Sendable, Equatable {
            public var pass: String
            public var handler: String?
            public var verdict: String
        }
        public var distanceAlong: Double
        public var nodeID: Int64?
        public var latitude: Double
        public var longitude: Double
        public var decisions: [Decision]
        /// The book's row (1-based note index) made from the junction, or nil.
        public var row: Int?
        /// The words of that row; not encoded.
        public var rowText: String?

        private enum CodingKeys: String, CodingKey { case distanceAlong, nodeID, latitude, longitude, decisions, row }
    }

    /// A turn found along the route, in words.
    public struct Turn: Sendable, Equatable {
        /// Metres along the route.
        public var distanceAlong: Metres
        public var text: String
    }

    /// How a track without a map was read (`TrackTurns.Reading`).
    public struct ShapeReading: Sendable, Equatable {
        public enum Kind: String, Sendable, Equatable {
            /// A routed or drawn line.
            case clean
            /// A receiver's track, its error drifting slowly.
            case jittered
            /// Metres of independent error at every fix.
            case scattered
        }
        public var kind: Kind
        /// Metres from the smoothed line at the median.
        public var scatter: Metres
        /// Set when the track was read from the means of its fixes over this many metres.
        public var averagedOver: Metres?
    }

    /// The travel mode the turns were read in.
    public var mode: TravelMode
    /// The extract the turns were read from; nil for the track's shape.
    public var map: URL?
    public var junctions: [Junction]
    public var turns: [Turn]
    /// Without a map, how the track reads.
    public var reading: ShapeReading?
    /// Stretches (metres along the route) off the map, whose turns come from the shape.
    public var offMap: [ClosedRange<Metres>]
}

/// Runs the turn detector again over the route of the book file `url`, as `build` ran it, and says
/// what became of every junction: which pass kept, merged or dropped it, and the row it became.
/// - Parameters:
///   - map: the extract the book's turns came from; nil for the track's shape.
///   - mode: the travel mode; nil for the book's.
/// - Throws: `FormatError` for the book; the map's errors.
public func explainTurns(ofBook url: URL, map: URL?, mode: TravelMode?) throws -> TurnExplanation {
    let book = try BookFile.read(contentsOf: url)
    let mode = mode ?? book.travelMode
    // The turns found as `build` finds them: the same stages, with a trace (`BookPipeline.explain`).
    let trace = TurnTrace()
    let found = try BookPipeline.explain(book, map: map, mode: mode, trace: trace).prepare(log: MessageList()).turns
    let junctions = trace.byJunction.map { decisions in
        let row = row(of: decisions[0], turns: found.maneuvers, notes: book.notes)
        return TurnExplanation.Junction(
            distanceAlong: (decisions[0].distanceAlong * 100).rounded() / 100, nodeID: decisions[0].nodeID,
            latitude: decisions[0].coordinate.latitude, longitude: decisions[0].coordinate.longitude,
            decisions: decisions.map { .init(pass: $0.pass, handler: $0.handler, verdict: $0.verdict) }, row: row,
            rowText: row.map { book.notes[$0 - 1].text })
    }
    let reading = found.reading.map {
        TurnExplanation.ShapeReading(kind: TurnExplanation.ShapeReading.Kind(rawValue: $0.kind.rawValue) ?? .clean,
                                     scatter: $0.scatter, averagedOver: $0.averagedOver)
    }
    return TurnExplanation(mode: mode, map: map, junctions: junctions,
                           turns: found.maneuvers.map { .init(distanceAlong: $0.distanceAlong, text: Instructions.english.text(for: $0)) },
                           reading: reading, offMap: found.offMap)
}

/// A junction's row: the book's generated note standing on the first junction of the turn made
/// from it (a roundabout's row stands on its entry node).
private func row(of entry: TurnTrace.Entry, turns: [Maneuver], notes: [Note]) -> Int? {
    let same = { (j: Junction) in j.nodeID == entry.nodeID && abs(j.distanceAlong - entry.distanceAlong) < 1 }
    guard let first = turns.first(where: { $0.junctions.contains(where: same) })?.junctions.first else { return nil }
    return notes.firstIndex { note in
        guard let junction = note.generated?.junction else { return false }
        if let id = first.nodeID, junction.nodeID == id { return abs(note.distanceAlong - first.distanceAlong) < 50 }
        return junction.coordinate.distance(to: first.coordinate) < 2
    }.map { $0 + 1 }
}
