import Foundation
import Model

/// The route as GeoJSON (RFC 7946): a FeatureCollection whose first Feature is the line (a
/// LineString) with the saved route properties (`RouteProperties`) as its properties, followed by a
/// Point Feature for each row of the book (number, name, instruction, type, distance in metres, CAP,
/// danger). Positions are longitude, latitude in WGS 84, with no `crs` member (RFC 7946 §4); heights
/// are a third position element only when every point of the line has one.
///
/// Written as it goes (`TextFileSink`).
public enum GeoJSONWriter: BookWriter {
    public static let formatName = "geojson"
    public static let fileExtensions = ["geojson"]
    public static let summary = "the route as a LineString with its properties, the rows as Points"

    public static func write(_ book: Book, to file: URL) throws -> [String] {
        let properties = RouteProperties(book: book)
        let out = try TextFileSink(creating: file)
        let members = properties.fields.map { key, value -> String in
            let text = switch value {
            case .text(let s): RouteText.json(s)
            case .integer(let n): String(n)
            }
            return RouteText.json(key) + ":" + text
        }
        try out.write("{\"type\":\"FeatureCollection\",\"features\":[\n")
        try out.write("{\"type\":\"Feature\",\"properties\":{\(members.joined(separator: ","))},\n\"geometry\":{\"type\":\"LineString\",\"coordinates\":[")
        let heights = !book.route.points.isEmpty && book.route.points.allSatisfy { $0.elevation != nil }
        for (i, point) in book.route.points.enumerated() {
            var position = (i == 0 ? "\n[" : ",\n[") + RouteText.degrees(point.coordinate.longitude) + "," + RouteText.degrees(point.coordinate.latitude)
            if heights, let ele = point.elevation { position += "," + RouteText.fixed(ele, digits: 1) }
            try out.write(position + "]")
        }
        try out.write("]}}")
        for row in RouteRow.rows(of: book) {
            var feature = ",\n{\"type\":\"Feature\",\"properties\":{\"number\":\(row.number),\"name\":\(RouteText.json(row.name)),"
            feature += "\"instruction\":\(RouteText.json(row.instruction)),\"type\":\(RouteText.json(row.type)),"
            feature += "\"distance\":\(RouteText.fixed(row.distance, digits: 1))"
            if let cap = row.cap { feature += ",\"cap\":\(Int(cap.rounded()) % 360)" }
            feature += ",\"danger\":\(row.danger)},"
            feature += "\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(RouteText.degrees(row.coordinate.longitude)),\(RouteText.degrees(row.coordinate.latitude))]}}"
            try out.write(feature)
        }
        try out.write("\n]}\n")
        try out.finish()
        return RouteRow.warnings(for: book, format: "GeoJSON")
    }
}
