import Foundation
import Geo
import Model

/// The checks every reader of longitude-first formats (KML, GeoJSON) makes on a position, so
/// they refuse the same things in the same words.
enum Positions {
    /// A finite decimal number written in `bytes`: optional sign, digits with an optional point
    /// and an optional exponent. Refuses `nan`, `inf`, hexadecimal and empty text, which
    /// `Double.init` would partly accept. O(length).
    static func decimal<Bytes: Collection>(_ bytes: Bytes) -> Double? where Bytes.Element == UInt8 {
        guard !bytes.isEmpty, bytes.count <= 64 else { return nil }
        var sawDigit = false
        for byte in bytes {
            switch byte {
            case 0x30...0x39: sawDigit = true
            case 0x2E, 0x2D, 0x2B, 0x65, 0x45: continue  // . - + e E
            default: return nil
            }
        }
        guard sawDigit, let value = Double(String(decoding: bytes, as: UTF8.self)), value.isFinite else { return nil }
        return value
    }

    /// What is wrong with a longitude and latitude, in words, or nil when both are in range.
    /// The words say that the format puts longitude first, the usual cause of a latitude out of range.
    static func rangeProblem(longitude: Double, latitude: Double) -> String? {
        if !(abs(longitude) <= 180) {
            return "longitude \(longitude) is out of range (−180…180)"
        }
        if !(abs(latitude) <= 90) {
            return "latitude \(latitude) is out of range (−90…90); the format puts longitude first, are the two swapped?"
        }
        return nil
    }

    /// What is wrong with an altitude taken as a height, or nil when it is a height on Earth
    /// (`BookLimits.heights`).
    static func heightProblem(_ metres: Double) -> String? {
        guard !BookLimits.heights.contains(metres) else { return nil }
        return "altitude \(metres) m is not a height on Earth (\(Int(BookLimits.heights.lowerBound))…\(Int(BookLimits.heights.upperBound)) m)"
    }
}
