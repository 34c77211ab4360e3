import BookAssembly
import Foundation
import Geo
import Model

// The values of a change to a book's rows, as the library's users name them (`changeNotes`), and
// as a person types them: distances with their unit, places, symbols, road classes.

public typealias NoteChange = BookAssembly.NoteChange
public typealias NoteReference = BookAssembly.NoteReference
public typealias NotePlace = BookAssembly.NotePlace
public typealias NoteShift = BookAssembly.NoteShift
public typealias NoteFields = BookAssembly.NoteFields
public typealias TulipEdit = BookAssembly.TulipEdit
public typealias SpeedZone = BookAssembly.SpeedZone
public typealias NoteStep = BookAssembly.NoteStep
public typealias NoteEditError = BookAssembly.NoteEditError

extension TypedInput {
    /// A distance typed with its unit: `12.34km`, `12.34 km`, `500m`, `1.5mi`, signed for a shift
    /// (`+30m`, `-0.2km`), in metres.
    /// - Throws: `Refusal` for a number without a unit, an unknown unit, or a number out of range.
    public static func distance(_ text: String) throws(Refusal) -> Metres {
        let trimmed = text.replacingOccurrences(of: " ", with: "").lowercased()
        let units: [(String, Double)] = [("km", 1000), ("mi", 1609.344), ("m", 1)]
        guard let (suffix, scale) = units.first(where: { trimmed.hasSuffix($0.0) }),
              let value = Double(trimmed.dropLast(suffix.count)), value.isFinite else {
            throw Refusal(reason: "a distance is a number and its unit: 12.34km, 500m or 1.5mi")
        }
        let metres = value * scale
        guard abs(metres) <= BookLimits.maximumRouteLength else { throw Refusal(reason: "no route is that long") }
        return metres
    }

    /// Where `--at` puts a note: a distance with its unit (`12.34km`), else a coordinate.
    public static func notePlace(_ text: String) throws(Refusal) -> NotePlace {
        if let metres = try? distance(text) { return .distance(metres) }
        do { return .coordinate(try coordinate(text)) } catch {
            throw Refusal(reason: "neither a distance along the route (12.34km) nor a coordinate (\(error))")
        }
    }

    /// Symbols to add and take away: `fuel,ford` adds both; `+gate,-fuel` adds gate and takes away fuel.
    /// - Throws: `Refusal` naming a symbol that is not one of `NoteSymbol`'s, with the list.
    public static func symbols(_ text: String) throws(Refusal) -> (add: [NoteSymbol], remove: [NoteSymbol]) {
        var add: [NoteSymbol] = [], remove: [NoteSymbol] = []
        for word in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !word.isEmpty {
            let taken = word.hasPrefix("-"), name = word.hasPrefix("-") || word.hasPrefix("+") ? String(word.dropFirst()) : word
            guard let symbol = NoteSymbol.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() }) else {
                throw Refusal(reason: "'\(name.prefix(40))' is not a symbol: one of \(symbolNames.joined(separator: ", "))")
            }
            if taken { remove.append(symbol) } else { add.append(symbol) }
        }
        return (add, remove)
    }

    /// The symbols a row can carry, as typed.
    public static var symbolNames: [String] { NoteSymbol.allCases.map(\.rawValue) }

    /// A waypoint type as typed (`wpv`, `WPV`).
    public static func waypointType(_ text: String) throws(Refusal) -> WaypointType {
        guard let type = WaypointType(name: text) else {
            throw Refusal(reason: "not a waypoint type: one of \(WaypointType.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return type
    }

    /// A road's class in a tulip as typed: `tarmac`, `gravel`, `track`, `path`, `motorway`, `off-piste`.
    public static func roadClass(_ text: String) throws(Refusal) -> Tulip.RoadClass {
        guard let road = Tulip.RoadClass.allCases.first(where: { roadClassName($0) == text.lowercased() }) else {
            throw Refusal(reason: "not a kind of road: one of \(roadClassNames.joined(separator: ", "))")
        }
        return road
    }

    /// The kinds of road a tulip draws, as typed.
    public static var roadClassNames: [String] { Tulip.RoadClass.allCases.map(roadClassName) }

    static func roadClassName(_ road: Tulip.RoadClass) -> String { road == .offPiste ? "off-piste" : road.rawValue }

    /// A note's words given as `-`: read from standard input, a trailing line feed dropped.
    /// - Throws: `Refusal` when they are longer than a row holds (read no further than that) or
    ///   are not UTF-8 text.
    public static func wordsFromStandardInput() throws(Refusal) -> String {
        let limit = BookLimits.maximumNoteLength * 4 + 1
        var data = Data()
        while data.count < limit {
            guard let chunk = try? FileHandle.standardInput.read(upToCount: limit - data.count), !chunk.isEmpty else { break }
            data.append(chunk)
        }
        guard data.count < limit, var text = String(data: data, encoding: .utf8), text.count <= BookLimits.maximumNoteLength else {
            throw Refusal(reason: String(data: data.prefix(limit - 1), encoding: .utf8) == nil && data.count < limit
                          ? "the words on standard input are not UTF-8 text"
                          : "the words on standard input are longer than the \(BookLimits.maximumNoteLength) characters a row holds")
        }
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }

    /// A turn angle as typed: degrees, 0 ahead, 90 right, -90 left.
    public static func angle(_ text: String) throws(Refusal) -> Degrees {
        guard let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite, (-180...180).contains(value) else {
            throw Refusal(reason: "an angle is -180 to 180 degrees (0 ahead, 90 right, -90 left)")
        }
        return value
    }
}
