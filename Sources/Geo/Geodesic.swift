import Foundation

// Geodesics on an ellipsoid of revolution by Karney's method:
//
//   C. F. F. Karney, "Algorithms for geodesics", J. Geodesy 87, 43–55 (2013),
//   https://doi.org/10.1007/s00190-012-0578-z, and its addenda at
//   https://geographiclib.sourceforge.io/geod-addenda.html
//
// The series are carried to sixth order in the third flattening n and in eps,
// with the coefficients of GeographicLib's `Geodesic` class (GEOGRAPHICLIB_GEODESIC_ORDER = 6).
// Equation numbers below refer to the paper. The structure (canonical reordering of the
// end points, meridional / equatorial / short-line special cases, Newton's method on
// alpha1 with a bracketing fallback, astroid start for nearly antipodal points) follows
// §4 and §5 of the paper and GeographicLib 2.x, so that results agree with GeodSolve
// to round-off (see Tests/GeoTests/GeodesicTests.swift).
//
// Accuracy for WGS84: about 15 nm in distance and 1e-15 rad in azimuth (paper, §6).

/// The result of the inverse geodesic problem between two points.
public struct GeodesicInverse: Sendable, Equatable {
    /// Length of the geodesic in metres.
    public var distance: Metres
    /// Bearing at the first point, clockwise from north, in [0, 360).
    public var initialBearing: Degrees
    /// Bearing at the second point (direction of travel), in [0, 360).
    public var finalBearing: Degrees
    public init(distance: Metres, initialBearing: Degrees, finalBearing: Degrees) {
        self.distance = distance; self.initialBearing = initialBearing; self.finalBearing = finalBearing
    }
}

/// The result of the direct geodesic problem.
public struct GeodesicDirect: Sendable, Equatable {
    public var coordinate: Coordinate
    /// Bearing of travel at the end point, in [0, 360).
    public var finalBearing: Degrees
    public init(coordinate: Coordinate, finalBearing: Degrees) { self.coordinate = coordinate; self.finalBearing = finalBearing }
}

/// Geodesics on an ellipsoid of revolution (Karney 2013, series to order 6).
///
/// Both problems are allocation-free: every series is held in fixed-size value types and
/// summed by Clenshaw's method.
///
/// Cost: `direct` evaluates a fixed number of series (about 60 multiply-adds and 8
/// transcendental calls). `inverse` is cheapest for meridional, equatorial and really short
/// lines (below about 0.2 m on WGS84, answered by the spherical start of §5 without
/// iterating); otherwise it runs Newton's method on the azimuth, 2–3 iterations on average
/// for random WGS84 pairs and rarely more than 16 even for nearly antipodal points, each
/// iteration costing four series sums and about six transcendental calls.
/// Measured with `-O` on the (shared, loaded) build machine: about 1 µs per `inverse` for
/// 50 m road legs, 2 µs for random global pairs, and 0.75 µs per `direct`.
public struct Geodesic: Sendable {
    /// Equatorial radius in metres.
    public let a: Double
    /// Flattening.
    public let f: Double

    /// 1 − f.
    private let f1: Double
    /// Second eccentricity squared, e′² = e² / (1 − e²).
    private let ep2: Double
    /// Third flattening, n = f / (2 − f).
    private let n: Double
    /// Polar semi-axis in metres, b = a (1 − f).
    private let b: Double
    /// Auxiliary-sphere arc below which a line counts as "really short" in `inverseStart`.
    private let etol2: Double
    /// Coefficients (polynomials in n) of the A3 series, eq. (24).
    private let a3x: A3Coefficients
    /// Coefficients (polynomials in n) of the C3 series, eq. (25).
    private let c3x: C3Coefficients

    /// Creates the geodesic solver for an ellipsoid.
    /// - Parameters:
    ///   - a: equatorial radius in metres, finite and positive.
    ///   - f: flattening; the polar semi-axis a (1 − f) must be finite and positive.
    ///     The series are accurate for |f| ≤ 1/50.
    public init(a: Double, f: Double) {
        precondition(a.isFinite && a > 0, "Geodesic: equatorial radius must be finite and positive")
        precondition((a * (1 - f)).isFinite && a * (1 - f) > 0, "Geodesic: polar semi-axis must be finite and positive")
        self.a = a
        self.f = f
        f1 = 1 - f
        let e2 = f * (2 - f)
        ep2 = e2 / (f1 * f1)
        n = f / (2 - f)
        b = a * f1
        // Karney's threshold for "really short" lines: the azimuth consistency error of the
        // auxiliary-sphere solution is sig12² |f| min(1, 1 − f/2) / 2; setting it to epsilon
        // with a safety factor 0.1 gives this bound.
        etol2 = 0.1 * GeodesicConstants.tol2 / sqrt(max(0.001, abs(f)) * min(1.0, 1 - f / 2) / 2)
        a3x = A3Coefficients(n: n)
        c3x = C3Coefficients(n: n)
    }

    /// The WGS84 ellipsoid.
    public static let wgs84 = Geodesic(a: 6_378_137, f: 1 / 298.257223563)

    /// Solves the inverse problem: the shortest geodesic from `p1` to `p2`.
    ///
    /// Handles coincident, sub-millimetre, meridional, equatorial, polar and nearly antipodal
    /// pairs. For exactly antipodal points, or when a point is a pole, the azimuths are not
    /// unique; the values returned are those GeographicLib returns.
    /// - Parameters:
    ///   - p1: start, latitude in [−90, 90]; any longitude.
    ///   - p2: end, latitude in [−90, 90]; any longitude.
    /// - Returns: distance in metres (accurate to about 15 nm on WGS84) and bearings in [0, 360).
    /// - Complexity: O(1), no allocation; see the type's documentation for the iteration count.
    public func inverse(_ p1: Coordinate, _ p2: Coordinate) -> GeodesicInverse {
        let r = solveInverse(lat1: p1.latitude, lon1: p1.longitude, lat2: p2.latitude, lon2: p2.longitude)
        return GeodesicInverse(distance: r.s12,
                               initialBearing: normalizedBearing(GeoMath.atan2d(r.salp1, r.calp1)) + 0,
                               finalBearing: normalizedBearing(GeoMath.atan2d(r.salp2, r.calp2)) + 0)
    }

    /// Solves the direct problem: travel `distance` metres from `p` along the geodesic that
    /// starts at `bearing`.
    /// - Parameters:
    ///   - p: start, latitude in [−90, 90]; at a pole the bearing is taken relative to the
    ///     meridian `p.longitude`, as in GeographicLib.
    ///   - bearing: initial bearing in degrees clockwise from north; any value.
    ///   - distance: metres; may be negative (travel backwards) or longer than half the globe.
    /// - Returns: the end point (longitude in [−180, 180]) and the bearing there in [0, 360).
    /// - Complexity: O(1), no allocation.
    public func direct(from p: Coordinate, bearing: Degrees, distance: Metres) -> GeodesicDirect {
        let tiny = GeodesicConstants.tiny
        let lat1 = GeoMath.latFix(p.latitude)
        let (salp1, calp1) = GeoMath.sincosd(GeoMath.angRound(bearing))

        var (sbet1, cbet1) = GeoMath.sincosd(GeoMath.angRound(lat1))
        sbet1 *= f1
        (sbet1, cbet1) = GeoMath.norm(sbet1, cbet1)
        cbet1 = max(tiny, cbet1)                       // cbet1 = +epsilon at the poles

        // Eq. (5): sin alpha0 = sin alpha1 cos beta1.
        let salp0 = salp1 * cbet1
        let calp0 = hypot(calp1, salp1 * sbet1)
        // Eq. (11): tan beta1 = tan sigma1 cos alpha1; eq. (12): tan omega1 = sin alpha0 tan sigma1.
        var ssig1 = sbet1
        let somg1 = salp0 * sbet1
        var csig1 = sbet1 != 0 || calp1 != 0 ? cbet1 * calp1 : 1
        let comg1 = csig1
        (ssig1, csig1) = GeoMath.norm(ssig1, csig1)

        let k2 = calp0 * calp0 * ep2
        let eps = k2 / (2 * (1 + sqrt(1 + k2)) + k2)  // eq. (16)

        let a1m1 = Self.a1m1f(eps)
        let c1 = Self.c1f(eps)
        let b11 = c1.sum(ssig1, csig1)                 // eq. (15) at sigma1
        let sb11 = sin(b11), cb11 = cos(b11)
        let stau1 = ssig1 * cb11 + csig1 * sb11        // tau1 = sigma1 + B11
        let ctau1 = csig1 * cb11 - ssig1 * sb11
        let c1p = Self.c1pf(eps)
        let c3 = c3f(eps)
        let a3c = -f * salp0 * a3f(eps)
        let b31 = c3.sum(ssig1, csig1)

        // Eq. (20) inverted by eq. (21): sigma from tau = s / (b A1).
        var tau12 = distance / (b * (1 + a1m1))
        if !tau12.isFinite { tau12 = .nan }
        let st = sin(tau12), ct = cos(tau12)
        let b12 = -c1p.sum(stau1 * ct + ctau1 * st, ctau1 * ct - stau1 * st)
        var sig12 = tau12 - (b12 - b11)
        var ssig12 = sin(sig12), csig12 = cos(sig12)
        if abs(f) > 0.01 {
            // The reverted series (21) loses accuracy for |f| > 1/100: one Newton step on eq. (15).
            let ssig2 = ssig1 * csig12 + csig1 * ssig12
            let csig2 = csig1 * csig12 - ssig1 * ssig12
            let b12n = c1.sum(ssig2, csig2)
            let serr = (1 + a1m1) * (sig12 + (b12n - b11)) - distance / b
            sig12 -= serr / sqrt(1 + k2 * ssig2 * ssig2)
            ssig12 = sin(sig12); csig12 = cos(sig12)
        }

        let ssig2 = ssig1 * csig12 + csig1 * ssig12    // sigma2 = sigma1 + sigma12
        var csig2 = csig1 * csig12 - ssig1 * ssig12
        let sbet2 = calp0 * ssig2                      // sin beta2 = cos alpha0 sin sigma2
        var cbet2 = hypot(salp0, calp0 * csig2)
        if cbet2 == 0 {
            // salp0 = 0 and csig2 = 0: break the degeneracy at the pole.
            cbet2 = tiny; csig2 = tiny
        }
        let salp2 = salp0, calp2 = calp0 * csig2       // tan alpha0 = cos sigma2 tan alpha2
        let somg2 = salp0 * ssig2, comg2 = csig2
        let omg12 = atan2(somg2 * comg1 - comg2 * somg1, comg2 * comg1 + somg2 * somg1)
        let lam12 = omg12 + a3c * (sig12 + (c3.sum(ssig2, csig2) - b31))   // eq. (8) with (23)
        let lon12 = lam12 / GeoMath.degree
        let lon2 = GeoMath.angNormalize(GeoMath.angNormalize(p.longitude) + GeoMath.angNormalize(lon12))
        let lat2 = GeoMath.atan2d(sbet2, f1 * cbet2)
        let azi2 = GeoMath.atan2d(salp2, calp2)
        return GeodesicDirect(coordinate: Coordinate(latitude: lat2, longitude: lon2),
                              finalBearing: normalizedBearing(azi2) + 0)
    }
}

extension Coordinate {
    /// Geodesic distance to `other` on WGS84, in metres (Karney 2013; see `Geodesic.inverse`).
    public func distance(to other: Coordinate) -> Metres { Geodesic.wgs84.inverse(self, other).distance }
    /// Initial geodesic bearing towards `other` on WGS84, in [0, 360).
    public func bearing(to other: Coordinate) -> Degrees { Geodesic.wgs84.inverse(self, other).initialBearing }
    /// The point reached by travelling `distance` metres along the WGS84 geodesic starting at `bearing`
    /// (degrees clockwise from north). Longitude in [−180, 180].
    public func coordinate(atDistance distance: Metres, bearing: Degrees) -> Coordinate {
        Geodesic.wgs84.direct(from: self, bearing: bearing, distance: distance).coordinate
    }
}

// MARK: - Inverse problem

extension Geodesic {
    /// Sines and cosines of the azimuths at both ends, and the distance in metres.
    private struct InverseSolution {
        var s12: Double
        var salp1: Double, calp1: Double
        var salp2: Double, calp2: Double
    }

    /// Karney (2013) §4–5: reduce to the canonical configuration
    /// 0 ≤ λ12 ≤ 180°, −90° ≤ φ1 ≤ 0, φ1 ≤ φ2 ≤ −φ1, then solve.
    private func solveInverse(lat1 latIn1: Double, lon1: Double, lat2 latIn2: Double, lon2: Double) -> InverseSolution {
        let tiny = GeodesicConstants.tiny, tol0 = GeodesicConstants.tol0

        // Longitude difference, computed with its rounding error (AngDiff).
        var (lon12, lon12s) = GeoMath.angDiff(lon1, lon2)
        var lonsign: Double = lon12.sign == .minus ? -1 : 1
        lon12 *= lonsign; lon12s *= lonsign
        let lam12 = lon12 * GeoMath.degree
        let (slam12, clam12) = GeoMath.sincosde(lon12, lon12s)
        lon12s = (180 - lon12) - lon12s                 // supplementary longitude difference

        // Points within about 0.7 pm of the equator are treated as on it.
        var lat1 = GeoMath.angRound(GeoMath.latFix(latIn1))
        var lat2 = GeoMath.angRound(GeoMath.latFix(latIn2))
        // Point 1 gets the larger |latitude|.
        let swapp: Double = abs(lat1) < abs(lat2) || lat2.isNaN ? -1 : 1
        if swapp < 0 {
            lonsign *= -1
            swap(&lat1, &lat2)
        }
        // Make lat1 <= -0.
        let latsign: Double = lat1.sign == .minus ? 1 : -1
        lat1 *= latsign
        lat2 *= latsign

        // Reduced latitudes beta (eq. 6 via tan beta = (1 − f) tan phi).
        var (sbet1, cbet1) = GeoMath.sincosd(lat1)
        sbet1 *= f1
        (sbet1, cbet1) = GeoMath.norm(sbet1, cbet1)
        cbet1 = max(tiny, cbet1)
        var (sbet2, cbet2) = GeoMath.sincosd(lat2)
        sbet2 *= f1
        (sbet2, cbet2) = GeoMath.norm(sbet2, cbet2)
        cbet2 = max(tiny, cbet2)

        // When |beta1| and |beta2| are equal to round-off, make them exactly equal so that
        // the symmetry used in lambda12 holds.
        if cbet1 < -sbet1 {
            if cbet2 == cbet1 { sbet2 = copysign(sbet1, sbet2) }
        } else {
            if abs(sbet2) == -sbet1 { cbet2 = cbet1 }
        }

        let dn1 = sqrt(1 + ep2 * sbet1 * sbet1)
        let dn2 = sqrt(1 + ep2 * sbet2 * sbet2)

        var salp1 = 0.0, calp1 = 0.0, salp2 = 0.0, calp2 = 0.0
        var s12x = 0.0
        var meridian = lat1 == -90 || slam12 == 0

        if meridian {
            // Both ends on one full meridian: the geodesic may run along it.
            calp1 = clam12; salp1 = slam12              // head to the target longitude
            calp2 = 1; salp2 = 0                        // arrive heading north
            let ssig1 = sbet1, csig1 = calp1 * cbet1
            let ssig2 = sbet2, csig2 = calp2 * cbet2
            let sig12 = atan2(max(0, csig1 * ssig2 - ssig1 * csig2) + 0, csig1 * csig2 + ssig1 * ssig2)
            let l = lengths(eps: n, sig12: sig12, ssig1: ssig1, csig1: csig1, dn1: dn1,
                            ssig2: ssig2, csig2: csig2, dn2: dn2)
            var s12b = l.s12b
            let m12b = l.m12b
            // A meridian longer than half way round (m12 < 0) is not shortest: solve generally.
            if sig12 < 1 || m12b >= 0 {
                if sig12 < 3 * tiny || (sig12 < tol0 && (s12b < 0 || m12b < 0)) {
                    s12b = 0                            // coincident or sub-round-off line
                }
                s12x = s12b * b
            } else {
                meridian = false
            }
        }

        if !meridian && sbet1 == 0 && (f <= 0 || lon12s >= f * 180) {
            // Along the equator (for an oblate ellipsoid only while the longitude difference is
            // below (1 − f) 180°; beyond that the shortest path leaves the equator).
            calp1 = 0; calp2 = 0; salp1 = 1; salp2 = 1
            s12x = a * lam12
        } else if !meridian {
            let start = inverseStart(sbet1: sbet1, cbet1: cbet1, dn1: dn1, sbet2: sbet2, cbet2: cbet2, dn2: dn2,
                                     lam12: lam12, slam12: slam12, clam12: clam12)
            salp1 = start.salp1; calp1 = start.calp1
            if start.sig12 >= 0 {
                // Really short line: the auxiliary-sphere solution is already exact to round-off.
                salp2 = start.salp2; calp2 = start.calp2
                s12x = start.sig12 * b * start.dnm
            } else {
                // Newton's method on alpha1 (§5): lambda12(alpha1) − lam12 = 0 has a single root in
                // (0, pi) with positive slope there. A bracket (alp1a, alp1b) is kept, and when a
                // Newton step is unusable the next estimate is its midpoint.
                var ssig1 = 0.0, csig1 = 0.0, ssig2 = 0.0, csig2 = 0.0, eps = 0.0, sig12 = 0.0
                var numit = 0
                var salp1a = tiny, calp1a = 1.0, salp1b = tiny, calp1b = -1.0
                var tripn = false, tripb = false
                while true {
                    let r = lambda12(sbet1: sbet1, cbet1: cbet1, dn1: dn1, sbet2: sbet2, cbet2: cbet2, dn2: dn2,
                                     salp1: salp1, calp1: calp1, slam120: slam12, clam120: clam12,
                                     wantDerivative: numit < GeodesicConstants.maxit1)
                    salp2 = r.salp2; calp2 = r.calp2; sig12 = r.sig12
                    ssig1 = r.ssig1; csig1 = r.csig1; ssig2 = r.ssig2; csig2 = r.csig2; eps = r.eps
                    let v = r.lam12
                    // Reversed test so that NaN exits.
                    if tripb || !(abs(v) >= (tripn ? 8 : 1) * tol0) || numit == GeodesicConstants.maxit2 {
                        break
                    }
                    if v > 0 && (numit > GeodesicConstants.maxit1 || calp1 / salp1 > calp1b / salp1b) {
                        salp1b = salp1; calp1b = calp1
                    } else if v < 0 && (numit > GeodesicConstants.maxit1 || calp1 / salp1 < calp1a / salp1a) {
                        salp1a = salp1; calp1a = calp1
                    }
                    if numit < GeodesicConstants.maxit1 && r.dlam12 > 0 {
                        let dalp1 = -v / r.dlam12
                        if abs(dalp1) < .pi {
                            let sdalp1 = sin(dalp1), cdalp1 = cos(dalp1)
                            let nsalp1 = salp1 * cdalp1 + calp1 * sdalp1
                            if nsalp1 > 0 {
                                calp1 = calp1 * cdalp1 - salp1 * sdalp1
                                salp1 = nsalp1
                                (salp1, calp1) = GeoMath.norm(salp1, calp1)
                                // Where the slope tends to zero convergence is only linear: use an
                                // epsilon-based rather than sqrt(epsilon)-based stopping rule.
                                tripn = abs(v) <= 16 * tol0
                                numit += 1
                                continue
                            }
                        }
                    }
                    // Bisect the bracket.
                    salp1 = (salp1a + salp1b) / 2
                    calp1 = (calp1a + calp1b) / 2
                    (salp1, calp1) = GeoMath.norm(salp1, calp1)
                    tripn = false
                    tripb = abs(salp1a - salp1) + (calp1a - calp1) < GeodesicConstants.tolb
                        || abs(salp1 - salp1b) + (calp1 - calp1b) < GeodesicConstants.tolb
                    numit += 1
                }
                s12x = distanceOverB(eps: eps, sig12: sig12, ssig1: ssig1, csig1: csig1,
                                     ssig2: ssig2, csig2: csig2) * b
            }
        }

        // Undo the canonical reordering.
        if swapp < 0 {
            swap(&salp1, &salp2)
            swap(&calp1, &calp2)
        }
        salp1 *= swapp * lonsign; calp1 *= swapp * latsign
        salp2 *= swapp * lonsign; calp2 *= swapp * latsign
        return InverseSolution(s12: 0 + s12x, salp1: salp1, calp1: calp1, salp2: salp2, calp2: calp2)
    }

    /// Starting azimuth for Newton's method (Karney 2013 §5): the spherical solution with a
    /// mean-latitude correction for short lines, and the astroid approximation (eqs. 55–57) when
    /// the points are nearly antipodal. For really short lines (sig12 < etol2) returns the final
    /// answer with `sig12 >= 0`; otherwise `sig12 = −1`.
    private func inverseStart(sbet1: Double, cbet1: Double, dn1: Double,
                              sbet2: Double, cbet2: Double, dn2: Double,
                              lam12: Double, slam12: Double, clam12: Double)
        -> (sig12: Double, salp1: Double, calp1: Double, salp2: Double, calp2: Double, dnm: Double) {
        var sig12 = -1.0, salp2 = Double.nan, calp2 = Double.nan, dnm = Double.nan
        // bet12 = bet2 − bet1 in [0, pi); bet12a = bet2 + bet1 in (−pi, 0].
        let sbet12 = sbet2 * cbet1 - cbet2 * sbet1
        let cbet12 = cbet2 * cbet1 + sbet2 * sbet1
        let sbet12a = sbet2 * cbet1 + cbet2 * sbet1
        let shortline = cbet12 >= 0 && sbet12 < 0.5 && cbet2 * lam12 < 0.5
        var somg12: Double, comg12: Double
        if shortline {
            // sin²((bet1 + bet2) / 2)
            var sbetm2 = (sbet1 + sbet2) * (sbet1 + sbet2)
            sbetm2 /= sbetm2 + (cbet1 + cbet2) * (cbet1 + cbet2)
            dnm = sqrt(1 + ep2 * sbetm2)
            let omg12 = lam12 / (f1 * dnm)
            somg12 = sin(omg12); comg12 = cos(omg12)
        } else {
            somg12 = slam12; comg12 = clam12
        }

        var salp1 = cbet2 * somg12
        var calp1 = comg12 >= 0
            ? sbet12 + cbet2 * sbet1 * somg12 * somg12 / (1 + comg12)
            : sbet12a - cbet2 * sbet1 * somg12 * somg12 / (1 - comg12)
        let ssig12 = hypot(salp1, calp1)
        let csig12 = sbet1 * sbet2 + cbet1 * cbet2 * comg12

        if shortline && ssig12 < etol2 {
            salp2 = cbet1 * somg12
            calp2 = sbet12 - cbet1 * sbet2 * (comg12 >= 0 ? somg12 * somg12 / (1 + comg12) : 1 - comg12)
            (salp2, calp2) = GeoMath.norm(salp2, calp2)
            sig12 = atan2(ssig12, csig12)
        } else if abs(n) > 0.1 || csig12 >= 0 || ssig12 >= 6 * abs(n) * .pi * cbet1 * cbet1 {
            // The zeroth-order spherical estimate is good enough.
        } else {
            // Nearly antipodal: scale to the (x, y) plane in which the antipode is the origin and
            // the singular point is (−1, 0), then use the astroid (eq. 55).
            let lam12x = atan2(-slam12, -clam12)       // lam12 − pi
            let x: Double, y: Double, lamscale: Double, betscale: Double
            if f >= 0 {
                let k2 = sbet1 * sbet1 * ep2
                let eps = k2 / (2 * (1 + sqrt(1 + k2)) + k2)
                lamscale = f * cbet1 * a3f(eps) * .pi
                betscale = lamscale * cbet1
                x = lam12x / lamscale
                y = sbet12a / betscale
            } else {
                let cbet12a = cbet2 * cbet1 - sbet2 * sbet1
                let bet12a = atan2(sbet12a, cbet12a)
                let l = reducedLengthOverB(eps: n, sig12: .pi + bet12a, ssig1: sbet1, csig1: -cbet1, dn1: dn1,
                                           ssig2: sbet2, csig2: cbet2, dn2: dn2)
                let xx = -1 + l.m12b / (cbet1 * cbet2 * l.m0 * .pi)
                x = xx
                betscale = xx < -0.01 ? sbet12a / xx : -f * cbet1 * cbet1 * .pi
                lamscale = betscale / cbet1
                y = lam12x / lamscale
            }
            if y > -GeodesicConstants.tol1 && x > -1 - GeodesicConstants.xthresh {
                // Strip near the cut.
                if f >= 0 {
                    salp1 = min(1, -x); calp1 = -sqrt(1 - salp1 * salp1)
                } else {
                    calp1 = max(x > -GeodesicConstants.tol1 ? 0 : -1, x)
                    salp1 = sqrt(1 - calp1 * calp1)
                }
            } else {
                // Estimate omg12 from the astroid, then alpha1 from the spherical formula; this
                // takes fewer Newton steps than estimating alpha1 directly.
                let k = Self.astroid(x, y)
                let omg12a = lamscale * (f >= 0 ? -x * k / (1 + k) : -y * (1 + k) / k)
                somg12 = sin(omg12a); comg12 = -cos(omg12a)
                salp1 = cbet2 * somg12
                calp1 = sbet12a - cbet2 * sbet1 * somg12 * somg12 / (1 - comg12)
            }
        }
        // Sanity check on the starting guess; the reversed test lets NaN through.
        if !(salp1 <= 0) {
            (salp1, calp1) = GeoMath.norm(salp1, calp1)
        } else {
            salp1 = 1; calp1 = 0
        }
        return (sig12, salp1, calp1, salp2, calp2, dnm)
    }

    /// The hybrid problem (§4): given beta1, beta2 and alpha1, the longitude difference
    /// lambda12 reached on the ellipsoid minus the target `lam120`, and its derivative
    /// d lambda12 / d alpha1 (eq. 46) when `wantDerivative`.
    private func lambda12(sbet1: Double, cbet1: Double, dn1: Double,
                          sbet2: Double, cbet2: Double, dn2: Double,
                          salp1: Double, calp1 calpIn1: Double,
                          slam120: Double, clam120: Double, wantDerivative: Bool)
        -> (lam12: Double, salp2: Double, calp2: Double, sig12: Double,
            ssig1: Double, csig1: Double, ssig2: Double, csig2: Double, eps: Double, dlam12: Double) {
        var calp1 = calpIn1
        if sbet1 == 0 && calp1 == 0 {
            // Break the degeneracy of the equatorial line (handled elsewhere).
            calp1 = -GeodesicConstants.tiny
        }
        let salp0 = salp1 * cbet1                       // eq. (5)
        let calp0 = hypot(calp1, salp1 * sbet1)         // > 0

        var ssig1 = sbet1
        let somg1 = salp0 * sbet1
        var csig1 = calp1 * cbet1
        let comg1 = csig1
        (ssig1, csig1) = GeoMath.norm(ssig1, csig1)

        // Enforce the symmetry |bet2| = −bet1 exactly, which would otherwise make Newton singular.
        let salp2 = cbet2 != cbet1 ? salp0 / cbet2 : salp1
        let calp2 = cbet2 != cbet1 || abs(sbet2) != -sbet1
            ? sqrt(calp1 * cbet1 * (calp1 * cbet1)
                   + (cbet1 < -sbet1 ? (cbet2 - cbet1) * (cbet1 + cbet2) : (sbet1 - sbet2) * (sbet1 + sbet2))) / cbet2
            : abs(calp1)
        var ssig2 = sbet2
        let somg2 = salp0 * sbet2
        var csig2 = calp2 * cbet2
        let comg2 = csig2
        (ssig2, csig2) = GeoMath.norm(ssig2, csig2)

        // sig12 = sig2 − sig1 and omg12 = omg2 − omg1, both limited to [0, pi].
        let sig12 = atan2(max(0, csig1 * ssig2 - ssig1 * csig2) + 0, csig1 * csig2 + ssig1 * ssig2)
        let somg12 = max(0, comg1 * somg2 - somg1 * comg2) + 0
        let comg12 = comg1 * comg2 + somg1 * somg2
        // eta = omg12 − lam120
        let eta = atan2(somg12 * clam120 - comg12 * slam120, comg12 * clam120 + somg12 * slam120)

        let k2 = calp0 * calp0 * ep2
        let eps = k2 / (2 * (1 + sqrt(1 + k2)) + k2)
        let c3 = c3f(eps)
        let b312 = c3.sum(ssig2, csig2) - c3.sum(ssig1, csig1)
        let domg12 = -f * a3f(eps) * salp0 * (sig12 + b312)   // eq. (8) with (23)
        let lam12 = eta + domg12

        var dlam12 = Double.nan
        if wantDerivative {
            if calp2 == 0 {
                dlam12 = -2 * f1 * dn1 / sbet1
            } else {
                let m12b = reducedLengthOverB(eps: eps, sig12: sig12, ssig1: ssig1, csig1: csig1, dn1: dn1,
                                              ssig2: ssig2, csig2: csig2, dn2: dn2).m12b
                dlam12 = m12b * f1 / (calp2 * cbet2)
            }
        }
        return (lam12, salp2, calp2, sig12, ssig1, csig1, ssig2, csig2, eps, dlam12)
    }

    /// Distance divided by b (eq. 15 with A1, C1 of eqs. 17–18).
    private func distanceOverB(eps: Double, sig12: Double, ssig1: Double, csig1: Double,
                               ssig2: Double, csig2: Double) -> Double {
        let a1 = 1 + Self.a1m1f(eps)
        let c1 = Self.c1f(eps)
        let b1 = c1.sum(ssig2, csig2) - c1.sum(ssig1, csig1)
        return a1 * (sig12 + b1)
    }

    /// Distance and reduced length divided by b (eqs. 15 and 38–42).
    private func lengths(eps: Double, sig12: Double, ssig1: Double, csig1: Double, dn1: Double,
                         ssig2: Double, csig2: Double, dn2: Double) -> (s12b: Double, m12b: Double) {
        let a1m1 = Self.a1m1f(eps), a2m1 = Self.a2m1f(eps)
        let c1 = Self.c1f(eps), c2 = Self.c2f(eps)
        let m0x = a1m1 - a2m1
        let a1 = 1 + a1m1, a2 = 1 + a2m1
        let b1 = c1.sum(ssig2, csig2) - c1.sum(ssig1, csig1)
        let s12b = a1 * (sig12 + b1)
        let b2 = c2.sum(ssig2, csig2) - c2.sum(ssig1, csig1)
        let j12 = m0x * sig12 + (a1 * b1 - a2 * b2)
        // Parenthesised products cancel exactly for coincident points.
        let m12b = dn2 * (csig1 * ssig2) - dn1 * (ssig1 * csig2) - csig1 * csig2 * j12
        return (s12b, m12b)
    }

    /// Reduced length divided by b, and m0 = A1 − A2, combining the I1 and I2 series into one sum.
    private func reducedLengthOverB(eps: Double, sig12: Double, ssig1: Double, csig1: Double, dn1: Double,
                                    ssig2: Double, csig2: Double, dn2: Double) -> (m12b: Double, m0: Double) {
        let a1m1 = Self.a1m1f(eps), a2m1 = Self.a2m1f(eps)
        let c1 = Self.c1f(eps), c2 = Self.c2f(eps)
        let m0x = a1m1 - a2m1
        let a1 = 1 + a1m1, a2 = 1 + a2m1
        let cb = SinSeries(c1: a1 * c1.c1 - a2 * c2.c1, c2: a1 * c1.c2 - a2 * c2.c2,
                           c3: a1 * c1.c3 - a2 * c2.c3, c4: a1 * c1.c4 - a2 * c2.c4,
                           c5: a1 * c1.c5 - a2 * c2.c5, c6: a1 * c1.c6 - a2 * c2.c6)
        let j12 = m0x * sig12 + (cb.sum(ssig2, csig2) - cb.sum(ssig1, csig1))
        let m12b = dn2 * (csig1 * ssig2) - dn1 * (ssig1 * csig2) - csig1 * csig2 * j12
        return (m12b, m0x)
    }

    /// Positive root k of k⁴ + 2k³ − (x² + y² − 1)k² − 2y²k − y² = 0 (eq. 55), solved in
    /// closed form as in GeographicLib's Geocentric reverse.
    private static func astroid(_ x: Double, _ y: Double) -> Double {
        let p = x * x, q = y * y
        let r = (p + q - 1) / 6
        guard !(q == 0 && r <= 0) else {
            // y = 0 with |x| <= 1: the root for small y is |y| / sqrt(1 − x²) → 0.
            return 0
        }
        let s = p * q / 4                               // r³ s
        let r2 = r * r, r3 = r * r2
        // Discriminant of the quadratic for T³; zero on the evolute p^(1/3) + q^(1/3) = 1.
        let disc = s * (s + 2 * r3)
        var u = r
        if disc >= 0 {
            var t3 = s + r3
            // Choose the sign of the root to maximise |T³| and avoid cancellation.
            t3 += t3 < 0 ? -sqrt(disc) : sqrt(disc)
            let t = cbrt(t3)
            u += t + (t != 0 ? r2 / t : 0)
        } else {
            // T is complex but u is real; pick the cube root that avoids cancellation.
            let ang = atan2(sqrt(-disc), -(s + r3))
            u += 2 * r * cos(ang / 3)
        }
        let v = sqrt(u * u + q)
        let uv = u < 0 ? q / (v - u) : u + v            // u + v without cancellation, > 0
        let w = (uv - q) / (2 * v)
        return uv / (sqrt(uv + w * w) + w)
    }
}

// MARK: - Series (order 6)

/// Six coefficients c1…c6 of Σ c_l sin(2 l σ).
struct SinSeries {
    var c1, c2, c3, c4, c5, c6: Double

    /// Σ_{l=1}^{6} c_l sin(2 l σ) by Clenshaw summation, given sin σ and cos σ.
    /// Cost: 15 multiplications, 13 additions.
    @inline(__always)
    func sum(_ sx: Double, _ cx: Double) -> Double {
        let ar = 2 * (cx - sx) * (cx + sx)              // 2 cos 2σ
        var y0 = 0.0, y1 = 0.0
        y1 = ar * y0 - y1 + c6; y0 = ar * y1 - y0 + c5
        y1 = ar * y0 - y1 + c4; y0 = ar * y1 - y0 + c3
        y1 = ar * y0 - y1 + c2; y0 = ar * y1 - y0 + c1
        return 2 * sx * cx * y0                         // sin 2σ · y0
    }
}

/// Coefficients of A3 (eq. 24) as polynomials in n, highest power of eps first.
struct A3Coefficients {
    let e5, e4, e3, e2, e1, e0: Double
    init(n: Double) {
        e5 = -3.0 / 128
        e4 = (-2 * n - 3) / 64
        e3 = ((-n - 3) * n - 1) / 16
        e2 = ((3 * n - 1) * n - 2) / 8
        e1 = (n - 1) / 2
        e0 = 1
    }
}

/// Coefficients of C3_l (eq. 25), l = 1…5, each a polynomial in eps whose coefficients are
/// polynomials in n; named x<l><power of eps>.
struct C3Coefficients {
    let x15, x14, x13, x12, x11: Double
    let x25, x24, x23, x22: Double
    let x35, x34, x33: Double
    let x45, x44: Double
    let x55: Double
    init(n: Double) {
        x15 = 3.0 / 128
        x14 = (2 * n + 5) / 128
        x13 = ((-n + 3) * n + 3) / 64
        x12 = ((-n + 0) * n + 1) / 8
        x11 = (-n + 1) / 4
        x25 = 5.0 / 256
        x24 = (n + 3) / 128
        x23 = ((-3 * n - 2) * n + 3) / 64
        x22 = ((n - 3) * n + 2) / 32
        x35 = 7.0 / 512
        x34 = (-10 * n + 9) / 384
        x33 = ((5 * n - 9) * n + 5) / 192
        x45 = 7.0 / 512
        x44 = (-14 * n + 7) / 512
        x55 = 21.0 / 2560
    }
}

extension Geodesic {
    /// A1 − 1 (eq. 17).
    @inline(__always)
    static func a1m1f(_ eps: Double) -> Double {
        let eps2 = eps * eps
        let t = eps2 * (eps2 * (eps2 + 4) + 64) / 256
        return (t + eps) / (1 - eps)
    }

    /// C1_l (eq. 18).
    @inline(__always)
    static func c1f(_ eps: Double) -> SinSeries {
        let eps2 = eps * eps
        var d = eps
        let c1 = d * ((-eps2 + 6) * eps2 - 16) / 32; d *= eps
        let c2 = d * ((-9 * eps2 + 64) * eps2 - 128) / 2048; d *= eps
        let c3 = d * (9 * eps2 - 16) / 768; d *= eps
        let c4 = d * (3 * eps2 - 5) / 512; d *= eps
        let c5 = d * -7 / 1280; d *= eps
        let c6 = d * -7 / 2048
        return SinSeries(c1: c1, c2: c2, c3: c3, c4: c4, c5: c5, c6: c6)
    }

    /// C1′_l (eq. 21), the reversion of the C1 series.
    @inline(__always)
    static func c1pf(_ eps: Double) -> SinSeries {
        let eps2 = eps * eps
        var d = eps
        let c1 = d * ((205 * eps2 - 432) * eps2 + 768) / 1536; d *= eps
        let c2 = d * ((4005 * eps2 - 4736) * eps2 + 3840) / 12288; d *= eps
        let c3 = d * (-225 * eps2 + 116) / 384; d *= eps
        let c4 = d * (-7173 * eps2 + 2695) / 7680; d *= eps
        let c5 = d * 3467 / 7680; d *= eps
        let c6 = d * 38081 / 61440
        return SinSeries(c1: c1, c2: c2, c3: c3, c4: c4, c5: c5, c6: c6)
    }

    /// A2 − 1 (eq. 42).
    @inline(__always)
    static func a2m1f(_ eps: Double) -> Double {
        let eps2 = eps * eps
        let t = eps2 * (eps2 * (-11 * eps2 - 28) - 192) / 256
        return (t - eps) / (1 + eps)
    }

    /// C2_l (eq. 43).
    @inline(__always)
    static func c2f(_ eps: Double) -> SinSeries {
        let eps2 = eps * eps
        var d = eps
        let c1 = d * ((eps2 + 2) * eps2 + 16) / 32; d *= eps
        let c2 = d * ((35 * eps2 + 64) * eps2 + 384) / 2048; d *= eps
        let c3 = d * (15 * eps2 + 80) / 768; d *= eps
        let c4 = d * (7 * eps2 + 35) / 512; d *= eps
        let c5 = d * 63 / 1280; d *= eps
        let c6 = d * 77 / 2048
        return SinSeries(c1: c1, c2: c2, c3: c3, c4: c4, c5: c5, c6: c6)
    }

    /// A3 (eq. 24) for this ellipsoid.
    @inline(__always)
    func a3f(_ eps: Double) -> Double {
        let x = a3x
        return ((((x.e5 * eps + x.e4) * eps + x.e3) * eps + x.e2) * eps + x.e1) * eps + x.e0
    }

    /// C3_l (eq. 25) for this ellipsoid; l = 1…5, the sixth term is zero.
    @inline(__always)
    func c3f(_ eps: Double) -> SinSeries {
        let x = c3x
        var mult = eps
        let c1 = mult * ((((x.x15 * eps + x.x14) * eps + x.x13) * eps + x.x12) * eps + x.x11); mult *= eps
        let c2 = mult * (((x.x25 * eps + x.x24) * eps + x.x23) * eps + x.x22); mult *= eps
        let c3 = mult * ((x.x35 * eps + x.x34) * eps + x.x33); mult *= eps
        let c4 = mult * (x.x45 * eps + x.x44); mult *= eps
        let c5 = mult * x.x55
        return SinSeries(c1: c1, c2: c2, c3: c3, c4: c4, c5: c5, c6: 0)
    }
}

// MARK: - Constants and angle helpers

/// Tolerances of the iterative inverse solution, each as chosen by Karney for double precision.
enum GeodesicConstants {
    /// Smallest value treated as non-zero in cos beta and azimuth sines; sqrt of the smallest normal.
    static let tiny = Double.leastNormalMagnitude.squareRoot()
    /// Convergence tolerance of Newton's method on lambda12 (radians): machine epsilon.
    static let tol0 = Double.ulpOfOne
    /// Bound on y for the "strip near the cut" start for nearly antipodal points.
    static let tol1 = 200 * Double.ulpOfOne
    /// sqrt(epsilon), the scale of the short-line threshold.
    static let tol2 = Double.ulpOfOne.squareRoot()
    /// Bracket width at which bisection stops.
    static let tolb = Double.ulpOfOne * Double.ulpOfOne.squareRoot()
    /// Bound on x for the "strip near the cut" start.
    static let xthresh = 1000 * Double.ulpOfOne.squareRoot()
    /// Newton iterations before falling back to bisection only.
    static let maxit1 = 20
    /// Total iteration cap: enough bisections to exhaust double precision.
    static let maxit2 = maxit1 + Double.significandBitCount + 1 + 10
}

/// Angle helpers that reduce arguments exactly in degrees before converting to radians, so that
/// e.g. sin 180° is exactly 0 (GeographicLib's Math class).
enum GeoMath {
    static let degree = Double.pi / 180

    /// NaN for latitudes outside [−90, 90].
    @inline(__always)
    static func latFix(_ x: Double) -> Double { abs(x) > 90 ? .nan : x }

    /// Rounds tiny angles so that anything below 1/2⁵⁷ degree (about 0.7 pm on the Earth)
    /// becomes zero, avoiding near-singular cases.
    @inline(__always)
    static func angRound(_ x: Double) -> Double {
        let z = 1.0 / 16
        var y = abs(x)
        let w = z - y
        y = w > 0 ? z - w : y
        return copysign(y, x)
    }

    /// Reduces an angle to [−180, 180]; ±180 keeps the sign of `x`.
    @inline(__always)
    static func angNormalize(_ x: Double) -> Double {
        let y = remainder(x, 360.0)
        return abs(y) == 180 ? copysign(180, x) : y
    }

    /// Error-free sum: u + v = s + t exactly.
    @inline(__always)
    static func twoSum(_ u: Double, _ v: Double) -> (s: Double, t: Double) {
        let s = u + v
        var up = s - v
        var vpp = s - up
        up -= u
        vpp -= v
        let t = s != 0 ? 0 - (up + vpp) : s
        return (s, t)
    }

    /// y − x reduced to [−180, 180], with the rounding error `e` (d + e is the exact difference).
    @inline(__always)
    static func angDiff(_ x: Double, _ y: Double) -> (d: Double, e: Double) {
        var (d, e) = twoSum(remainder(-x, 360.0), remainder(y, 360.0))
        (d, e) = twoSum(remainder(d, 360.0), e)
        if d == 0 || abs(d) == 180 {
            d = copysign(d, e == 0 ? y - x : -e)
        }
        return (d, e)
    }

    /// sin and cos of `x` degrees after exact reduction to [−45°, 45°].
    @inline(__always)
    static func sincosd(_ x: Double) -> (s: Double, c: Double) {
        let (d, q) = remquo(x, 90.0)
        return quadrant(d, q, sign: x)
    }

    /// sin and cos of `x` + `t` degrees, x in [−180, 180] and t a small correction.
    @inline(__always)
    static func sincosde(_ x: Double, _ t: Double) -> (s: Double, c: Double) {
        let (r, q) = remquo(x, 90.0)
        return quadrant(angRound(r + t), q, sign: x + t)
    }

    @inline(__always)
    private static func quadrant(_ d: Double, _ q: Int, sign x: Double) -> (s: Double, c: Double) {
        let r = d * degree
        var s = sin(r), c = cos(r)
        if 2 * abs(d) == 90 {
            c = (0.5).squareRoot(); s = copysign(c, r)
        } else if 3 * abs(d) == 90 {
            c = (3.0).squareRoot() / 2; s = copysign(0.5, r)
        }
        var sinx: Double, cosx: Double
        switch q & 3 {
        case 0: sinx = s; cosx = c
        case 1: sinx = c; cosx = -s
        case 2: sinx = -s; cosx = -c
        default: sinx = -c; cosx = s
        }
        cosx += 0
        if sinx == 0 { sinx = copysign(sinx, x) }
        return (sinx, cosx)
    }

    /// atan2(y, x) in degrees, in [−180, 180], computed in the octant [−45°, 45°] for accuracy.
    @inline(__always)
    static func atan2d(_ yIn: Double, _ xIn: Double) -> Double {
        var x = xIn, y = yIn
        var q = 0
        if abs(y) > abs(x) { swap(&x, &y); q = 2 }
        if x.sign == .minus { x = -x; q += 1 }
        var ang = atan2(y, x) / degree
        switch q {
        case 1: ang = copysign(180, y) - ang
        case 2: ang = 90 - ang
        case 3: ang = -90 + ang
        default: break
        }
        return ang
    }

    /// (x, y) scaled to unit length.
    @inline(__always)
    static func norm(_ x: Double, _ y: Double) -> (Double, Double) {
        let r = hypot(x, y)
        return (x / r, y / r)
    }
}
