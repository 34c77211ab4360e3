internal import CExpat
import Foundation

/// The name of an element as the parser reports it.
///
/// Its two strings sit in one shared object, so the stream hands the same name to a handler at
/// every tag for one reference count, not two.
public struct XMLName: Equatable, Sendable {
    private final class Storage: Sendable {
        let namespace: String?
        let localName: String

        init(namespace: String?, localName: String) {
            self.namespace = namespace
            self.localName = localName
        }
    }

    private var storage: Storage

    /// The namespace URI, or nil for an element in no namespace (always nil when the stream
    /// does not resolve namespaces).
    public var namespace: String? {
        get { storage.namespace }
        set { storage = Storage(namespace: newValue, localName: storage.localName) }
    }
    /// The name without prefix, such as `trkpt`; the whole name, prefix and all, when the stream
    /// does not resolve namespaces.
    public var localName: String {
        get { storage.localName }
        set { storage = Storage(namespace: storage.namespace, localName: newValue) }
    }
    /// The same small number (0, 1, 2, …) for every occurrence of this name in one stream, so a
    /// handler can classify a name once and then compare numbers, not strings; nil for a name the
    /// stream did not number (`XMLStream.maximumNumberedNames` distinct names came before it).
    /// Not part of equality.
    public var number: Int?

    public init(namespace: String? = nil, localName: String, number: Int? = nil) {
        storage = Storage(namespace: namespace, localName: localName)
        self.number = number
    }

    public static func == (a: XMLName, b: XMLName) -> Bool {
        a.storage === b.storage || (a.namespace == b.namespace && a.localName == b.localName)
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
        let count = strlen(value)
        return try value.withMemoryRebound(to: UInt8.self, capacity: count) {
            try body(UnsafeBufferPointer(start: $0, count: count))
        }
    }

    /// Calls `body` with attribute `name`'s value as a NUL-terminated C string (nil when the tag
    /// has none), for C parsers such as `strtoll`.
    public func withCString<Result>(_ name: String, _ body: (UnsafePointer<CChar>?) throws -> Result) rethrows -> Result {
        try body(value(name))
    }

    private func value(_ name: String) -> UnsafePointer<CChar>? {
        guard let pairs else { return nil }
        // withCString: a String passed straight to strcmp would be copied into a new array per call.
        return name.withCString { name in
            var index = 0
            while let key = pairs[index] {
                if strcmp(key, name) == 0 { return pairs[index + 1] }
                index += 2
            }
            return nil
        }
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
            /// One piece of markup (a tag, a processing instruction, an entity reference) is longer
            /// than `MarkupFilter.maximumMarkupBytes`; `message` says which.
            case tooLong
            /// Anything else: a byte or token that is not XML here.
            case other
        }
        public var kind: Kind
        /// expat's own words, such as "not well-formed (invalid token)" (for `.tooLong`, the
        /// stream's).
        public var message: String
        public var line: Int
        public var column: Int
    }
}

/// A streaming (SAX) XML parser: one Swift owner for one expat `XML_Parser`.
///
/// It refuses any DOCTYPE and any entity declaration (so no entity can be declared, which
/// defeats "billion laughs" expansion), never loads external entities or a DTD, and is fed in
/// `chunkSize` pieces so a document is never wholly in memory. Every byte passes a
/// `MarkupFilter` first, so a comment costs time linear in its length and no memory, and a tag
/// too long to read in linear time is refused. Its own failures are `XMLStreamError`s; a
/// handler's or a source's error is thrown unchanged.
public final class XMLStream {
    /// Bytes handed to expat per call: large enough that call overhead is
    /// negligible, small enough that memory stays flat for any file size.
    public static let chunkSize = 64 * 1024
    /// Longest text collected for one element. The cap keeps a malformed or hostile file from
    /// filling memory through one field.
    public static let maximumTextBytes = 1 << 20
    /// Separates namespace URI and local name in names from expat; a URI cannot contain a space.
    fileprivate static let namespaceSeparator: XML_Char = 0x20

    /// Distinct names a stream numbers (`XMLName.number`) and keeps built: a document's vocabulary
    /// is a few dozen names. Beyond this (a hostile document of endless distinct names) each
    /// further name is built anew at every tag, unnumbered, and memory does not grow.
    public static let maximumNumberedNames = 512
    /// Longest name, in bytes with its namespace URI, that is numbered and kept; a longer one is
    /// built anew at every tag, so a few huge names cannot hold much memory.
    public static let maximumNumberedNameBytes = 256

    private let parser: XML_Parser
    private let handler: any XMLStreamHandler
    private var bytesFed = 0
    /// What every callback reads and writes, behind one pointer: each access to a class's stored
    /// property is checked for exclusivity at run time, tens of checks per tag, and a pointee is not.
    /// Allocated in `init`, freed in `deinit`.
    private let state: UnsafeMutablePointer<State>

    private struct State {
        /// The first error raised inside a callback; it wins over expat's "aborted".
        var callbackError: Error?
        var textBytes: [UInt8] = []
        /// What reads the bytes before expat does (comments, markup's length).
        var markup = MarkupFilter()
        /// The names met so far, found again by their bytes.
        var names = NameNumbering()
        /// The names of the open elements, innermost last: an end tag's name is its start tag's
        /// (expat checks that), so it is taken from here rather than looked up again. A few words
        /// an element, less than expat keeps for each open element itself.
        var open: [XMLName] = []
        var collectsText = false
        var streamsText = false
        /// Whether expat hands character data to Swift now: only while `collectsText` or
        /// `streamsText` is set, so whitespace between tags and skipped text cost no call into Swift.
        var receivesCharacters = false

        /// A new tag: text collection ends.
        mutating func reset() {
            collectsText = false
            streamsText = false
            if !textBytes.isEmpty { textBytes.removeAll(keepingCapacity: true) }
        }
    }

    /// When set (by `startElement`), the character data up to the matching end tag
    /// is kept for `text`. Reset at every start and end tag.
    public var collectsText: Bool {
        get { state.pointee.collectsText }
        set { state.pointee.collectsText = newValue }
    }
    /// When set (by `startElement`), the character data up to the next start or end tag is handed
    /// to the handler's `characters(_:line:stream:)` as it arrives, neither collected nor limited
    /// in length. Reset at every start and end tag.
    public var streamsText: Bool {
        get { state.pointee.streamsText }
        set { state.pointee.streamsText = newValue }
    }

    /// - Parameter resolvesNamespaces: when true, names arrive split into namespace URI and
    ///   local name, and an unbound prefix is malformed; when false, names arrive as written.
    /// - Throws: `XMLStreamError.cannotCreateParser` when expat cannot allocate a parser.
    public init(handler: any XMLStreamHandler, resolvesNamespaces: Bool = true) throws(XMLStreamError) {
        let created = resolvesNamespaces ? XML_ParserCreateNS(nil, Self.namespaceSeparator) : XML_ParserCreate(nil)
        guard let parser = created else { throw .cannotCreateParser }
        self.parser = parser
        self.handler = handler
        state = UnsafeMutablePointer<State>.allocate(capacity: 1)
        state.initialize(to: State())
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
            guard let name else { return }
            XMLStream.with(userData) { $0.startTag(name, attributes: attributes) }
        }, { userData, name in
            guard name != nil else { return }
            XMLStream.with(userData) { $0.endTag() }
        })
    }

    private func startTag(_ raw: UnsafePointer<XML_Char>, attributes: UnsafeMutablePointer<UnsafePointer<XML_Char>?>?) {
        guard state.pointee.callbackError == nil else { return }
        state.pointee.reset()
        let name = state.pointee.names.name(raw)
        state.pointee.open.append(name)
        do {
            try handler.startElement(name, attributes: XMLAttributes(pairs: attributes), line: currentLine, stream: self)
        } catch {
            fail(error)
        }
        updateCharacterHandler()
    }

    private func endTag() {
        guard state.pointee.callbackError == nil, let name = state.pointee.open.popLast() else { return }
        do {
            try handler.endElement(name, stream: self)
        } catch {
            fail(error)
        }
        state.pointee.reset()
        updateCharacterHandler()
    }

    /// Hands character data to Swift only while the handler asked for it.
    private func updateCharacterHandler() {
        let wanted = state.pointee.collectsText || state.pointee.streamsText
        guard wanted != state.pointee.receivesCharacters else { return }
        state.pointee.receivesCharacters = wanted
        XML_SetCharacterDataHandler(parser, wanted ? Self.characterHandler : nil)
    }

    private static let characterHandler: XML_CharacterDataHandler = { userData, bytes, length in
        guard let bytes, length > 0 else { return }
        bytes.withMemoryRebound(to: UInt8.self, capacity: Int(length)) { bytes in
            XMLStream.with(userData) { $0.characters(UnsafeBufferPointer(start: bytes, count: Int(length))) }
        }
    }

    private func characters(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard state.pointee.callbackError == nil else { return }
        if state.pointee.streamsText {
            do {
                try handler.characters(bytes, line: currentLine, stream: self)
            } catch {
                fail(error)
            }
            return
        }
        guard state.pointee.collectsText else { return }
        guard state.pointee.textBytes.count + bytes.count <= XMLStream.maximumTextBytes else {
            fail(XMLStreamError.textTooLong(line: currentLine, limit: XMLStream.maximumTextBytes))
            return
        }
        state.pointee.textBytes.append(contentsOf: bytes)
    }

    deinit {
        XML_ParserFree(parser)
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// The 1-based line expat is at: inside a callback, the line of the event.
    public var currentLine: Int { Int(XML_GetCurrentLineNumber(parser)) }

    /// The character data collected since the current element's start tag.
    public var text: String { String(decoding: state.pointee.textBytes, as: UTF8.self) }

    /// Calls `body` with the UTF-8 bytes of `text`, without building a String.
    public func withTextBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try state.pointee.textBytes.withUnsafeBufferPointer(body)
    }

    /// Parses the bytes `fill` writes, `chunkSize` at a time, through the `MarkupFilter` into
    /// expat's buffer: `fill` writes at most `buffer.count` bytes and returns how many, 0 at the
    /// end of the document.
    /// Memory use does not grow with the document. A gzip reader or a file is a source alike.
    /// - Throws: `XMLStreamError`, or the first error a handler or `fill` threw.
    public func parse(from fill: (_ buffer: UnsafeMutableRawBufferPointer) throws -> Int) throws {
        let input = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.chunkSize, alignment: 8)
        defer { input.deallocate() }
        while true {
            let count = try fill(input)
            try feed(UnsafeRawBufferPointer(rebasing: input[..<count]), isFinal: count == 0)
            if count == 0 { return }
        }
    }

    /// Hands `bytes` (at most `chunkSize`) to expat through the stream's `MarkupFilter`.
    private func feed(_ bytes: UnsafeRawBufferPointer, isFinal: Bool) throws {
        bytesFed += bytes.count
        if isFinal { try checkNotEmpty() }
        guard let buffer = XML_GetBuffer(parser, Int32(bytes.count + MarkupFilter.growth)) else { throw parseFailure() }
        let count = try state.pointee.markup.filter(bytes, into: buffer)
        guard XML_ParseBuffer(parser, Int32(count), isFinal ? 1 : 0) == XML_STATUS_OK else { throw parseFailure() }
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

    /// Parses `bytes`, a whole document, handing it to expat in `chunkSize` pieces.
    /// - Throws: `XMLStreamError`, or a handler's error.
    public func parse(bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while true {
            let count = min(Self.chunkSize, bytes.count - offset)
            let isFinal = offset + count == bytes.count
            try feed(UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)]), isFinal: isFinal)
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
        if let callbackError = state.pointee.callbackError { return callbackError }
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
        guard state.pointee.callbackError == nil else { return }
        state.pointee.callbackError = error
        _ = XML_StopParser(parser, 0)
    }

    private static func from(_ userData: UnsafeMutableRawPointer?) -> XMLStream {
        Unmanaged<XMLStream>.fromOpaque(userData!).takeUnretainedValue()
    }

    /// Runs `body` with the stream whose callbacks expat is calling, without retaining it: it is
    /// alive, as `parse` is running on it, and a retain and release at every tag cost two atomic
    /// operations.
    private static func with(_ userData: UnsafeMutableRawPointer?, _ body: (XMLStream) -> Void) {
        Unmanaged<XMLStream>.fromOpaque(userData!)._withUnsafeGuaranteedRef(body)
    }
}

/// The names of one stream, numbered in the order they are first met and found again by their
/// bytes (a hash of them, open addressing), so a recurring name is neither compared nor built as a
/// String again. Bounded by `XMLStream.maximumNumberedNames` and `maximumNumberedNameBytes`.
private struct NameNumbering {
    /// Slots of the table: twice the most names, so a search ends within a few slots.
    private static let slots = 2 * XMLStream.maximumNumberedNames
    /// Separates namespace URI and local name in names from expat; a URI cannot contain a space.
    private static let separator = CChar(bitPattern: UInt8(truncatingIfNeeded: XMLStream.namespaceSeparator))

    /// The numbered names' bytes as expat gives them ("URI local", or the bare name), end to end.
    private var bytes: [CChar] = []
    /// Where each numbered name's bytes start in `bytes`, and how many there are.
    private var starts: [Int] = []
    private var counts: [Int] = []
    /// Each numbered name as handed out.
    private var known: [XMLName] = []
    /// A name's number + 1 in the slot its hash leads to; 0 for an empty slot.
    private var table = [Int32](repeating: 0, count: slots)
    /// The last namespace built, reused for the next name in it (a document uses one or two).
    private var namespace: (bytes: [CChar], string: String)?
    /// Where each stream's hash starts, drawn at random, so no document can be written to make
    /// its names collide (a long search at every tag).
    private let seed = UInt64.random(in: .min ... .max)

    /// A hash of `count` bytes at `start`, eight at a time: the name of a tag is hashed at every
    /// tag, and a byte at a time cost as much as the rest of the lookup.
    private func hash(_ start: UnsafeRawPointer, count: Int) -> UInt64 {
        var hash = seed ^ UInt64(count)
        var offset = 0
        while offset + 8 <= count {
            hash = (hash ^ start.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0x9E37_79B9_7F4A_7C15
            hash ^= hash >> 29
            offset += 8
        }
        var tail: UInt64 = 0
        while offset < count {
            tail = tail << 8 | UInt64(start.load(fromByteOffset: offset, as: UInt8.self))
            offset += 1
        }
        // The finalizer of SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number
        // generators", OOPSLA 2014): every bit of the input moves the low bits the table uses.
        hash = (hash ^ tail) &* 0xBF58_476D_1CE4_E5B9
        hash = (hash ^ (hash >> 27)) &* 0x94D0_49BB_1331_11EB
        return hash ^ (hash >> 31)
    }

    /// The name expat reports as the NUL-terminated `raw`. O(length of the name).
    mutating func name(_ raw: UnsafePointer<XML_Char>) -> XMLName {
        let count = strlen(raw)
        var slot = Int(truncatingIfNeeded: hash(UnsafeRawPointer(raw), count: count)) & (Self.slots - 1)
        while table[slot] != 0 {
            let number = Int(table[slot]) - 1
            if counts[number] == count, bytes.withUnsafeBufferPointer({ memcmp($0.baseAddress! + starts[number], raw, count) }) == 0 {
                return known[number]
            }
            slot = (slot + 1) & (Self.slots - 1)
        }
        var name = split(raw, count: count)
        guard known.count < XMLStream.maximumNumberedNames, count <= XMLStream.maximumNumberedNameBytes else { return name }
        name.number = known.count
        known.append(name)
        starts.append(bytes.count)
        counts.append(count)
        bytes.append(contentsOf: UnsafeBufferPointer(start: raw, count: count))
        table[slot] = Int32(known.count)
        return name
    }

    /// Splits expat's "URI local" name of `count` bytes, reusing the last namespace String when
    /// the URI is the same (it almost always is).
    private mutating func split(_ name: UnsafePointer<XML_Char>, count: Int) -> XMLName {
        guard let separator = memchr(name, Int32(Self.separator), count)?.assumingMemoryBound(to: CChar.self) else {
            return XMLName(namespace: nil, localName: String(cString: name))
        }
        let uriLength = UnsafePointer(separator) - name
        let localName = String(cString: separator + 1)
        if let cached = namespace, cached.bytes.count == uriLength,
           cached.bytes.withUnsafeBufferPointer({ memcmp($0.baseAddress!, name, uriLength) == 0 }) {
            return XMLName(namespace: cached.string, localName: localName)
        }
        let bytes = Array(UnsafeBufferPointer(start: name, count: uriLength))
        let string = String(decoding: bytes.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        namespace = (bytes, string)
        return XMLName(namespace: string, localName: localName)
    }
}
