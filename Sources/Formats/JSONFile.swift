import Foundation
import Model

/// Reading a JSON file that is not a book (a route draft) with the book file's manners: a size
/// limit checked before reading, and every decoding failure as one line naming the file and the
/// field, with no Swift or Foundation wording.
public enum JSONFile {
    /// The bytes of `url`, at most `limit` of them.
    /// - Parameter what: the kind of file, for the message about its size ("a draft file").
    /// - Throws: `FormatError` naming the file: missing, a folder, unreadable or too large.
    public static func read(_ url: URL, limit: Int, what: String) throws -> Data {
        try InputFile.read(url, limit: limit, what: what)
    }

    /// A decoding failure as one line, `FILE: FIELD what was expected`; where the bytes are not
    /// JSON, the syntax error with its line.
    /// - Parameters:
    ///   - what: the kind of file, for "not a draft file: it must be a JSON object".
    ///   - wholeNumberKeys: keys whose values are whole numbers, so a number out of range is named.
    public static func formatError(_ error: any Error, data: Data, fileName: String, what: String,
                                   wholeNumberKeys: Set<String> = []) -> FormatError {
        if let decoding = error as? DecodingError {
            let (field, message) = BookFile.fieldAndMessage(decoding)
            if let field { return FormatError(file: fileName, field: field, message: "\(field) \(message)") }
        }
        if let problem = JSONDiagnosis.problem(in: data, wholeNumberKeys: wholeNumberKeys) {
            return FormatError(file: fileName, field: problem.field,
                               message: (problem.field == nil ? "not JSON: " : "") + problem.description)
        }
        return FormatError(file: fileName, message: "not \(what): it must be a JSON object")
    }
}
