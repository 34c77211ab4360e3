import Foundation
import Model
import Workflows

/// `roadbook handles BOOK.json SUBCOMMAND`: edits the book's route through its handles, in a draft
/// beside the book (`RouteDraft`), one undoable step a command.
struct HandlesCommand: Command {
    /// `list`: print, change nothing. `status`: whether the drawing is the book's route.
    /// `clear`: clear the drawing as one undoable step (a draft of another book, or a broken one,
    /// is discarded instead). `edit`: one change. `addPlace`: a handle at a place found by name in
    /// `--osm`'s extract.
    enum Action: Equatable, Sendable { case list, status, clear, edit(HandleEdit), addPlace(String, position: Int?, note: HandleNote?) }

    /// The subcommands, declared once: they parse `handles BOOK SUBCOMMAND ARGS` and print the
    /// help's "Subcommands" block, the man page's list and the completions' words.
    static let subcommands = SubcommandTable<Action>(
        heading: "Subcommands (handles and legs numbered from 1; leg N runs from handle N to N + 1):", position: 1, [
            plain("list", help: "the handles (coordinate, origin, note) and legs") { _ in .list },
            plain("status", help: "whether the drawing is the book's route, and if not what differs") { _ in .status },
            .init(row: .init(names: ["add"], arguments: "COORD|PLACE [--at N]",
                             help: "a handle at the end, or becoming handle N; a place by name with --osm"),
                  arguments: 1...1, takes: "one coordinate or place: add COORD|PLACE [--at N] [--note TEXT]", make: added),
            .init(row: .init(names: ["move"], arguments: "N COORD", help: "move handle N"),
                  arguments: 2...2, takes: "a handle and a coordinate: move N COORD", make: moved),
            .init(row: .init(names: ["remove"], arguments: "N", help: "remove handle N (in the middle its two legs join)"),
                  arguments: 1...1, takes: "a handle: remove N", make: removed),
            .init(row: .init(names: ["split"], arguments: "LEG [COORD]", help: "a handle on leg LEG, where given, else at its middle"),
                  arguments: 1...2, takes: "a leg and, if you like, a coordinate: split LEG [COORD]", make: split),
            .init(row: .init(names: ["reorder"], arguments: "N M", help: "move handle N to position M"),
                  arguments: 2...2, takes: "two handles: reorder N M", make: reordered),
            plain("reverse", help: "turn the route round (road legs are asked again)") { _ in .edit(.reverse) },
            .init(row: .init(names: ["kind"], arguments: "LEG " + LegKindWord.words.joined(separator: "|"),
                             help: "what leg LEG is: asked of the road, straight, or the line as drawn"),
                  arguments: 2...2, takes: "a leg and a kind: kind LEG road|straight|as-drawn", make: kind),
            .init(row: .init(names: ["mode"], arguments: modes.joined(separator: "|"),
                             help: "the travel mode (roads found in a mode are kept)"),
                  arguments: 1...1, takes: "a mode: mode drive|cycle|walk", make: mode),
            .init(row: .init(names: ["note"], arguments: "N WORDS", help: "handle N carries a course note (--marker for its marker)"),
                  arguments: 2...2, takes: "a handle and the words: note N WORDS", make: noted),
            .init(row: .init(names: ["unnote"], arguments: "N", help: "take the note off handle N: a plain handle"),
                  arguments: 1...1, takes: "a handle: unnote N", make: { _, words, _ in .edit(.unnote(handle: try number(words[0], "handle"))) }),
            .init(row: .init(names: ["new-legs"], arguments: LegKindWord.words.joined(separator: "|"),
                             help: "the kind of leg new handles make (kept with the drawing)"),
                  arguments: 1...1, takes: "a kind: new-legs road|straight|as-drawn", make: newLegs),
            plain(["undo", "redo"], help: "take back the last step, make it again") { $0 == "undo" ? .edit(.undo) : .edit(.redo) },
            plain("retry", help: "ask again the legs waiting for the engine") { _ in .edit(.retry) },
            plain("clear", help: "clear the drawing (undo brings it back); the book keeps its route") { _ in .clear },
        ])

    static let declaration = CommandDeclaration(
        name: "handles",
        abstract: "Edit a book's route through its handles, in a draft beside the book, with undo.",
        positionals: "BOOK.json SUBCOMMAND [ARGS]", positionalCount: 2...4,
        subcommands: subcommands.list,
        discussion: """
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

        `add PLACE` (a text without digits, "Canillo") looks the name up in --osm EXTRACT: its
        places (place=* nodes, passes, peaks), then its roads (name=* ways); the handle goes there
        and moves onto the road. A name several places have is refused with each one's
        coordinates. Without --engine, --osm is used for names only: `list` names the handles.
        """,
        options: [
            EngineOptions.engine(required: false, help: "the routing engine the changed legs are asked of"),
            EngineOptions.url, EngineOptions.apiKey, EngineOptions.osm, EngineOptions.concurrency,
        ] + addOptions)

    /// The options only some subcommands take (`add`, `note`, `split`).
    static let addOptions = [
        Option("at", .integer(1...1_000_000), value: "N", help: "add: the new handle becomes handle N"),
        Option("note", value: "TEXT", help: "add: a handle note on the new handle"),
        Option("marker", value: "TEXT", help: "add, note: the handle note's marker, such as CP1"),
        Option("max-stops", .integer(2...RouteWorkflow.maximumHandles), value: "N", help: """
            add, split: refuse more than N handles (stops), as route does,
            and keep N as the drawing's limit (default: the limit the route
            was made with: route's --max-stops, 14 unless given; a route
            traced from a track has none)
            """),
    ]

    /// The subcommands each of `addOptions` goes with.
    static let optionSubcommands = ["at": ["add"], "note": ["add"], "marker": ["add", "note"], "max-stops": ["add", "split"]]

    var book: URL
    /// The book's path as typed, for messages.
    var bookText: String
    var action: Action
    var engine: EngineSettings?
    /// The extract names come from (`--osm`), with or without an engine.
    var osm: URL?
    /// The most handles the drawing may have from now on (`--max-stops`); nil for its own limit.
    var maxStops: Int?

    init(_ options: ParsedOptions) throws {
        bookText = options.positionals[0]
        book = URL(fileURLWithPath: bookText)
        // --osm has a use without an engine: names for `list`, places for `add PLACE`.
        engine = try EngineOptions.settings(options, osmIsShared: true)
        osm = options.file("osm")
        maxStops = options.integer("max-stops")
        let words = Array(options.positionals.dropFirst())
        for option in Self.addOptions where options.string(option.name) != nil {
            let allowed = Self.optionSubcommands[option.name] ?? []
            guard allowed.contains(words.first ?? "") else {
                throw UsageError(message: "--\(option.name) goes with \(allowed.joined(separator: " or "))")
            }
        }
        action = try Self.subcommands.parse(words, options: options)
    }

    /// A row of a subcommand that takes no arguments.
    private static func plain(_ names: [String], help: String,
                              _ action: @escaping @Sendable (String) -> Action) -> SubcommandTable<Action>.Subcommand {
        .init(row: .init(names: names, arguments: "", help: help), arguments: 0...0, takes: "no arguments") { name, _, _ in action(name) }
    }

    private static func plain(_ name: String, help: String,
                              _ action: @escaping @Sendable (String) -> Action) -> SubcommandTable<Action>.Subcommand {
        plain([name], help: help, action)
    }

    /// A handle number, leg number or position, from 1.
    private static func number(_ text: String, _ what: String) throws -> Int {
        guard let n = Int(text), n >= 1 else { throw UsageError(message: "\(what) '\(text)' is not a number from 1") }
        return n
    }

    /// The coordinate typed as `text` (`TypedInput.coordinate`), refused in one line quoting it.
    private static func coordinate<C>(_ text: String, _ parse: (String) throws -> C = TypedInput.coordinate) throws -> C {
        do { return try parse(text) } catch {
            throw UsageError(message: "'\(text)' is not a coordinate: \(error)")
        }
    }

    /// The travel modes as typed.
    private static var modes: [String] { TravelMode.allCases.map(\.rawValue) }

    /// `add COORD`: the typed handle, its note and marker given by `--note` and `--marker`.
    @Sendable private static func added(_ name: String, _ words: [String], _ options: ParsedOptions) throws -> Action {
        var handle: Handle
        do {
            switch try TypedInput.handleOrPlace(words[0], id: 1) {
            case .handle(let typed): handle = typed
            case .place(let place, let note):
                return .addPlace(place, position: options.integer("at"), note: Self.note(note, options))
            }
        } catch {
            throw UsageError(message: "'\(words[0])': \(error)")
        }
        handle.note = note(handle.note, options)
        return .edit(.add(handle.coordinate, position: options.integer("at"), origin: handle.origin, note: handle.note))
    }

    /// The typed note with `--note` and `--marker` laid over it.
    private static func note(_ typed: HandleNote?, _ options: ParsedOptions) -> HandleNote? {
        if let note = options.string("note") {
            return HandleNote(text: note, marker: options.string("marker") ?? typed?.marker)
        } else if let marker = options.string("marker") {
            return HandleNote(text: typed?.text ?? "", marker: marker)
        }
        return typed
    }

    @Sendable private static func moved(_ name: String, _ words: [String], _ options: ParsedOptions) throws -> Action {
        .edit(.move(handle: try number(words[0], "handle"), to: try coordinate(words[1])))
    }

    @Sendable private static func removed(_ name: String, _ words: [String], _ options: ParsedOptions) throws -> Action {
        .edit(.remove(handle: try number(words[0], "handle")))
    }

    @Sendable private static func split(_ name: String, _ words: [String], _ options: ParsedOptions) throws -> Action {
        .edit(.split(leg: try number(words[0], "leg"), at: try words.dropFirst().first.map { try coordinate($0) }))
    }

    @Sendable private static func reordered(_ name: String, _ words: [String], _ options: ParsedOptions) throws -> Action {
        .edit(.reorder(handle: try number(words[0], "handle"), to: try number(words[1], "position")))
    }

    @Sendable private static func kind(_ name: String, _ words: [String], _ options: ParsedOptions) throws -> Action {
        guard let kind = LegKindWord(rawValue: words[1])?.kind else {
            throw UsageError(message: "kind '\(words[1])' is not one of \(LegKindWord.words.joined(separator: ", "))")
        }
        return .edit(.kind(leg: try number(words[0], "leg"), kind))
    }

    @Sendable private static func noted(_ name: String, _ words: [String], _ options: ParsedOptions) throws -> Action {
        .edit(.note(handle: try number(words[0], "handle"), HandleNote(text: words[1], marker: options.string("marker"))))
    }

    @Sendable private static func newLegs(_ name: String, _ words: [String], _ options: ParsedOptions) throws -> Action {
        guard let kind = LegKindWord(rawValue: words[0])?.kind else {
            throw UsageError(message: "kind '\(words[0])' is not one of \(LegKindWord.words.joined(separator: ", "))")
        }
        return .edit(.newLegs(kind))
    }

    @Sendable private static func mode(_ name: String, _ words: [String], _ options: ParsedOptions) throws -> Action {
        guard let mode = TravelMode(rawValue: words[0]) else {
            throw UsageError(message: "mode '\(words[0])' is not one of \(modes.joined(separator: ", "))")
        }
        return .edit(.mode(mode))
    }

    func run(_ console: any Console) async throws {
        let log = ConsoleLog(console)
        switch action {
        case .clear:
            switch try await DraftSession.clear(book, log: log) {
            case .discarded(let draft, let reason):
                console.out("\(Self.given(draft, besideBook: bookText)): discarded (\(reason)); \(bookText) keeps its route")
            case .nothingToClear:
                console.out("no handles in the drawing of \(bookText): nothing to clear")
            case .cleared(let undoName):
                console.out("drawing cleared: \(bookText) keeps its route and notes until you apply; `roadbook handles \(bookText) undo` brings the drawing back")
                console.out("undo: \(undoName ?? "")")
            }
        case .list:
            for line in Self.list(try DraftSession.summary(of: book, naming: osm, log: log)) { console.out(line) }
        case .status:
            for line in Self.status(try DraftSession.status(of: book, log: log), book: bookText) { console.out(line) }
        case .addPlace(let name, let position, let note):
            guard let osm else {
                throw UsageError(message: "'\(name)' is not a coordinate; to look a place up by name, give --osm EXTRACT")
            }
            let place = try PlaceSearch.place(named: name, extract: osm, log: log)
            console.out("\(place.name) (\(place.kind)): \(TypedInput.text(of: place.coordinate))")
            let route = try await DraftSession.edit(book, .add(place.coordinate, position: position, origin: .tapped, note: note, name: place.name),
                                                    engine: engine, maximumStops: maxStops, log: log)
            for line in RouteCommand.describe(route) + Self.steps(route) { console.out(line) }
        case .edit(let edit):
            let route = try await DraftSession.edit(book, edit, engine: engine, maximumStops: maxStops, log: log)
            for line in RouteCommand.describe(route) + Self.steps(route) { console.out(line) }
            if case .mode(let mode) = edit { LastTravelMode.remember(mode, console: console) }
        }
    }

    /// The draft's path as the book's was typed: `out/x.json` → `out/x.draft.json`.
    static func given(_ draft: URL, besideBook typed: String) -> String {
        let base = typed.lowercased().hasSuffix(".json") ? String(typed.dropLast(5)) : typed
        return RouteDraft.url(for: URL(fileURLWithPath: typed)) == draft ? base + ".draft.json" : draft.path
    }

    /// The handles, one a line (number, coordinate, origin, note), then the legs and totals.
    static func list(_ route: RouteSummary) -> [String] {
        var lines = ["\(route.handles.count) handle\(route.handles.count == 1 ? "" : "s"), mode \(route.mode.rawValue)"]
        for (i, handle) in route.handles.enumerated() {
            var line = "handle \(i + 1): \(TypedInput.text(of: handle.coordinate)), \(handle.origin.rawValue)"
            if let type = handle.waypointType { line += " \(type.rawValue)" }
            if let name = handle.name { line += ", named \"\(name)\"" }
            if let note = handle.note {
                line += ", note \"\(note.text)\"" + (note.marker.map { " [\($0)]" } ?? "")
            }
            if i < route.handleDistances.count { line += String(format: ", %.2f km from the start", route.handleDistances[i] / 1000) }
            lines.append(line)
        }
        lines.append("new legs: \(LegKindWord(route.newLegs).rawValue)")
        return lines + RouteCommand.describe(route) + steps(route)
    }

    /// "This is the book's route", or "Not applied yet" and what differs, one line each.
    static func status(_ difference: PlanDifference, book: String) -> [String] {
        difference.statusLines(applyCommand: "`roadbook apply \(book)`")
    }

    /// The step undo would take back, and the one redo would make again.
    static func steps(_ route: RouteSummary) -> [String] {
        [route.undoName.map { "undo: \($0)" } ?? "nothing to undo"] + (route.redoName.map { ["redo: \($0)"] } ?? [])
    }
}
