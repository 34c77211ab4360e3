import Foundation
import Geo

/// A rally road book: the route, the notes along it and how to print them.
///
/// The book file (JSON) is described in `docs/book-format.md`. `schemaVersion` grows when a
/// field changes meaning; a reader refuses a file newer than it knows.
public struct Book: Codable, Sendable, Equatable {
    /// The newest book-file schema this build reads and writes. Version 2 renamed two values:
    /// a note typed by a person is `typed` (was `note`), a handle placed for a note has origin
    /// `note` (was `courseNote`); older files are migrated on reading.
    /// Version 3 writes a leg's state as a name with its reason beside it (`"state": "serverError",
    /// "detail": "…"`) instead of Swift's default encoding (`{"serverError": {"_0": "…"}}`).
    public static let currentSchemaVersion = 3

    public var schemaVersion: Int
    /// The book's identity, a UUID in its usual text form: it stays through every change of route,
    /// notes or words, so a file that belongs to one book (a route draft) can tell it from another
    /// book saved under the same name. Nil in books written before identities existed; `build` and
    /// `route` give a new book one (`Book.derivedID(from:)`), and a draft started on a book without one gives
    /// it one.
    public var id: String?
    /// Printed in the page header.
    public var title: String
    public var rally: String?
    public var stage: String?
    /// Free text, as the organiser wants it printed (for example "2026-03-14").
    public var date: String?
    /// One line saying which way the route goes, such as "Route via CG-1 and CG-2 · OSRM Directions"
    /// (`route` writes it from the route's longest named roads and its engine, an Apply again for the
    /// new route unless a person changed it); printed on the cover after rally, stage and date.
    public var description: String?
    public var settings: BookSettings
    public var route: Route
    /// Heights along the route, when the book has terrain.
    public var profile: Profile?
    /// The handles and legs the route was built from (`roadbook route`), so it reopens editable and
    /// renders offline; nil for a route from a recorded track.
    public var plan: RoutePlan?
    /// Notes in the order of the book: by distance along the route.
    public var notes: [Note]
    /// Notes a person deleted: Apply and regeneration never bring back a handle's row or a generated
    /// turn recorded here. Nil (absent from the file) when nothing was deleted.
    public var deletedNotes: [DeletedNote]?
    /// How many changes the book file has been through: every save of a change adds one (undo
    /// brings the earlier number back with the earlier book). A change worked out on one revision
    /// is saved only if the file still holds that revision (`BookRevision`). Nil in books written
    /// before revisions were kept, read as 0.
    public var revision: Int?

    public init(title: String, rally: String? = nil, stage: String? = nil, date: String? = nil,
                settings: BookSettings = BookSettings(), route: Route, profile: Profile? = nil, notes: [Note] = []) {
        self.schemaVersion = Book.currentSchemaVersion
        self.title = title
        self.rally = rally
        self.stage = stage
        self.date = date
        self.settings = settings
        self.route = route
        self.profile = profile
        self.notes = notes
    }
}

/// The record of a note a person deleted (a tombstone), so no later Apply or regeneration makes it
/// again: a handle's row is known by its handle, a generated turn by where its junction was.
public struct DeletedNote: Codable, Sendable, Equatable {
    /// The deleted note's id; never given to a new note of the book.
    public var id: Int
    public var kind: Note.Kind
    /// Where the note was: for a generated turn, its junction.
    public var coordinate: Coordinate
    /// For a handle's row: the handle. Its note stays deleted until the handle gets other words.
    public var handleID: Int?
    /// The deleted words, to tell "the same note again" from a note typed anew on the handle.
    public var text: String?
    /// The note as it was when a person removed it (`note remove`), so `note restore` brings it back
    /// whole; nil for a note removed otherwise (by editing the file, or with its handle).
    public var note: Note?
    /// The printed row number the note had when it was removed, for `note restore ROW`.
    public var row: Int?

    public init(id: Int, kind: Note.Kind, coordinate: Coordinate, handleID: Int? = nil, text: String? = nil) {
        self.id = id
        self.kind = kind
        self.coordinate = coordinate
        self.handleID = handleID
        self.text = text
    }
}

extension Book {
    /// The next id no note and no deleted note of the book has.
    public var nextNoteID: Int {
        max(notes.map(\.id).max() ?? 0, deletedNotes?.map(\.id).max() ?? 0) + 1
    }
}

/// How a book is measured and printed.
public struct BookSettings: Codable, Sendable, Equatable {
    /// Units of printed distances.
    public enum Units: String, Codable, Sendable, CaseIterable { case kilometres = "km", miles = "mi" }
    /// What the book is for.
    public enum Purpose: String, Codable, Sendable, CaseIterable { case navigation, regularity }

    public var units: Units
    public var purpose: Purpose
    /// A note farther than this from the route is reported off the route, in metres.
    public var offRouteDistance: Metres
    /// A built-in template's name (`builtInTemplates`). A template file is given on the command
    /// line each time (`--template`), never stored: a book must not make a reader open a path.
    public var template: String
    /// How the route is travelled, for turn notes: which roads at a junction are choices. Nil for
    /// a car (or, in a book drawn from handles, its plan's mode).
    public var travelMode: TravelMode?
    /// The side of the road traffic keeps to where the route runs, as given when the book was made
    /// (`--driving-side`), or left as read from the map's roundabouts. Nil (not written) where it
    /// was not given and the map did not say left: traffic keeps right.
    public var drivingSide: DrivingSide?
    /// True when the book was made without turn notes (`build` or `route --no-turns`) or last
    /// applied with `--turns none`: later Applies add none unless told to. Nil (not written)
    /// otherwise.
    public var noTurnNotes: Bool?
    /// The language the book prints in: its generated turn words and its pages' labels
    /// (`Phrasebook`). Nil (not written) for English, so a book made before languages, or in
    /// English, reads the same. A person's words are never translated.
    public var language: BookLanguage?

    /// Prints the book in `language` from now on; English is kept as nil (not written).
    public mutating func setLanguage(_ language: BookLanguage) {
        self.language = language == .en ? nil : language
    }

    /// The templates every roadbook has, in `Templates/`.
    public static let builtInTemplates = ["a5", "roll", "a4", "a4-2up", "letter", "letter-2up"]

    public init(units: Units = .kilometres, purpose: Purpose = .navigation,
                offRouteDistance: Metres = Thresholds.offRouteDistance, template: String = "a5", travelMode: TravelMode? = nil) {
        self.units = units
        self.purpose = purpose
        self.offRouteDistance = offRouteDistance
        self.template = template
        self.travelMode = travelMode
    }
}

extension Book {
    /// A new book's identity, derived from what it was made of (its first encoding): the same
    /// inputs make the same book, byte for byte, so an interrupted run can be told from a finished
    /// one and builds are reproducible; different inputs make different ids. Two 64-bit FNV-1a
    /// hashes (different offset bases) written in a UUID's text form, version nibble 8 (RFC 9562's
    /// custom UUID).
    public static func derivedID(from bytes: some Sequence<UInt8>) -> String {
        var a: UInt64 = 0xcbf2_9ce4_8422_2325, b: UInt64 = 0x8422_2325_cbf2_9ce4
        for byte in bytes {
            a = (a ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            b = (b ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        let hex = String(format: "%016llx%016llx", a, b).uppercased()
        var digits = Array(hex)
        digits[12] = "8"                                                  // version: custom
        digits[16] = Array("89AB")[Int(String(digits[16]), radix: 16)! & 3]  // variant: RFC 9562
        let text = String(digits)
        let cuts = [8, 12, 16, 20].map { text.index(text.startIndex, offsetBy: $0) }
        return [text[..<cuts[0]], text[cuts[0]..<cuts[1]], text[cuts[1]..<cuts[2]], text[cuts[2]..<cuts[3]], text[cuts[3]...]]
            .joined(separator: "-")
    }

    /// The travel mode turn notes are generated for: the plan's, the settings', or a car's.
    public var travelMode: TravelMode { plan?.mode ?? settings.travelMode ?? .drive }
}

/// Defaults used across stages, each with its reason. Every one is overridable through settings.
public enum Thresholds {
    /// A waypoint farther than this from the route is not on it: 50 m covers GPS error and road
    /// width, but not a parallel road.
    public static let offRouteDistance: Metres = 50
    /// CAP is the heading over this much route after the note, so one GPS wobble does not set it.
    public static let capLookahead: Metres = 40
}
