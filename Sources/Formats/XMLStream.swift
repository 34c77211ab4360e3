import CExpat
import Foundation

/// The name of an element as the namespace-aware parser reports it.
struct XMLName: Equatable {
    /// The namespace URI, or nil for an element in no namespace.
    var namespace: String?
    /// The name without prefix, such as `trkpt`.
    var localName: String
}

/// The attributes of one start tag, valid only during the `startElement` call
/// that receives them (they point into expat's buffers).
struct XMLAttributes {
    fileprivate let pairs: UnsafeMutablePointer<UnsafePointer<XML_Char>?>?

    /// The value of the attribute in no namespace called `name` (such as `lat`),
    /// or nil when the tag has none. O(number of attributes).
    subscript(name: String) -> String? {
        value(name).map { String(cString: $0) }
    }

    /// Calls `body` with the UTF-8 bytes of attribute `name`'s value (nil when the
    /// tag has none) without building a String.
    func withValue<Result>(_ name: String, _ body: (UnsafeBufferPointer<UInt8>?) throws -> Result) rethrows -> Result {
        guard let value = value(name) else { return try body(nil) }
        return try value.withMemoryRebound(to: UInt8.self, capacity: strlen(value)) {
            try body(UnsafeBufferPointer(start: $0, count: strlen(value)))
        }
    }

    private func value(_ name: String) -> UnsafePointer<XML_Char>? {
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
/// the stream then throws that error from `parse`.
protocol XMLStreamHandler: AnyObject {
    /// A start tag on 1-based `line`.
    func startElement(_ name: XMLName, attributes: XMLAttributes, line: Int, stream: XMLStream) throws
    /// The end tag of the innermost open element. Text collected since its start
    /// tag (when `collectsText` was set) is in `stream.text`.
    func endElement(stream: XMLStream) throws
}

/// A streaming (SAX) XML parser: one Swift owner for one expat `XML_Parser`.
///
/// It is namespace-aware, refuses any DOCTYPE (so no entity can be declared,
/// which defeats "billion laughs" expansion), never loads external entities,
/// and is fed in `chunkSize` pieces so a file is never wholly in memory.
/// Every expat failure becomes a `FormatError` in `parseFailure()`.
final class XMLStream {
    /// Bytes handed to expat per call: large enough that call overhead is
    /// negligible, small enough that memory stays flat for any file size.
    static let chunkSize = 64 * 1024
    /// Longest text collected for one element. GPX text fields are short; the
    /// cap keeps a malformed or hostile file from filling memory through one field.
    static let maximumTextBytes = 1 << 20
    /// Separates namespace URI and local name in names from expat; a URI cannot contain a space.
    private static let namespaceSeparator: XML_Char = 0x20

    /// The file name used in errors.
    let fileName: String
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
    var collectsText = false

    /// - Throws: `FormatError` when expat cannot allocate a parser.
    init(fileName: String, handler: any XMLStreamHandler) throws {
        guard let parser = XML_ParserCreateNS(nil, Self.namespaceSeparator) else {
            throw FormatError(file: fileName, message: "cannot create an XML parser (out of memory)")
        }
        self.fileName = fileName
        self.parser = parser
        self.handler = handler
        XML_SetUserData(parser, Unmanaged.passUnretained(self).toOpaque())
        // Parameter entities (and with them external DTD subsets) are never read.
        _ = XML_SetParamEntityParsing(parser, XML_PARAM_ENTITY_PARSING_NEVER)
        XML_SetStartDoctypeDeclHandler(parser) { userData, _, _, _, _ in
            let stream = XMLStream.from(userData)
            stream.fail(FormatError(file: stream.fileName, line: stream.currentLine, field: "DOCTYPE",
                                    message: "DOCTYPE is not allowed in GPX (line \(stream.currentLine)); "
                                        + "remove the <!DOCTYPE …> declaration"))
        }
        XML_SetElementHandler(parser, { userData, name, attributes in
            let stream = XMLStream.from(userData)
            guard stream.callbackError == nil, let name else { return }
            stream.collectsText = false
            stream.textBytes.removeAll(keepingCapacity: true)
            do {
                try stream.handler.startElement(stream.split(name), attributes: XMLAttributes(pairs: attributes),
                                                line: stream.currentLine, stream: stream)
            } catch {
                stream.fail(error)
            }
        }, { userData, _ in
            let stream = XMLStream.from(userData)
            guard stream.callbackError == nil else { return }
            do {
                try stream.handler.endElement(stream: stream)
            } catch {
                stream.fail(error)
            }
            stream.collectsText = false
            stream.textBytes.removeAll(keepingCapacity: true)
        })
        XML_SetCharacterDataHandler(parser) { userData, bytes, length in
            let stream = XMLStream.from(userData)
            guard stream.collectsText, stream.callbackError == nil, let bytes, length > 0 else { return }
            guard stream.textBytes.count + Int(length) <= XMLStream.maximumTextBytes else {
                stream.fail(FormatError(file: stream.fileName, line: stream.currentLine,
                                        message: "element text is longer than \(XMLStream.maximumTextBytes) bytes; "
                                            + "this is not a GPX text field"))
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
    var currentLine: Int { Int(XML_GetCurrentLineNumber(parser)) }

    /// The character data collected since the current element's start tag.
    var text: String { String(decoding: textBytes, as: UTF8.self) }

    /// Calls `body` with the UTF-8 bytes of `text`, without building a String.
    func withTextBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try textBytes.withUnsafeBufferPointer(body)
    }

    /// Parses the whole file at `path`, reading it in `chunkSize` pieces straight
    /// into expat's buffer. Memory use does not grow with the file.
    /// - Throws: `FormatError` when the file cannot be read, is not well-formed
    ///   XML, or a handler throws.
    func parse(fileAtPath path: String) throws {
        guard let file = fopen(path, "rb") else {
            let reason = String(cString: strerror(errno))
            throw FormatError(file: fileName, message: "cannot open the file: \(reason); check the path and permissions")
        }
        defer { fclose(file) }
        while true {
            guard let buffer = XML_GetBuffer(parser, Int32(Self.chunkSize)) else { throw parseFailure() }
            let count = fread(buffer, 1, Self.chunkSize, file)
            if count < Self.chunkSize, ferror(file) != 0 {
                let reason = String(cString: strerror(errno))
                throw FormatError(file: fileName, line: currentLine,
                                  message: "cannot read the file: \(reason)")
            }
            let isFinal = count == 0
            bytesFed += count
            if isFinal { try checkNotEmpty() }
            guard XML_ParseBuffer(parser, Int32(count), isFinal ? 1 : 0) == XML_STATUS_OK else { throw parseFailure() }
            if isFinal { return }
        }
    }

    /// Parses `bytes`, a whole document, handing it to expat in `chunkSize` pieces.
    /// - Throws: `FormatError` as `parse(fileAtPath:)`.
    func parse(bytes: UnsafeRawBufferPointer) throws {
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

    private func checkNotEmpty() throws {
        if bytesFed == 0 {
            throw FormatError(file: fileName, message: "the file is empty; expected a GPX document")
        }
    }

    /// The one place expat's failures become Swift errors: a handler's own error
    /// if one stopped the parse, otherwise expat's message with line and column.
    private func parseFailure() -> Error {
        if let callbackError { return callbackError }
        let code = XML_GetErrorCode(parser)
        let line = Int(XML_GetCurrentLineNumber(parser))
        let column = Int(XML_GetCurrentColumnNumber(parser)) + 1
        let expatMessage = XML_ErrorString(code).map { String(cString: $0) } ?? "error \(code.rawValue)"
        var message = "XML error: \(expatMessage) at column \(column)"
        switch code {
        case XML_ERROR_NO_ELEMENTS, XML_ERROR_UNCLOSED_TOKEN, XML_ERROR_PARTIAL_CHAR, XML_ERROR_UNCLOSED_CDATA_SECTION:
            message += "; the file ends early — it may be truncated, copy or export it again"
        case XML_ERROR_NO_MEMORY:
            message = "out of memory while parsing XML"
        default:
            message += "; is this a GPX file?"
        }
        return FormatError(file: fileName, line: line, message: message)
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
