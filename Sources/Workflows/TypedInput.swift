import Foundation
import Formats
import Geo
import Model

/// Coordinates and handles as a person types them on a command line: decimal degrees, degrees and
/// minutes, degrees, minutes and seconds, UTM or MGRS (`CoordinateFormat`), a handle being a
/// coordinate followed by " | NOTE" and " | MARKER" (`HandlesFile.handle(from:id:)`).
public enum TypedInput {
    /// Why a typed text was refused, in words the caller puts after the text it quotes.
    public struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        public var reason: String
        public var description: String { reason }
    }

    /// The coordinate `text` spells.
    /// - Throws: `Refusal` saying what is wrong with it.
    public static func coordinate(_ text: String) throws(Refusal) -> Coordinate {
        do { return try CoordinateFormat.parse(text) } catch { throw Refusal(reason: "\(error)") }
    }

    /// The handle `text` spells (`COORD`, `COORD | NOTE` or `COORD | NOTE | MARKER`), surveyed:
    /// the route goes to it and it never moves onto the road.
    /// - Parameter id: the handle's id.
    /// - Throws: `Refusal` saying what is wrong with it.
    public static func handle(_ text: String, id: Int) throws(Refusal) -> Handle {
        do { return try HandlesFile.handle(from: text, id: id) } catch let error as HandleTextError {
            throw Refusal(reason: error.description)
        } catch {
            throw Refusal(reason: "\(error)")
        }
    }

    /// `coordinate` in decimal degrees, as a handle is listed.
    public static func text(of coordinate: Coordinate) -> String {
        CoordinateFormat.decimalDegrees.format(coordinate)
    }
}
