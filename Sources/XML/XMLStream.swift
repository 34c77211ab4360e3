internal import CExpat
import Foundation

/// The name of an element as the parser reports it.
public struct XMLName: Equatable, Sendable {
    /// The namespace URI, or nil for an element in no namespace (always nil when the stream
    /// does not resolve namespaces).
    public var namespace: String?
    /// The name without prefix, such as `trkpt`; the whole name, prefix and all, when the stream
    /// does not resolve namespaces.
    public var localName: String

    public init(namespace: String? = nil, localName: String) {
        self.namespace = namespace
        self.localName = localName
    }
}

/// The attributes of one start tag, valid only during the `startElement` call
/// that receives them (they point into expat's buffers).
public struct XMLAttributes {
    fileprivate let pairs: UnsafeMutablePointer<UnsafePointer<CChar>?>?

    /// The value of the attribute in no namespace called `name` (such as `lat`),
    /// or nil when the tag has none. O(number of attributes).
    public subscript(name: String) -> String? {
        value(name).map { String(cString: $0) }
    }

    /// Calls `body` with the UTF-8 bytes of attribute `name`'s value (nil when the
    /// tag has none) without building a String.
    public func withValue<Result>(_ name: String, _ body: (UnsafeBufferPointer<UInt8>?) throws -> Result) rethrows -> Result {
        guard let value = value(name) else { return try body(nil) }
        return try value.withMemoryRebound(to: UInt8.self, capacity: strlen(value)) {
            try body(UnsafeBufferPointer(start: $0, count: strlen(value)))
        }
    }

    /// Calls `body` with attribute `name`'s value as a NUL-terminated C string (nil when the tag
    /// has none), for C parsers such as `strtoll`.
    public func withCString<Result>(_ name: String, _ body: (UnsafePointer<CChar>?) throws -> Result) rethrows -> Result {
        try body(value(name))
    }

    private func value(_ name: String) -> UnsafePointer<CChar>? {
        guard let pairs else { return nil }
        var index = 0
        while let key = pairs[index] {
            if strcmp(key, name) == 0 { return pairs[index + 1] }
            index += 2
        }
        return nil
    }
}

/// Receives the events of an `XMLStream`. A method that throws stops the parse;
/// the stream then throws that error, unchanged, from `parse`.
public protocol XMLStreamHandler: AnyObject {
    /// A start tag on 1-based `line`.
    func startElement(_ name: XMLName, attributes: XMLAttributes, line: Int, stream: XMLStream) throws
    /// The end tag of the innermost open element, `name`. Text collected since its start
    /// tag (when `collectsText` was set) is in `stream.text`.
    func endElement(_ name: XMLName, stream: XMLStream) throws
    /// Character data of the current element as it arrives, in pieces of any size, when
    /// `stream.streamsText` is set: for text too long to collect (a KML `<coordinates>` of a long
    /// track). `line` is the line the piece starts on.
    func characters(_ bytes: UnsafeBufferPointer<UInt8>, line: Int, stream: XMLStream) throws
}

extension XMLStreamHandler {
    /// Handlers that never set `streamsText` receive no pieces.
    public func characters(_ bytes: UnsafeBufferPointer<UInt8>, line: Int, stream: XMLStream) throws {}
}

/// Why an `XMLStream` stopped, in neutral terms: each reader turns it into its own error, with
/// its own file name and wording.
public enum XMLStreamError: Error, Equatable, Sendable {
    /// expat could not allocate a parser.
    case cannotCreateParser
    /// The document declares a DOCTYPE (or an entity in one) on `line`; both are refused so that
    /// no entity can be declared ("billion laughs") or loaded from outside.
    case doctypeRefused(line: Int)
    /// Not one byte came from the source.
    case empty
    /// Reading the source failed on `line` of what was parsed so far; `reason` is the system's.
    case cannotRead(reason: String, line: Int)
    /// The text of one element is longer than `limit` bytes (`XMLStream.maximumTextBytes`).
    case textTooLong(line: Int, limit: Int)
    /// The document is not well-formed XML: expat's `message` at 1-based `line` and `column`.
    case malformed(Malformation)

    /// Where and how a document is not well-formed.
    public struct Malformation: Equatable, Sendable {
        /// What kind of fault it is, for a reader that words the cases apart.
        public enum Kind: Equatable, Sendable {
            /// The document stops inside a token, an element or a character: a truncated file.
            case endsEarly
            /// expat ran out of memory.
            case outOfMemory
            /// Anything else: a byte or token that is not XML here.
            case other
        }
        public var kind: Kind
        /// expat's own words, such as "not well-formed (invalid token)".
        public var message: String
        public var line: Int
        public var column: Int
    }
}

/// A streaming (SAX) XML parser: one Swift owner for one expat `XML_Parser`.
///
/// It refuses any DOCTYPE and any entity declaration (so no entity can be declared, which
/// defeats "billion laughs" expansion), never loads external entities or a DTD, and is fed in
/// `chunkSize` pieces so a document is never wholly in memory. Its own failures are
/// `XMLStreamError`s; a handler's or a source's error is thrown unchanged.
public final class XMLStream {
    /// Bytes handed to expat per call: large enough that call overhead is
    /// negligible, small enough that memory stays flat for any file size.
    public static let chunkSize = 64 * 1024
    /// Longest text collected for one element. The cap keeps a malformed or hostile file from
    /// filling memory through one field.
    public static let maximumTextBytes = 1 << 20
    /// Separates namespace URI and local name in names from expat; a URI cannot contain a space.
    private static let namespaceSeparator: XML_Char = 0x20

    private let parser: XML_Parser
    private let handler: any XMLStreamHandler
    /// The first error raised inside a callback; it wins over expat's "aborted".
    private var callbackError: Error?
    private var textBytes: [UInt8] = []
    private var bytesFed = 0
    /// The last namespace seen, kept to avoid building a String per element.
    private var cachedNamespace: (bytes: [CChar], string: String)?

    /// When set (by `startElement`), the character data up to the matching end tag
    /// is kept for `text`. Reset at every start and end tag.
    public var collectsText = false
    /// When set (by `startElement`), the character data up to the next start or end tag is handed
    /// to the handler's `characters(_:line:stream:)` as it arrives, neither collected nor limited
    /// in length. Reset at every start and end tag.
    public var streamsText = false

    /// - Parameter resolvesNamespaces: when true, names arrive split into namespace URI and
    ///   local name, and an unbound prefix is malformed; when false, names arrive as written.
    /// - Throws: `XMLStreamError.cannotCreateParser` when expat cannot allocate a parser.
    public init(handler: any XMLStreamHandler, resolvesNamespaces: Bool = true) throws(XMLStreamError) {
        let created = resolvesNamespaces ? XML_ParserCreateNS(nil, Self.namespaceSeparator) : XML_ParserCreate(nil)
        guard let parser = created else { throw .cannotCreateParser }
        self.parser = parser
        self.handler = handler
        XML_SetUserData(parser, Unmanaged.passUnretained(self).toOpaque())
        // Parameter entities (and with them external DTD subsets) are never read.
        _ = XML_SetParamEntityParsing(parser, XML_PARAM_ENTITY_PARSING_NEVER)
        XML_SetStartDoctypeDeclHandler(parser) { userData, _, _, _, _ in
            let stream = XMLStream.from(userData)
            stream.fail(XMLStreamError.doctypeRefused(line: stream.currentLine))
        }
        // An entity can only be declared inside a DOCTYPE, which is refused above; stopping here
        // too means no declared entity is ever kept, whatever expat still reports after the stop.
        XML_SetEntityDeclHandler(parser) { userData, _, _, _, _, _, _, _, _ in
            let stream = XMLStream.from(userData)
            stream.fail(XMLStreamError.doctypeRefused(line: stream.currentLine))
        }
        XML_SetElementHandler(parser, { userData, name, attributes in
            let stream = XMLStream.from(userData)
            guard stream.callbackError == nil, let name else { return }
            stream.collectsText = false
            stream.streamsText = false
            stream.textBytes.removeAll(keepingCapacity: true)
            do {
                try stream.handler.startElement(stream.split(name), attributes: XMLAttributes(pairs: attributes),
                                                line: stream.currentLine, stream: stream)
            } catch {
                stream.fail(error)
            }
        }, { userData, name in
            let stream = XMLStream.from(userData)
            guard stream.callbackError == nil, let name else { return }
            do {
                try stream.handler.endElement(stream.split(name), stream: stream)
            } catch {
                stream.fail(error)
            }
            stream.collectsText = false
            stream.streamsText = false
            stream.textBytes.removeAll(keepingCapacity: true)
        })
        XML_SetCharacterDataHandler(parser) { userData, bytes, length in
            let stream = XMLStream.from(userData)
            if stream.streamsText, stream.callbackError == nil, let bytes, length > 0 {
                bytes.withMemoryRebound(to: UInt8.self, capacity: Int(length)) {
                    do {
                        try stream.handler.characters(UnsafeBufferPointer(start: $0, count: Int(length)),
                                                      line: stream.currentLine, stream: stream)
                    } catch {
                        stream.fail(error)
                    }
                }
                return
            }
            guard stream.collectsText, stream.callbackError == nil, let bytes, length > 0 else { return }
            guard stream.textBytes.count + Int(length) <= XMLStream.maximumTextBytes else {
                stream.fail(XMLStreamError.textTooLong(line: stream.currentLine, limit: XMLStream.maximumTextBytes))
                return
            }
            bytes.withMemoryRebound(to: UInt8.self, capacity: Int(length)) {
                stream.textBytes.append(contentsOf: UnsafeBufferPointer(start: $0, count: Int(length)))
            }
        }
    }

    deinit {
        XML_ParserFree(parser)
    }

    /// The 1-based line expat is at: inside a callback, the line of the event.
    public var currentLine: Int { Int(XML_GetCurrentLineNumber(parser)) }

    /// The character data collected since the current element's start tag.
    public var text: String { String(decoding: textBytes, as: UTF8.self) }

    /// Calls `body` with the UTF-8 bytes of `text`, without building a String.
    public func withTextBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try textBytes.withUnsafeBufferPointer(body)
    }

    /// Parses the bytes `fill` writes, `chunkSize` at a time, straight into expat's buffer: `fill`
    /// writes at most `buffer.count` bytes and returns how many, 0 at the end of the document.
    /// Memory use does not grow with the document. A gzip reader or a file is a source alike.
    /// - Throws: `XMLStreamError`, or the first error a handler or `fill` threw.
    public func parse(from fill: (_ buffer: UnsafeMutableRawBufferPointer) throws -> Int) throws {
        while true {
            guard let buffer = XML_GetBuffer(parser, Int32(Self.chunkSize)) else { throw parseFailure() }
            let count = try fill(UnsafeMutableRawBufferPointer(start: buffer, count: Self.chunkSize))
            let isFinal = count == 0
            bytesFed += count
            if isFinal { try checkNotEmpty() }
            guard XML_ParseBuffer(parser, Int32(count), isFinal ? 1 : 0) == XML_STATUS_OK else { throw parseFailure() }
            if isFinal { return }
        }
    }

    /// Parses the rest of the open file `file`, `chunkSize` bytes at a time. The caller closes it.
    /// - Throws: `XMLStreamError` (`.cannotRead` when the file cannot be read), or a handler's error.
    public func parse(file: UnsafeMutablePointer<FILE>) throws {
        try parse { buffer in
            let count = fread(buffer.baseAddress, 1, buffer.count, file)
            if count < buffer.count, ferror(file) != 0 {
                throw XMLStreamError.cannotRead(reason: String(cString: strerror(errno)), line: currentLine)
            }
            return count
        }
    }

    /// Parses `bytes`, a whole document, handing it to expat in `chunkSize` pieces without copying.
    /// - Throws: `XMLStreamError`, or a handler's error.
    public func parse(bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while true {
            let count = min(Self.chunkSize, bytes.count - offset)
            let isFinal = offset + count == bytes.count
            bytesFed += count
            if isFinal { try checkNotEmpty() }
            let start = bytes.baseAddress.map { $0 + offset }?.assumingMemoryBound(to: CChar.self)
            guard XML_Parse(parser, start, Int32(count), isFinal ? 1 : 0) == XML_STATUS_OK else {
                throw parseFailure()
            }
            if isFinal { return }
            offset += count
        }
    }

    private func checkNotEmpty() throws(XMLStreamError) {
        if bytesFed == 0 { throw .empty }
    }

    /// The one place expat's failures become Swift errors: a handler's own error
    /// if one stopped the parse, otherwise expat's message with line and column.
    private func parseFailure() -> Error {
        if let callbackError { return callbackError }
        let code = XML_GetErrorCode(parser)
        let kind: XMLStreamError.Malformation.Kind
        switch code {
        case XML_ERROR_NO_ELEMENTS, XML_ERROR_UNCLOSED_TOKEN, XML_ERROR_PARTIAL_CHAR, XML_ERROR_UNCLOSED_CDATA_SECTION:
            kind = .endsEarly
        case XML_ERROR_NO_MEMORY:
            kind = .outOfMemory
        default:
            kind = .other
        }
        return XMLStreamError.malformed(.init(
            kind: kind, message: XML_ErrorString(code).map { String(cString: $0) } ?? "error \(code.rawValue)",
            line: Int(XML_GetCurrentLineNumber(parser)), column: Int(XML_GetCurrentColumnNumber(parser)) + 1))
    }

    /// Records the first error and aborts parsing; expat then returns an error status.
    private func fail(_ error: Error) {
        guard callbackError == nil else { return }
        callbackError = error
        _ = XML_StopParser(parser, 0)
    }

    private static func from(_ userData: UnsafeMutableRawPointer?) -> XMLStream {
        Unmanaged<XMLStream>.fromOpaque(userData!).takeUnretainedValue()
    }

    /// Splits expat's "URI local" name, reusing the last namespace String when the
    /// URI is the same (it almost always is).
    private func split(_ name: UnsafePointer<XML_Char>) -> XMLName {
        guard let separator = strchr(name, Int32(Self.namespaceSeparator)) else {
            return XMLName(namespace: nil, localName: String(cString: name))
        }
        let uriLength = UnsafePointer(separator) - name
        let localName = String(cString: separator + 1)
        if let cached = cachedNamespace, cached.bytes.count == uriLength,
           cached.bytes.withUnsafeBufferPointer({ memcmp($0.baseAddress!, name, uriLength) == 0 }) {
            return XMLName(namespace: cached.string, localName: localName)
        }
        let bytes = Array(UnsafeBufferPointer(start: name, count: uriLength))
        let string = String(decoding: bytes.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        cachedNamespace = (bytes, string)
        return XMLName(namespace: string, localName: localName)
    }
}
