import Foundation

/// Why a typed coordinate could not be read: the text and what is wrong with it.
public struct CoordinateParseError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The text as given.
    public var input: String
    /// What is wrong and, where possible, what would fix it.
    public var reason: String

    public init(input: String, reason: String) {
        self.input = input
        self.reason = reason
    }

    public var description: String { "cannot read \"\(input)\" as a coordinate: \(reason)" }
}

/// The ways a rally organiser writes a coordinate on paper.
///
/// `parse` recognises all of them; `format` writes one:
/// - `decimalDegrees`: "42.506300, 1.521800" (signed, latitude first)
/// - `degreesMinutes`: "N42°30.378' E001°31.308'"
/// - `degreesMinutesSeconds`: "42°30'22.7\"N 1°31'18.5\"E"
/// - `utm`: "31T 377331 4706851", or "N 2096454 1452981" in UPS beyond 84°N / 80°S
/// - `mgrs`: "31TCH7733106851" (truncated to the grid, as GeoConvert does)
public enum CoordinateFormat: String, CaseIterable, Sendable {
    case decimalDegrees, degreesMinutes, degreesMinutesSeconds, utm, mgrs

    /// The precision `format` uses when none is given: decimals of degrees (6,
    /// about 0.1 m), of minutes (3, about 2 m), of seconds (1, about 3 m), of
    /// UTM metres (0), and MGRS digits per axis (5, a 1 m square).
    public var defaultPrecision: Int {
        switch self {
        case .decimalDegrees: 6
        case .degreesMinutes: 3
        case .degreesMinutesSeconds: 1
        case .utm: 0
        case .mgrs: 5
        }
    }

    /// Writes `c` in this format.
    /// - Parameters:
    ///   - c: the point; a coordinate that is not `isValid` is written "INVALID", as GeoConvert does.
    ///   - precision: decimals of the last unit (degrees, minutes, seconds or UTM metres, 0…9),
    ///     or MGRS digits per axis (0 = 100 km … 5 = 1 m). Nil means `defaultPrecision`.
    /// - Returns: text that `CoordinateFormat.parse` reads back to within half the last digit
    ///   (MGRS: to the centre of the square).
    public func format(_ c: Coordinate, precision: Int? = nil) -> String {
        guard c.isValid else { return "INVALID" }
        let p = precision ?? defaultPrecision
        switch self {
        case .decimalDegrees:
            let d = min(9, max(0, p))
            return "\(Self.fixed(c.latitude, d)), \(Self.fixed(c.longitude, d))"
        case .degreesMinutes:
            let d = min(9, max(0, p))
            let lat = Self.sexagesimal(c.latitude, parts: 2, decimals: d)
            let lon = Self.sexagesimal(c.longitude, parts: 2, decimals: d)
            let latText = "\(lat.negative ? "S" : "N")\(Self.pad(lat.degrees, 2))°\(Self.minutes(lat, d))'"
            let lonText = "\(lon.negative ? "W" : "E")\(Self.pad(lon.degrees, 3))°\(Self.minutes(lon, d))'"
            return latText + " " + lonText
        case .degreesMinutesSeconds:
            let d = min(9, max(0, p))
            let lat = Self.sexagesimal(c.latitude, parts: 3, decimals: d)
            let lon = Self.sexagesimal(c.longitude, parts: 3, decimals: d)
            func text(_ s: Sexagesimal, _ pos: Character, _ neg: Character) -> String {
                "\(s.degrees)°\(Self.pad(s.minutes, 2))'\(Self.seconds(s, d))\"\(s.negative ? neg : pos)"
            }
            return text(lat, "N", "S") + " " + text(lon, "E", "W")
        case .utm:
            guard let u = UTMUPS(c) else { return "INVALID" }
            let d = min(9, max(0, p))
            let head: String
            if u.isUPS {
                head = u.isNorth ? "N" : "S"
            } else {
                head = "\(u.zone)\(UTMUPS.latitudeBand(c.latitude) ?? (u.isNorth ? "N" : "S"))"
            }
            return "\(head) \(String(format: "%.\(d)f", u.easting)) \(String(format: "%.\(d)f", u.northing))"
        case .mgrs:
            return MGRS.reference(for: c, precision: p) ?? "INVALID"
        }
    }

    /// Reads a coordinate in any of the formats, deciding which from its shape:
    /// an MGRS reference ("31TCH7733106851", spaces allowed), UTM ("31T 377331 4706851",
    /// "31N 377331 4706851" or GeoConvert's "31n …"; UPS "N 2096454 1452981"), or
    /// latitude and longitude in decimal degrees, degrees and minutes, or degrees,
    /// minutes and seconds, with °/d, '/′/m, "/″/''/s marks, hemisphere letters before
    /// or after, or signs. With hemisphere letters either order works; bare numbers
    /// are latitude first.
    ///
    /// In UTM the letter after the zone is a latitude band (C–X) and is checked
    /// against the northing; "N" means the northern hemisphere, lower-case "n"/"s"
    /// are GeoConvert's hemispheres, and "S" is band S (32°N–40°N) when the
    /// northing lies there, otherwise the southern hemisphere as GeoConvert reads it.
    /// - Throws: `CoordinateParseError` saying which part is wrong.
    public static func parse(_ text: String) throws -> Coordinate {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else {
            throw CoordinateParseError(input: text, reason: "the text is empty; type latitude and longitude, UTM or MGRS")
        }
        do {
            if let utm = try parseUTM(trimmed) { return utm }
            if looksLikeMGRS(trimmed) { return try MGRS.parse(trimmed).center }
            return try parseGeographic(trimmed)
        } catch let error as CoordinateParseError {
            throw CoordinateParseError(input: text, reason: error.reason)
        }
    }

    // MARK: - Formatting helpers

    private struct Sexagesimal {
        var negative: Bool
        var degrees: Int
        var minutes: Int
        /// The last part (minutes or seconds) in units of 10^-decimals.
        var last: Int64
    }

    /// Splits |angle| into degrees, minutes (and seconds), rounding the last
    /// part once, in integers, so that 59.9996' becomes the next degree rather than "60.000'".
    /// The hemisphere follows the sign of the angle even when it rounds to zero, as GeoConvert does.
    private static func sexagesimal(_ angle: Double, parts: Int, decimals: Int) -> Sexagesimal {
        let scale = pow(10, Double(decimals))
        let perDegree = Int64(parts == 2 ? 60 : 3600) * Int64(scale)
        let total = Int64((abs(angle) * Double(perDegree)).rounded())
        let degrees = Int(total / perDegree)
        let rest = total % perDegree
        let perMinute = perDegree / 60
        let negative = angle < 0
        if parts == 2 { return Sexagesimal(negative: negative, degrees: degrees, minutes: 0, last: rest) }
        return Sexagesimal(negative: negative, degrees: degrees, minutes: Int(rest / perMinute), last: rest % perMinute)
    }

    private static func decimalText(_ units: Int64, _ decimals: Int) -> String {
        let scale = Int64(pow(10, Double(decimals)))
        let whole = pad(Int(units / scale), 2)
        guard decimals > 0 else { return whole }
        let frac = String(units % scale)
        return whole + "." + String(repeating: "0", count: decimals - frac.count) + frac
    }

    private static func minutes(_ s: Sexagesimal, _ d: Int) -> String { decimalText(s.last, d) }
    private static func seconds(_ s: Sexagesimal, _ d: Int) -> String { decimalText(s.last, d) }

    private static func pad(_ n: Int, _ width: Int) -> String {
        let s = String(n)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }

    private static func fixed(_ v: Double, _ decimals: Int) -> String {
        let s = String(format: "%.\(decimals)f", v)
        // No "-0.000000": a value that rounds to zero has no sign.
        if s.hasPrefix("-"), s.dropFirst().allSatisfy({ $0 == "0" || $0 == "." }) { return String(s.dropFirst()) }
        return s
    }

    /// A number for an error message: as short as it can be without lying.
    static func shortNumber(_ v: Double) -> String {
        if v == v.rounded(), abs(v) < 1e15 { return String(Int(v)) }
        var s = String(format: "%.9f", v)
        while s.hasSuffix("0") { s.removeLast() }
        return s
    }

    // MARK: - UTM

    /// Reads "31T 377331 4706851", "31 T 377331 4706851", "31n 377331 4706851"
    /// or UPS "N 2096454 1452981". Returns nil when the text does not have that shape.
    private static func parseUTM(_ text: String) throws -> Coordinate? {
        let tokens = text.split(whereSeparator: { $0.isWhitespace || $0 == "," }).map(String.init)
        if tokens.count == 2, let first = tokens.first, first.count >= 2, first.count <= 3,
           first.last!.isLetter, first.dropLast().allSatisfy({ $0.isASCII && $0.isNumber }),
           tokens[1].allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }) {
            throw CoordinateParseError(input: text, reason: "UTM zone \(first) is followed by one number; give the easting and then the northing in metres")
        }
        guard tokens.count == 3 || tokens.count == 4 else { return nil }
        var head = tokens.count == 4 ? tokens[0] + tokens[1] : tokens[0]
        if tokens.count == 4 && !(tokens[1].count == 1 && tokens[0].allSatisfy(\.isNumber)) { return nil }
        guard let letter = head.last, letter.isLetter, letter.isASCII else { return nil }
        head.removeLast()
        guard head.count <= 2, head.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        let numbers = tokens.suffix(2)
        guard numbers.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") } }),
              let easting = Double(numbers.first!), let northing = Double(numbers.last!) else {
            return nil
        }
        if head.isEmpty {
            // UPS: a bare hemisphere letter and two numbers too large for degrees.
            guard "NSns".contains(letter), easting > 180, northing > 180 else { return nil }
            let p = try UTMUPS(zone: 0, isNorth: letter.uppercased() == "N", easting: easting, northing: northing)
            return p.coordinate
        }
        let zone = Int(head)!
        guard (1...60).contains(zone) else {
            throw CoordinateParseError(input: text, reason: "UTM zone \(zone) does not exist; zones run 1 to 60")
        }
        switch letter {
        case "n", "s", "N":
            return try UTMUPS(zone: zone, isNorth: letter != "s", easting: easting, northing: northing).coordinate
        default:
            let upper = Character(letter.uppercased())
            guard let band = UTMUPS.bandLetters.firstIndex(of: upper) else {
                throw CoordinateParseError(input: text, reason: "'\(letter)' after zone \(zone) is neither a latitude band C to X (no I or O) nor a hemisphere N or S")
            }
            let north = band >= 10
            let bandPosition = try? UTMUPS(zone: zone, isNorth: north, easting: easting, northing: northing)
            let low = Double(-80 + 8 * band), high = band == 19 ? 84.0 : low + 8
            // A hundredth of a degree (about 1 km) of slack: a point typed to the
            // metre on a band edge may land a hair outside it.
            if let p = bandPosition, p.coordinate.latitude >= low - 0.01, p.coordinate.latitude <= high + 0.01 {
                return p.coordinate
            }
            if upper == "S" {
                return try UTMUPS(zone: zone, isNorth: false, easting: easting, northing: northing).coordinate
            }
            let p = try UTMUPS(zone: zone, isNorth: north, easting: easting, northing: northing)
            func deg(_ v: Double) -> String { "\(shortNumber(abs(v)))°\(v < 0 ? "S" : "N")" }
            throw CoordinateParseError(input: text, reason: "latitude band \(upper) covers \(deg(low)) to \(deg(high)) but easting \(numbers.first!) northing \(numbers.last!) in zone \(zone) lies at \(String(format: "%.2f", abs(p.coordinate.latitude)))°\(p.coordinate.latitude < 0 ? "S" : "N"); check the band letter or the northing")
        }
    }

    // MARK: - MGRS

    /// True when the text, without spaces, starts like an MGRS reference: a
    /// zone of up to three digits (so that a three-digit zone gets MGRS's own
    /// complaint) then three letters, or a UPS band A, B, Y, Z then two
    /// letters, and holds only letters and digits.
    private static func looksLikeMGRS(_ text: String) -> Bool {
        let s = Array(text.uppercased().filter { !$0.isWhitespace })
        guard s.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return false }
        let z = s.prefix(while: { $0.isNumber }).count
        guard z <= 3, s.count >= z + 3, s[z].isLetter, s[z + 1].isLetter, s[z + 2].isLetter else { return false }
        return z > 0 || "ABYZ".contains(s[0])
    }

    // MARK: - Latitude and longitude

    private enum Unit: Int { case degrees = 0, minutes, seconds
        var name: String { ["degrees", "minutes", "seconds"][rawValue] }
    }

    private enum Token {
        case number(Double, text: String, fraction: Bool, signed: Bool)
        case mark(Unit)
        case hemisphere(Character)
        /// 'S' or 's': seconds after minutes, otherwise south.
        case sOrSouth
        case separator
    }

    private struct Part {
        var value: Double
        var text: String
        var fraction: Bool
        var unit: Unit?
    }

    private struct Angle {
        var prefix: Character?
        var suffix: Character?
        var parts: [Part] = []
        var negative = false
        var closed = false
        var isEmpty: Bool { parts.isEmpty && prefix == nil }
    }

    private static func tokenize(_ text: String) throws -> [Token] {
        let chars = Array(text)
        var tokens: [Token] = []
        var i = 0
        while i < chars.count {
            let ch = chars[i]
            switch ch {
            case _ where ch.isWhitespace, ":":
                i += 1
            case ",", ";", "/":
                tokens.append(.separator); i += 1
            case "0"..."9", ".", "+", "-", "−":
                var numberText = ""
                var signed = false
                if "+-−".contains(ch) {
                    signed = true
                    if ch != "+" { numberText = "-" }
                    i += 1
                }
                var digits = "", dots = 0
                while i < chars.count, chars[i].isASCII, chars[i].isNumber || chars[i] == "." {
                    if chars[i] == "." { dots += 1 }
                    digits.append(chars[i]); i += 1
                }
                guard dots <= 1, let value = Double(digits) else {
                    let shown = digits.isEmpty ? String(ch) : digits
                    throw CoordinateParseError(input: text, reason: "'\(shown)' is not a number")
                }
                numberText += digits
                tokens.append(.number(numberText.hasPrefix("-") ? -value : value, text: numberText, fraction: dots == 1, signed: signed))
            case "°", "º", "˚", "d", "D":
                tokens.append(.mark(.degrees)); i += 1
            case "'":
                if i + 1 < chars.count && chars[i + 1] == "'" {
                    tokens.append(.mark(.seconds)); i += 2
                } else {
                    tokens.append(.mark(.minutes)); i += 1
                }
            case "′", "’", "‘", "´", "m", "M":
                tokens.append(.mark(.minutes)); i += 1
            case "\"", "″", "”", "“":
                tokens.append(.mark(.seconds)); i += 1
            case "N", "n", "E", "e", "W", "w":
                tokens.append(.hemisphere(Character(ch.uppercased()))); i += 1
            case "S", "s":
                tokens.append(.sOrSouth); i += 1
            default:
                throw CoordinateParseError(input: text, reason: "unexpected '\(ch)' at character \(i + 1); use digits, ° ' \" marks, N S E W, or a comma between latitude and longitude")
            }
        }
        return tokens
    }

    /// Splits tokens into angles. An angle ends at a separator, at a hemisphere
    /// letter written after its numbers, before a hemisphere letter when it
    /// already has one in front, before a signed number, before a number marked
    /// as degrees, and after a decimal fraction or a seconds mark.
    private static func group(_ tokens: [Token]) throws -> [Angle] {
        var angles: [Angle] = []
        var cur = Angle()
        func finish() {
            if !cur.isEmpty { angles.append(cur) }
            cur = Angle()
        }
        func hemisphere(_ h: Character) throws {
            if !cur.parts.isEmpty && cur.prefix == nil && cur.suffix == nil {
                cur.suffix = h
                finish()
            } else if !cur.parts.isEmpty {
                finish()
                cur.prefix = h
            } else if let p = cur.prefix {
                throw CoordinateParseError(input: "", reason: "hemisphere letters \(p) and \(h) follow each other with no number between")
            } else {
                cur.prefix = h
            }
        }
        for (k, token) in tokens.enumerated() {
            switch token {
            case .separator:
                finish()
            case .hemisphere(let h):
                try hemisphere(h)
            case .sOrSouth:
                let n = cur.parts.count
                let isSeconds = n >= 2 && cur.parts[n - 1].unit == nil
                    && (n == 3 || cur.parts[n - 2].unit == .minutes)
                if isSeconds {
                    cur.parts[n - 1].unit = .seconds
                    cur.closed = true
                } else {
                    try hemisphere("S")
                }
            case .mark(let unit):
                guard let last = cur.parts.last, last.unit == nil else {
                    throw CoordinateParseError(input: "", reason: "a \(unit.name) mark must follow a number")
                }
                cur.parts[cur.parts.count - 1].unit = unit
                if unit == .seconds { cur.closed = true }
            case let .number(value, text, fraction, signed):
                var nextIsDegrees = false
                var nextIsSubunit = false
                if k + 1 < tokens.count, case .mark(let u) = tokens[k + 1] {
                    nextIsDegrees = u == .degrees
                    nextIsSubunit = u != .degrees
                }
                // A number marked as minutes or seconds after a fraction stays in the
                // angle, so that `value(of:)` can say the fraction is misplaced.
                if !cur.parts.isEmpty && ((cur.closed && !nextIsSubunit) || signed || nextIsDegrees) { finish() }
                if cur.parts.isEmpty { cur.negative = value < 0 || text.hasPrefix("-") }
                cur.parts.append(Part(value: abs(value), text: text.hasPrefix("-") ? String(text.dropFirst()) : text,
                                      fraction: fraction, unit: nil))
                if fraction { cur.closed = true }
            }
        }
        finish()
        // Bare whole numbers with nothing to say where latitude ends
        // ("42 1", "42 30 1 31"): split them evenly, latitude first.
        if angles.count == 1, let only = angles.first, only.prefix == nil, only.suffix == nil,
           only.parts.count >= 2, only.parts.count % 2 == 0, only.parts.count <= 6,
           only.parts.allSatisfy({ $0.unit == nil }) {
            let half = only.parts.count / 2
            var first = only, second = Angle()
            first.parts = Array(only.parts[..<half])
            second.parts = Array(only.parts[half...])
            angles = [first, second]
        }
        return angles
    }

    /// Degrees of one angle (sign from minus or S/W), and whether a hemisphere
    /// letter says it is a latitude (true), a longitude (false), or nothing (nil).
    private static func value(of angle: Angle) throws -> (degrees: Double, isLatitude: Bool?) {
        let names = angle.parts.map(\.text).joined(separator: " ")
        guard !angle.parts.isEmpty else {
            throw CoordinateParseError(input: "", reason: "hemisphere letter \(angle.prefix.map(String.init) ?? "") has no number after it")
        }
        guard angle.parts.count <= 3 else {
            throw CoordinateParseError(input: "", reason: "'\(names)' has \(angle.parts.count) numbers; an angle has at most degrees, minutes and seconds")
        }
        var total = 0.0
        for (i, part) in angle.parts.enumerated() {
            let unit = Unit(rawValue: i)!
            if let marked = part.unit, marked != unit {
                throw CoordinateParseError(input: "", reason: "\(part.text) is marked as \(marked.name) but stands where \(unit.name) belong in '\(names)'")
            }
            if part.fraction && i < angle.parts.count - 1 {
                throw CoordinateParseError(input: "", reason: "\(unit.name) \(part.text) has a decimal fraction, so nothing may follow it; drop the fraction or the next number")
            }
            if i > 0 && part.value >= 60 {
                throw CoordinateParseError(input: "", reason: "\(unit.name) \(part.text) must be below 60")
            }
            total += part.value / [1.0, 60, 3600][i]
        }
        let letter = angle.prefix ?? angle.suffix
        if let h = letter, angle.negative {
            throw CoordinateParseError(input: "", reason: "-\(names) has both a minus sign and the hemisphere letter \(h); use one")
        }
        let southOrWest = letter == "S" || letter == "W"
        let degrees = (angle.negative || southOrWest) ? -total : total
        let isLatitude: Bool? = letter.map { $0 == "N" || $0 == "S" }
        return (degrees, isLatitude)
    }

    private static func parseGeographic(_ text: String) throws -> Coordinate {
        let angles = try group(tokenize(text))
        guard angles.count == 2 else {
            switch angles.count {
            case 0: throw CoordinateParseError(input: text, reason: "there are no numbers in it")
            case 1 where angles[0].parts.count > 1 && angles[0].prefix == nil && angles[0].suffix == nil
                && angles[0].parts.allSatisfy({ $0.unit == nil }):
                throw CoordinateParseError(input: text, reason: "cannot tell where latitude ends among \(angles[0].parts.count) bare numbers; put a comma between latitude and longitude or add N/S and E/W")
            case 1: throw CoordinateParseError(input: text, reason: "only one angle was found; give latitude and longitude, separated by a space or comma")
            default: throw CoordinateParseError(input: text, reason: "\(angles.count) angles were found; give exactly latitude and longitude")
            }
        }
        let a = try value(of: angles[0]), b = try value(of: angles[1])
        let latitude: Double, longitude: Double
        switch (a.isLatitude, b.isLatitude) {
        case (true, true), (false, false):
            let kind = a.isLatitude! ? "latitude (N or S)" : "longitude (E or W)"
            throw CoordinateParseError(input: text, reason: "both angles are marked as \(kind); one must be \(a.isLatitude! ? "E or W" : "N or S")")
        case (false, _), (nil, true):
            latitude = b.degrees; longitude = a.degrees
        default:
            latitude = a.degrees; longitude = b.degrees
        }
        guard abs(latitude) <= 90 else {
            throw CoordinateParseError(input: text, reason: "latitude \(shortNumber(latitude)) is beyond 90; latitude runs from 90 S to 90 N (did you swap latitude and longitude?)")
        }
        guard abs(longitude) <= 180 else {
            throw CoordinateParseError(input: text, reason: "longitude \(shortNumber(longitude)) is beyond 180; longitude runs from 180 W to 180 E")
        }
        return Coordinate(latitude: latitude, longitude: longitude)
    }
}
