import CExpat
import CZlib
import Foundation

/// Reads OSM XML (https://wiki.openstreetmap.org/wiki/OSM_XML), plain or gzip-compressed, with
/// expat: `<node id lat lon>`, and `<way id>` with its `<nd ref>` and `<tag k v>` children.
/// Relations, node tags, bounds and metadata are ignored.
///
/// The file is streamed in 64 KiB pieces (inflated on the fly when gzipped), so memory holds only
/// the node table and the kept ways. Like the GPX reader in `Formats`, it refuses any DOCTYPE (so
/// no entity can be declared) and never loads an external entity. O(file size).
final class OSMXMLReader {
    /// Bytes handed to expat per call, as in `Formats.XMLStream`.
    static let chunkSize = 64 * 1024

    private let fileName: String
    private let wayKey: String?
    private var nodes = OSMNodeTable()
    private var ways: [OSMWay] = []

    /// What the reader is inside of.
    private enum Context { case top, node, way, relation }
    private var context = Context.top
    /// Whether the root element has been seen (and was `<osm>`).
    private var sawRoot = false
    /// The way being read: its id, node ids and tags so far.
    private var wayID: Int64 = 0
    private var wayNodeIDs: [Int64] = []
    private var wayTags: [String: String] = [:]

    /// The expat parser, set for the duration of `read`.
    private var parser: XML_Parser?
    /// The first error raised inside a callback; it wins over expat's "aborted".
    private var callbackError: OSMError?

    /// - Parameters:
    ///   - fileName: how errors name the file.
    ///   - wayKey: keep only ways carrying this tag key; nil keeps all.
    init(fileName: String, wayKey: String?) {
        self.fileName = fileName
        self.wayKey = wayKey
    }

    /// Reads the file at `path`, inflating it as gzip when `gzipped`.
    /// - Throws: `OSMError` naming the file and line.
    func read(path: String, gzipped: Bool) throws -> OSMData {
        guard let file = fopen(path, "rb") else {
            throw OSMError(file: fileName, message: "cannot open the file: \(String(cString: strerror(errno))); check the path and permissions")
        }
        defer { fclose(file) }
        if gzipped {
            let inflater = try GzipInflater(file: file, fileName: fileName)
            try parse { try inflater.read(into: $0) }
        } else {
            try parse { buffer in
                let count = fread(buffer.baseAddress, 1, buffer.count, file)
                if count < buffer.count, ferror(file) != 0 {
                    throw OSMError(file: self.fileName, message: "cannot read the file: \(String(cString: strerror(errno)))")
                }
                return count
            }
        }
        nodes.finish()
        return OSMData(nodes: nodes, ways: ways)
    }

    /// Reads a whole document held in memory.
    func read(bytes: UnsafeRawBufferPointer) throws -> OSMData {
        var offset = 0
        try parse { buffer in
            let count = min(buffer.count, bytes.count - offset)
            if count > 0 { buffer.baseAddress!.copyMemory(from: bytes.baseAddress! + offset, byteCount: count) }
            offset += count
            return count
        }
        nodes.finish()
        return OSMData(nodes: nodes, ways: ways)
    }

    /// Runs expat over the bytes `fill` produces (it returns 0 at the end).
    private func parse(_ fill: (UnsafeMutableRawBufferPointer) throws -> Int) throws {
        guard let parser = XML_ParserCreate(nil) else {
            throw OSMError(file: fileName, message: "cannot create an XML parser (out of memory)")
        }
        self.parser = parser
        defer {
            XML_ParserFree(parser)
            self.parser = nil
        }
        XML_SetUserData(parser, Unmanaged.passUnretained(self).toOpaque())
        _ = XML_SetParamEntityParsing(parser, XML_PARAM_ENTITY_PARSING_NEVER)
        XML_SetStartDoctypeDeclHandler(parser) { userData, _, _, _, _ in
            let reader = OSMXMLReader.from(userData)
            reader.fail(OSMError(file: reader.fileName, line: reader.currentLine, field: "DOCTYPE",
                                 message: "DOCTYPE is not allowed in OSM XML; remove the <!DOCTYPE …> declaration"))
        }
        XML_SetElementHandler(parser, { userData, name, attributes in
            let reader = OSMXMLReader.from(userData)
            guard reader.callbackError == nil, let name else { return }
            do {
                try reader.startElement(name, attributes)
            } catch let error as OSMError {
                reader.fail(error)
            } catch {
                reader.fail(OSMError(file: reader.fileName, line: reader.currentLine, message: "\(error)"))
            }
        }, { userData, name in
            let reader = OSMXMLReader.from(userData)
            guard reader.callbackError == nil, let name else { return }
            reader.endElement(name)
        })
        var total = 0
        while true {
            guard let buffer = XML_GetBuffer(parser, Int32(Self.chunkSize)) else { throw parseFailure(parser) }
            let count = try fill(UnsafeMutableRawBufferPointer(start: buffer, count: Self.chunkSize))
            total += count
            if count == 0, total == 0 {
                throw OSMError(file: fileName, message: "the file is empty; expected an OSM XML document")
            }
            guard XML_ParseBuffer(parser, Int32(count), count == 0 ? 1 : 0) == XML_STATUS_OK else {
                throw parseFailure(parser)
            }
            if count == 0 { return }
        }
    }

    private static func from(_ userData: UnsafeMutableRawPointer?) -> OSMXMLReader {
        Unmanaged<OSMXMLReader>.fromOpaque(userData!).takeUnretainedValue()
    }

    private var currentLine: Int { parser.map { Int(XML_GetCurrentLineNumber($0)) } ?? 0 }

    private func fail(_ error: OSMError) {
        guard callbackError == nil else { return }
        callbackError = error
        if let parser { _ = XML_StopParser(parser, 0) }
    }

    /// The one place expat's failures become `OSMError`s: a callback's own error if one stopped
    /// the parse, otherwise expat's message with line and column.
    private func parseFailure(_ parser: XML_Parser) -> OSMError {
        if let callbackError { return callbackError }
        let code = XML_GetErrorCode(parser)
        let line = Int(XML_GetCurrentLineNumber(parser))
        let column = Int(XML_GetCurrentColumnNumber(parser)) + 1
        let expatMessage = XML_ErrorString(code).map { String(cString: $0) } ?? "error \(code.rawValue)"
        return OSMError(file: fileName, line: line,
                        message: "not well-formed XML at column \(column): \(expatMessage); the file is damaged or not OSM XML")
    }

    private func startElement(_ name: UnsafePointer<XML_Char>, _ attributes: UnsafeMutablePointer<UnsafePointer<XML_Char>?>?) throws {
        if !sawRoot {
            // Any other root (a GPX, an osmChange, an HTML page) would read as an empty map.
            sawRoot = true
            guard strcmp(name, "osm") == 0 else {
                throw OSMError(file: fileName, line: currentLine, field: String(cString: name),
                               message: "the root element is <\(String(cString: name).prefix(64))>, not <osm>; this is not an OSM XML file (export the map from openstreetmap.org or convert it with osmium)")
            }
        }
        switch context {
        case .top:
            if strcmp(name, "node") == 0 {
                context = .node
                let id = try integer("id", of: "node", attributes)
                let latitude = try degrees("lat", of: "node \(id)", attributes, limit: 90)
                let longitude = try degrees("lon", of: "node \(id)", attributes, limit: 180)
                nodes.append(id: id, latitudeE7: Int32((latitude * 1e7).rounded()), longitudeE7: Int32((longitude * 1e7).rounded()))
            } else if strcmp(name, "way") == 0 {
                context = .way
                wayID = try integer("id", of: "way", attributes)
                wayNodeIDs.removeAll(keepingCapacity: true)
                wayTags.removeAll(keepingCapacity: true)
            } else if strcmp(name, "relation") == 0 {
                context = .relation
            }
        case .way:
            if strcmp(name, "nd") == 0 {
                wayNodeIDs.append(try integer("ref", of: "<nd> of way \(wayID)", attributes))
            } else if strcmp(name, "tag") == 0 {
                guard let key = attribute("k", attributes), let value = attribute("v", attributes) else {
                    throw OSMError(file: fileName, line: currentLine, field: "tag",
                                   message: "a <tag> of way \(wayID) lacks its k or v attribute")
                }
                wayTags[String(cString: key)] = String(cString: value)
            }
        case .node, .relation:
            break
        }
    }

    private func endElement(_ name: UnsafePointer<XML_Char>) {
        switch context {
        case .node where strcmp(name, "node") == 0, .relation where strcmp(name, "relation") == 0:
            context = .top
        case .way where strcmp(name, "way") == 0:
            context = .top
            if wayKey.map({ wayTags[$0] != nil }) ?? true {
                ways.append(OSMWay(id: wayID, nodeIDs: wayNodeIDs, tags: wayTags))
            }
        default:
            break
        }
    }

    private func attribute(_ name: String, _ attributes: UnsafeMutablePointer<UnsafePointer<XML_Char>?>?) -> UnsafePointer<XML_Char>? {
        guard let attributes else { return nil }
        var index = 0
        while let key = attributes[index] {
            if strcmp(key, name) == 0 { return attributes[index + 1] }
            index += 2
        }
        return nil
    }

    /// A whole decimal integer attribute.
    private func integer(_ name: String, of element: String, _ attributes: UnsafeMutablePointer<UnsafePointer<XML_Char>?>?) throws -> Int64 {
        guard let text = attribute(name, attributes) else {
            throw OSMError(file: fileName, line: currentLine, field: name, message: "<\(element)> lacks its \(name) attribute")
        }
        errno = 0
        var end: UnsafeMutablePointer<CChar>?
        let value = strtoll(text, &end, 10)
        guard errno == 0, let end, end != UnsafeMutablePointer(mutating: text), end.pointee == 0 else {
            throw OSMError(file: fileName, line: currentLine, field: name,
                           message: "<\(element)> \(name)=\"\(String(cString: text))\" is not a whole number")
        }
        return value
    }

    /// A decimal-degree attribute within ±`limit`.
    private func degrees(_ name: String, of element: String, _ attributes: UnsafeMutablePointer<UnsafePointer<XML_Char>?>?,
                         limit: Double) throws -> Double {
        guard let text = attribute(name, attributes) else {
            throw OSMError(file: fileName, line: currentLine, field: name, message: "<\(element)> lacks its \(name) attribute")
        }
        var end: UnsafeMutablePointer<CChar>?
        let value = strtod(text, &end)
        guard let end, end != UnsafeMutablePointer(mutating: text), end.pointee == 0, value.isFinite else {
            throw OSMError(file: fileName, line: currentLine, field: name,
                           message: "<\(element)> \(name)=\"\(String(cString: text))\" is not a number")
        }
        guard abs(value) <= limit else {
            throw OSMError(file: fileName, line: currentLine, field: name,
                           message: "<\(element)> \(name)=\"\(String(cString: text))\" is out of range (−\(Int(limit))…\(Int(limit)))")
        }
        return value
    }
}

/// Reads a gzip file inflated, through zlib's own gzip file reader (`gzread`): it checks each
/// member's CRC and reads concatenated members (as `cat a.gz b.gz` makes) one after another.
/// One Swift owner for one `gzFile`, closed in `deinit`.
final class GzipInflater {
    /// Compressed bytes zlib reads from the file per call.
    static let inputChunkSize: UInt32 = 64 * 1024

    private let gz: gzFile
    private let fileName: String
    private var bytesInflated = 0

    /// Reads from `file`'s descriptor (duplicated, so the caller still closes `file`).
    /// - Throws: `OSMError` when zlib cannot open the stream.
    init(file: UnsafeMutablePointer<FILE>, fileName: String) throws {
        self.fileName = fileName
        let descriptor = dup(fileno(file))
        guard descriptor >= 0, let gz = gzdopen(descriptor, "rb") else {
            if descriptor >= 0 { close(descriptor) }
            throw OSMError(file: fileName, message: "cannot start gzip inflation: \(String(cString: strerror(errno)))")
        }
        self.gz = gz
        _ = gzbuffer(gz, Self.inputChunkSize)
    }

    deinit { gzclose_r(gz) }

    /// Inflates into `buffer`; returns the number of bytes written, 0 at the end of the data.
    /// - Throws: `OSMError` when the file is not gzip, is corrupt, or ends inside a member.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = gzread(gz, buffer.baseAddress, UInt32(buffer.count))
        var status: Int32 = Z_OK
        // zlib names a stream opened from a descriptor "<fd:N>"; the message names the file instead.
        let raw = gzerror(gz, &status).map { String(cString: $0) } ?? zlibStatusDescription(status)
        let detail = raw.hasPrefix("<fd:") ? String(raw.drop { $0 != " " }.dropFirst()) : raw
        let offset = Int(gzoffset(gz))
        if count < 0 {
            if status == Z_ERRNO {
                throw OSMError(file: fileName, byteOffset: offset, message: "cannot read the file: \(String(cString: strerror(errno)))")
            }
            throw OSMError(file: fileName, byteOffset: offset,
                           message: "cannot inflate the gzip data: \(detail); the file is corrupt or not gzip")
        }
        if count > 0, gzdirect(gz) != 0 {
            throw OSMError(file: fileName, byteOffset: 0,
                           message: "cannot inflate the gzip data: incorrect header check; the file is corrupt or not gzip")
        }
        if count == 0 {
            if status == Z_BUF_ERROR {
                throw OSMError(file: fileName, byteOffset: offset,
                               message: "the gzip data ends early; the file is truncated, download it again")
            }
            if bytesInflated == 0, offset == 0 {
                throw OSMError(file: fileName, message: "the file is empty; expected gzip-compressed OSM XML")
            }
        }
        bytesInflated += Int(count)
        return Int(count)
    }
}

extension OSMData {
    /// Reads an OSM XML document held in memory (uncompressed).
    /// - Parameters:
    ///   - fileName: how errors name the document.
    ///   - wayKey: keep only the ways that carry this tag key; nil keeps every way.
    /// - Throws: `OSMError` naming `fileName` and the line.
    public static func read(xml: Data, fileName: String, keepingWaysTagged wayKey: String? = "highway") throws -> OSMData {
        let reader = OSMXMLReader(fileName: fileName, wayKey: wayKey)
        return try xml.withUnsafeBytes { try reader.read(bytes: $0) }
    }
}
