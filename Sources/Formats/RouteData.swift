import AtomicFile
import Glibc
import Foundation
import Geo
import Model

/// The saved route properties a directions app gives a route it saves or shares as a line, computed
/// once from a book so every format (`GPXTrackWriter`, `KMLWriter`, `GeoJSONWriter`,
/// `GeoPackageWriter`) writes the same values under the same names:
///
/// - `name`: "Start → End" from the ends' names, else the travel mode and the length
///   ("Drive, 12.3 km"), as `route` titles a book (`RouteNames`).
/// - `description`: the book's description ("Route via CG-1 and CG-2"); a book without one gets
///   "Route via " and its source ("Route via OSRM Directions").
/// - `routeStart`, `routeEnd`: the ends' names, only when they have one. A book drawn through
///   handles names its ends by its first and last handles; a book from a recorded track by the
///   marker of a row at the very start (or end) of the route, within the book's off-route distance.
/// - `routeDistance`: the length of the line, as text in the book's units ("45.3 km", "28.1 mi").
/// - `routeTravelTime`: the engine's travel time, summed over the road legs it answered ("1h 5m").
///   A straight or as-drawn leg, and a road leg with no road, add nothing (as in the route tool); a
///   book from a recorded track has no engine's figure and gets no travel time: an estimate from an
///   assumed speed would read like a routing engine's answer.
/// - `routeTransportType`: the travel mode as its menu names it ("Drive", "Cycle", "Walk").
/// - `routeSource`: "NAME Directions" for a route whose roads came from an engine ("OSRM
///   Directions"), else the book's route source (a track file's name).
/// - `routeViaCount`: the stops between the ends, only on a route of more than two stops.
/// - `routeStraightLegs`: the legs drawn as straight lines (legs of kind straight, and road legs
///   with no road or used straight while waiting), only when there are any.
public struct RouteProperties: Sendable, Equatable {
    public var name: String
    public var description: String
    public var routeStart: String?
    public var routeEnd: String?
    public var routeDistance: String
    public var routeTravelTime: String?
    public var routeTransportType: String
    public var routeSource: String
    public var routeViaCount: Int?
    public var routeStraightLegs: Int?

    /// A property's value: text, or a count.
    public enum Value: Sendable, Equatable {
        case text(String)
        case integer(Int)
    }

    /// Every property a file may carry, in the order they are written, with whether it is a count:
    /// the columns of a GeoPackage's route table.
    public static let keys: [(name: String, isInteger: Bool)] = [
        ("name", false), ("description", false), ("routeStart", false), ("routeEnd", false),
        ("routeDistance", false), ("routeTravelTime", false), ("routeTransportType", false), ("routeSource", false),
        ("routeViaCount", true), ("routeStraightLegs", true),
    ]

    /// The properties this route has, in the order of `keys`; those it lacks are left out.
    public var fields: [(key: String, value: Value)] {
        let values: [Value?] = [
            .text(name), .text(description), routeStart.map(Value.text), routeEnd.map(Value.text),
            .text(routeDistance), routeTravelTime.map(Value.text), .text(routeTransportType), .text(routeSource),
            routeViaCount.map(Value.integer), routeStraightLegs.map(Value.integer),
        ]
        return zip(Self.keys, values).compactMap { key, value in value.map { (key.name, $0) } }
    }

    /// The properties of `book`'s route.
    ///
    /// Complexity: O(p + n + l) for p route points, n notes and l legs.
    public init(book: Book) {
        let length = Polyline(book.route.coordinates).length
        let units = book.settings.units
        let plan = book.plan.flatMap { $0.handles.count >= 2 ? $0 : nil }
        if let plan {
            routeStart = Self.nonEmpty(plan.handles.first?.name)
            routeEnd = Self.nonEmpty(plan.handles.last?.name)
        } else {
            let rows = book.notes.filter { $0.placement == .onRoute }
            let reach = book.settings.offRouteDistance
            routeStart = rows.first.flatMap { $0.distanceAlong <= reach ? Self.nonEmpty($0.marker) : nil }
            routeEnd = rows.last.flatMap { $0.distanceAlong >= length - reach ? Self.nonEmpty($0.marker) : nil }
        }
        name = RouteNames.name(start: routeStart, end: routeEnd)
            ?? RouteNames.name(mode: book.travelMode, length: length, units: units)
        routeDistance = RouteNames.distanceText(length, units: units)
        routeTransportType = book.travelMode.menuName
        if let engine = book.route.engineName {
            routeSource = engine + " Directions"
        } else {
            routeSource = Self.nonEmpty(book.route.source) ?? "roadbook"
        }
        description = Self.nonEmpty(book.description) ?? "Route via \(routeSource)"

        if let plan {
            var seconds: TimeInterval = 0
            for leg in plan.legs where leg.kind == .road && leg.state == .road {
                seconds += leg.answers[plan.mode]?.duration ?? 0
            }
            routeTravelTime = RouteNames.durationText(seconds)
            routeViaCount = plan.handles.count > 2 ? plan.handles.count - 2 : nil
        } else {
            routeTravelTime = nil
            routeViaCount = nil
        }
        // A leg is counted once, whether the plan draws it straight or the applied route recorded it so.
        var straight = Set<Int>()
        for (i, leg) in (plan?.legs ?? []).enumerated() {
            if leg.kind == .straight || (leg.kind == .road && (leg.state == .noRoad || leg.state?.waitsForRetry == true)) {
                straight.insert(i + 1)
            }
        }
        for stretch in book.route.straightStretches ?? [] where stretch.reason != .removed {
            straight.insert(stretch.leg)
        }
        routeStraightLegs = straight.isEmpty ? nil : straight.count
    }

    private static func nonEmpty(_ text: String?) -> String? {
        guard let text = text?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return nil }
        return text
    }
}

/// A row of the book as the route-data formats write it: a point with its number, name and words.
public struct RouteRow: Sendable, Equatable {
    /// The row's number in the book, from 1 (rows are the notes on the route, in order).
    public var number: Int
    /// The row's marker ("CP1"), else its number.
    public var name: String
    /// The instruction, as printed.
    public var instruction: String
    /// The waypoint type ("DSS", "CP"), else what made the row ("turn", "typed", "waypoint").
    public var type: String
    /// Metres along the route from its start.
    public var distance: Metres
    public var coordinate: Coordinate
    public var elevation: Metres?
    /// The heading after the row, degrees in [0, 360).
    public var cap: Degrees?
    /// 0 none to 3 `!!!`.
    public var danger: Int

    /// The rows of `book`: its notes on the route, numbered as the printed book numbers them.
    public static func rows(of book: Book) -> some Sequence<RouteRow> {
        book.notes.lazy.filter { $0.placement == .onRoute }.enumerated().map { i, note in
            RouteRow(number: i + 1, name: note.marker.flatMap { $0.isEmpty ? nil : $0 } ?? String(i + 1),
                     instruction: note.text, type: note.waypointType?.rawValue ?? note.kind.rawValue,
                     distance: note.distanceAlong, coordinate: note.coordinate, elevation: note.elevation,
                     cap: note.cap, danger: note.danger)
        }
    }

    /// What the route-data formats leave out of `book`, one line each: the notes off the route.
    static func warnings(for book: Book, format: String) -> [String] {
        let off = book.notes.filter { $0.placement == .offRoute }.count
        guard off > 0 else { return [] }
        return ["\(format): \(off) note\(off == 1 ? "" : "s") off the route \(off == 1 ? "is" : "are") not written (only rows on the route are)"]
    }
}

/// The route's extent in degrees.
struct RouteBounds: Sendable, Equatable {
    var minLatitude = Double.infinity, maxLatitude = -Double.infinity
    var minLongitude = Double.infinity, maxLongitude = -Double.infinity

    init<S: Sequence<Coordinate>>(_ coordinates: S) {
        for c in coordinates { include(c) }
    }

    /// Widens the extent to hold `c`.
    mutating func include(_ c: Coordinate) {
        minLatitude = min(minLatitude, c.latitude)
        maxLatitude = max(maxLatitude, c.latitude)
        minLongitude = min(minLongitude, c.longitude)
        maxLongitude = max(maxLongitude, c.longitude)
    }

    var isEmpty: Bool { minLatitude > maxLatitude }
}

/// A text file written as it is made, through a buffer: a writer appends pieces and the buffer
/// goes to the file whenever it fills, so memory stays at the buffer's size however long the route.
/// It owns the file descriptor: `finish()` writes what is left and closes it (checking both), and
/// `deinit` closes a file left unfinished by an error.
final class TextFileSink {
    /// Bytes gathered before a write: large enough that a route of a million points takes a few
    /// hundred system calls.
    static let bufferSize = 1 << 16

    private var fd: Int32
    private var buffer: [UInt8] = []
    /// The name errors give: the output, not its temporary.
    private let target: String

    /// Creates `file`, which must not exist (the export's temporary file).
    init(creating file: URL) throws {
        target = AtomicFile.targetName(ofTemporary: file)
        fd = AtomicFile.openTemporary(file.path, flags: O_WRONLY | O_EXCL)
        guard fd >= 0 else { throw AtomicFile.WriteError(path: target, reason: AtomicFile.reason(errno: errno)) }
        buffer.reserveCapacity(Self.bufferSize)
    }

    deinit {
        if fd >= 0 { close(fd) }
    }

    /// Appends `text` in UTF-8.
    func write(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= Self.bufferSize { try flush() }
    }

    /// Writes what is buffered and closes the file.
    func finish() throws {
        try flush()
        let descriptor = fd
        fd = -1
        if close(descriptor) != 0 { throw AtomicFile.WriteError(path: target, reason: AtomicFile.reason(errno: errno)) }
    }

    private func flush() throws {
        try buffer.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw AtomicFile.WriteError(path: target, reason: AtomicFile.reason(errno: errno))
                }
                offset += n
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

extension AtomicFile {
    /// The output a temporary file stands for, for messages: `.ROUTE.gpx.roadbook-tmp-12-0a1b2c3d`
    /// → `ROUTE.gpx` in the same folder; any other path as it is.
    static func targetName(ofTemporary file: URL) -> String {
        let name = file.lastPathComponent
        guard name.hasPrefix("."), let marker = name.range(of: temporaryMarker, options: .backwards) else { return file.path }
        return file.deletingLastPathComponent().appendingPathComponent(String(name[name.index(after: name.startIndex)..<marker.lowerBound])).path
    }
}

/// Numbers and text as the route-data formats write them.
enum RouteText {
    /// `value` with `digits` decimals and no exponent ("1.5216331", "-0.5"), trailing zeros kept.
    /// Integer arithmetic, as `DistanceFormat` does: a route writes a number per coordinate.
    static func fixed(_ value: Double, digits: Int) -> String {
        guard value.isFinite else { return "0" }
        var scale: Int64 = 1
        for _ in 0..<digits { scale *= 10 }
        let scaled = Int64((abs(value) * Double(scale)).rounded())
        let whole = scaled / scale, fraction = scaled % scale
        var text = (value < 0 && scaled != 0 ? "-" : "") + String(whole)
        guard digits > 0 else { return text }
        let f = String(fraction)
        text += "." + String(repeating: "0", count: digits - f.count) + f
        return text
    }

    /// A coordinate's degrees: seven decimals, the book file's precision (about 1 cm).
    static func degrees(_ value: Double) -> String { fixed(value, digits: 7) }

    /// `text` escaped for XML character data and attribute values; characters XML 1.0 cannot hold
    /// (controls other than tab, line feed and carriage return) are left out
    /// (`OpenRallyWriter.escaped`, the one XML escaper of the writers).
    static func xml(_ text: String) -> String { OpenRallyWriter.escaped(text, attribute: true) }

    /// `text` as a JSON string, quotes included (RFC 8259: quote, backslash and controls escaped).
    static func json(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
