import AtomicFile
import Foundation
import Geo
import Glibc
import Model

/// The route as an OGC GeoPackage (OGC 12-128r18, version 1.3), written with SQLite into the export's
/// temporary file: the required `gpkg_spatial_ref_sys` rows (WGS 84, EPSG 4326, and the undefined
/// cartesian −1 and geographic 0 systems), `gpkg_contents` with each table's bounds, and
/// `gpkg_geometry_columns`; a `route` table holding the line (LINESTRING) with the saved route
/// properties (`RouteProperties`) as columns, and a `rows` table with a POINT for each row of the
/// book (number, name, instruction, type, distance in metres, CAP, danger). Geometries are
/// GeoPackage binary blobs: the header `GP`, version 0, flags (little-endian, with an envelope for
/// the line), the SRS id and little-endian WKB, x longitude and y latitude.
public enum GeoPackageWriter: BookWriter {
    public static let formatName = "gpkg"
    public static let fileExtensions = ["gpkg"]
    public static let summary = "a GeoPackage: a route table (line, properties) and a rows table (points)"

    /// `PRAGMA application_id`: "GPKG" in ASCII (GeoPackage 1.2 and later, requirement 2).
    public static let applicationID: Int32 = 0x4750_4B47
    /// `PRAGMA user_version`: GeoPackage 1.3.0.
    public static let userVersion = 10300
    /// The spatial reference system of every geometry: WGS 84 longitude and latitude.
    static let srsID: Int32 = 4326

    public static func write(_ book: Book, to file: URL) throws -> [String] {
        let target = AtomicFile.targetName(ofTemporary: file)
        // The temporary file is created the way every temporary is (so an interrupted run removes
        // it), then opened by SQLite as an empty database.
        let fd = AtomicFile.openTemporary(file.path, flags: O_WRONLY | O_EXCL)
        guard fd >= 0 else { throw AtomicFile.WriteError(path: target, reason: AtomicFile.reason(errno: errno)) }
        guard close(fd) == 0 else { throw AtomicFile.WriteError(path: target, reason: AtomicFile.reason(errno: errno)) }

        let db = try SQLiteDatabase(openingExisting: file, target: target)
        try db.execute("PRAGMA application_id = \(applicationID); PRAGMA user_version = \(userVersion);")
        try db.execute("BEGIN")
        try db.execute(schema)
        try fill(db, with: book)
        try db.execute("COMMIT")
        try db.close()
        return RouteRow.warnings(for: book, format: "GeoPackage")
    }

    /// The tables: the three the standard requires, then the route's two.
    static var schema: String {
        let propertyColumns = RouteProperties.keys.map { "\"\($0.name)\" \($0.isInteger ? "INTEGER" : "TEXT")" }
        return """
        CREATE TABLE gpkg_spatial_ref_sys (
          srs_name TEXT NOT NULL, srs_id INTEGER PRIMARY KEY, organization TEXT NOT NULL,
          organization_coordsys_id INTEGER NOT NULL, definition TEXT NOT NULL, description TEXT);
        CREATE TABLE gpkg_contents (
          table_name TEXT NOT NULL PRIMARY KEY, data_type TEXT NOT NULL, identifier TEXT UNIQUE,
          description TEXT DEFAULT '', last_change DATETIME NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
          min_x DOUBLE, min_y DOUBLE, max_x DOUBLE, max_y DOUBLE, srs_id INTEGER,
          CONSTRAINT fk_gc_r_srs_id FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys(srs_id));
        CREATE TABLE gpkg_geometry_columns (
          table_name TEXT NOT NULL, column_name TEXT NOT NULL, geometry_type_name TEXT NOT NULL,
          srs_id INTEGER NOT NULL, z TINYINT NOT NULL, m TINYINT NOT NULL,
          CONSTRAINT pk_geom_cols PRIMARY KEY (table_name, column_name),
          CONSTRAINT uk_gc_table_name UNIQUE (table_name),
          CONSTRAINT fk_gc_tn FOREIGN KEY (table_name) REFERENCES gpkg_contents(table_name),
          CONSTRAINT fk_gc_srs FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys (srs_id));
        INSERT INTO gpkg_spatial_ref_sys VALUES
          ('WGS 84 geodetic', 4326, 'EPSG', 4326, '\(wgs84WKT)', 'longitude/latitude coordinates in decimal degrees on the WGS 84 spheroid'),
          ('Undefined cartesian SRS', -1, 'NONE', -1, 'undefined', 'undefined cartesian coordinate reference system'),
          ('Undefined geographic SRS', 0, 'NONE', 0, 'undefined', 'undefined geographic coordinate reference system');
        CREATE TABLE "route" (fid INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, geom LINESTRING, \(propertyColumns.joined(separator: ", ")));
        CREATE TABLE "rows" (fid INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, geom POINT, "number" INTEGER, "name" TEXT,
          "instruction" TEXT, "type" TEXT, "distance" REAL, "cap" INTEGER, "danger" INTEGER);
        """
    }

    /// EPSG 4326 in OGC WKT (the definition GDAL writes for it).
    static let wgs84WKT = #"GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563,AUTHORITY["EPSG","7030"]],AUTHORITY["EPSG","6326"]],PRIMEM["Greenwich",0,AUTHORITY["EPSG","8901"]],UNIT["degree",0.0174532925199433,AUTHORITY["EPSG","9122"]],AXIS["Latitude",NORTH],AXIS["Longitude",EAST],AUTHORITY["EPSG","4326"]]"#

    private static func fill(_ db: SQLiteDatabase, with book: Book) throws {
        let points = book.route.points
        let heights = !points.isEmpty && points.allSatisfy { $0.elevation != nil }
        let routeBounds = RouteBounds(points.lazy.map(\.coordinate))
        var rowBounds = RouteBounds([])
        do {
            let contents = try db.prepare("""
                INSERT INTO gpkg_contents (table_name, data_type, identifier, description, min_x, min_y, max_x, max_y, srs_id)
                VALUES (?, 'features', ?, ?, ?, ?, ?, ?, \(srsID))
                """)
            let columns = try db.prepare("INSERT INTO gpkg_geometry_columns VALUES (?, 'geom', ?, \(srsID), ?, 0)")
            try contents.run([.text("route"), .text("route"), .text(book.title)] + bounds(routeBounds))
            try columns.run([.text("route"), .text("LINESTRING"), .integer(heights ? 1 : 0)])
            try contents.run([.text("rows"), .text("rows"), .text("the rows of \(book.title)")] + bounds(RouteBounds([])))
            try columns.run([.text("rows"), .text("POINT"), .integer(0)])
        }
        do {
            let properties = RouteProperties(book: book)
            let present = Dictionary(properties.fields, uniquingKeysWith: { a, _ in a })
            let names = RouteProperties.keys.map { "\"\($0.name)\"" }.joined(separator: ", ")
            let marks = Array(repeating: "?", count: RouteProperties.keys.count + 1).joined(separator: ", ")
            let insert = try db.prepare("INSERT INTO \"route\" (geom, \(names)) VALUES (\(marks))")
            var values: [SQLiteDatabase.Value] = [.blob(lineBlob(points, heights: heights, bounds: routeBounds))]
            for key in RouteProperties.keys {
                switch present[key.name] {
                case .text(let s): values.append(.text(s))
                case .integer(let n): values.append(.integer(Int64(n)))
                case nil: values.append(.null)
                }
            }
            try insert.run(values)
        }
        do {
            let insert = try db.prepare("""
                INSERT INTO "rows" (geom, "number", "name", "instruction", "type", "distance", "cap", "danger")
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """)
            for row in RouteRow.rows(of: book) {
                rowBounds.include(row.coordinate)
                try insert.run([.blob(pointBlob(row.coordinate)), .integer(Int64(row.number)), .text(row.name), .text(row.instruction),
                                .text(row.type), .real(row.distance), row.cap.map { .integer(Int64($0.rounded()) % 360) } ?? .null,
                                .integer(Int64(row.danger))])
            }
            let update = try db.prepare("UPDATE gpkg_contents SET min_x = ?, min_y = ?, max_x = ?, max_y = ? WHERE table_name = 'rows'")
            try update.run(bounds(rowBounds))
        }
    }

    private static func bounds(_ b: RouteBounds) -> [SQLiteDatabase.Value] {
        guard !b.isEmpty else { return [.null, .null, .null, .null] }
        return [.real(b.minLongitude), .real(b.minLatitude), .real(b.maxLongitude), .real(b.maxLatitude)]
    }

    /// A GeoPackage geometry blob of a LineString (LineString Z with heights), with its envelope
    /// [minx, maxx, miny, maxy].
    static func lineBlob(_ points: [RoutePoint], heights: Bool, bounds: RouteBounds) -> [UInt8] {
        var blob = GeometryBlob(envelope: bounds.isEmpty ? nil : bounds)
        blob.wkbHeader(type: heights ? 1002 : 2)
        blob.uint32(UInt32(points.count))
        for point in points {
            blob.double(point.coordinate.longitude)
            blob.double(point.coordinate.latitude)
            if heights { blob.double(point.elevation ?? 0) }
        }
        return blob.bytes
    }

    /// A GeoPackage geometry blob of a Point, without an envelope (a point's envelope is itself).
    static func pointBlob(_ c: Coordinate) -> [UInt8] {
        var blob = GeometryBlob(envelope: nil)
        blob.wkbHeader(type: 1)
        blob.double(c.longitude)
        blob.double(c.latitude)
        return blob.bytes
    }

    /// The bytes of a geometry blob, little-endian throughout.
    struct GeometryBlob {
        var bytes: [UInt8] = []

        /// The GeoPackage header: magic `GP`, version 0, flags (bit 0 little-endian, bits 1–3 the
        /// envelope kind: 0 none, 1 [minx, maxx, miny, maxy]), the SRS id, then the envelope.
        init(envelope: RouteBounds?) {
            bytes = [0x47, 0x50, 0, envelope == nil ? 0b0000_0001 : 0b0000_0011]
            int32(GeoPackageWriter.srsID)
            if let e = envelope {
                double(e.minLongitude); double(e.maxLongitude); double(e.minLatitude); double(e.maxLatitude)
            }
        }

        /// WKB's byte order (1, little-endian) and geometry type.
        mutating func wkbHeader(type: UInt32) {
            bytes.append(1)
            uint32(type)
        }

        mutating func uint32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
        mutating func int32(_ v: Int32) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
        mutating func double(_ v: Double) { withUnsafeBytes(of: v.bitPattern.littleEndian) { bytes.append(contentsOf: $0) } }
    }
}
