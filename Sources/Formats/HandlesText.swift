import Foundation
import Geo
import Model

/// Handles typed as text, one a line, as an organiser copies them from a paper road book or a
/// GPS screen:
///
///     # Envalira, from the paper book
///     N42°30.378' E001°31.308'
///     31T 378553 4707051 | Chapel on the left | P1
///     31TCH7923307450
///
/// A line is a coordinate in any form `CoordinateFormat.parse` reads (decimal degrees, degrees
/// and minutes, degrees, minutes and seconds, UTM or MGRS), then optionally ` | NOTE` (a course
/// note's instruction on the handle) and ` | MARKER`. Blank lines and lines starting with `#`
/// are skipped. Typed coordinates are surveyed: the handles never move onto the road.
extension HandlesFile {
    /// Reads a text file of handles.
    /// - Throws: `FormatError` naming the file and the line.
    public static func fromText(_ text: String, fileName: String) throws -> HandlesInput {
        var handles: [Handle] = []
        // A UTF-8 byte order mark, as Windows editors write, is no part of the first line.
        let text = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
        // Split on any line end: "\r\n" is one Character, so a file from Windows splits too.
        for (i, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            try checkCount(handles.count + 1, fileName: fileName, line: i + 1)
            do {
                handles.append(try handle(from: trimmed, id: handles.count + 1))
            } catch let error as HandleTextError {
                throw FormatError(file: fileName, line: i + 1, message: error.description)
            }
        }
        guard handles.count >= 2 else {
            throw FormatError(file: fileName, message: "needs two handles or more, one coordinate a line")
        }
        return HandlesInput(handles: handles)
    }

    /// Reads one handle as a line of a handles text file writes it: `COORDINATE [| NOTE [| MARKER]]`.
    /// - Parameter id: the handle's number in the route.
    /// - Throws: `HandleTextError` saying what is wrong.
    public static func handle(from text: String, id: Int) throws -> Handle {
        let fields = text.split(separator: "|", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard fields.count <= 3 else {
            throw HandleTextError(description: "write COORDINATE, COORDINATE | NOTE or COORDINATE | NOTE | MARKER")
        }
        let coordinate: Coordinate
        do { coordinate = try CoordinateFormat.parse(fields[0]) } catch let error as CoordinateParseError {
            throw HandleTextError(description: error.description)
        }
        var note: HandleNote? = nil
        if fields.count >= 2 {
            guard !fields[1].isEmpty else { throw HandleTextError(description: "the note after '|' is empty") }
            note = HandleNote(text: fields[1], marker: fields.count == 3 && !fields[2].isEmpty ? fields[2] : nil)
        }
        return Handle(id: id, coordinate: coordinate, origin: .coordinate, note: note)
    }
}

/// Why a typed handle could not be read.
public struct HandleTextError: Error, CustomStringConvertible, Equatable, Sendable {
    public var description: String
}
