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

    /// A handle as typed: a coordinate, or the name of a place to look up in an extract.
    public enum TypedHandle: Sendable, Equatable {
        /// `COORD [| NOTE [| MARKER]]`: the handle, surveyed.
        case handle(Handle)
        /// `NAME [| NOTE [| MARKER]]`: a place or road to find by name (`PlaceSearch`), with the note.
        case place(String, note: HandleNote?)
    }

    /// The handle `text` spells, or the place it names: a text whose first field (before any " | ")
    /// has no digit and does not read as a coordinate is a name ("Canillo"); one with a digit is a
    /// coordinate, refused as such when it does not read ("42.5 1.5x"), so a mistyped coordinate
    /// is never looked up as a name. A text that reads as a coordinate stays one.
    /// - Parameter id: the handle's id.
    /// - Throws: `Refusal` saying what is wrong with it.
    public static func handleOrPlace(_ text: String, id: Int) throws(Refusal) -> TypedHandle {
        let fields = text.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        let first = fields[0]
        guard !first.isEmpty, !first.contains(where: \.isNumber), (try? CoordinateFormat.parse(first)) == nil else {
            return .handle(try handle(text, id: id))
        }
        // The note and marker read as a coordinate's do; only the first field differs.
        let stand = "0 0" + text.dropFirst(text.distance(from: text.startIndex, to: text.firstIndex(of: "|") ?? text.endIndex))
        return .place(first, note: try handle(stand, id: id).note)
    }

    /// `coordinate` in decimal degrees, as a handle is listed.
    public static func text(of coordinate: Coordinate) -> String {
        CoordinateFormat.decimalDegrees.format(coordinate)
    }
}
