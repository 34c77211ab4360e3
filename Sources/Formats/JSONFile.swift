import Foundation
import Model

/// Refusing a JSON file (a book, a route draft, an undo file) the same way: every decoding
/// failure as one line naming the file and the field, with no Swift or Foundation wording.
public enum JSONFile {
    /// A decoding failure as one line, `FILE: FIELD what was expected`; where the bytes are not
    /// JSON, the syntax error or the number out of range, with its field or line.
    /// - Parameters:
    ///   - what: the kind of file, for "not a draft file: it must be a JSON object".
    ///   - wholeNumberKeys: keys whose values are whole numbers, so a number out of range is named.
    ///   - otherwise: the words when nothing more precise is found (by default, that the file must
    ///     be a JSON object).
    public static func formatError(_ error: any Error, data: Data, fileName: String, what: String,
                                   wholeNumberKeys: Set<String> = [], otherwise: String? = nil) -> FormatError {
        let notAnObject = "not \(what): it must be a JSON object"
        if let decoding = error as? DecodingError {
            let (field, message) = BookFile.fieldAndMessage(decoding)
            if let field { return FormatError(file: fileName, field: field, message: "\(field) \(message)") }
            if case .typeMismatch = decoding { return FormatError(file: fileName, message: notAnObject) }
        }
        // "Not valid JSON" says nothing: find the syntax error or the number out of range.
        if let problem = JSONScanner.problem(in: data, wholeNumberKeys: wholeNumberKeys) {
            return FormatError(file: fileName, field: problem.field,
                               message: (problem.field == nil ? "not JSON: " : "") + problem.description)
        }
        return FormatError(file: fileName, message: otherwise ?? notAnObject)
    }
}
