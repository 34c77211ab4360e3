import Foundation
import Formats
import Geo
import Model
import Pipeline
import Workflows

/// `roadbook handles BOOK.json SUBCOMMAND`: edits the book's route through its handles, in a draft
/// beside the book (`RouteDraft`), one undoable step a command.
struct HandlesCommand: Command {
    static let declaration = CommandDeclaration(
        name: "handles",
        abstract: "Edit a book's route through its handles, in a draft beside the book, with undo.",
        positionals: "BOOK.json SUBCOMMAND [ARGS]", positionalCount: 2...4,
        discussion: """
        Subcommands (handles and legs numbered from 1; leg N runs from handle N to N + 1):
          list                       the handles (coordinate, origin, note) and legs
          add COORD [--at N]         a handle at the end, or becoming handle N
          move N COORD               move handle N
          remove N                   remove handle N (in the middle its two legs join)
          split LEG [COORD]          a handle on leg LEG, where given, else at its middle
          reorder N M                move handle N to position M
          reverse                    turn the route round (road legs are asked again)
          kind LEG road|straight|as-drawn
          mode drive|cycle|walk      the travel mode (roads found in a mode are kept)
          undo, redo                 take back the last step, make it again
          retry                      ask again the legs waiting for the engine
          clear                      clear the drawing (undo brings it back); the book keeps its route

        Edits go to BOOK.draft.json beside the book, saved after every command and restored by the
        next one, never to the book: `roadbook apply BOOK.json` makes the draft the book's route.
        A new draft starts from the handles stored in the book or, for a book from a track, from
        its route traced into handles about 400 m apart (at most 40), its waypoints as handles.
        Each edit asks the engine only for the road legs it changed, and prints the legs, the
        messages, the totals and the step undo would take back.

        COORD is decimal degrees (42.5063 1.5218, or 42.5063,1.5218), degrees and minutes
        (N42°30.378' E001°31.308'), degrees, minutes and seconds (42°30'22.7"N 1°31'18.5"E), UTM
        (31T 378553 4707051) or MGRS (31TCH7855307051), quoted when it has spaces; a coordinate
        starting with - follows --. A typed coordinate is surveyed: the route goes to it, and it
        never moves onto the road. `add` also takes COORD | NOTE | MARKER.
        """,
        options: [
            EngineOptions.engine(required: false, help: "the routing engine the changed legs are asked of"),
            EngineOptions.url, EngineOptions.apiKey, EngineOptions.osm, EngineOptions.concurrency,
            Option("at", .integer(1...1_000_000), value: "N", help: "add: the new handle becomes handle N"),
            Option("note", value: "TEXT", help: "add: a handle note on the new handle"),
            Option("marker", value: "TEXT", help: "add: the handle note's marker, such as CP1"),
        ])

    var book: URL
    var edit: HandleEdit?
    /// `list`: print, change nothing. `clear`: clear the drawing as one undoable step (a draft of
    /// another book, or a broken one, is discarded instead).
    var action: Action
    var engine: EngineSettings?

    enum Action: Equatable { case list, clear, edit }

    init(_ options: ParsedOptions) throws {
        book = URL(fileURLWithPath: options.positionals[0])
        engine = try EngineOptions.settings(options)
        let words = Array(options.positionals.dropFirst())
        let name = words[0], arguments = Array(words.dropFirst())
        func count(_ range: ClosedRange<Int>, _ shape: String) throws {
            guard range.contains(arguments.count) else {
                throw UsageError(message: "\(name) takes \(shape)")
            }
        }
        func number(_ text: String, _ what: String) throws -> Int {
            guard let n = Int(text), n >= 1 else { throw UsageError(message: "\(what) '\(text)' is not a number from 1") }
            return n
        }
        func coordinate(_ text: String) throws -> Coordinate {
            do { return try CoordinateFormat.parse(text) } catch {
                throw UsageError(message: "'\(text)' is not a coordinate: \(error)")
            }
        }
        let addOnly = ["at", "note", "marker"].filter { options.string($0) != nil }
        if name != "add", let first = addOnly.first { throw UsageError(message: "--\(first) goes with add") }
        action = .edit
        switch name {
        case "list", "clear", "reverse", "undo", "redo", "retry":
            try count(0...0, "no arguments")
            switch name {
            case "list": action = .list
            case "clear": action = .clear
            case "reverse": edit = .reverse
            case "undo": edit = .undo
            case "redo": edit = .redo
            default: edit = .retry
            }
        case "add":
            try count(1...1, "one coordinate: add COORD [--at N] [--note TEXT]")
            var handle: Handle
            do { handle = try HandlesFile.handle(from: arguments[0], id: 1) } catch let error as HandleTextError {
                throw UsageError(message: "'\(arguments[0])': \(error.description)")
            }
            if let text = options.string("note") {
                handle.note = HandleNote(text: text, marker: options.string("marker") ?? handle.note?.marker)
            } else if let marker = options.string("marker") {
                handle.note = HandleNote(text: handle.note?.text ?? "", marker: marker)
            }
            edit = .add(handle.coordinate, position: options.integer("at"), origin: handle.origin, note: handle.note)
        case "move":
            try count(2...2, "a handle and a coordinate: move N COORD")
            edit = .move(handle: try number(arguments[0], "handle"), to: try coordinate(arguments[1]))
        case "remove":
            try count(1...1, "a handle: remove N")
            edit = .remove(handle: try number(arguments[0], "handle"))
        case "split":
            try count(1...2, "a leg and, if you like, a coordinate: split LEG [COORD]")
            edit = .split(leg: try number(arguments[0], "leg"), at: try arguments.dropFirst().first.map(coordinate))
        case "reorder":
            try count(2...2, "two handles: reorder N M")
            edit = .reorder(handle: try number(arguments[0], "handle"), to: try number(arguments[1], "position"))
        case "kind":
            try count(2...2, "a leg and a kind: kind LEG road|straight|as-drawn")
            let kinds = ["road": LegKind.road, "straight": .straight, "as-drawn": .asDrawn]
            guard let kind = kinds[arguments[1]] else {
                throw UsageError(message: "kind '\(arguments[1])' is not one of road, straight, as-drawn")
            }
            edit = .kind(leg: try number(arguments[0], "leg"), kind)
        case "mode":
            try count(1...1, "a mode: mode drive|cycle|walk")
            guard let mode = TravelMode(rawValue: arguments[0]) else {
                throw UsageError(message: "mode '\(arguments[0])' is not one of \(TravelMode.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            edit = .mode(mode)
        default:
            throw UsageError(message: "unknown subcommand '\(name)': use list, add, move, remove, split, reorder, reverse, kind, mode, undo, redo, retry or clear")
        }
    }

    func run(_ console: any Console) async throws {
        let log = ConsoleLog(console)
        switch action {
        case .clear:
            let draft = RouteDraft.url(for: book)
            let session: DraftSession
            do { session = try DraftSession.open(book: book, log: log) } catch let error where FileManager.default.fileExists(atPath: draft.path) {
                // A draft of another book, or a broken one, cannot be cleared step by step: it is discarded.
                try RouteDraft.remove(for: book)
                console.out("\(draft.path): discarded (\(error)); \(book.path) keeps its route")
                return
            }
            guard !session.draft.editor.plan.handles.isEmpty else {
                console.out("no handles in the drawing of \(book.path): nothing to clear")
                return
            }
            var cleared = session
            try await cleared.perform(.clear, engine: nil, log: log)
            console.out("drawing cleared: \(book.path) keeps its route and notes until you apply; `roadbook handles \(book.path) undo` brings the drawing back")
            console.out("undo: \(cleared.draft.editor.undoName ?? "")")
        case .list:
            let session = try DraftSession.open(book: book, log: log)
            for line in Self.list(session.draft.editor) { console.out(line) }
        case .edit:
            var session = try DraftSession.open(book: book, log: log)
            try await session.perform(edit!, engine: engine, log: log)
            let editor = session.draft.editor
            for line in RouteCommand.describe(editor) { console.out(line) }
            console.out(editor.undoName.map { "undo: \($0)" } ?? "nothing to undo")
            if let redo = editor.redoName { console.out("redo: \(redo)") }
        }
    }

    /// The handles, one a line (number, coordinate, origin, note), then the legs and totals.
    static func list(_ editor: RouteEditor) -> [String] {
        let plan = editor.plan
        var lines = ["\(plan.handles.count) handle\(plan.handles.count == 1 ? "" : "s"), mode \(plan.mode.rawValue)"]
        for (i, handle) in plan.handles.enumerated() {
            var line = "handle \(i + 1): \(CoordinateFormat.decimalDegrees.format(handle.coordinate)), \(handle.origin.rawValue)"
            if let type = handle.waypointType { line += " \(type.rawValue)" }
            if let name = handle.name { line += ", named \"\(name)\"" }
            if let note = handle.note {
                line += ", note \"\(note.text)\"" + (note.marker.map { " [\($0)]" } ?? "")
            }
            lines.append(line)
        }
        lines += RouteCommand.describe(editor)
        lines.append(editor.undoName.map { "undo: \($0)" } ?? "nothing to undo")
        if let redo = editor.redoName { lines.append("redo: \(redo)") }
        return lines
    }
}
