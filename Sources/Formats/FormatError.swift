import Foundation

/// A problem with an input file, said in one line: the file, the line or field, what is wrong.
public struct FormatError: Error, CustomStringConvertible, Equatable {
    public var file: String
    public var line: Int?
    public var field: String?
    public var message: String

    public init(file: String, line: Int? = nil, field: String? = nil, message: String) {
        self.file = file
        self.line = line
        self.field = field
        self.message = message
    }

    public var description: String {
        var text = file
        if let line { text += ":\(line)" }
        text += ": "
        if let field { text += "\(field) " }
        return text + message
    }
}
