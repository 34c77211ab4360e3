import AtomicFile
import Foundation
import Formats
import Geo
import Model
import RouteEditing

/// A route being edited and not yet applied to its book: the plan (handles, legs, mode, the roads
/// received per mode) and the editor's history (named undo and redo steps, the roads of their legs),
/// kept in its own file beside the book, `BOOK.draft.json` (see `docs/book-format.md`).
///
/// The draft is saved after every change and reopened by the next command, so a drawing is never
/// lost between commands. It belongs to one book, by the book's `id`: a draft beside a book that is
/// not its own is refused. It is never part of the book: the book file holds only the applied route
/// and its plan, so a rendered, exported or shared book never carries an unfinished drawing.
public struct RouteDraft: Sendable {
    /// The draft file's limits, each with its reason.
    public struct Configuration: Sendable, Equatable {
        /// Steps kept for undo and redo: far more than a session of edits, and few enough that
        /// reopening the draft (which checks every step against the plan) stays quick. Older steps
        /// are dropped when the draft is saved.
        public var maximumSteps = 1_000
        /// Roads remembered: every leg of a 1,000-handle route in each of three modes, several times
        /// over. A file with more is not a draft this program wrote.
        public var maximumAnswers = 20_000
        /// The largest draft file read: the same bound as a book file, which holds the same plan.
        public var maximumFileSize = BookFile.maximumFileSize
        /// The largest draft written, a quarter of what is read: a drawing dragged for hours (each
        /// drag keeps the two legs' roads it replaced) is kept under it by dropping the oldest
        /// steps. Nothing of the drawing itself is lost, and the file always reads back.
        public var maximumWrittenSize = BookFile.maximumFileSize / 4

        public init() {}
    }

    /// The draft file's format version, `draftVersion` in the file. It grows when a field changes
    /// meaning; a reader refuses a newer draft.
    public static let formatVersion = 1

    /// The `id` of the book the draft belongs to.
    public var bookID: String
    /// The route being edited, with its history.
    public var editor: RouteEditor

    public init(editor: RouteEditor, bookID: String) {
        self.editor = editor
        self.bookID = bookID
    }

    /// The draft file of `book`: `out/x.json` → `out/x.draft.json`; a book named without `.json`
    /// gets `.draft.json` added (`x.book` → `x.book.draft.json`).
    public static func url(for book: URL) -> URL {
        let book = FileName.named(book)
        let base = book.pathExtension.lowercased() == "json" ? book.deletingPathExtension() : book
        return base.deletingLastPathComponent().appendingPathComponent(base.lastPathComponent + ".draft.json")
    }

    /// Reads the draft beside `book`, if there is one.
    /// - Parameter bookID: the `id` of the book the draft must belong to; nil for a book without an
    ///   identity, which no draft belongs to (a draft is only ever made for a book with an `id`).
    /// - Returns: nil when there is no draft file.
    /// - Throws: `FormatError` naming the draft file and the field at fault; `WorkflowError` naming
    ///   both files when the draft belongs to another book.
    public static func load(for book: URL, expecting bookID: String?,
                            configuration: Configuration = Configuration()) throws -> RouteDraft? {
        try read(for: book, expecting: bookID, configuration: configuration)?.draft
    }

    /// `load`, with the draft file's bytes as read, for the journal step of a change that ends or
    /// changes the drawing.
    static func read(for book: URL, expecting bookID: String?,
                     configuration: Configuration = Configuration()) throws -> (draft: RouteDraft, bytes: Data)? {
        let file = url(for: book)
        guard FileName.exists(file.path) else { return nil }
        let data = try InputFile.read(file, limit: configuration.maximumFileSize, what: "a draft file")
        let draft = try decode(data, fileName: file.path, configuration: configuration)
        guard draft.bookID == bookID else {
            let theBook = bookID.map { "\(book.path) is book \($0)" } ?? "\(book.path) has no id"
            throw WorkflowError("\(file.path): this unfinished drawing belongs to book \(draft.bookID), but \(theBook); `roadbook handles \(book.path) clear` discards the drawing")
        }
        return (draft, data)
    }

    /// Decodes and checks a draft from JSON bytes, whatever book it names; `fileName` is used in
    /// messages. Every value is checked before the editor opens (`RouteEditor.init(plan:history:)`),
    /// so a draft that reads never traps.
    /// - Throws: `FormatError` naming the file and the field, in one line.
    public static func decode(_ data: Data, fileName: String, configuration: Configuration = Configuration()) throws -> RouteDraft {
        guard configuration == Configuration() else { return try decodeBytes(data, fileName: fileName, configuration: configuration) }
        return try DecodedFiles.shared.value(of: data, kind: "draft", fileName: fileName) {
            try decodeBytes(data, fileName: fileName, configuration: configuration)
        }
    }

    static func decodeBytes(_ data: Data, fileName: String, configuration: Configuration) throws -> RouteDraft {
        struct Header: Decodable { var draftVersion: Int? }
        struct Stored: Decodable {
            var bookID: String
            var plan: RoutePlan
            var history: RouteEditor.History?
        }
        func failure(_ error: any Error) -> FormatError {
            JSONFile.formatError(error, data: data, fileName: fileName, what: "a draft file",
                                 wholeNumberKeys: ["draftVersion", "id", "start", "count", "danger", "speedLimit", "exitNumber", "nodeID"])
        }
        let header: Header
        do { header = try JSONDecoder().decode(Header.self, from: data) } catch { throw failure(error) }
        guard let version = header.draftVersion else {
            throw FormatError(file: fileName, field: "draftVersion",
                              message: "draftVersion missing: this is not a roadbook draft file")
        }
        guard version <= formatVersion else {
            throw FormatError(file: fileName, field: "draftVersion",
                              message: "draftVersion is \(version), but this roadbook reads drafts up to version \(formatVersion); use a newer roadbook")
        }
        guard version >= 1 else {
            throw FormatError(file: fileName, field: "draftVersion", message: "draftVersion must be 1 or more, found \(version)")
        }
        let stored: Stored
        do { stored = try JSONDecoder().decode(Stored.self, from: data) } catch { throw failure(error) }
        guard UUID(uuidString: stored.bookID) != nil else {
            throw FormatError(file: fileName, field: "bookID",
                              message: "bookID '\(stored.bookID.prefix(80))' is not a UUID: a draft names its book by the book's id")
        }
        let history = stored.history ?? RouteEditor.History()
        let steps = history.undoNames.count + history.redoNames.count
        guard steps <= configuration.maximumSteps else {
            throw FormatError(file: fileName, field: "history",
                              message: "history has \(steps) steps; a draft keeps at most \(configuration.maximumSteps)")
        }
        guard history.answerCount <= configuration.maximumAnswers else {
            throw FormatError(file: fileName, field: "history.answers",
                              message: "history.answers has \(history.answerCount) roads; a draft keeps at most \(configuration.maximumAnswers)")
        }
        do {
            return RouteDraft(editor: try RouteEditor(plan: stored.plan, history: history), bookID: stored.bookID)
        } catch {
            throw FormatError(file: fileName, field: error.field, message: error.message)
        }
    }

    /// The draft as JSON: keys sorted and indented, the oldest steps beyond `maximumSteps` dropped.
    public func encode(configuration: Configuration = Configuration()) throws -> Data {
        struct Stored: Encodable {
            var draftVersion: Int
            var bookID: String
            var plan: RoutePlan
            var history: RouteEditor.History
        }
        var history = editor.history
        history.keepNewest(configuration.maximumSteps)
        // The roads the plan's legs and the steps' legs hold are found again from them when the
        // draft is reopened (`RouteEditor.init(plan:history:)`): stored among the answers too,
        // each drag would write the roads it received twice.
        let drawn = editor.plan.legs.indices.flatMap { i in TravelMode.allCases.map { editor.request(forLeg: i, mode: $0) } }
        history.forgetAnswers(except: Set(drawn))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        func encoded() throws -> Data {
            try encoder.encode(Stored(draftVersion: Self.formatVersion, bookID: bookID, plan: editor.plan, history: history))
        }
        var data = try encoded()
        while data.count > configuration.maximumWrittenSize, history.stepCount > 0 {
            history.keepNewest(history.stepCount / 2)
            data = try encoded()
        }
        data.append(0x0A)
        return data
    }

    /// Writes the draft beside `book`, atomically: the previous draft stays as it was if anything fails.
    /// - Throws: `WorkflowError` naming the draft file.
    public func save(for book: URL, configuration: Configuration = Configuration()) throws {
        let file = Self.url(for: book)
        let data: Data
        do { data = try encode(configuration: configuration) } catch {
            throw WorkflowError("\(file.path): cannot write: a value of the drawing is not a finite number")
        }
        do { try AtomicFile.write(data, to: file) } catch let error as AtomicFile.WriteError {
            throw WorkflowError("\(file.path): cannot write: \(error.reason)")
        }
    }

    /// Deletes the draft beside `book`; nothing happens when there is none.
    /// - Throws: `WorkflowError` when the file is there and cannot be deleted.
    public static func remove(for book: URL) throws {
        let file = url(for: book)
        guard FileName.exists(file.path) else { return }
        guard FileName.unlink(file.path) == 0 else {
            throw WorkflowError("\(file.path): cannot delete the unfinished drawing")
        }
    }

    /// The editor a new draft of `book` starts with: the book's stored plan (a book built from
    /// handles), or, for a book from a track, its route traced into handles (about 400 m apart, at
    /// most 40: `RouteEditor.traced`) with each waypoint and checkpoint on the route a waypoint
    /// handle carrying its words, so the notes made from them come back at their handles.
    public static func startingEditor(for book: Book, configuration: RouteEditor.Configuration = .init()) -> RouteEditor {
        if var plan = book.plan {
            // A book may store handles without their legs: they get legs of the kind new legs take.
            if plan.legs.isEmpty, plan.handles.count > 1 {
                plan.legs = Array(repeating: PlannedLeg(kind: plan.defaultLegKind), count: plan.handles.count - 1)
            }
            // A book written before plans kept their engine names it in its route's source.
            if plan.engine == nil { plan.engine = book.route.engineName }
            var editor = RouteEditor(plan: plan, configuration: configuration)
            editor.configuration = configuration
            return editor
        }
        let waypoints = book.notes
            .filter { ($0.kind == .waypoint || $0.kind == .checkpoint) && $0.placement == .onRoute }
            .map { TracedHandleNote($0, origin: .waypoint) }
        return RouteEditor.traced(from: book.route.coordinates, notes: waypoints, mode: book.travelMode,
                                  configuration: configuration)
    }

    /// The handles the book's route runs through: its plan, or for a route from a track or a file
    /// (no plan), that route traced into handles, as a new drawing starts from it.
    public static func plan(of book: Book) -> RoutePlan {
        book.plan ?? startingEditor(for: book).plan
    }

    /// The notice when a command finds a drawing left by an earlier one.
    public static func restoredNotice(book: URL) -> String {
        "Unfinished drawing restored: `roadbook apply \(book.path)` makes it the book's route, `roadbook handles \(book.path) clear` discards it"
    }
}

/// A book and its draft, opened together for editing the route: the draft beside the book, or a new
/// one started from the book (`RouteDraft.startingEditor`). Saving gives the book an identity
/// first when it has none, so the draft always names its book.
public struct DraftSession: Sendable {
    public let bookURL: URL
    /// The book as read (with its new `id`, once saved, when it had none).
    public private(set) var book: Book
    public var draft: RouteDraft
    /// Whether the draft was there already (left by an earlier command), not started now.
    public let restored: Bool

    /// Reads the book and its draft, or starts a draft; writes nothing.
    /// - Parameter log: receives the "Unfinished drawing restored" notice when there was a draft
    ///   that is not the book's route (`PlanDifference`).
    /// - Throws: `FormatError` for the book or the draft; `WorkflowError` for a draft of another book.
    public static func open(book url: URL, configuration: RouteDraft.Configuration = .init(),
                            log: any WorkflowLog) throws -> DraftSession {
        let read = try BookRead(url)
        let book = read.book
        if let (draft, bytes) = try RouteDraft.read(for: url, expecting: book.id, configuration: configuration) {
            if !PlanDifference(drawing: draft.editor.plan, of: book).isEmpty {
                log.record(WorkflowMessage(.information, RouteDraft.restoredNotice(book: url)))
            }
            return DraftSession(bookURL: url, book: book, draft: draft, restored: true, read: read, draftRead: bytes)
        }
        let id = try book.id ?? Book.derivedID(from: BookFile.encode(book))
        let draft = RouteDraft(editor: RouteDraft.startingEditor(for: book), bookID: id)
        return DraftSession(bookURL: url, book: book, draft: draft, restored: false, read: read, draftRead: nil)
    }

    /// How the drawing differs from the book's route; empty when it is the book's route (as a
    /// drawing just started from the book always is).
    public var difference: PlanDifference { restored ? PlanDifference(drawing: draft.editor.plan, of: book) : PlanDifference() }

    /// The book as read, with its journal: a save is checked against it and recorded in it.
    let read: BookRead
    /// The draft file's bytes as read; nil when there was none.
    let draftRead: Data?

    /// Makes `edit` on the draft, asks `engine` for the road legs it changed (and any leg still
    /// being asked), then saves the draft. Without an engine the legs to ask stay as they are, with
    /// a warning, and the next command given an engine asks them.
    /// - Parameter maximumStops: the most handles the route may have from now on, kept with the
    ///   drawing; nil for the limit it has (`RoutePlan.maximumStops`). A handle added past the limit
    ///   is refused as `route` refuses it (`RouteWorkflow.checkStops`).
    /// - Throws: `checkOutputs`' errors (the draft's name leads to the book, say); `WorkflowError`
    ///   for an edit the route cannot take, or more handles than the limit (nothing saved then); the
    ///   engine's construction errors; `save`'s errors.
    /// - Returns: the legs (from 0) asked of the engine: those the edit changed and any still
    ///   waiting; none without an engine.
    @discardableResult
    public mutating func perform(_ edit: HandleEdit, engine: EngineSettings?, maximumStops: Int? = nil,
                                 configuration: RouteDraft.Configuration = .init(), log: any WorkflowLog) async throws -> [Int] {
        // The draft, and the book when it is given an id, are written: neither may be another input.
        let draftURL = RouteDraft.url(for: bookURL)
        let bookOutput = book.id == nil ? [RunOutput(bookURL, .edit(of: bookURL))] : []
        try checkOutputs([RunOutput(draftURL, .edit(of: draftURL))] + bookOutput + RunOutput.preparedGraph(engine?.osm),
                         inputs: [RunInput(bookURL, "the book it edits"), RunInput(draftURL, "the drawing it edits")]
                             + RunInput.extract(engine?.osm))
        let undoing = edit == .undo ? draft.editor.undoName : edit == .redo ? draft.editor.redoName : nil
        try edit.apply(to: &draft.editor)
        if let maximumStops { draft.editor.setMaximumStops(maximumStops) }
        if edit.addsHandle {
            try RouteWorkflow.checkStops(draft.editor, maximum: draft.editor.plan.maximumStops, source: "the drawing")
        }
        let pending = draft.editor.pendingRequests().count
        var asked: [Int] = []
        if pending > 0 {
            if var engine {
                asked = draft.editor.plan.legs.indices.filter {
                    draft.editor.plan.legs[$0].kind == .road && draft.editor.plan.legs[$0].state == .asked
                }
                engine.drivingSide = book.settings.drivingSide
                // Handles without a name are named from the embedded router's extract, as `route` names them.
                try await RouteWorkflow.resolve(&draft.editor, engine: engine, nameHandles: true, log: log)
            } else {
                log.record(WorkflowMessage(.warning, "\(pending) road leg\(pending == 1 ? "" : "s") still to ask: give --engine to ask \(pending == 1 ? "it" : "them")"))
            }
        }
        let name = switch edit {
        case .undo: "Undo in the drawing: \(undoing ?? "")"
        case .redo: "Redo in the drawing: \(undoing ?? "")"
        case .retry: "Ask again the legs waiting for the engine"
        case .newLegs(let kind): "New legs: \(kind.rawValue)"
        default: draft.editor.undoName ?? "Change the drawing"
        }
        try save(step: name, configuration: configuration, log: log)
        return asked
    }

    /// Saves the draft beside the book, with the step in the book's journal (`roadbook undo` takes
    /// it back). A book without an `id` is written with the draft's at the same time (nothing else
    /// changed), so the draft belongs to it from now on.
    /// - Parameter step: the step's name in the journal.
    /// - Throws: `FormatError` or `WorkflowError` naming the file that could not be written, or
    ///   the book when it changed since it was read.
    public mutating func save(step: String, configuration: RouteDraft.Configuration = .init(), log: any WorkflowLog) throws {
        let draftURL = RouteDraft.url(for: bookURL)
        let draftBytes: Data
        do { draftBytes = try draft.encode(configuration: configuration) } catch {
            throw WorkflowError("\(draftURL.path): cannot write: a value of the drawing is not a finite number")
        }
        var bookBytes: Data? = nil
        if book.id == nil {
            book.id = draft.bookID
            bookBytes = try BookFile.dataToSave(book, at: bookURL)
            log.record(WorkflowMessage(.information, "\(bookURL.path): given the id \(draft.bookID), so its unfinished drawing belongs to it"))
        }
        try read.checkUnchanged()
        var journal = read.journal
        journal.bookID = book.id
        let entry = JournalEntry(step, kind: .handles, draft: (draftRead, draftBytes))
        let outputs = OutputSet()
        do {
            if let bookBytes { try outputs.write(bookBytes, to: bookURL) }
            try entry.write(into: outputs, book: bookURL, journal: journal, bookBefore: read.bytes, bookAfter: bookBytes)
            try outputs.commit()
        } catch let error as AtomicFile.WriteError {
            outputs.discard()
            throw WorkflowError("\(error.path): cannot write: \(error.reason)")
        }
    }
}
