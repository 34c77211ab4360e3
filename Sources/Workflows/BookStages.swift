import AtomicFile
import Foundation
import Formats
import Geo
import Model
import OSM
import BookAssembly
import Guidance
import RouteEditing
import Render

// The stages that more than one operation runs, once: finding turns (`TurnReading`) and validating
// and committing the outputs together (`BookCommit`); reading the route (`readRoute`) and terrain
// (`TerrainRequest`) live beside their operations. `BookPipeline` runs them in their one order,
//
//   read route → collapse stand-still places → place notes → find turns → join turns to notes
//   → terrain → validate → commit
//
// and `build`, `regenerate`, `apply`, `route`, `remove-route` and `inspect --explain` are each a
// configuration of it (docs/architecture.md has the table).

/// Where the "find turns" stage reads a route's turns from.
public struct TurnReading: Sendable {
    public enum Source: Sendable {
        /// The junctions of an OpenStreetMap extract the route is matched onto (the track's shape
        /// where the route leaves the map).
        case map(URL)
        /// The junctions a routing engine gave with its road legs.
        case engine(RoadGeometry)
        /// The shape of the line itself.
        case shape
        /// No turns: the operation was asked for none.
        case none
    }

    public var source: Source
    /// How the route is travelled: the junction graph of a map's turns.
    public var mode: TravelMode

    public init(_ source: Source, mode: TravelMode = .drive) {
        self.source = source
        self.mode = mode
    }

    /// The reading of a drawn route: the map when one is given, else the engine's junctions on its
    /// road legs, else its shape; none when `turns` is off.
    public static func of(_ editor: RouteEditor, map: URL?, turns: Bool = true) -> TurnReading {
        guard turns else { return TurnReading(.none, mode: editor.plan.mode) }
        if let map { return TurnReading(.map(map), mode: editor.plan.mode) }
        let geometry = editor.geometry()
        return TurnReading(geometry.junctions.isEmpty ? .shape : .engine(geometry), mode: editor.plan.mode)
    }

    /// The turns along `line`, in route order.
    /// - Parameters:
    ///   - drivingSide: the book's side of the road, if it says one (the map's roundabouts decide otherwise).
    ///   - trace: where the turn passes record what they decide about each junction, if anyone asks.
    ///   - log: where a prepared graph made again is noted.
    /// - Throws: the map's errors.
    public func find(along line: [Coordinate], drivingSide: DrivingSide?, trace: TurnTrace? = nil,
                     log: (any WorkflowLog)? = nil) throws -> FoundTurns {
        switch source {
        case .none:
            return FoundTurns(maneuvers: [], source: "none")
        case .engine(let geometry):
            return FoundTurns(maneuvers: TurnDetector().maneuvers(in: geometry, trace: trace), source: "engine")
        case .shape:
            let found = RouteTurns.maneuvers(along: line, graph: nil, drivingSide: drivingSide, trace: trace)
            return FoundTurns(maneuvers: found.maneuvers, source: "shape", reading: found.reading)
        case .map(let url):
            let graph = try RouteTurns.loadGraph(url, corridor: line, log: log)
            let rings = graph.ringTurning()
            let found = RouteTurns.maneuvers(along: line, graph: graph, mode: mode,
                                             drivingSide: resolvedDrivingSide(given: drivingSide, rings: rings), trace: trace)
            return FoundTurns(maneuvers: found.maneuvers, source: "map", rings: rings, offMap: found.offMap)
        }
    }
}

/// What the "find turns" stage found, and what the organiser is told of it.
public struct FoundTurns: Sendable {
    public var maneuvers: [Maneuver]
    /// Where they were read from: `map`, `engine`, `shape` or `none`.
    public var source: String
    /// With a map, which way its roundabouts turn (for the side traffic keeps to).
    public var rings: RingTurning?
    /// Stretches (metres along the route) the map does not cover, whose turns come from the shape.
    public var offMap: [ClosedRange<Metres>] = []
    /// Without a map, how the track was read.
    public var reading: TrackTurns.Reading?

    /// The warnings of how the turns were read: stretches off the map, and a track whose fixes
    /// scatter too much for its shape to show every turn. `file` names the route's file.
    public func warnings(file: String) -> [WorkflowMessage] {
        let shape = RouteTurns.shapeWarning(reading, file: file).map { WorkflowMessage(.warning, $0) }
        let offMap = offMap.map { range in
            WorkflowMessage(.warning, String(format: "%.2f–%.2f km is not on the map; turns there come from the track's shape",
                                             range.lowerBound / 1000, range.upperBound / 1000))
        }
        return [shape].compactMap { $0 } + offMap
    }

    /// The map's word on the side traffic keeps to, into the book's settings (`settleDrivingSide`).
    /// - Parameter given: how a side the book already has is named in a warning.
    public func settleDrivingSide(of settings: inout BookSettings, given: String, log: any WorkflowLog) {
        guard let rings else { return }
        Workflows.settleDrivingSide(of: &settings, from: rings, given: given, log: log)
    }
}

/// The "validate" and "commit" stages: a book checked (its values in range, `Book.validate()`, and
/// the rules between its notes, `Book.checkInvariants()`) and written with the outputs that go with
/// it — its undo file, its PDF — all renamed into place together, the book first (`OutputSet`), or
/// none of them.
public struct BookCommit: Sendable {
    /// The book file to write; nil for a PDF alone.
    public var book: URL?
    /// What the book is made from, named when the book would not be valid (`build`'s track, the
    /// handles a `route` asked of its engine); nil to name the book file.
    public var madeFrom: String?
    /// The input a new book is made from, when an existing book file with other bytes is not to be
    /// replaced (`build` without `--force`: it may hold a person's work); the refusal names it as
    /// the way to bring the new route into that book (`checkReplaceable`).
    public var refusesOtherBook: URL?
    /// The change as a step of the book's journal (`BookJournal`), from the book file as it was
    /// read, which `roadbook undo` takes back; nil for an operation that makes a new book (`build`,
    /// `route`).
    public var journal: JournalledChange?
    /// A PDF printed with the book, and the renderer it is printed with.
    public var pdf: (url: URL, renderer: BookRenderer)?

    public init(book: URL?, madeFrom: String? = nil, refusesOtherBook: URL? = nil,
                journal: JournalledChange? = nil, pdf: (url: URL, renderer: BookRenderer)? = nil) {
        self.book = book
        self.madeFrom = madeFrom
        self.refusesOtherBook = refusesOtherBook
        self.journal = journal
        self.pdf = pdf
    }

    /// The bytes of `book` as they would be committed: validated, its rules checked.
    /// - Throws: `WorkflowError` naming the value out of range; `FormatError` naming the file, the
    ///   rule and the rows.
    public func data(of book: Book) throws -> Data {
        do { try book.validate() } catch {
            if let madeFrom { throw WorkflowError("\(madeFrom): the book made from it would not be valid: \(error.message)") }
            throw WorkflowError("\(self.book?.path ?? "the book"): not written: the book would not be valid: \(error.message)")
        }
        return try BookFile.dataToSave(book, at: self.book ?? URL(fileURLWithPath: madeFrom ?? "book.json"))
    }

    /// Writes them all, or none.
    /// - Parameter data: the book's bytes when the caller has them from `data(of:)` already.
    /// - Returns: the pages of the PDF, when one was printed.
    @discardableResult
    public func commit(_ book: Book, data: Data? = nil) throws -> Int? {
        var book = book
        if let journal { book.revision = journal.read.revision + 1 }
        let bytes = try journal == nil ? (data ?? self.data(of: book)) : self.data(of: book)
        if let url = self.book, let input = refusesOtherBook { try checkReplaceable(url, with: bytes, input: input) }
        let outputs = OutputSet()
        var entry: JournalEntry? = nil
        do {
            if let url = self.book { try outputs.write(bytes, to: url) }
            if let url = self.book, let journal {
                try journal.read.checkUnchanged()
                // A change of route keeps the notes it wrote, so the next Apply finds those deleted by hand.
                let written = journal.kind == .apply || journal.kind == .removeRoute ? book.notes.map {
                    DeletedNote(id: $0.id, kind: $0.kind, coordinate: $0.coordinate, handleID: $0.handleID, text: $0.text)
                } : nil
                let step = JournalEntry(journal.name, kind: journal.kind, draft: journal.draft, written: written)
                try step.write(into: outputs, book: url, journal: journal.journal(at: url, bookID: book.id),
                               bookBefore: journal.read.bytes, bookAfter: bytes, time: journal.time)
                entry = step
            }
            let pages = try pdf.map { try $0.renderer.renderPDF(book, to: $0.url, in: outputs) }
            try outputs.commit()
            if let url = self.book { try entry?.finish(book: url) }
            return pages
        } catch {
            outputs.discard()
            throw error
        }
    }
}

/// A change of a book file as its journal records it: the book as read, the step's name and kind,
/// and the drawing the change ends (an Apply's) when it does.
public struct JournalledChange: Sendable {
    public var read: BookRead
    public var name: String
    public var kind: BookJournal.Kind
    /// The drawing's bytes before and after (nil: none after), when the change ends or changes it.
    public var draft: (before: Data?, after: Data?)?
    /// When the change was made, as the journal keeps it.
    public var time: Date

    public init(read: BookRead, name: String, kind: BookJournal.Kind, draft: (before: Data?, after: Data?)? = nil,
                time: Date = Date()) {
        self.read = read
        self.name = name
        self.kind = kind
        self.draft = draft
        self.time = time
    }

    /// The journal the step goes into: the book's own, or, for a change written elsewhere (`-o`),
    /// the one beside that file.
    func journal(at url: URL, bookID: String?) throws -> BookJournal {
        if url.standardizedFileURL == read.url.standardizedFileURL { return read.journal }
        return try BookRead.journal(of: url, bookID: bookID)
    }
}
