import Foundation
import Testing
@testable import Geo

/// Longitude difference in degrees, wrapped so 180 and −180 agree.
private func lonDiff(_ a: Double, _ b: Double) -> Double { abs(normalizedTurn(a - b)) }

/// True when the longitude is meaningful (not at a pole).
private func hasLongitude(_ latitude: Double) -> Bool { abs(latitude) < 90 - 1e-7 }

/// GeoConvert writes "42d30'22.68\"N 001d31'18.48\"E"; ours is
/// "42°30'22.68\"N 1°31'18.48\"E": same numbers, ° for d, no degree padding.
private func geoConvertDMS(_ s: String) -> String {
    s.split(separator: " ").map { part -> String in
        var t = part.replacingOccurrences(of: "d", with: "°")
        while t.hasPrefix("0") && !t.hasPrefix("0°") { t.removeFirst() }
        return t
    }.joined(separator: " ")
}

/// GeoConvert writes "42d30.4'N 001d31.3'W"; ours is "N42°30.4' W001°31.3'".
private func geoConvertDM(_ s: String) -> String {
    s.split(separator: " ").map { part -> String in
        let t = part.replacingOccurrences(of: "d", with: "°")
        return String(t.last!) + t.dropLast()
    }.joined(separator: " ")
}

/// A typed coordinate and the latitude and longitude it means.
struct ParseCase: Sendable, CustomStringConvertible {
    let text: String, latitude: Double, longitude: Double
    init(_ text: String, _ latitude: Double, _ longitude: Double) {
        self.text = text; self.latitude = latitude; self.longitude = longitude
    }
    var description: String { text }
}

/// Degrees from degrees, minutes and seconds.
private func dms(_ d: Double, _ m: Double, _ s: Double = 0) -> Double { d + m / 60 + s / 3600 }

private let parseCases: [ParseCase] = [
    ParseCase("42.5063, 1.5218", 42.5063, 1.5218),
    ParseCase("42.5063N 1.5218E", 42.5063, 1.5218),
    ParseCase("1.5218E 42.5063N", 42.5063, 1.5218),
    ParseCase("-33.9 151.2", -33.9, 151.2),
    ParseCase("33.9S, 151.2E", -33.9, 151.2),
    ParseCase("N42°30.378' E001°31.308'", dms(42, 30.378), dms(1, 31.308)),
    ParseCase("E001°31.308' N42°30.378'", dms(42, 30.378), dms(1, 31.308)),
    ParseCase("42 30.378N 1 31.308E", dms(42, 30.378), dms(1, 31.308)),
    ParseCase("S 33 54.0 W 70 30.5", -dms(33, 54), -dms(70, 30.5)),
    ParseCase("42°30'22.7\"N 1°31'18.5\"E", dms(42, 30, 22.7), dms(1, 31, 18.5)),
    ParseCase("42°30′22.7″N 1°31′18.5″W", dms(42, 30, 22.7), -dms(1, 31, 18.5)),
    ParseCase("42d30m22.7sN 1d31m18.5sE", dms(42, 30, 22.7), dms(1, 31, 18.5)),
    ParseCase("42d30m22sS 1d31m18sE", -dms(42, 30, 22), dms(1, 31, 18)),
    ParseCase("42°30'22.7''N 1°31'18.5''E", dms(42, 30, 22.7), dms(1, 31, 18.5)),
    ParseCase("42:30:22.68N 001:31:18.48E", dms(42, 30, 22.68), dms(1, 31, 18.48)),
    ParseCase("42 30 1 31", 42.5, dms(1, 31)),
    ParseCase("42 1", 42.0, 1.0),
]

@Suite("UTM, UPS and MGRS against GeoConvert")
struct GridTests {
    @Test("there are enough reference cases")
    func fixtureCount() {
        #expect(coordinateFixtures.count >= 150)
        #expect(coordinateFixtures.contains { $0.zone == 0 && $0.isNorth })
        #expect(coordinateFixtures.contains { $0.zone == 0 && !$0.isNorth })
        #expect(coordinateFixtures.contains { $0.zone == 32 && $0.mgrs.hasPrefix("32V") })
        #expect(coordinateFixtures.contains { $0.mgrs.hasPrefix("37X") })
    }

    @Test("forward UTM/UPS to 1 mm", arguments: coordinateFixtures)
    func forward(_ f: CoordinateFixture) throws {
        let p = try #require(UTMUPS(Coordinate(latitude: f.latitude, longitude: f.longitude)))
        #expect(p.zone == f.zone)
        #expect(p.isNorth == f.isNorth)
        #expect(abs(p.easting - f.easting) <= 0.001, "easting \(p.easting) vs \(f.easting)")
        #expect(abs(p.northing - f.northing) <= 0.001, "northing \(p.northing) vs \(f.northing)")
    }

    @Test("inverse UTM/UPS to 1e-9°", arguments: coordinateFixtures)
    func inverse(_ f: CoordinateFixture) throws {
        let c = try UTMUPS(zone: f.zone, isNorth: f.isNorth, easting: f.easting, northing: f.northing).coordinate
        #expect(abs(c.latitude - f.utmLatitude) <= 1e-9, "latitude \(c.latitude) vs \(f.utmLatitude)")
        if hasLongitude(f.utmLatitude) {
            #expect(lonDiff(c.longitude, f.utmLongitude) <= 1e-9, "longitude \(c.longitude) vs \(f.utmLongitude)")
        }
    }

    @Test("forward then inverse returns the point", arguments: coordinateFixtures)
    func roundTrip(_ f: CoordinateFixture) throws {
        let c = try #require(UTMUPS(Coordinate(latitude: f.latitude, longitude: f.longitude))).coordinate
        #expect(abs(c.latitude - f.latitude) <= 1e-11)
        if hasLongitude(f.latitude) { #expect(lonDiff(c.longitude, f.longitude) <= 1e-10) }
    }

    @Test("MGRS at 1 m is GeoConvert's string; coarser precisions truncate it", arguments: coordinateFixtures)
    func mgrsForward(_ f: CoordinateFixture) {
        let c = Coordinate(latitude: f.latitude, longitude: f.longitude)
        #expect(CoordinateFormat.mgrs.format(c) == f.mgrs)
        let head = f.mgrs.prefix(f.mgrs.count - 10)
        let digits = Array(f.mgrs.suffix(10))
        for k in 0...4 {
            let expected = String(head) + String(digits[0..<k]) + String(digits[5..<(5 + k)])
            #expect(MGRS.reference(for: c, precision: k) == expected)
        }
    }

    @Test("an MGRS reference reads back into its own 1 m square", arguments: coordinateFixtures)
    func mgrsReverse(_ f: CoordinateFixture) throws {
        let ref = try MGRS.parse(f.mgrs)
        #expect(ref.precision == 5 && ref.squareSize == 1)
        let p = try #require(UTMUPS(Coordinate(latitude: f.latitude, longitude: f.longitude)))
        #expect(ref.corner.zone == p.zone && ref.corner.isNorth == p.isNorth)
        #expect(ref.corner.easting <= p.easting && p.easting < ref.corner.easting + 1)
        #expect(ref.corner.northing <= p.northing && p.northing < ref.corner.northing + 1)
        let c = try CoordinateFormat.parse(f.mgrs)
        #expect(abs(c.latitude - f.mgrsLatitude) <= 1e-9)
        if hasLongitude(f.mgrsLatitude) { #expect(lonDiff(c.longitude, f.mgrsLongitude) <= 1e-9) }
    }

    @Test("MGRS with spaces and lower case, and coarse squares")
    func mgrsVariants() throws {
        let a = try CoordinateFormat.parse("31TCH7733106851")
        #expect(try CoordinateFormat.parse("31T CH 77331 06851") == a)
        #expect(try CoordinateFormat.parse("31tch 7733106851") == a)
        let coarse = try MGRS.parse("31TCH")
        #expect(coarse.squareSize == 100_000)
        #expect(MGRS.reference(for: coarse.center, precision: 0) == "31TCH")
        let tens = try MGRS.parse("31TCH77330685")
        #expect(tens.precision == 4 && tens.squareSize == 10)
        #expect(MGRS.reference(for: tens.center, precision: 4) == "31TCH77330685")
    }

    @Test("UTM zone strings: band letters, GeoConvert hemispheres, UPS")
    func utmVariants() throws {
        // GeoConvert -p 9 of "31n 377331 4706851".
        let expected = Coordinate(latitude: 42.50430417045629, longitude: 1.50697389940891)
        for text in ["31T 377331 4706851", "31N 377331 4706851", "31n 377331 4706851", "31 T 377331 4706851", "31t 377331, 4706851"] {
            let c = try CoordinateFormat.parse(text)
            #expect(abs(c.latitude - expected.latitude) < 1e-9 && abs(c.longitude - expected.longitude) < 1e-9, "\(text)")
        }
        // "S": band S where the northing lies in 32°N–40°N, else the southern hemisphere.
        // GeoConvert -p 9 of "30n 500000 4000000" and "30s 500000 4000000".
        #expect(abs(try CoordinateFormat.parse("30S 500000 4000000").latitude - 36.14471809881777) < 1e-9)
        #expect(abs(try CoordinateFormat.parse("30s 500000 4000000").latitude + 54.14810410386951) < 1e-9)
        #expect(abs(try CoordinateFormat.parse("30S 500000 2000000").latitude) > 60)
        let ups = try #require(coordinateFixtures.first { $0.zone == 0 && $0.isNorth })
        let c = try CoordinateFormat.parse("N \(ups.easting) \(ups.northing)")
        #expect(abs(c.latitude - ups.utmLatitude) < 1e-9)
    }
}

@Suite("Degrees, minutes and seconds")
struct AngleTextTests {
    @Test("DMS and DM text match GeoConvert's rounding", arguments: coordinateFixtures)
    func sexagesimalMatchesGeoConvert(_ f: CoordinateFixture) {
        let c = Coordinate(latitude: f.latitude, longitude: f.longitude)
        #expect(CoordinateFormat.degreesMinutesSeconds.format(c, precision: 2) == geoConvertDMS(f.dms))
        #expect(CoordinateFormat.degreesMinutes.format(c, precision: 1) == geoConvertDM(f.dm))
    }

    @Test("GeoConvert's DMS text parses to the point", arguments: coordinateFixtures)
    func parseGeoConvertDMS(_ f: CoordinateFixture) throws {
        let c = try CoordinateFormat.parse(f.dms)
        #expect(abs(c.latitude - f.latitude) <= 0.005 / 3600 + 1e-12)
        #expect(lonDiff(c.longitude, f.longitude) <= 0.005 / 3600 + 1e-12)
    }

    @Test("every format reads back what it writes", arguments: coordinateFixtures)
    func roundTrips(_ f: CoordinateFixture) throws {
        let c = Coordinate(latitude: f.latitude, longitude: f.longitude)
        let tolerances: [(CoordinateFormat, Double)] = [
            (.decimalDegrees, 0.5e-6), (.degreesMinutes, 0.0005 / 60), (.degreesMinutesSeconds, 0.05 / 3600),
        ]
        for (format, tolerance) in tolerances {
            let text = format.format(c)
            let back = try CoordinateFormat.parse(text)
            #expect(abs(back.latitude - c.latitude) <= tolerance + 1e-12, "\(format) \(text)")
            #expect(lonDiff(back.longitude, c.longitude) <= tolerance + 1e-12, "\(format) \(text)")
        }
        // UTM to the millimetre reads back within a millimetre (0.5 mm on each axis);
        // the zone it names may differ from the standard zone of the parsed point
        // on a zone edge, so compare on the ground.
        let utmText = CoordinateFormat.utm.format(c, precision: 3)
        let fromUTM = try CoordinateFormat.parse(utmText)
        #expect(c.distance(to: fromUTM) <= 0.001, "\(utmText)")
    }

    @Test("the ways people write latitude and longitude", arguments: parseCases)
    func parsesVariants(_ p: ParseCase) throws {
        let (text, latitude, longitude) = (p.text, p.latitude, p.longitude)
        let c = try CoordinateFormat.parse(text)
        #expect(abs(c.latitude - latitude) < 1e-12, "\(text)")
        #expect(abs(c.longitude - longitude) < 1e-12, "\(text)")
    }

    @Test("minutes carry into degrees instead of showing 60")
    func carry() {
        let c = Coordinate(latitude: 42.999_999_9, longitude: -0.999_999_99)
        #expect(CoordinateFormat.degreesMinutes.format(c) == "N43°00.000' W001°00.000'")
        #expect(CoordinateFormat.degreesMinutesSeconds.format(c) == "43°00'00.0\"N 1°00'00.0\"W")
        #expect(CoordinateFormat.decimalDegrees.format(Coordinate(latitude: -0.000_000_01, longitude: 0)) == "0.000000, 0.000000")
    }

    @Test("an invalid coordinate is written INVALID")
    func invalid() {
        for format in CoordinateFormat.allCases {
            #expect(format.format(Coordinate(latitude: 95, longitude: 0)) == "INVALID")
        }
    }
}

@Suite("Bad input says what is wrong")
struct CoordinateErrorTests {
    @Test("each error names the problem", arguments: [
        ("", "empty"),
        ("   ", "empty"),
        ("91 0", "latitude 91 is beyond 90"),
        ("-95.5, 10", "latitude -95.5 is beyond 90"),
        ("0 190", "longitude 190 is beyond 180"),
        ("31T 9999999 1", "UTM easting 9999999 m is outside"),
        ("31N 377331 9999999", "UTM northing 9999999 m is outside"),
        ("61N 377331 4706851", "UTM zone 61 does not exist"),
        ("31T 377331 1706851", "latitude band T covers 40°N to 48°N"),
        ("31TZZ7733106851", "MGRS square 'ZZ' does not exist in zone 31T"),
        ("31TCZ7733106851", "MGRS square 'CZ' does not exist in zone 31T"),
        ("31TCV7733106851", "MGRS square 'CV' does not exist in zone 31T"),
        ("31TCH773310685", "cannot split evenly"),
        ("31TCH77331O6851", "'O' is not a digit"),
        ("31ICH7733106851", "latitude band 'I' does not exist"),
        ("123TCH77", "at most 2 digits"),
        ("QAB12", "unexpected 'Q' at character 1"),
        ("31T 377331", "followed by one number; give the easting and then the northing"),
        ("42.5", "only one angle"),
        ("42.5N 1.5N", "both angles are marked as latitude"),
        ("42.5E 1.5W", "both angles are marked as longitude"),
        ("-42.5N 1.5E", "both a minus sign and the hemisphere letter N"),
        ("42°75'N 1°E", "minutes 75 must be below 60"),
        ("42°30'61\"N 1°E", "seconds 61 must be below 60"),
        ("42.5° 30' N 1° E", "has a decimal fraction"),
        ("42 1 3", "cannot tell where latitude ends"),
        ("42N 1E 3", "3 angles"),
        ("4x2 1", "unexpected 'x'"),
        ("N E 42 1", "hemisphere letters N and E follow each other"),
        ("42 30'' 1", "marked as seconds but stands where minutes belong"),
        ("42.5.1 1", "is not a number"),
    ])
    func reports(_ text: String, _ expected: String) {
        do {
            let c = try CoordinateFormat.parse(text)
            Issue.record("\"\(text)\" parsed as \(c) but should fail with \(expected)")
        } catch let error as CoordinateParseError {
            #expect(error.description.contains(expected), "\(error.description)")
            #expect(error.input == text)
        } catch {
            Issue.record("unexpected error type \(error)")
        }
    }
}
