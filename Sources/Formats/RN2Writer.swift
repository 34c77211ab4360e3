import AtomicFile
import Foundation
import Geo
import Model

/// Writes a book as a Rally Navigator `.rn2` route file (version 4), in the structure RoadbookNavi
/// exports for Rally Navigator and both public RN2 readers accept (docs/rn2.md): every point of the
/// route is a waypoint, each row a shown waypoint at its place on the line (a point is added where
/// a row falls between two), with its words as texts, its danger, odometer reset and fuel or water
/// symbol as Rally Navigator's system icons (with their OpenRally tags), and its tulip as a track
/// and roads. What RN2 has no public way to say is returned as warnings: waypoint types, speed
/// limits, other symbols, hand-drawn strokes, rows off the route (written at their nearest place).
///
/// `RN2Reader` reads every row back with its distance, words, danger, reset, symbols and tulip.
/// O(points + rows) time and memory.
public enum RN2Writer: BookWriter {
    public static let formatName = "rn2"
    public static let fileExtensions = ["rn2"]
    public static let summary = "Rally Navigator route file: the line, each row with its words, danger, reset and tulip"

    /// Conventions of the written file, each with its reason.
    public struct Configuration: Sendable {
        /// Where the junction is drawn: Rally Navigator's standard anchor in its 200 × 130 tulip
        /// (RoadbookNavi's notes: `(99.5, 84)`).
        public var anchor = (x: 99.5, y: 84.0)
        /// Length of the exit and of the other roads in drawing units: RoadbookNavi draws the exit
        /// 55 long; the other roads a little shorter, so the exit stands out.
        public var exitLength = 55.0
        public var sideLength = 45.0
        /// Where the entry starts, below the junction (RoadbookNavi's default `roadIn.end`).
        public var entryEnd = (x: 0.0, y: 40.0)
        /// A row this close to a point of the line (metres) is shown on that point instead of a
        /// point being added.
        public var samePlace: Metres = 0.5

        public init() {}
    }

    public static let configuration = Configuration()

    public static func write(_ book: Book, to file: URL) throws -> [String] {
        let (data, warnings) = try encode(book, fileName: AtomicFile.targetName(ofTemporary: file))
        // Created new, as every writer creates the export's temporary file: one that exists is refused.
        let sink = try TextFileSink(creating: file)
        try sink.write(String(decoding: data, as: UTF8.self))
        try sink.finish()
        return warnings
    }

    /// The RN2 bytes of `book` and what they cannot hold.
    /// - Throws: `FormatError` when the book's route has fewer than two points.
    public static func encode(_ book: Book, fileName: String) throws -> (Data, [String]) {
        let route = book.route.points
        guard route.count >= 2 else {
            throw FormatError(file: fileName, field: "route", message: "the book's route has \(route.count) point\(route.count == 1 ? "" : "s"); an RN2 file needs a line")
        }
        let line = Polyline(route.map(\.coordinate))
        var lost = WriterLost()
        let rows = book.notes.enumerated().sorted { ($0.element.distanceAlong, $0.offset) < ($1.element.distanceAlong, $1.offset) }.map(\.element)

        // The waypoints: the route's points, with each row on a point of its own.
        var waypoints: [[String: Any]] = []
        var vertex = 0
        var rowIndex = 0
        func point(_ c: Coordinate, elevation: Metres?, row: Note?) {
            let index = waypoints.count
            var w: [String: Any] = [
                "waypointid": index, "t_uuid": "wpt_uuid_\(Book.derivedID(from: Array("\(book.id ?? book.title)/\(index)".utf8)).lowercased())",
                "lat": c.latitude, "lon": c.longitude, "ele": elevation ?? 0, "show": row != nil,
                "showCoordinates": false, "showHeading": false, "showStickMarkOnTulip": false,
                "tulip": ["elements": []], "notes": ["elements": []],
                "overridenSmartTags": ["dataType": "Map", "value": []],
            ]
            if let row {
                w["tulip"] = ["elements": tulipElements(row, lost: &lost)]
                w["notes"] = ["elements": noteElements(row, lost: &lost)]
            }
            waypoints.append(w)
        }
        while vertex < route.count || rowIndex < rows.count {
            let vertexDistance = vertex < route.count ? line.cumulativeDistances[vertex] : .infinity
            if rowIndex < rows.count, rows[rowIndex].distanceAlong <= vertexDistance + configuration.samePlace {
                let row = rows[rowIndex]
                rowIndex += 1
                if row.placement == .offRoute { lost.offRoute += 1 }
                if vertex < route.count, abs(row.distanceAlong - vertexDistance) <= configuration.samePlace {
                    point(route[vertex].coordinate, elevation: route[vertex].elevation, row: row)
                    vertex += 1
                } else {
                    let along = min(max(row.distanceAlong, 0), line.length)
                    point(line.coordinate(atDistance: along), elevation: row.elevation, row: row)
                }
            } else {
                point(route[vertex].coordinate, elevation: route[vertex].elevation, row: nil)
                vertex += 1
            }
        }

        let document: [String: Any] = ["route": [
            "version": 4, "name": book.title, "description": book.description ?? "",
            "current_style": "cross_country", "startlocation": "", "endlocation": "",
            "waypoints": waypoints,
            "settings": ["units": book.settings.units == .miles ? "imperial" : "metric", "coordFormat": 1,
                         "showHighlight": true, "showHeadings": true, "showCoordinates": true, "defaultTrackType": 17],
        ]]
        let data = try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys, .withoutEscapingSlashes])
        return (data, lost.warnings(fileName: fileName))
    }

    /// The row's words, danger, reset and symbols as the elements of its notes box.
    static func noteElements(_ note: Note, lost: inout WriterLost) -> [[String: Any]] {
        var elements: [[String: Any]] = []
        var y = 30.0
        for line in ([note.marker].compactMap { $0 } + note.text.split(separator: "\n").map(String.init))
            where !line.trimmingCharacters(in: .whitespaces).isEmpty {
            elements.append(["type": "Text", "text": line, "fontSize": 18, "lineHeight": 1, "width": 180, "height": 20.34,
                             "maxWidth": 180, "maxHeight": 100, "x": 99.5, "y": y, "angle": 0, "scaleX": 1, "scaleY": 1,
                             "fill": "rgb(0,0,0)"])
            y += 22
        }
        if note.danger > 0 {
            let id = [RN2Reader.SystemIcon.danger1, .danger2, .danger3][note.danger - 1].rawValue
            elements.append(icon(id: id, name: "Danger Level \(note.danger)", tags: "<danger>\(note.danger)</danger>", x: 163, y: 99.4))
        }
        if note.resetsOdometer {
            elements.append(icon(id: RN2Reader.SystemIcon.resetDistance.rawValue, name: "Reset to Distance to Zero",
                                 tags: "<openrally:reset>0</openrally:reset>", x: 37, y: 35.5))
        }
        for symbol in note.symbols {
            switch symbol {
            case .fuel: elements.append(icon(id: RN2Reader.SystemIcon.fuelZone.rawValue, name: "Fuel Zone", tags: "<fuel/>", x: 25, y: 110))
            case .water: elements.append(icon(id: RN2Reader.SystemIcon.riverWater.rawValue, name: "River / Water", tags: nil, x: 175, y: 25))
            case .bridge: elements.append(icon(id: RN2Reader.SystemIcon.aboveBridge.rawValue, name: "Bridge", tags: nil, x: 100, y: 110))
            default: lost.symbols.insert(symbol.rawValue)
            }
        }
        if let type = note.waypointType { lost.types.insert(type.rawValue) }
        if note.speedLimit != nil { lost.speedLimits += 1 }
        return elements
    }

    /// A Rally Navigator system icon, with the fields its own files give one.
    static func icon(id: String, name: String, tags: String?, x: Double, y: Double) -> [String: Any] {
        var icon: [String: Any] = ["type": "Icon", "id": id, "name": name, "src": "/icons/\(id).svg", "system": true,
                                   "disabled": false, "angle": 0, "w": 70, "x": x, "y": y, "scaleX": 0.4861111111111111,
                                   "scaleY": 0.4861111111111111, "width": 144, "height": 144]
        if let tags { icon["gpx_tags"] = tags }
        return icon
    }

    /// The row's tulip as a drawing: the track (entry from below, exit at its angle), the other
    /// roads from the junction, and the roundabout icon. Empty for a row without a tulip.
    static func tulipElements(_ note: Note, lost: inout WriterLost) -> [[String: Any]] {
        guard let tulip = note.tulip else { return [] }
        let c = configuration
        let entryClass = tulip.entry?.roadClass ?? .tarmac
        let exit = tulip.exit ?? Tulip.Road(role: .exit, angle: 0, roadClass: entryClass)
        func end(_ angle: Degrees, _ length: Double) -> [String: Double] {
            let a = angle * .pi / 180
            return ["x": (sin(a) * length * 1e6).rounded() / 1e6, "y": (-cos(a) * length * 1e6).rounded() / 1e6]
        }
        var elements: [[String: Any]] = []
        for road in tulip.roads where road.role == .side {
            elements.append(["type": "Road", "start": ["x": 0.0, "y": 0.0], "end": end(road.angle, c.sideLength),
                             "handles": [], "typeId": typeID(road.roadClass), "z": 4])
        }
        elements.append(["type": "Track",
                         "roadIn": ["end": ["x": c.entryEnd.x, "y": c.entryEnd.y], "handles": [], "typeId": typeID(entryClass), "z": 10],
                         "roadOut": ["start": ["x": c.anchor.x, "y": c.anchor.y], "end": end(exit.angle, c.exitLength),
                                     "handles": [], "typeId": typeID(exit.roadClass), "z": 10],
                         "z": 10])
        if tulip.roundabout != nil {
            elements.append(["type": "Icon", "id": RN2Reader.SystemIcon.roundabout.rawValue, "name": "Roundabout",
                             "src": "/icons/\(RN2Reader.SystemIcon.roundabout.rawValue).svg", "isRoundabout": true, "system": true,
                             "disabled": false, "angle": 0, "w": 50, "x": c.anchor.x, "y": c.anchor.y])
        }
        if !tulip.strokes.isEmpty { lost.strokes += 1 }
        return elements
    }

    /// The RN2 road type drawn as our road class (the inverse of `RN2Reader.roadClass`).
    static func typeID(_ roadClass: Tulip.RoadClass) -> Int {
        switch roadClass {
        case .motorway: 12
        case .tarmac: 18
        case .gravel: 17
        case .track: 4
        case .path: 15
        case .offPiste: 16
        }
    }

    /// What the file could not hold, gathered over the rows.
    struct WriterLost {
        var types: Set<String> = []
        var speedLimits = 0
        var symbols: Set<String> = []
        var strokes = 0
        var offRoute = 0

        func warnings(fileName: String) -> [String] {
            var lines: [String] = []
            if !types.isEmpty {
                lines.append("\(fileName): waypoint types (\(types.sorted().joined(separator: ", "))) are not written: RN2 has no public icon for them")
            }
            if speedLimits > 0 { lines.append("\(fileName): \(speedLimits) speed limit\(speedLimits == 1 ? "" : "s") not written") }
            if !symbols.isEmpty { lines.append("\(fileName): symbols not written: \(symbols.sorted().joined(separator: ", "))") }
            if strokes > 0 { lines.append("\(fileName): strokes drawn in \(strokes) tulip\(strokes == 1 ? "" : "s") not written") }
            if offRoute > 0 {
                lines.append("\(fileName): \(offRoute) row\(offRoute == 1 ? "" : "s") off the route written at \(offRoute == 1 ? "its" : "their") nearest place on it")
            }
            return lines
        }
    }
}
