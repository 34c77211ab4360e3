import Foundation
import Geo

/// One row of the road book.
public struct Note: Codable, Sendable, Equatable, Identifiable {
    /// What made the note.
    public enum Kind: String, Codable, Sendable {
        /// A waypoint from the track file or a waypoint handle.
        case waypoint
        /// A control point the rider must pass (CP, DSS, ASS, …).
        case checkpoint
        /// A turn generated from the road geometry.
        case turn
        /// Typed by a person (a handle note, or words added by hand).
        case typed
    }

    /// Whether the note lies on the route.
    public enum Placement: String, Codable, Sendable {
        /// Within the off-route distance: `distanceAlong` is where the route passes it.
        case onRoute
        /// Farther away: `distanceAlong` is the nearest place on the route, `offsetFromRoute` how far off.
        case offRoute
    }

    /// Stable identity within the book.
    public var id: Int
    public var kind: Kind
    /// Distance along the route from its start, in metres.
    public var distanceAlong: Metres
    /// Where the note was placed (the waypoint itself, not its projection).
    public var coordinate: Coordinate
    /// Signed distance from the route in metres: positive to the right of the direction of travel.
    public var offsetFromRoute: Metres
    public var placement: Placement
    /// The instruction, as printed.
    public var text: String
    /// A short name such as `CP1` or a waypoint's name.
    public var marker: String?
    public var waypointType: WaypointType?
    /// Heading of the route just after the note, in [0, 360).
    public var cap: Degrees?
    /// 0 none, 1 `!`, 2 `!!`, 3 `!!!`.
    public var danger: Int
    /// Height at the note in metres, when the book has terrain.
    public var elevation: Metres?
    /// The odometer restarts here (a new stage, a DSS).
    public var resetsOdometer: Bool
    /// Speed limit in km/h at a speed-zone start (`DZ`) or end (`FZ`).
    public var speedLimit: Int?
    /// Road-book symbols printed in the notes box, by name (see `NoteSymbol`).
    public var symbols: [NoteSymbol]
    /// The junction drawing, generated from the road or drawn by a person.
    public var tulip: Tulip?
    /// For a note generated from the road: what it was generated from, so regeneration can tell
    /// whether the road changed and whether a person has edited the words since.
    public var generated: GeneratedTurn?
    /// For a row made from a handle note: the id of its handle in the book's plan, so Apply places
    /// the row exactly where the new route reaches that handle and keeps the two sets of words in step.
    public var handleID: Int?
    /// When a person last changed the words (`text`, `marker`), as ISO 8601 in UTC
    /// (`2026-03-14T10:00:00Z`); nil when unknown. When a handle note's words and its row's words were
    /// both changed since the last Apply, the later edit is kept (see `HandleNote.wordsEdited`).
    public var wordsEdited: String?
    /// For a waypoint (WPM, WPS, DSS, …): the radius in metres within which a rider's device opens
    /// (shows) it, as the OpenRally `open` attribute; nil for the device's default.
    public var openRadius: Int?
    /// The radius in metres within which the waypoint counts as passed (OpenRally `clear`); nil for the default.
    public var clearRadius: Int?
    /// For a regularity book: the average speed in km/h to hold from this row on, until the next row
    /// that sets one; nil where the row sets none.
    public var targetSpeed: Int?
    /// True when a route change moved the junction under a tulip a person drew (roads added, taken
    /// away or turned, or the turn itself changed or gone: what `regenerate` and `apply` name with
    /// "check it"), until a person changes that tulip again; nil (not written) otherwise.
    /// `roadbook check` names such rows.
    public var tulipToCheck: Bool?

    public init(id: Int, kind: Kind, distanceAlong: Metres, coordinate: Coordinate, offsetFromRoute: Metres = 0,
                placement: Placement = .onRoute, text: String, marker: String? = nil,
                waypointType: WaypointType? = nil, cap: Degrees? = nil, danger: Int = 0,
                elevation: Metres? = nil, resetsOdometer: Bool = false, speedLimit: Int? = nil,
                symbols: [NoteSymbol] = [], tulip: Tulip? = nil, generated: GeneratedTurn? = nil,
                handleID: Int? = nil, wordsEdited: String? = nil, openRadius: Int? = nil, clearRadius: Int? = nil,
                targetSpeed: Int? = nil, tulipToCheck: Bool? = nil) {
        self.id = id
        self.kind = kind
        self.distanceAlong = distanceAlong
        self.coordinate = coordinate
        self.offsetFromRoute = offsetFromRoute
        self.placement = placement
        self.text = text
        self.marker = marker
        self.waypointType = waypointType
        self.cap = cap
        self.danger = danger
        self.elevation = elevation
        self.resetsOdometer = resetsOdometer
        self.speedLimit = speedLimit
        self.symbols = symbols
        self.tulip = tulip
        self.generated = generated
        self.handleID = handleID
        self.wordsEdited = wordsEdited
        self.openRadius = openRadius
        self.clearRadius = clearRadius
        self.targetSpeed = targetSpeed
        self.tulipToCheck = tulipToCheck
    }

    private enum CodingKeys: String, CodingKey {
        case id, kind, distanceAlong, coordinate, offsetFromRoute, placement, text, marker, waypointType, cap, danger,
             elevation, resetsOdometer, speedLimit, symbols, tulip, generated, handleID, wordsEdited,
             openRadius, clearRadius, targetSpeed, tulipToCheck
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(Int.self, forKey: .id)
        kind = try c.decode(Kind.self, forKey: .kind)
        distanceAlong = try c.decode(Double.self, forKey: .distanceAlong)
        coordinate = try c.decode(Coordinate.self, forKey: .coordinate)
        offsetFromRoute = try c.decodeIfPresent(Double.self, forKey: .offsetFromRoute) ?? 0
        placement = try c.decodeIfPresent(Placement.self, forKey: .placement) ?? .onRoute
        text = try c.decodeIfPresent(String.self, forKey: .text) ?? ""
        marker = try c.decodeIfPresent(String.self, forKey: .marker)
        waypointType = try c.decodeIfPresent(WaypointType.self, forKey: .waypointType)
        cap = try c.decodeIfPresent(Double.self, forKey: .cap)
        danger = try c.decodeIfPresent(Int.self, forKey: .danger) ?? 0
        elevation = try c.decodeIfPresent(Double.self, forKey: .elevation)
        resetsOdometer = try c.decodeIfPresent(Bool.self, forKey: .resetsOdometer) ?? false
        speedLimit = try c.decodeIfPresent(Int.self, forKey: .speedLimit)
        symbols = try c.decodeIfPresent([NoteSymbol].self, forKey: .symbols) ?? []
        tulip = try c.decodeIfPresent(Tulip.self, forKey: .tulip)
        generated = try c.decodeIfPresent(GeneratedTurn.self, forKey: .generated)
        handleID = try c.decodeIfPresent(Int.self, forKey: .handleID)
        wordsEdited = try c.decodeIfPresent(String.self, forKey: .wordsEdited)
        openRadius = try c.decodeIfPresent(Int.self, forKey: .openRadius)
        clearRadius = try c.decodeIfPresent(Int.self, forKey: .clearRadius)
        targetSpeed = try c.decodeIfPresent(Int.self, forKey: .targetSpeed)
        tulipToCheck = try c.decodeIfPresent(Bool.self, forKey: .tulipToCheck)
        for (key, radius) in [(CodingKeys.openRadius, openRadius), (.clearRadius, clearRadius)] {
            if let radius, radius < 1 {
                throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "must be 1 metre or more")
            }
        }
        for (key, speed) in [(CodingKeys.speedLimit, speedLimit), (.targetSpeed, targetSpeed)] {
            if let speed, !Note.speeds.contains(speed) {
                throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "must be 1 to 300 km/h")
            }
        }
        guard distanceAlong.isFinite, distanceAlong >= 0 else {
            throw DecodingError.dataCorruptedError(forKey: .distanceAlong, in: c,
                debugDescription: "must be a distance in metres, 0 or more")
        }
        guard coordinate.isValid else {
            throw DecodingError.dataCorruptedError(forKey: .coordinate, in: c,
                debugDescription: "latitude must be within ±90 and longitude within ±180")
        }
        guard (0...3).contains(danger) else {
            throw DecodingError.dataCorruptedError(forKey: .danger, in: c, debugDescription: "must be 0, 1, 2 or 3")
        }
    }
}

extension Note {
    /// Speeds a row may carry (a limit, a target average), in km/h.
    public static let speeds = 1...300
    /// Danger levels: 0 none, 1 `!`, 2 `!!`, 3 `!!!`.
    public static let dangers = 0...3

    /// "R12's tulip was drawn by hand and the junction changed: check it" ("the tulip at 15.00 km …"
    /// for a row without a marker): how `regenerate` and `apply` name a tulip they left for the
    /// organiser to check (`tulipToCheck`), and `roadbook check` after them.
    public var drawnTulipCheck: String {
        let tulip = marker.flatMap { $0.isEmpty ? nil : "\($0)'s tulip" } ?? String(format: "the tulip at %.2f km", distanceAlong / 1000)
        return "\(tulip) was drawn by hand and the junction changed: check it"
    }

    /// Whether the printed words are a person's, so no regeneration may rewrite them: set by
    /// command, changed from the generated ones, or (on a note of a person's joined to a turn) any
    /// words but blank ones the turn filled in. A note not generated from the road is a person's.
    public var wordsArePersons: Bool {
        guard let generated else { return true }
        return generated.wordsTyped == true || text != generated.text || (kind != .turn && generated.wordsGiven != true)
    }
}

/// Waypoint types of FIA/FIM cross-country road books (as in the OpenRally schema).
public enum WaypointType: String, Codable, Sendable, CaseIterable {
    /// Masked waypoint.
    case wpm = "WPM"
    /// Visible waypoint.
    case wpv = "WPV"
    /// Safety waypoint.
    case wps = "WPS"
    /// Eclipse waypoint.
    case wpe = "WPE"
    /// Control waypoint.
    case wpc = "WPC"
    /// Navigation waypoint.
    case wpn = "WPN"
    /// Passage waypoint.
    case wpp = "WPP"
    /// Start of a selective section.
    case dss = "DSS"
    /// Arrival of a selective section.
    case ass = "ASS"
    /// Checkpoint.
    case cp = "CP"
    /// Start of a speed-limited zone.
    case dz = "DZ"
    /// End of a speed-limited zone.
    case fz = "FZ"

    /// Parses a type as written in files, ignoring case (`wpm`, `WPM`).
    public init?(name: String) {
        self.init(rawValue: name.trimmingCharacters(in: .whitespaces).uppercased())
    }
}

/// What a generated turn note was made from.
public struct GeneratedTurn: Codable, Sendable, Equatable {
    /// The maneuver, as the turn detector named it (for example `turn`, `fork`, `roundabout`).
    public var maneuver: String
    /// The turn: "left", "right", "slight left", "straight", …
    public var modifier: String
    /// The exit taken at a roundabout.
    public var exitNumber: Int?
    /// The junction as the note saw it: entry and exit bearings, and the bearings of the other
    /// roads, rounded to whole degrees.
    public var junction: Junction
    /// The words as generated; when `Note.text` differs, a person has edited them.
    public var text: String
    /// Where the turn was read from: `map` (a road map's junctions) or `shape` (the track's change
    /// of heading, which cannot see a road not taken). Absent in books written before it was kept.
    public var source: String?
    /// For a note of a person's (a waypoint, a typed note) joined to a turn: true when its words
    /// were blank and the turn's words were printed in their place, so a later change of the turn
    /// may replace them. Otherwise its words are the person's, even when they read as the
    /// generated ones, and are never rewritten. Unused on a generated turn row.
    public var wordsGiven: Bool?
    /// True when a person set the note's words by command (`note edit --text`): they are the
    /// person's from then on, even where they read as the generated ones, and no regeneration
    /// rewrites them.
    public var wordsTyped: Bool?

    public init(maneuver: String, modifier: String, exitNumber: Int? = nil, junction: Junction, text: String,
                source: String? = nil) {
        self.maneuver = maneuver
        self.modifier = modifier
        self.exitNumber = exitNumber
        self.junction = junction
        self.text = text
        self.source = source
    }
}
