import Foundation

/// Google's encoded polyline format, as Valhalla (precision 6) and OSRM or GraphHopper
/// (precision 5, on request) write a line: each latitude and longitude is the difference from the
/// previous point, scaled by 10^precision, zig-zag signed and written in 5-bit groups as the
/// characters `?`(63) … `~`(126).
public enum EncodedPolyline {
    /// Why an encoded polyline could not be read.
    public struct DecodingError: Error, Sendable, Equatable, CustomStringConvertible {
        /// Offset of the offending character, counted in bytes from the start of the string.
        public var offset: Int
        public var reason: String
        public var description: String { "encoded polyline, byte \(offset): \(reason)" }
    }

    /// Decodes `text` into coordinates in degrees.
    /// - Parameter precision: decimal digits of the encoding: 6 for Valhalla, 5 for Google, OSRM's
    ///   `geometries=polyline` and GraphHopper.
    /// - Throws: `DecodingError` for a character outside `?`…`~`, a value cut off at the end, a
    ///   longitude without its latitude, or a point outside ±90° / ±180°.
    /// Cost: O(length of `text`).
    public static func decode(_ text: String, precision: Int = 6) throws(DecodingError) -> [Coordinate] {
        let bytes = Array(text.utf8)
        let scale = pow(10, Double(precision))
        var coordinates: [Coordinate] = []
        coordinates.reserveCapacity(bytes.count / 4)
        var index = 0
        var latitude = 0, longitude = 0

        func nextValue() throws(DecodingError) -> Int {
            var result = 0, shift = 0
            while true {
                guard index < bytes.count else {
                    throw DecodingError(offset: index, reason: "the last value is cut off")
                }
                let byte = Int(bytes[index])
                guard (63...126).contains(byte) else {
                    throw DecodingError(offset: index, reason: "character \(UnicodeScalar(UInt8(byte))) is not part of the format (? to ~)")
                }
                guard shift <= 30 else {
                    throw DecodingError(offset: index, reason: "a value longer than 32 bits")
                }
                index += 1
                let chunk = byte - 63
                result |= (chunk & 0x1f) << shift
                shift += 5
                if chunk < 0x20 { break }
            }
            return (result & 1) != 0 ? ~(result >> 1) : (result >> 1)
        }

        while index < bytes.count {
            let start = index
            latitude += try nextValue()
            guard index < bytes.count else {
                throw DecodingError(offset: start, reason: "a latitude without its longitude")
            }
            longitude += try nextValue()
            let point = Coordinate(latitude: Double(latitude) / scale, longitude: Double(longitude) / scale)
            guard point.isValid else {
                throw DecodingError(offset: start, reason: "point \(point) is outside ±90° latitude / ±180° longitude "
                                    + "(wrong precision? Valhalla writes 6 digits, Google 5)")
            }
            coordinates.append(point)
        }
        return coordinates
    }

    /// Encodes `coordinates` with `precision` decimal digits (each value rounded to the nearest
    /// 10^-precision degree). Cost: O(number of points).
    public static func encode(_ coordinates: [Coordinate], precision: Int = 6) -> String {
        let scale = pow(10, Double(precision))
        var output: [UInt8] = []
        var previousLatitude = 0, previousLongitude = 0

        func append(_ value: Int) {
            var v = value < 0 ? ~(value << 1) : (value << 1)
            while v >= 0x20 {
                output.append(UInt8((0x20 | (v & 0x1f)) + 63))
                v >>= 5
            }
            output.append(UInt8(v + 63))
        }

        for c in coordinates {
            let latitude = Int((c.latitude * scale).rounded())
            let longitude = Int((c.longitude * scale).rounded())
            append(latitude - previousLatitude)
            append(longitude - previousLongitude)
            previousLatitude = latitude
            previousLongitude = longitude
        }
        return String(decoding: output, as: UTF8.self)
    }
}
