import Foundation
import Model

/// The route as KML 2.2 (OGC 07-147r2): a Document named after the book, with a folder "Route"
/// holding one Placemark with the line (a LineString) and the saved route properties
/// (`RouteProperties`) as `ExtendedData`/`Data` elements, and a folder "Rows" with a point
/// Placemark for each row of the book (name, instruction as description, number, type and
/// distance as `Data`). GDAL's LIBKML driver reads each folder as a layer and each `Data` as a field.
///
/// Written as it goes (`TextFileSink`). Heights go into the coordinates only when every point of
/// the line has one.
public enum KMLWriter: BookWriter {
    public static let formatName = "kml"
    public static let fileExtensions = ["kml"]
    public static let summary = "the route as a KML line with its properties, the rows as placemarks"

    public static func write(_ book: Book, to file: URL) throws -> [String] {
        let properties = RouteProperties(book: book)
        let out = try TextFileSink(creating: file)
        try out.write("""
            <?xml version="1.0" encoding="UTF-8"?>
            <kml xmlns="http://www.opengis.net/kml/2.2">
            <Document><name>\(RouteText.xml(book.title))</name>
            <Folder><name>Route</name>
            <Placemark><name>\(RouteText.xml(properties.name))</name><description>\(RouteText.xml(properties.description))</description>
            <ExtendedData>
            """)
        for (key, value) in properties.fields where key != "name" && key != "description" {
            let text = switch value {
            case .text(let s): RouteText.xml(s)
            case .integer(let n): String(n)
            }
            try out.write("<Data name=\"\(key)\"><value>\(text)</value></Data>")
        }
        try out.write("</ExtendedData>\n<LineString><tessellate>1</tessellate><coordinates>\n")
        let heights = !book.route.points.isEmpty && book.route.points.allSatisfy { $0.elevation != nil }
        for point in book.route.points {
            var tuple = RouteText.degrees(point.coordinate.longitude) + "," + RouteText.degrees(point.coordinate.latitude)
            if heights, let ele = point.elevation { tuple += "," + RouteText.fixed(ele, digits: 1) }
            try out.write(tuple + "\n")
        }
        try out.write("</coordinates></LineString></Placemark>\n</Folder>\n<Folder><name>Rows</name>\n")
        for row in RouteRow.rows(of: book) {
            var mark = "<Placemark><name>\(RouteText.xml(row.name))</name>"
            if !row.instruction.isEmpty { mark += "<description>\(RouteText.xml(row.instruction))</description>" }
            mark += "<ExtendedData><Data name=\"number\"><value>\(row.number)</value></Data>"
            mark += "<Data name=\"type\"><value>\(RouteText.xml(row.type))</value></Data>"
            mark += "<Data name=\"distance\"><value>\(RouteText.fixed(row.distance, digits: 1))</value></Data></ExtendedData>"
            mark += "<Point><coordinates>\(RouteText.degrees(row.coordinate.longitude)),\(RouteText.degrees(row.coordinate.latitude))</coordinates></Point></Placemark>\n"
            try out.write(mark)
        }
        try out.write("</Folder>\n</Document>\n</kml>\n")
        try out.finish()
        return RouteRow.warnings(for: book, format: "KML")
    }
}
