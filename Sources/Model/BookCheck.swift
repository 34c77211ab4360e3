import Foundation
import Geo

/// A rule of a well-made road book that `roadbook check` applies (and `build` and `export`, as
/// warnings): unlike a `BookInvariant`, a book that breaks one is still saved and printed, since
/// the organiser may be half-way through it; the rule names what to look at.
///
/// Each rule is a small type of its own, listed in `BookCheck.standard`, so each can be read,
/// tested and left out alone. Rules look at the rows: the notes on the route (a note off the route
/// is not printed).
public protocol BookCheckRule: Sendable {
    /// The rule's name, printed before each of its problems (`sections`, `speed-zones`).
    var name: String { get }
    /// What the rule finds wrong in `book`, one problem a fault, each naming its rows as
    /// `roadbook inspect` numbers them (`Book.rowName`); empty when the book keeps the rule.
    func problems(in book: Book) -> [BookProblem]
}

/// One fault `roadbook check` found.
public struct BookProblem: Sendable, Equatable, CustomStringConvertible {
    /// The rule's name (`BookCheckRule.name`).
    public var rule: String
    /// The notes at fault, by index in `Book.notes` (0-based).
    public var notes: [Int]
    /// What is wrong, naming the rows, in one line.
    public var message: String

    public init(rule: String, notes: [Int], _ message: String) {
        self.rule = rule
        self.notes = notes
        self.message = message
    }

    /// "sections: row 5 (#5 DSS 'Start' at 1.00 km) is a start (DSS) with no finish (ASS) after it", one
    /// line: a line feed in a row's words is written `\n` (`Printable.quoted`).
    public var description: String { Printable.quoted("\(rule): \(message)") }
}

/// The rules `roadbook check` applies.
public enum BookCheck {
    /// Every rule, in the order their problems are printed.
    public static let standard: [any BookCheckRule] = [
        SectionMarkers(), FirstWaypointDistance(), SpeedZonesClosed(), WaypointRadii(), DrawnTulipsToCheck(),
        NearbyContradictions(), RegularityTimes(),
    ]
}

extension Book {
    /// What `rules` find wrong in the book, rule by rule in their order, each rule's problems in
    /// the order of the rows. Empty for a book that keeps them all.
    public func problems(checking rules: [any BookCheckRule] = BookCheck.standard) -> [BookProblem] {
        rules.flatMap { $0.problems(in: self) }
    }

    /// The indices in `notes` of the rows: the notes on the route, in order.
    var rowIndices: [Int] { notes.indices.filter { notes[$0].placement == .onRoute } }
}

extension WaypointType {
    /// The radii a waypoint of this type has when its row sets none (`Note.openRadius`,
    /// `Note.clearRadius`), in metres.
    ///
    /// The OpenRally schema (v1.0.3, `samples/data/openrally/cross-country/openrally.xsd`) makes
    /// both radii optional and gives them no default; these are the values its example file
    /// (`example.gpx` beside it) writes: open 1000 m and clear 50 m for every WP type, and for a
    /// safety waypoint (WPS) the 800 m and 90 m it marks as the motorcycling federation's. The
    /// example writes no radius for DSS, ASS, CP, DZ and FZ; they take the WP types' 1000 m and 50 m.
    public var defaultRadii: (open: Int, clear: Int) {
        switch self {
        case .wps: (800, 90)
        default: (1000, 50)
        }
    }

    /// A waypoint a rider's device clears by passing within its clear radius: the WP types. A start,
    /// a finish, a checkpoint and the ends of a speed zone are kept otherwise.
    public var isClearedByDevice: Bool {
        switch self {
        case .wpm, .wpv, .wps, .wpe, .wpc, .wpn, .wpp: true
        case .dss, .ass, .cp, .dz, .fz: false
        }
    }
}
