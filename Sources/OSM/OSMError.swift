/// A problem reading an OpenStreetMap file, reported as one line that names the file, where in
/// it the problem is (the blob and byte offset of a PBF file, the line of an XML file), the
/// field at fault, and what is wrong:
///
///     andorra.osm.pbf: blob 3 at byte 81920: the file ends 1024 bytes into a 6612-byte blob; …
///     roads.osm:12: <node> lat="95" is out of range (−90…90)
public struct OSMError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The file as the caller named it (a path or a bare file name).
    public var file: String
    /// The 0-based index of the PBF blob (the OSMHeader blob is 0), when the problem is in one.
    public var blob: Int?
    /// The byte offset in the file where the PBF blob or field at fault starts.
    public var byteOffset: Int?
    /// The 1-based line of an XML file.
    public var line: Int?
    /// The message, element or attribute at fault, such as `DenseNodes.lat` or `lat`.
    public var field: String?
    /// What is wrong, in words that also say what would fix it.
    public var message: String

    public init(file: String, blob: Int? = nil, byteOffset: Int? = nil, line: Int? = nil, field: String? = nil,
                message: String) {
        self.file = file
        self.blob = blob
        self.byteOffset = byteOffset
        self.line = line
        self.field = field
        self.message = message
    }

    /// `file:line: message`, `file: blob N at byte B: message`, or `file: message`.
    public var description: String {
        if let line { return "\(file):\(line): \(message)" }
        var place: [String] = []
        if let blob { place.append("blob \(blob)") }
        if let byteOffset { place.append("at byte \(byteOffset)") }
        if place.isEmpty { return "\(file): \(message)" }
        return "\(file): \(place.joined(separator: " ")): \(message)"
    }
}
