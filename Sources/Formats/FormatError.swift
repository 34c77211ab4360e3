import Model
/// A problem in an input file, reported as one line that names the file, the
/// line and the field, and says what is wrong and what would fix it:
///
///     track.gpx:12: <trkpt> lat="95.0" is out of range (−90…90)
public struct FormatError: Error, CustomStringConvertible, Equatable, Sendable, RemedyCarrying {
    /// The file as the user named it (a path or a bare file name).
    public var file: String
    /// The 1-based line the problem was found on, when it belongs to a line.
    public var line: Int?
    /// The element or attribute at fault, such as `lat`, `ele` or `time`.
    public var field: String?
    /// What is wrong, in words that also say what would fix it.
    public var message: String
    /// What the caller can give to mend it, when the file alone cannot: the caller words it.
    public var remedy: Remedy?

    public init(file: String, line: Int? = nil, field: String? = nil, message: String, remedy: Remedy? = nil) {
        self.file = file
        self.line = line
        self.field = field
        self.message = message
        self.remedy = remedy
    }

    /// `file:line: message`, or `file: message` when there is no line: one line, its control
    /// characters quoted (a name read from a file may hold a line feed).
    public var description: String {
        if let line { return Printable.quoted("\(file):\(line): \(message)") }
        return Printable.quoted("\(file): \(message)")
    }
}
