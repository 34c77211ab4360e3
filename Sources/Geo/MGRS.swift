import Foundation

// The Military Grid Reference System on top of UTM/UPS, with the 100 km
// square letters of NGA, "The Universal Grids and the Transverse Mercator and
// Polar Stereographic Map Projections" (NGA.SIG.0012, 2014), §3 and §4, in the
// arrangement GeographicLib's MGRS class uses (its UTMRow decides which
// square rows exist in each latitude band). Like GeoConvert, a reference is
// the truncation of the position to the grid, never a rounding.

/// A parsed MGRS reference: the south-west corner of its square and its size.
public struct MGRSReference: Hashable, Sendable {
    /// South-west corner of the square in UTM/UPS.
    public var corner: UTMUPS
    /// Digits per axis, 0 (100 km square) to 5 (1 m square).
    public var precision: Int
    /// Side of the square in metres: 100 000 m at precision 0, 1 m at precision 5.
    public var squareSize: Metres { pow(10, Double(5 - precision)) }
    /// The centre of the square, which is what GeoConvert reports for a reference.
    public var center: Coordinate {
        var p = corner
        p.easting += squareSize / 2
        p.northing += squareSize / 2
        return p.coordinate
    }
}

public enum MGRS {
    static let tile = 100_000.0
    static let utmColumns = [Array("ABCDEFGH"), Array("JKLMNPQR"), Array("STUVWXYZ")]
    static let utmRows = Array("ABCDEFGHJKLMNPQRSTUV")
    static let upsColumns = [Array("JKLPQRSTUXYZ"), Array("ABCFGHJKLPQR"), Array("RSTUXYZ"), Array("ABCFGHJ")]
    static let upsRows = [Array("ABCDEFGHJKLMNPQRSTUVWXYZ"), Array("ABCDEFGHJKLMNP")]
    static let upsBands = Array("ABYZ")
    // First 100 km column (as easting / 100 km) of UPS south/north, and the
    // column where the east half (bands B, Z) starts.
    static let upsSouthMin = 8, upsNorthMin = 13, upsEastStart = 20

    /// The MGRS reference of `coordinate`, truncated (not rounded) to the grid
    /// as GeoConvert does.
    /// - Parameters:
    ///   - precision: digits per axis, 0 (100 km) … 5 (1 m); clamped to that range.
    /// - Returns: e.g. "31TCH7733106851", or nil for an invalid coordinate.
    public static func reference(for coordinate: Coordinate, precision: Int = 5) -> String? {
        guard let p = UTMUPS(coordinate) else { return nil }
        let prec = min(5, max(0, precision))
        var x = p.easting, y = p.northing
        // A point exactly on the upper limit of the grid (the pole, say) moves
        // just inside it, as GeographicLib's MGRS::CheckCoords does.
        if p.isUPS {
            let maxIndex = Double(p.isNorth ? 27 : 32) * tile
            if x >= maxIndex { x = maxIndex.nextDown }
            if y >= maxIndex { y = maxIndex.nextDown }
        }
        // Integer micrometres keep the truncation exact, as GeographicLib does.
        let ix = Int64(floor(x * 1e6)), iy = Int64(floor(y * 1e6))
        let m = Int64(1e6) * Int64(tile)
        let xh = Int(ix / m), yh = Int(iy / m)
        var out = ""
        if p.isUPS {
            let east = xh >= upsEastStart
            let band = (p.isNorth ? 2 : 0) + (east ? 1 : 0)
            let minIndex = p.isNorth ? upsNorthMin : upsSouthMin
            out.append(upsBands[band])
            out.append(upsColumns[band][xh - (east ? upsEastStart : minIndex)])
            out.append(upsRows[p.isNorth ? 1 : 0][yh - minIndex])
        } else {
            let lat = coordinate.latitude
            let band = abs(lat) < Double.ulpOfOne * 64 ? (p.isNorth ? 0 : -1) : UTMUPS.bandIndex(lat)
            out += String(format: "%02d", p.zone)
            out.append(UTMUPS.bandLetters[band + 10])
            out.append(utmColumns[(p.zone - 1) % 3][xh - 1])
            out.append(utmRows[(yh + ((p.zone - 1) & 1 == 1 ? 5 : 0)) % 20])
        }
        if prec > 0 {
            let d = Int64(pow(10, Double(11 - prec)))
            let rx = (ix - m * Int64(xh)) / d, ry = (iy - m * Int64(yh)) / d
            let fmt = "%0\(prec)lld"
            out += String(format: fmt, rx) + String(format: fmt, ry)
        }
        return out
    }

    /// Reads an MGRS reference such as "31TCH7733106851", "31T CH 77331 06851"
    /// or "ZAB9645452981" (UPS). Case and spaces are ignored.
    /// - Throws: `CoordinateParseError` naming the zone, band, square letters
    ///   or digits at fault.
    public static func parse(_ text: String) throws -> MGRSReference {
        let s = Array(text.uppercased().filter { !$0.isWhitespace })
        func fail(_ reason: String) -> CoordinateParseError { CoordinateParseError(input: text, reason: reason) }
        var i = 0
        var zone = 0
        while i < s.count, let d = s[i].wholeNumberValue, s[i].isASCII {
            zone = zone * 10 + d; i += 1
        }
        if i > 2 { throw fail("an MGRS reference starts with a zone of at most 2 digits, not \(String(s[0..<i]))") }
        if i > 0 && !(1...60).contains(zone) { throw fail("UTM zone \(zone) does not exist; zones run 1 to 60") }
        guard s.count - i >= 3 else {
            throw fail("an MGRS reference needs a band letter and two square letters after the zone")
        }
        let utm = i > 0
        let bandLetter = s[i], colLetter = s[i + 1], rowLetter = s[i + 2]
        let zoneName = utm ? "\(zone)\(bandLetter)" : "UPS band \(bandLetter)"
        i += 3
        let digits = Array(s[i...])
        if let bad = digits.first(where: { !($0.isASCII && $0.isNumber) }) {
            throw fail("'\(bad)' is not a digit; after the square letters an MGRS reference has only digits")
        }
        guard digits.count % 2 == 0 else {
            throw fail("\(digits.count) digits cannot split evenly into easting and northing; add or remove one")
        }
        let prec = digits.count / 2
        guard prec <= 5 else { throw fail("\(digits.count) digits is finer than 1 m; use at most 10") }
        let square = "MGRS square '\(colLetter)\(rowLetter)'"
        var col: Int, row: Int, north: Bool
        if utm {
            guard let band = UTMUPS.bandLetters.firstIndex(of: bandLetter) else {
                throw fail("latitude band '\(bandLetter)' does not exist; UTM bands are C to X without I and O")
            }
            let iband = band - 10
            north = iband >= 0
            guard let c = utmColumns[(zone - 1) % 3].firstIndex(of: colLetter) else {
                throw fail("\(square) does not exist in zone \(zoneName): the column letter must be one of \(String(utmColumns[(zone - 1) % 3]))")
            }
            guard var r = utmRows.firstIndex(of: rowLetter) else {
                throw fail("\(square) does not exist in zone \(zoneName): the row letter must be one of \(String(utmRows))")
            }
            if (zone - 1) & 1 == 1 { r = (r + 20 - 5) % 20 }
            guard let trueRow = utmRow(band: iband, column: c, row: r) else {
                throw fail("\(square) does not exist in zone \(zoneName): that row of squares lies outside band \(bandLetter)")
            }
            col = c + 1
            row = north ? trueRow : trueRow + 100
        } else {
            guard let band = upsBands.firstIndex(of: bandLetter) else {
                throw fail("'\(bandLetter)' is neither a UTM zone number nor a UPS band A, B, Y or Z")
            }
            north = band >= 2
            let east = band & 1 == 1
            guard let c = upsColumns[band].firstIndex(of: colLetter) else {
                throw fail("\(square) does not exist in \(zoneName): the column letter must be one of \(String(upsColumns[band]))")
            }
            guard let r = upsRows[north ? 1 : 0].firstIndex(of: rowLetter) else {
                throw fail("\(square) does not exist in \(zoneName): the row letter must be one of \(String(upsRows[north ? 1 : 0]))")
            }
            let minIndex = north ? upsNorthMin : upsSouthMin
            col = c + (east ? upsEastStart : minIndex)
            row = r + minIndex
        }
        var x = tile * Double(col), y = tile * Double(row)
        var unit = tile
        for k in 0..<prec {
            unit /= 10
            x += unit * Double(digits[k].wholeNumberValue!)
            y += unit * Double(digits[k + prec].wholeNumberValue!)
        }
        // A UTM row index ≥ 100 in the north or < 100 in the south means the
        // square straddles the equator: fold it to the hemisphere it lies in.
        if utm && !north && y >= 10_000_000 { north = true; y -= 10_000_000 }
        if utm && north && y < 0 { north = false; y += 10_000_000 }
        let corner = try UTMUPS(zone: utm ? zone : 0, isNorth: north, easting: x, northing: y)
        return MGRSReference(corner: corner, precision: prec)
    }

    /// The true 100 km row index (northing / 100 km from the equator) of the
    /// periodic row `row` (0…19) in latitude band `band` (−10…9) and column
    /// `column` (0…7), or nil when no such square lies in the band.
    /// GeographicLib MGRS::UTMRow: estimates the rows a band spans, with the
    /// listed exceptions where rows 70/71 and 79/80 cross band edges.
    static func utmRow(band: Int, column: Int, row: Int) -> Int? {
        let c = 100 * Double(8 * band + 4) / 90
        let north = band >= 0
        let minRow = band > -10 ? Int(floor(c - 4.3 - (north ? 0.1 : 0))) : -90
        let maxRow = band < 9 ? Int(floor(c + 4.4 - (north ? 0.1 : 0))) : 94
        let baseRow = (minRow + maxRow) / 2 - 10
        let r = (row - baseRow + 100) % 20 + baseRow
        if r < minRow || r > maxRow {
            let sband = band >= 0 ? band : -band - 1
            let srow = r >= 0 ? r : -r - 1
            let scol = column < 4 ? column : -column + 7
            if !((srow == 70 && sband == 8 && scol >= 2) || (srow == 71 && sband == 7 && scol <= 2)
                 || (srow == 79 && sband == 9 && scol >= 1) || (srow == 80 && sband == 8 && scol <= 1)) {
                return nil
            }
        }
        return r
    }
}
