import Foundation
import Model

/// The route as a GPX 1.1 track (`<trk>`, not a GPX route), with the book's rows as waypoints:
/// what a GPS unit or a GIS loads. The saved route properties (`RouteProperties`) go in the track:
/// the name and description in `<name>` and `<desc>`, every other one in its `<extensions>`, each
/// element in the `RouteData.namespace` namespace declared on itself, which GDAL's GPX driver
/// reads as a field of the same name (`routeStart`). A waypoint has the row's marker (else its
/// number) as `<name>`, the instruction as `<desc>`, the waypoint type (else the row's kind) as
/// `<type>`, and its distance along the route in metres in its extensions.
///
/// Written as it goes (`TextFileSink`): memory is the book, not the file. Valid against the GPX 1.1
/// schema (`samples/data/openrally/common/gpx.xsd`). GDAL's GPX driver guesses an extension's
/// type from its text, so it reads `routeDistance` ("11.2 km") as the number 11.2; the other
/// formats type their fields and keep the text.
public enum GPXTrackWriter: BookWriter {
    public static let formatName = "gpx"
    public static let fileExtensions = ["gpx"]
    public static let summary = "the route as a GPX track with its properties, the rows as waypoints"

    public static func write(_ book: Book, to file: URL) throws -> [String] {
        let properties = RouteProperties(book: book)
        let out = try TextFileSink(creating: file)
        let ns = RouteData.namespace
        try out.write("""
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="roadbook" xmlns="http://www.topografix.com/GPX/1/1" \
            xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" \
            xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd">

            """)
        try out.write("<metadata><name>\(RouteText.xml(book.title))</name>")
        let bounds = RouteBounds(book.route.coordinates)
        if !bounds.isEmpty {
            try out.write("<bounds minlat=\"\(RouteText.degrees(bounds.minLatitude))\" minlon=\"\(RouteText.degrees(bounds.minLongitude))\" "
                + "maxlat=\"\(RouteText.degrees(bounds.maxLatitude))\" maxlon=\"\(RouteText.degrees(bounds.maxLongitude))\"/>")
        }
        try out.write("</metadata>\n")
        for row in RouteRow.rows(of: book) {
            var wpt = "<wpt lat=\"\(RouteText.degrees(row.coordinate.latitude))\" lon=\"\(RouteText.degrees(row.coordinate.longitude))\">"
            if let ele = row.elevation { wpt += "<ele>\(RouteText.fixed(ele, digits: 1))</ele>" }
            wpt += "<name>\(RouteText.xml(row.name))</name>"
            if !row.instruction.isEmpty { wpt += "<desc>\(RouteText.xml(row.instruction))</desc>" }
            wpt += "<type>\(RouteText.xml(row.type))</type>"
            wpt += "<extensions><distance xmlns=\"\(ns)\">\(RouteText.fixed(row.distance, digits: 1))</distance></extensions>"
            try out.write(wpt + "</wpt>\n")
        }
        var head = "<trk><name>\(RouteText.xml(properties.name))</name><desc>\(RouteText.xml(properties.description))</desc>"
        head += "<src>\(RouteText.xml(properties.routeSource))</src><type>\(RouteText.xml(properties.routeTransportType))</type>\n<extensions>"
        // The name and the description are the track's own <name> and <desc>, not repeated.
        for (key, value) in properties.fields where key != "name" && key != "description" {
            let text = switch value {
            case .text(let s): RouteText.xml(s)
            case .integer(let n): String(n)
            }
            head += "<\(key) xmlns=\"\(ns)\">\(text)</\(key)>"
        }
        try out.write(head + "</extensions>\n<trkseg>\n")
        for point in book.route.points {
            var trkpt = "<trkpt lat=\"\(RouteText.degrees(point.coordinate.latitude))\" lon=\"\(RouteText.degrees(point.coordinate.longitude))\""
            if let ele = point.elevation {
                trkpt += "><ele>\(RouteText.fixed(ele, digits: 1))</ele></trkpt>\n"
            } else {
                trkpt += "/>\n"
            }
            try out.write(trkpt)
        }
        try out.write("</trkseg></trk>\n</gpx>\n")
        try out.finish()
        return RouteRow.warnings(for: book, format: "GPX")
    }
}

/// What the route-data formats share.
public enum RouteData {
    /// The XML namespace of roadbook's own elements in GPX extensions: the route's properties and a
    /// waypoint's distance. A URN, so nothing is fetched from it.
    public static let namespace = "urn:roadbook:route:1"
}
