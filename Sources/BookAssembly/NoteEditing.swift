import Foundation
import Geo
import Guidance
import Model

// A person's changes to the rows of a book, as values: add a typed note, change its words, danger,
// symbols, type, heading or target speed, remove a row and put it back, move it, correct its tulip.
// Each is a pure function from a book to a book (`NoteEditor.apply`) that returns the step's name
// for the book's journal ("Add note 'Pass left of the well' at 12.34 km"). No I/O: `Workflows`
// reads the book, applies the change, checks and saves it.

/// A row of the book as a person names it: the printed row number (`12`), its marker (`R12`,
/// `CP2`, as printed before the words) or its id (`#7`, as `inspect` and the invariants' messages
/// show it). Resolved against the book as it is now.
public enum NoteReference: Sendable, Equatable, CustomStringConvertible {
    /// The printed row number, from 1: rows on the route, in the book's order.
    case row(Int)
    /// The marker printed before the words, matched ignoring case.
    case marker(String)
    /// The note's id in the book file.
    case id(Int)

    /// `12` is a row, `#7` an id, anything else a marker.
    public init(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let row = Int(trimmed), row > 0 {
            self = .row(row)
        } else if trimmed.hasPrefix("#"), let id = Int(trimmed.dropFirst()) {
            self = .id(id)
        } else {
            self = .marker(trimmed)
        }
    }

    public var description: String {
        switch self {
        case .row(let n): "row \(n)"
        case .marker(let m): m
        case .id(let id): "#\(id)"
        }
    }
}

/// Where a new note goes.
public enum NotePlace: Sendable, Equatable {
    /// This far along the route from its start.
    case distance(Metres)
    /// At this place, located on the route as every note is (off the route: reported, kept, not printed).
    case coordinate(Coordinate)
    /// Where this row is.
    case row(NoteReference)
    /// Where the route reaches this handle of the book's plan (numbered from 1).
    case handle(Int)
}

/// How a row is moved along the route.
public enum NoteShift: Sendable, Equatable {
    /// To this distance from the start.
    case to(Metres)
    /// By this much (negative: back towards the start).
    case by(Metres)
}

/// A correction to a row's tulip. A tulip a person changed is theirs: never redrawn from the road.
public enum TulipEdit: Sendable, Equatable {
    /// Another road at the junction, at this turn angle (degrees, 0 ahead, + right), drawn as this class.
    case addRoad(angle: Degrees, roadClass: Tulip.RoadClass)
    /// Takes away the other road number N (from 1, in the order `inspect` lists them).
    case removeRoad(Int)
    /// The road taken leaves at this turn angle.
    case exit(angle: Degrees)
    /// The kind of road: of the other road number N (from 1), or with nil of the road taken.
    case roadClass(road: Int?, Tulip.RoadClass)
    /// Back to the tulip drawn from the road: the junction's, or for a row on the route with no
    /// turn the arrow along the road (`HeadingTulips`); none for a row off the route without a turn.
    case reset
}

/// What a change sets on a row; nil leaves a field as it is.
public struct NoteFields: Sendable, Equatable {
    /// The printed words.
    public var text: String?
    /// The marker; an empty one takes it away.
    public var marker: String?
    public var danger: Int?
    /// Symbols to add and to take away.
    public var addSymbols: [NoteSymbol] = []
    public var removeSymbols: [NoteSymbol] = []
    /// The waypoint type; `clearType` takes it away.
    public var waypointType: WaypointType?
    public var clearType = false
    /// The heading printed (CAP), degrees.
    public var cap: Degrees?
    /// A speed zone's limit in km/h: with `zone`, the row becomes its start (DZ) or end (FZ).
    public var speedLimit: Int?
    public var zone: SpeedZone?
    /// The average to hold from this row on (a regularity book), km/h.
    public var targetSpeed: Int?
    /// Whether the odometer restarts at the row (RESET printed beside its distance).
    public var resetsOdometer: Bool?

    public init(text: String? = nil, marker: String? = nil, danger: Int? = nil, addSymbols: [NoteSymbol] = [],
                removeSymbols: [NoteSymbol] = [], waypointType: WaypointType? = nil, cap: Degrees? = nil,
                speedLimit: Int? = nil, zone: SpeedZone? = nil, targetSpeed: Int? = nil, resetsOdometer: Bool? = nil) {
        self.text = text
        self.marker = marker
        self.danger = danger
        self.addSymbols = addSymbols
        self.removeSymbols = removeSymbols
        self.waypointType = waypointType
        self.cap = cap
        self.speedLimit = speedLimit
        self.zone = zone
        self.targetSpeed = targetSpeed
        self.resetsOdometer = resetsOdometer
    }

    /// Whether the change sets nothing.
    public var isEmpty: Bool { self == NoteFields() }
}

/// The two ends of a speed-limited zone.
public enum SpeedZone: String, Sendable, CaseIterable {
    case start, end
    /// The waypoint type of the row that starts or ends it.
    public var waypointType: WaypointType { self == .start ? .dz : .fz }
}

/// One change a person makes to the rows of a book.
public enum NoteChange: Sendable, Equatable {
    case add(NotePlace, NoteFields)
    case edit(NoteReference, NoteFields)
    case remove(NoteReference)
    /// Brings back a removed row; nil brings back every one.
    case restore(NoteReference?)
    case move(NoteReference, NoteShift)
    case tulip(NoteReference, TulipEdit)
}

/// Why a change cannot be made; `message` says it in one line, naming the rows.
public struct NoteEditError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        /// No row answers to the reference.
        case noSuchRow
        /// Several rows answer to it: `candidates` names them.
        case ambiguous
        /// A value out of its range.
        case outOfRange
        /// What was asked cannot be done to this row.
        case notPossible
    }

    public var reason: Reason
    public var message: String
    /// The rows the reference could mean, as `Book.rowName` names them.
    public var candidates: [String]

    public init(_ reason: Reason, _ message: String, candidates: [String] = []) {
        self.reason = reason
        self.message = message
        self.candidates = candidates
    }

    public var description: String { message }
}

/// What a change did, for the journal and the person.
public struct NoteStep: Sendable, Equatable {
    /// The step's name in the journal: "Add note 'Pass left of the well' at 12.34 km".
    public var name: String
    /// The id of the note the change made or changed (the first, for `restore` of every row).
    public var noteID: Int?
    /// A new note that lies off the route, with how far off it is.
    public var offRoute: OffRouteNote?
}
