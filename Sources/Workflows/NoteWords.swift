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

    /// Symbols to add and take away: `fuel,ford` adds both; `+gate,-fuel` adds gate and takes away
    /// fuel. A name to add is one of the library's (`NoteSymbol.library`) or of `folder`'s pictograms
    /// (`--symbols DIR`), in any case (`Ford` is `ford`); a name to take away may also be one the
    /// library does not have, so a name a book carries can be taken off its row.
    /// - Parameter folder: the names of a person's folder of pictograms, if one was given.
    /// - Throws: `Refusal` naming a symbol that is neither, with the names close to it.
    public static func symbols(_ text: String, folder: [NoteSymbol] = []) throws(Refusal) -> (add: [NoteSymbol], remove: [NoteSymbol]) {
        var add: [NoteSymbol] = [], remove: [NoteSymbol] = []
        let known = NoteSymbol.library + folder.filter { !$0.isKnown }
        for word in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !word.isEmpty {
            let taken = word.hasPrefix("-"), name = word.hasPrefix("-") || word.hasPrefix("+") ? String(word.dropFirst()) : word
            if let symbol = known.first(where: { $0.name.lowercased() == name.lowercased() }) {
                if taken { remove.append(symbol) } else { add.append(symbol) }
            } else if taken, NoteSymbol.isWellFormed(name) {
                remove.append(NoteSymbol(name))
            } else {
                let close = closeSymbols(to: name, among: known)
                let where_ = folder.isEmpty ? "the library" : "the library or the --symbols folder"
                throw Refusal(reason: "'\(name.prefix(40))' is not a symbol of \(where_): "
                              + (close.isEmpty ? "one of \(known.map(\.name).joined(separator: ", "))"
                                 : "did you mean \(close.map(\.name).joined(separator: ", "))?"))
            }
        }
        return (add, remove)
    }

    /// The library's names, as typed.
    public static var symbolNames: [String] { NoteSymbol.library.map(\.name) }

    /// Up to five names of `symbols` close to `typed`, closest first: those it begins or is part of,
    /// and those a few letters away (a third of its length, at least one).
    static func closeSymbols(to typed: String, among symbols: [NoteSymbol]) -> [NoteSymbol] {
        let word = Array(typed.lowercased().prefix(NoteSymbol.maximumNameLength))
        guard !word.isEmpty else { return [] }
        let most = max(1, word.count / 3)
        var scored: [(distance: Int, symbol: NoteSymbol)] = []
        for symbol in symbols {
            let name = Array(symbol.name.lowercased())
            let contained = word.count >= 3 && (String(name).contains(String(word)) || String(word).contains(String(name)))
            let distance = editDistance(word, name)
            if distance <= most || contained { scored.append((contained ? min(distance, most) : distance, symbol)) }
        }
        return scored.sorted { ($0.distance, $0.symbol.name) < ($1.distance, $1.symbol.name) }.prefix(5).map(\.symbol)
    }

    /// The number of letters to insert, delete, replace or swap with the next to make `a` into `b`.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + [Int](repeating: 0, count: b.count)
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { current[j] = min(current[j], previous2[j - 2] + 1) }
            }
            previous2 = previous
            previous = current
        }
        return previous[b.count]
    }

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
