import Foundation

// UTM and UPS on the WGS84 ellipsoid.
//
// Transverse Mercator follows C. F. F. Karney, "Transverse Mercator with an
// accuracy of a few nanometers", J. Geodesy 85(8), 475–485 (2011), using the
// Krüger series to order n⁶ (eqs. 35 and 36), as GeographicLib's
// TransverseMercator class does. Within the UTM zones (|Δλ| ≤ 9°) the series
// error is below 5 nm. Polar stereographic (UPS) follows Snyder, "Map
// Projections — A Working Manual" (USGS PP 1395, 1987), eqs. 21-33 and 21-39,
// written with the conformal latitude τ′ as in Karney's paper. Zone rules
// (Norway and Svalbard exceptions, UPS beyond 84°N and 80°S) are those of
// GeographicLib's UTMUPS::StandardZone, which GeoConvert applies.

/// Helpers shared by the conformal projections: conversions between
/// τ = tan φ and τ′ = tan χ (χ the conformal latitude), Karney (2011) eqs. 7–9.
enum Conformal {
    /// e·atanh(e·x) for the eccentricity `e` (≥ 0 here).
    static func eAtanhE(_ x: Double, _ e: Double) -> Double { e * atanh(e * x) }

    /// τ′ from τ, Karney (2011) eq. 7.
    static func tauPrime(_ tau: Double, _ e: Double) -> Double {
        let tau1 = hypot(1, tau)
        let sig = sinh(eAtanhE(tau / tau1, e))
        return hypot(1, sig) * tau - sig * tau1
    }

    /// τ from τ′ by Newton's method, Karney (2011) eqs. 19–21; two or three
    /// iterations reach full double precision.
    static func tau(_ taup: Double, _ e: Double) -> Double {
        let e2m = 1 - e * e
        var tau = abs(taup) > 70 ? taup * exp(eAtanhE(1, e)) : taup / e2m
        let stol = (Double.ulpOfOne.squareRoot() / 10) * max(1, abs(taup))
        for _ in 0..<5 {
            let taupa = tauPrime(tau, e)
            let dtau = (taup - taupa) * (1 + e2m * tau * tau) / (e2m * hypot(1, tau) * hypot(1, taupa))
            tau += dtau
            if !(abs(dtau) >= stol) { break }
        }
        return tau
    }
}

/// Difference `to − from` of two longitudes, reduced to (−180, 180].
func longitudeDifference(from: Degrees, to: Degrees) -> Degrees {
    normalizedTurn(to - from)
}

/// A transverse Mercator projection of an ellipsoid, by Karney's (2011)
/// Krüger series to order 6. Accurate to a few nanometres within 3900 km of
/// the central meridian; used here for UTM.
public struct TransverseMercator: Sendable {
    /// Equatorial radius in metres.
    public let a: Double
    /// Flattening.
    public let f: Double
    /// Scale on the central meridian.
    public let k0: Double

    private let e: Double
    private let a1: Double
    private let alp: [Double]
    private let bet: [Double]

    /// The UTM projection: WGS84 with k₀ = 0.9996.
    public static let utm = TransverseMercator(a: 6_378_137, f: 1 / 298.257223563, k0: 0.9996)

    /// - Parameters:
    ///   - a: equatorial radius in metres (> 0).
    ///   - f: flattening, 0 ≤ f < 1 (oblate ellipsoids only).
    ///   - k0: scale on the central meridian (> 0).
    public init(a: Double, f: Double, k0: Double) {
        self.a = a; self.f = f; self.k0 = k0
        let e2 = f * (2 - f)
        e = e2.squareRoot()
        let n = f / (2 - f), n2 = n * n
        // Rectifying radius factor, Karney (2011) eq. 14, to order n⁶.
        a1 = a / (1 + n) * (1 + n2 * (1.0 / 4 + n2 * (1.0 / 64 + n2 / 256)))
        // Krüger's α (forward) and β (reverse) to order n⁶, Karney (2011) eqs. 35, 36.
        let n3 = n2 * n, n4 = n3 * n, n5 = n4 * n, n6 = n5 * n
        alp = [
            0,
            n * (n * (n * (n * (n * (31564 * n - 66675) + 34440) + 47250) - 100800) + 75600) / 151200,
            n2 * (n * (n * ((863232 - 1983433 * n) * n + 748608) - 1161216) + 524160) / 1935360,
            n3 * (n * (n * (670412 * n + 406647) - 533952) + 184464) / 725760,
            n4 * (n * (6601661 * n - 7732800) + 2230245) / 7257600,
            n5 * (3438171 - 13675556 * n) / 7983360,
            212378941 * n6 / 319334400,
        ]
        bet = [
            0,
            n * (n * (n * (n * (n * (384796 * n - 382725) - 6720) + 932400) - 1612800) + 1209600) / 2419200,
            n2 * (n * (n * ((1695744 - 1118711 * n) * n - 1174656) + 258048) + 80640) / 3870720,
            n3 * (n * (n * (22276 * n - 16929) - 15984) + 12852) / 362880,
            n4 * ((-830251 * n - 158400) * n + 197865) / 7257600,
            n5 * (453717 - 435388 * n) / 15966720,
            20648693 * n6 / 638668800,
        ]
    }

    /// Adds Σ c_j sin(2jζ) (j = 1…6) to the complex ζ = ξ + iη, by Clenshaw
    /// summation in complex arithmetic (Karney 2011, eq. 11 and §7).
    private func krueger(_ xi: Double, _ eta: Double, _ c: [Double], sign: Double) -> (xi: Double, eta: Double) {
        let s2 = sin(2 * xi), c2 = cos(2 * xi), sh2 = sinh(2 * eta), ch2 = cosh(2 * eta)
        // a = 2 cos 2ζ
        let ar = 2 * c2 * ch2, ai = -2 * s2 * sh2
        var b1r = 0.0, b1i = 0.0, b2r = 0.0, b2i = 0.0
        for j in stride(from: 6, through: 1, by: -1) {
            let nr = ar * b1r - ai * b1i - b2r + c[j]
            let ni = ar * b1i + ai * b1r - b2i
            b2r = b1r; b2i = b1i; b1r = nr; b1i = ni
        }
        // Σ = b₁ sin 2ζ, sin 2ζ = sin 2ξ cosh 2η + i cos 2ξ sinh 2η
        let sr = s2 * ch2, si = c2 * sh2
        return (xi + sign * (b1r * sr - b1i * si), eta + sign * (b1r * si + b1i * sr))
    }

    /// Projects a point.
    /// - Parameters:
    ///   - centralMeridian: longitude of the central meridian in degrees.
    ///   - coordinate: the point; its longitude must lie within 90° of the central meridian.
    /// - Returns: x (east) and y (north) in metres from the origin on the equator, no false origin.
    public func forward(centralMeridian: Degrees, _ coordinate: Coordinate) -> (x: Metres, y: Metres) {
        var lon = longitudeDifference(from: centralMeridian, to: coordinate.longitude)
        var lat = coordinate.latitude
        let latSign: Double = lat < 0 ? -1 : 1, lonSign: Double = lon < 0 ? -1 : 1
        lat *= latSign; lon *= lonSign
        let phi = lat * .pi / 180, lam = lon * .pi / 180
        let xip: Double, etap: Double
        if lat < 90 {
            let c = max(0, cos(lam))
            let taup = Conformal.tauPrime(tan(phi), e)
            xip = atan2(taup, c)
            etap = asinh(sin(lam) / hypot(taup, c))
        } else {
            xip = .pi / 2; etap = 0
        }
        let (xi, eta) = krueger(xip, etap, alp, sign: 1)
        return (a1 * k0 * eta * lonSign, a1 * k0 * xi * latSign)
    }

    /// Inverts `forward`.
    /// - Parameters:
    ///   - centralMeridian: longitude of the central meridian in degrees.
    ///   - x: metres east of the central meridian.
    ///   - y: metres north of the equator.
    /// - Returns: the point, longitude normalised to (−180, 180].
    public func reverse(centralMeridian: Degrees, x: Metres, y: Metres) -> Coordinate {
        var xi = y / (a1 * k0), eta = x / (a1 * k0)
        let xiSign: Double = xi < 0 ? -1 : 1, etaSign: Double = eta < 0 ? -1 : 1
        xi *= xiSign; eta *= etaSign
        let backside = xi > .pi / 2
        if backside { xi = .pi - xi }
        let (xip, etap) = krueger(xi, eta, bet, sign: -1)
        let s = sinh(etap), c = max(0, cos(xip)), r = hypot(s, c)
        var lat: Double, lon: Double
        if r != 0 {
            lon = atan2(s, c) * 180 / .pi
            lat = atan(Conformal.tau(sin(xip) / r, e)) * 180 / .pi
        } else {
            lat = 90; lon = 0
        }
        lat *= xiSign
        if backside { lon = 180 - lon }
        lon *= etaSign
        return Coordinate(latitude: lat, longitude: normalizedTurn(lon + centralMeridian))
    }
}

/// A polar stereographic projection of an ellipsoid, the projection of UPS.
/// Snyder (1987) eqs. 21-33 and 21-39, with τ′ from Karney (2011).
public struct PolarStereographic: Sendable {
    /// Equatorial radius in metres.
    public let a: Double
    /// Flattening.
    public let f: Double
    /// Scale at the pole.
    public let k0: Double
    private let e: Double
    private let c: Double

    /// The UPS projection: WGS84 with k₀ = 0.994.
    public static let ups = PolarStereographic(a: 6_378_137, f: 1 / 298.257223563, k0: 0.994)

    /// - Parameters:
    ///   - a: equatorial radius in metres (> 0).
    ///   - f: flattening, 0 ≤ f < 1.
    ///   - k0: scale at the pole (> 0).
    public init(a: Double, f: Double, k0: Double) {
        self.a = a; self.f = f; self.k0 = k0
        e = (f * (2 - f)).squareRoot()
        c = (1 - f) * exp(Conformal.eAtanhE(1, e))
    }

    /// Projects a point onto the plane tangent at the north or south pole.
    /// - Returns: x, y in metres from the pole, no false origin; +y points
    ///   from the pole along longitude 180° (north) or 0° (south).
    public func forward(north: Bool, _ coordinate: Coordinate) -> (x: Metres, y: Metres) {
        let lat = north ? coordinate.latitude : -coordinate.latitude
        let taup = Conformal.tauPrime(tan(lat * .pi / 180), e)
        var rho = hypot(1, taup) + abs(taup)
        rho = taup >= 0 ? (lat != 90 ? 1 / rho : 0) : rho
        rho *= 2 * k0 * a / c
        let lam = coordinate.longitude * .pi / 180
        return (rho * sin(lam), (north ? -rho : rho) * cos(lam))
    }

    /// Inverts `forward`.
    public func reverse(north: Bool, x: Metres, y: Metres) -> Coordinate {
        let rho = hypot(x, y)
        let t = rho != 0 ? rho / (2 * k0 * a / c) : Double.ulpOfOne * Double.ulpOfOne
        let taup = (1 / t - t) / 2
        let lat = atan(Conformal.tau(taup, e)) * 180 / .pi
        let lon = atan2(x, north ? -y : y) * 180 / .pi
        return Coordinate(latitude: north ? lat : -lat, longitude: normalizedTurn(lon))
    }
}

/// A position in the UTM/UPS system: a UTM zone 1–60 or UPS (zone 0), a
/// hemisphere, and easting/northing in metres including the false origin.
public struct UTMUPS: Hashable, Sendable {
    /// 1…60 for UTM, 0 for UPS.
    public var zone: Int
    /// True in the northern hemisphere (UTM: the 0 m false northing; UPS: the north pole).
    public var isNorth: Bool
    /// Metres east, including the false easting (500 000 m UTM, 2 000 000 m UPS).
    public var easting: Metres
    /// Metres north, including the false northing (10 000 000 m UTM south, 2 000 000 m UPS).
    public var northing: Metres

    /// True for a UPS position.
    public var isUPS: Bool { zone == 0 }

    /// The latitude band letters C…X (8° each, X 12°) used by UTM and MGRS.
    static let bandLetters = Array("CDEFGHJKLMNPQRSTUVWX")

    /// Creates a position from its parts, checking them.
    /// - Throws: `CoordinateParseError` naming the zone, easting or northing
    ///   when it lies outside the ranges GeographicLib accepts (UTM easting
    ///   0–1 000 km; northing 0–9 600 km north, 900–10 000 km south; UPS
    ///   easting and northing 800–3 200 km south, 1 200–2 800 km north).
    public init(zone: Int, isNorth: Bool, easting: Metres, northing: Metres) throws {
        let text = "\(zone == 0 ? "UPS" : "zone \(zone)") \(isNorth ? "north" : "south")"
        guard (0...60).contains(zone) else {
            throw CoordinateParseError(input: text, reason: "UTM zone \(zone) does not exist; zones run 1 to 60")
        }
        guard easting.isFinite, northing.isFinite else {
            throw CoordinateParseError(input: text, reason: "easting and northing must be finite numbers of metres")
        }
        let km = 100_000.0
        let (e0, e1, n0, n1): (Double, Double, Double, Double) =
            zone == 0 ? (isNorth ? (12 * km, 28 * km, 12 * km, 28 * km) : (7 * km, 33 * km, 7 * km, 33 * km))
                      : (isNorth ? (0, 10 * km, 0, 96 * km) : (0, 10 * km, 9 * km, 100 * km))
        let name = zone == 0 ? "UPS" : "UTM"
        guard easting >= e0 && easting <= e1 else {
            throw CoordinateParseError(input: text, reason: "\(name) easting \(Self.metres(easting)) is outside \(Self.metres(e0))–\(Self.metres(e1)); check the digits or swap easting and northing")
        }
        guard northing >= n0 && northing <= n1 else {
            throw CoordinateParseError(input: text, reason: "\(name) northing \(Self.metres(northing)) is outside \(Self.metres(n0))–\(Self.metres(n1)) for the \(isNorth ? "northern" : "southern") hemisphere; check the digits or the hemisphere")
        }
        self.zone = zone; self.isNorth = isNorth; self.easting = easting; self.northing = northing
    }

    private static func metres(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? "\(Int(v)) m" : String(format: "%.3f m", v)
    }

    /// Projects `coordinate` into its standard UTM zone (with the Norway and
    /// Svalbard exceptions) or into UPS beyond 84°N and 80°S, as GeoConvert does.
    /// Returns nil when the coordinate is not valid.
    public init?(_ coordinate: Coordinate) {
        guard coordinate.isValid else { return nil }
        let lat = coordinate.latitude
        let zone = Self.standardZone(for: coordinate)
        isNorth = !(lat < 0)
        self.zone = zone
        if zone == 0 {
            let p = PolarStereographic.ups.forward(north: isNorth, coordinate)
            easting = p.x + 2_000_000; northing = p.y + 2_000_000
        } else {
            let p = TransverseMercator.utm.forward(centralMeridian: Self.centralMeridian(zone), coordinate)
            easting = p.x + 500_000; northing = p.y + (isNorth ? 0 : 10_000_000)
        }
    }

    /// The geographic coordinate of this position.
    public var coordinate: Coordinate {
        if zone == 0 {
            return PolarStereographic.ups.reverse(north: isNorth, x: easting - 2_000_000, y: northing - 2_000_000)
        }
        return TransverseMercator.utm.reverse(centralMeridian: Self.centralMeridian(zone),
                                              x: easting - 500_000, y: northing - (isNorth ? 0 : 10_000_000))
    }

    /// Longitude of the central meridian of UTM zone 1…60, in degrees.
    public static func centralMeridian(_ zone: Int) -> Degrees { Double(6 * zone - 183) }

    /// The zone GeoConvert picks: UPS (0) when latitude ≥ 84° or < −80°;
    /// otherwise the 6° zone, with zone 32 for band V east of 3°E and the
    /// Svalbard zones 31, 33, 35, 37 for band X from 0° to 42°E.
    public static func standardZone(for coordinate: Coordinate) -> Int {
        let ilat = Int(floor(coordinate.latitude))
        guard ilat >= -80 && ilat < 84 else { return 0 }
        var ilon = Int(floor(normalizedTurn(coordinate.longitude)))
        if ilon == 180 { ilon = -180 }
        var zone = (ilon + 186) / 6
        let band = bandIndex(coordinate.latitude)
        if band == 7 && zone == 31 && ilon >= 3 {
            zone = 32 // Norway: band V, 3°E–12°E is zone 32.
        } else if band == 9 && ilon >= 0 && ilon < 42 {
            zone = 2 * ((ilon + 183) / 12) + 1 // Svalbard: zones 31, 33, 35, 37 in band X.
        }
        return zone
    }

    /// Latitude band index −10…9 (C…X) as GeographicLib's MGRS::LatitudeBand;
    /// bands are 8° from 80°S, the last (X) reaching 84°N.
    static func bandIndex(_ latitude: Degrees) -> Int {
        let ilat = Int(floor(latitude))
        return max(-10, min(9, (ilat + 80) / 8 - 10))
    }

    /// The latitude band letter C…X for latitudes in [−80°, 84°), nil outside.
    public static func latitudeBand(_ latitude: Degrees) -> Character? {
        guard latitude >= -80 && latitude < 84 else { return nil }
        return bandLetters[bandIndex(latitude) + 10]
    }
}
