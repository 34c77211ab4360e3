import Foundation
import Model

/// What a route file holds for `build`: its tracks, routes and waypoints in the shape a GPX file
/// has them (every format `build` reads is brought to that shape), and, for a format that carries
/// a whole road book (OpenRally GPX), the book itself.
public struct RouteFile: Sendable {
    /// The file's lines and points. Its `fileName` names the file in errors.
    public var document: GPXDocument
    /// A book the file carries whole: its rows, with their distances, words and waypoint types.
    /// `build` makes this book instead of making rows from the waypoints.
    public var book: Book?
    /// What the file holds that its reader could not keep, one line each, naming the file.
    public var warnings: [String]

    public init(document: GPXDocument, book: Book? = nil, warnings: [String] = []) {
        self.document = document
        self.book = book
        self.warnings = warnings
    }
}

/// A format `build` reads a route from. One type a format, listed in `RouteFormats.readers`.
public protocol RouteFileReader {
    /// The format's name in messages and the README's table ("GPX", "KML").
    static var formatName: String { get }
    /// File name extensions, lower case and without the dot, that name this format.
    static var fileExtensions: [String] { get }
    /// Whether the file's first bytes (up to `RouteFormats.sniffLength`) are this format's.
    /// Used when the extension names no format, and to tell formats that share an extension apart.
    static func recognises(head: Data) -> Bool
    /// Reads the file.
    /// - Throws: `FormatError` naming the file, and the line or field where it has one.
    static func read(contentsOf url: URL) throws -> RouteFile
    /// Reads the bytes of a file read whole (from a pipe or standard input); `fileName` names it
    /// in messages.
    /// - Throws: `FormatError` as `read(contentsOf:)`.
    static func read(data: Data, fileName: String) throws -> RouteFile
}

/// The formats `build` reads, and the choice between them.
public enum RouteFormats {
    /// The readers, most specific first: a file is read by the first whose `recognises(head:)`
    /// accepts its first bytes, else by the one its extension names.
    public static var readers: [any RouteFileReader.Type] {
        // OpenRally before GPX: it is a GPX file with its own namespace. RN2 before GeoJSON: both
        // are JSON, and an RN2 file has "type" members too.
        [KMZFileReader.self, KMLFileReader.self, OpenRallyReader.self, RN2Reader.self, GeoJSONFileReader.self, GPXFileReader.self]
    }

    /// How many leading bytes `recognises(head:)` sees: enough for an XML declaration, a long
    /// comment and the root element with its namespaces.
    public static let sniffLength = 4096

    /// The reader for `url`: the first whose `recognises(head:)` accepts the file's first bytes;
    /// when none does, the one its extension names.
    /// - Throws: `FormatError` when the file cannot be opened, or when neither its bytes nor its
    ///   extension name a format `build` reads (the message lists them).
    public static func reader(for url: URL) throws -> any RouteFileReader.Type {
        try reader(head: InputFile.read(url, prefix: sniffLength), extension: url.pathExtension, name: url.path)
    }

    /// Reads `url` with the reader `reader(for:)` chooses. `-` (standard input), a pipe (`<(…)`,
    /// `/dev/stdin`) or a device is read once, whole (`InputFile`), and its format told by its
    /// first bytes, else by its name's extension.
    public static func read(contentsOf url: URL) throws -> RouteFile {
        guard InputFile.isStream(url) else { return try reader(for: url).read(contentsOf: url) }
        let name = InputFile.name(of: url)
        let data = try InputFile.read(url, limit: InputFile.maximumStreamBytes, what: "a route read from a pipe")
        guard !data.isEmpty else { throw FormatError(file: name, message: "nothing came from it; give a route file, or pipe one in") }
        return try reader(head: data.prefix(sniffLength), extension: url.pathExtension, name: name).read(data: data, fileName: name)
    }

    /// The reader of a file whose first bytes are `head`, else whose extension is `ext`.
    /// - Throws: `FormatError` naming `name` when neither names a format `build` reads.
    static func reader(head: Data, extension ext: String, name: String) throws -> any RouteFileReader.Type {
        if let reader = readers.first(where: { $0.recognises(head: head) }) { return reader }
        if let reader = readers.first(where: { $0.fileExtensions.contains(ext.lowercased()) }) { return reader }
        let known = readers.map { "\($0.formatName) (.\($0.fileExtensions.joined(separator: ", .")))" }
        throw FormatError(file: name, message: "is not a route file roadbook reads; give one of: \(known.joined(separator: ", "))")
    }
}

/// GPX 1.0 and 1.1 through `GPXReader`.
public enum GPXFileReader: RouteFileReader {
    public static let formatName = "GPX"
    public static let fileExtensions = ["gpx"]

    /// A root element `<gpx` (with or without a prefix) among the first bytes.
    public static func recognises(head: Data) -> Bool {
        XMLHead(head).rootElement?.localName == "gpx"
    }

    public static func read(contentsOf url: URL) throws -> RouteFile {
        RouteFile(document: try GPXReader.read(contentsOf: url))
    }

    public static func read(data: Data, fileName: String) throws -> RouteFile {
        RouteFile(document: try GPXReader.read(data: data, fileName: fileName))
    }
}

/// The root element of an XML document, found among its first bytes without parsing the rest:
/// after the declaration, comments and processing instructions, the first start tag.
public struct XMLHead: Sendable {
    public struct Name: Sendable, Equatable {
        /// The name without its prefix (`kml` of `<kml:kml`).
        public var localName: String
        /// The text of the start tag up to its `>` (or the end of the head): its attributes,
        /// namespace declarations among them, for a reader to look for its namespace.
        public var tag: String
    }

    /// The root element, or nil when the head is not XML or ends before it.
    public let rootElement: Name?

    public init(_ head: Data) {
        var text = String(decoding: head, as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        var rest = Substring(text)
        while true {
            rest = rest.drop(while: \.isWhitespace)
            if rest.hasPrefix("<?") || rest.hasPrefix("<!--") {
                let end = rest.hasPrefix("<?") ? "?>" : "-->"
                guard let close = rest.range(of: end) else { rootElement = nil; return }
                rest = rest[close.upperBound...]
                continue
            }
            guard rest.hasPrefix("<"), let first = rest.dropFirst().first, first.isLetter || first == "_" else {
                rootElement = nil
                return
            }
            let tag = rest.prefix { $0 != ">" }
            let qualified = tag.dropFirst().prefix { !$0.isWhitespace && $0 != "/" && $0 != ">" }
            let local = qualified.split(separator: ":").last.map(String.init) ?? String(qualified)
            rootElement = Name(localName: local, tag: String(tag))
            return
        }
    }
}

/// A format `roadbook export` writes a book to. One type a format, listed in `BookFormats.writers`.
public protocol BookWriter {
    /// The name `--format` takes ("gpx", "openrally", "kml").
    static var formatName: String { get }
    /// File name extensions, lower case and without the dot, that choose this format when
    /// `--format` is not given; the first writer listed for an extension has it.
    static var fileExtensions: [String] { get }
    /// One line for help and the README's table: what the file holds.
    static var summary: String { get }
    /// Writes `book` into `file`, a temporary file the caller renames into place once the whole
    /// run has succeeded (so a writer may create it by any means, SQLite included).
    /// - Returns: what the format cannot hold of this book, one line each (empty when nothing is lost).
    /// - Throws: `FormatError` or `AtomicFile.WriteError` when the file cannot be written.
    static func write(_ book: Book, to file: URL) throws -> [String]
    /// Why the format has no place for `book` at all, in words that follow the book file's name
    /// ("is a navigation book: …"); nil when it can be written. `export` asks before it writes.
    static func refusal(for book: Book) -> String?
}

extension BookWriter {
    /// Every book can be written.
    public static func refusal(for book: Book) -> String? { nil }
}

/// The formats `export` writes, and the choice between them.
public enum BookFormats {
    public static var writers: [any BookWriter.Type] {
        // The plain GPX track before OpenRally, so a .gpx without --format is the route as data.
        [GPXTrackWriter.self, KMLWriter.self, GeoJSONWriter.self, GeoPackageWriter.self, RN2Writer.self, OpenRallyWriter.self,
         TimesWriter.self]
    }

    /// The writer named `format`, else the one `url`'s extension names.
    /// - Returns: nil when neither names one.
    public static func writer(named format: String?, for url: URL) -> (any BookWriter.Type)? {
        if let format { return writers.first { $0.formatName == format.lowercased() } }
        let ext = url.pathExtension.lowercased()
        return writers.first { $0.fileExtensions.contains(ext) }
    }
}
