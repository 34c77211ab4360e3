import Foundation
import Model
import Workflows

// How `note`'s subcommands read their words and options into a change (`NoteChange`).

extension NoteCommand {
    /// `change` with words given as `-` read from standard input.
    /// - Throws: `RunError` in one line when they cannot be read or are too long.
    static func readingStandardInput(_ change: NoteChange) throws -> NoteChange {
        func words(_ fields: NoteFields) throws -> NoteFields {
            guard fields.text == "-" else { return fields }
            var fields = fields
            do { fields.text = try TypedInput.wordsFromStandardInput() } catch { throw RunError(message: "\(error)") }
            return fields
        }
        switch change {
        case .add(let place, let fields): return .add(place, try words(fields))
        case .edit(let row, let fields): return .edit(row, try words(fields))
        default: return change
        }
    }

    /// `text` read by `parse`, refused in one line naming the option or argument.
    static func typed<T>(_ text: String, _ what: String, _ parse: (String) throws(TypedInput.Refusal) -> T) throws -> T {
        do { return try parse(text) } catch {
            throw UsageError(message: "\(what) '\(Printable.quoted(String(text.prefix(60))))': \(error)")
        }
    }

    /// The fields `add` and `edit` set from their options.
    static func fields(_ options: ParsedOptions, text: String?) throws -> NoteFields {
        var fields = NoteFields(text: text, marker: options.string("marker"), danger: options.integer("danger"),
                                speedLimit: options.integer("speed"), zone: options.choice("zone", as: SpeedZone.self))
        if let list = options.string("symbol") {
            let folder = try options.file("symbols").map(symbolNames) ?? []
            (fields.addSymbols, fields.removeSymbols) = try typed(list, "--symbol") { (text) throws(TypedInput.Refusal) in
                try TypedInput.symbols(text, folder: folder)
            }
        }
        if let type = options.string("type") {
            if type.isEmpty { fields.clearType = true } else { fields.waypointType = try typed(type, "--type", TypedInput.waypointType) }
        }
        fields.cap = options.number("cap")
        fields.resetsOdometer = options.choice("reset", as: OdometerReset.self).map { $0 == .yes }
        return fields
    }

    @Sendable static func added(_ name: String, _ words: [String], _ options: ParsedOptions) throws -> Action {
        let places = ["at", "at-row", "at-handle"].filter { options.string($0) != nil }
        guard places.count == 1 else {
            throw UsageError(message: places.isEmpty ? "add needs --at, --at-row or --at-handle: where the note goes"
                             : "add takes one of --at, --at-row and --at-handle")
        }
        let place: NotePlace
        if let at = options.string("at") {
            place = try typed(at, "--at", TypedInput.notePlace)
        } else if let row = options.string("at-row") {
            place = .row(NoteReference(row))
        } else {
            place = .handle(try options.integer(always: "at-handle"))
        }
        return .add(place, try fields(options, text: words[0]))
    }

    @Sendable static func edited(_ name: String, _ words: [String], _ options: ParsedOptions) throws -> Action {
        let fields = try fields(options, text: options.string("text"))
        guard !fields.isEmpty else {
            throw UsageError(message: "edit needs what to change: --text, --marker, --danger, --symbol, --type, --cap, --reset, --speed or --zone")
        }
        return .edit(NoteReference(words[0]), fields)
    }

    @Sendable static func restored(_ name: String, _ words: [String], _ options: ParsedOptions) throws -> Action {
        switch (words.first, options.flag("all")) {
        case (let row?, false): return .restore(NoteReference(row))
        case (nil, true): return .restore(nil)
        case (_?, true): throw UsageError(message: "restore takes a row or --all, not both")
        case (nil, false): throw UsageError(message: "restore needs the row it had (restore ROW) or --all")
        }
    }

    @Sendable static func moved(_ name: String, _ words: [String], _ options: ParsedOptions) throws -> Action {
        switch (options.string("to"), options.string("by")) {
        case (let to?, nil): return .move(NoteReference(words[0]), .to(try typed(to, "--to", TypedInput.distance)))
        case (nil, let by?): return .move(NoteReference(words[0]), .by(try typed(by, "--by", TypedInput.distance)))
        default: throw UsageError(message: "move takes one of --to DISTANCE and --by DISTANCE")
        }
    }

    @Sendable static func tulip(_ name: String, _ words: [String], _ options: ParsedOptions) throws -> Action {
        let row = NoteReference(words[0])
        let rest = Array(words.dropFirst(2))
        func one(_ what: String) throws -> String {
            guard rest.count == 1 else { throw UsageError(message: "tulip \(words[1]) takes \(what)") }
            return rest[0]
        }
        switch words[1] {
        case "add-road":
            guard (1...2).contains(rest.count) else { throw UsageError(message: "tulip add-road takes an angle and, if you like, a kind of road") }
            let road = try rest.dropFirst().first.map { try typed($0, "road", TypedInput.roadClass) } ?? .track
            return .tulip(row, .addRoad(angle: try typed(rest[0], "angle", TypedInput.angle), roadClass: road))
        case "remove-road":
            let text = try one("the number of the road: remove-road N")
            guard let n = Int(text), n >= 1 else { throw UsageError(message: "road '\(Printable.quoted(text))' is not a number from 1") }
            return .tulip(row, .removeRoad(n))
        case "exit": return .tulip(row, .exit(angle: try typed(try one("an angle: exit ANGLE"), "angle", TypedInput.angle)))
        case "class":
            guard rest.count == 2 else { throw UsageError(message: "tulip class takes a road (N, or exit) and its kind: class N track") }
            let road: Int? = rest[0] == "exit" ? nil : try Int(rest[0]).flatMap { $0 >= 1 ? $0 : nil }
                ?? { throw UsageError(message: "road '\(Printable.quoted(rest[0]))' is not a number from 1, or exit") }()
            return .tulip(row, .roadClass(road: road, try typed(rest[1], "road", TypedInput.roadClass)))
        case "reset":
            guard rest.isEmpty else { throw UsageError(message: "tulip reset takes nothing more") }
            return .tulip(row, .reset)
        default:
            throw UsageError(message: "tulip edit '\(Printable.quoted(words[1]))' is not one of add-road, remove-road, exit, class, reset")
        }
    }

    @Sendable static func speed(_ name: String, _ words: [String], _ options: ParsedOptions) throws -> Action {
        guard let kmh = Int(words[1]), Note.speeds.contains(kmh) else {
            throw UsageError(message: "speed '\(Printable.quoted(words[1]))' is not a whole number of km/h from 1 to 300")
        }
        return .edit(NoteReference(words[0]), NoteFields(targetSpeed: kmh))
    }
}

/// `--reset yes|no`.
enum OdometerReset: String, CaseIterable, Sendable { case yes, no }
