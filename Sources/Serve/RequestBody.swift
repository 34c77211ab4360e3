import Foundation
import Geo
import Model

/// A request's JSON body read as an object, each field taken with its type checked, so a mistake
/// is answered 400 with a line that names the field.
struct RequestBody {
    /// A body that is not what the path takes: 400, `message` naming the field.
    struct Refusal: Error, Equatable, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    let fields: [String: Any]

    /// - Throws: `Refusal` for a body that is not a JSON object.
    init(_ data: Data) throws {
        guard !data.isEmpty else { throw Refusal(message: "the body is empty: a JSON object was expected") }
        // JSON between two programs is UTF-8 (RFC 8259 §8.1); Foundation would read UTF-16 and
        // UTF-32 too, told by their NUL bytes, which UTF-8 JSON never holds outside its texts' escapes.
        guard !data.contains(0), String(validating: data, as: UTF8.self) != nil else {
            throw Refusal(message: "the body is not JSON in UTF-8")
        }
        let value: Any
        do { value = try JSONSerialization.jsonObject(with: data, options: []) } catch {
            throw Refusal(message: "the body is not JSON")
        }
        guard let object = value as? [String: Any] else { throw Refusal(message: "the body is not a JSON object") }
        // Foundation keeps the last of a repeated field without a word: `{"row": "#9", "row": "#1"}`
        // would change row 1 for a client that meant row 9, or the other way about.
        if case .object(let members)? = try? JSONScanner.parse([UInt8](data)).value {
            var seen = Set<String>()
            for member in members where !seen.insert(member.key).inserted {
                throw Refusal(message: "field '\(JSONScanner.printable(member.key))' is given twice")
            }
        }
        fields = object
    }

    func has(_ name: String) -> Bool { fields[name] != nil && !(fields[name] is NSNull) }

    /// Field `name` as a string; nil when absent or null.
    func string(_ name: String) throws -> String? {
        guard has(name) else { return nil }
        guard let text = fields[name] as? String else { throw Refusal(message: "field '\(name)' must be a string") }
        // A NUL ends the text for the C libraries that print it: the words after it would vanish
        // from the page without a word.
        guard !text.unicodeScalars.contains("\0") else { throw Refusal(message: "field '\(name)' holds a NUL character (\\u0000)") }
        return text
    }

    func string(always name: String) throws -> String {
        guard let text = try string(name) else { throw Refusal(message: "field '\(name)' is missing") }
        return text
    }

    /// Field `name` as a finite number; nil when absent or null.
    func number(_ name: String) throws -> Double? {
        guard has(name) else { return nil }
        // true and false come as numbers too, told apart by their type code ("c").
        guard let number = fields[name] as? NSNumber, String(cString: number.objCType) != "c", number.doubleValue.isFinite else {
            throw Refusal(message: "field '\(name)' must be a number")
        }
        return number.doubleValue
    }

    func number(always name: String) throws -> Double {
        guard let number = try number(name) else { throw Refusal(message: "field '\(name)' is missing") }
        return number
    }

    /// Field `name` as a whole number that fits an Int32; nil when absent or null.
    func integer(_ name: String) throws -> Int? {
        guard let number = try number(name) else { return nil }
        guard number.rounded() == number, abs(number) <= Double(Int32.max) else {
            throw Refusal(message: "field '\(name)' must be a whole number")
        }
        return Int(number)
    }

    /// Fields `lat` and `lon` as a place, each in its range.
    func coordinate() throws -> Coordinate {
        let lat = try number(always: "lat"), lon = try number(always: "lon")
        guard (-90...90).contains(lat) else { throw Refusal(message: "field 'lat' must be from -90 to 90") }
        guard (-180...180).contains(lon) else { throw Refusal(message: "field 'lon' must be from -180 to 180") }
        return Coordinate(latitude: lat, longitude: lon)
    }

    /// Field `name` as true or false; nil when absent or null.
    func bool(_ name: String) throws -> Bool? {
        guard has(name) else { return nil }
        guard let number = fields[name] as? NSNumber, String(cString: number.objCType) == "c" else {
            throw Refusal(message: "field '\(name)' must be true or false")
        }
        return number.boolValue
    }

    func integer(always name: String) throws -> Int {
        guard let number = try integer(name) else { throw Refusal(message: "field '\(name)' is missing") }
        return number
    }
}
