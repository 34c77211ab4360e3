import CZlib
import Foundation
import XML

/// Reads OSM XML (https://wiki.openstreetmap.org/wiki/OSM_XML), plain or gzip-compressed, with
/// the `XML` stream: `<node id lat lon>`, and `<way id>` with its `<nd ref>` and `<tag k v>`
/// children, and `<relation id>` tagged `type=restriction` with its `<member type ref role>`
/// children (turn restrictions, `OSMRestriction.parse`), and the `place`, `natural`,
/// `mountain_pass` and `name` tags of a node (named places, `OSMPlace`), and its barrier, access and
/// turning-place tags (`OSMNodeMark`). Other relations, other node
/// tags, bounds and metadata are ignored. A broken relation (a member without a whole-number `ref`,
/// a tag without `k` or `v`) is skipped, never refused: turn restrictions only refine a route; a
/// node's broken `<tag>` is skipped likewise (a place only names a stop).
///
/// The file is streamed in 64 KiB pieces (inflated on the fly when gzipped), so memory holds only
/// the node table and the kept ways. The stream refuses any DOCTYPE (so no entity can be
/// declared) and never loads an external entity. O(file size).
final class OSMXMLReader: XMLStreamHandler {
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
    /// The relation being read: its id (nil when the `id` attribute is unreadable), tags, members,
    /// and whether a member or tag was broken (the relation is then skipped).
    private var relationID: Int64?
    private var relationTags: [String: String] = [:]
    private var relationMembers: [(type: OSMRestriction.MemberType, ref: Int64, role: String)] = []
    private var relationBroken = false
    private var restrictions: [OSMRestriction] = []
    /// The node being read: its id, coordinate, and the values of the place keys it carries.
    private var nodeID: Int64 = 0
    private var nodeLatitudeE7: Int32 = 0
    private var nodeLongitudeE7: Int32 = 0
    private var nodePlace: String?, nodeNatural: String?, nodeMountainPass: String?, nodeName: String?
    /// Whether the node being read was kept as one of the file's (or the corridor's) own: only then
    /// can its tags make a place.
    private var nodeMayBePlace = false
    private var places: [OSMPlace] = []
    /// Whether the node being read was kept (its tags may make a mark), and its mark so far.
    private var nodeKept = false
    private var nodeMark = OSMNodeMark()
    private var nodeMarks: [Int64: OSMNodeMark] = [:]
    /// When reading a corridor: what to keep, and whether the ways need a second pass.
    private var keeper: CorridorKeeper?
    /// What the current pass reads (`CorridorKeeper.Pass`).
    private var pass = CorridorKeeper.Pass.all

    /// - Parameters:
    ///   - fileName: how errors name the file.
    ///   - wayKey: keep only ways carrying this tag key; nil keeps all.
    ///   - corridor: keep only the nodes inside it and the ways and restrictions that use them
    ///     (`CorridorKeeper`); nil keeps the whole file.
    init(fileName: String, wayKey: String?, corridor: RouteCorridor? = nil) {
        self.fileName = fileName
        self.wayKey = wayKey
        self.keeper = corridor.map(CorridorKeeper.init)
    }

    /// Runs `readPass` over the document; for a corridor, once more for ways and relations only
    /// when the document's nodes do not all come before its ways, and once more for the wanted
    /// nodes (`CorridorKeeper.wanted`); then the data read.
    private func data(reading readPass: () throws -> Void) throws -> OSMData {
        try readPass()
        if keeper?.sawNodeAfterWay == true {
            nodes.finish()
            ways = []
            restrictions = []
            keeper!.wanted = []
            pass = .waysAndRelations
            (sawRoot, context) = (false, .top)
            try readPass()
        }
        if keeper?.wanted.isEmpty == false {
            pass = .wantedNodes
            (sawRoot, context) = (false, .top)
            try readPass()
        }
        nodes.finish()
        return OSMData(nodes: nodes, ways: ways, restrictions: restrictions, places: places, nodeMarks: nodeMarks)
    }

    /// Reads the file at `path`, inflating it as gzip when `gzipped`.
    /// - Throws: `OSMError` naming the file and line.
    func read(path: String, gzipped: Bool) throws -> OSMData {
        guard let file = fopen(path, "rb") else {
            throw OSMError(file: fileName, message: "cannot open the file: \(String(cString: strerror(errno))); check the path and permissions")
        }
        defer { fclose(file) }
        return try data {
            rewind(file)
            if gzipped {
                let inflater = try GzipInflater(file: file, fileName: fileName)
                try parse { stream in try stream.parse { try inflater.read(into: $0) } }
            } else {
                try parse { try $0.parse(file: file) }
            }
        }
    }

    /// Reads a whole document held in memory.
    func read(bytes: UnsafeRawBufferPointer) throws -> OSMData {
        try data { try parse { try $0.parse(bytes: bytes) } }
    }

    /// Runs `feed` on a stream reporting to this reader (names as written, no namespaces), and
    /// words the stream's failures as `OSMError`s.
    private func parse(_ feed: (XMLStream) throws -> Void) throws {
        do {
            try feed(try XMLStream(handler: self, resolvesNamespaces: false))
        } catch let error as XMLStreamError {
            throw osmError(error)
        }
    }

    /// A failure of the XML stream as an `OSMError` naming the file.
    private func osmError(_ error: XMLStreamError) -> OSMError {
        switch error {
        case .cannotCreateParser:
            return OSMError(file: fileName, message: "cannot create an XML parser (out of memory)")
        case .doctypeRefused(let line):
            return OSMError(file: fileName, line: line, field: "DOCTYPE",
                            message: "DOCTYPE is not allowed in OSM XML; remove the <!DOCTYPE …> declaration")
        case .empty:
            return OSMError(file: fileName, message: "the file is empty; expected an OSM XML document")
        case .cannotRead(let reason, _):
            return OSMError(file: fileName, message: "cannot read the file: \(reason)")
        case .textTooLong(let line, let limit):
            // This reader never asks for text, so the stream never collects enough to refuse it.
            return OSMError(file: fileName, line: line, message: "element text is longer than \(limit) bytes; this is not OSM XML")
        case .malformed(let fault):
            return OSMError(file: fileName, line: fault.line,
                            message: "not well-formed XML at column \(fault.column): \(fault.message); the file is damaged or not OSM XML")
        }
    }

    /// The line of the element being read, for errors.
    private var currentLine = 0

    func startElement(_ name: XMLName, attributes: XMLAttributes, line: Int, stream: XMLStream) throws {
        currentLine = line
        do {
            try startElement(name.localName, attributes)
        } catch let error as OSMError {
            throw error
        } catch {
            throw OSMError(file: fileName, line: line, message: "\(error)")
        }
    }

    private func startElement(_ name: String, _ attributes: XMLAttributes) throws {
        if !sawRoot {
            // Any other root (a GPX, an osmChange, an HTML page) would read as an empty map.
            sawRoot = true
            guard name == "osm" else {
                throw OSMError(file: fileName, line: currentLine, field: name,
                               message: "the root element is <\(name.prefix(64))>, not <osm>; this is not an OSM XML file (export the map from openstreetmap.org or convert it with osmium)")
            }
        }
        switch context {
        case .top:
            if name == "node" {
                context = .node
                let id = try integer("id", of: "node", attributes)
                let latitude = try degrees("lat", of: "node \(id)", attributes, limit: 90)
                let longitude = try degrees("lon", of: "node \(id)", attributes, limit: 180)
                let latitudeE7 = Int32((latitude * 1e7).rounded()), longitudeE7 = Int32((longitude * 1e7).rounded())
                // Reset first, so a node the corridor leaves out never lends its tags to a place.
                nodePlace = nil; nodeNatural = nil; nodeMountainPass = nil; nodeName = nil
                nodeMayBePlace = false
                nodeKept = false
                nodeMark = OSMNodeMark()
                switch pass {
                case .all: if keeper != nil, !keeper!.keepsNode(latitudeE7: latitudeE7, longitudeE7: longitudeE7) { return }
                case .waysAndRelations: return
                case .wantedNodes: guard keeper!.wanted.contains(id) else { return }
                }
                (nodeID, nodeLatitudeE7, nodeLongitudeE7) = (id, latitudeE7, longitudeE7)
                nodes.append(id: id, latitudeE7: latitudeE7, longitudeE7: longitudeE7)
                // A node read only as a corridor's neighbour lies outside it: not one of its places.
                nodeMayBePlace = pass == .all
                nodeKept = true
            } else if name == "way" {
                context = .way
                wayID = try integer("id", of: "way", attributes)
                wayNodeIDs.removeAll(keepingCapacity: true)
                wayTags.removeAll(keepingCapacity: true)
            } else if name == "relation" {
                context = .relation
                relationID = try? integer("id", of: "relation", attributes)
                relationTags.removeAll(keepingCapacity: true)
                relationMembers.removeAll(keepingCapacity: true)
                relationBroken = false
            }
        case .way:
            if name == "nd" {
                wayNodeIDs.append(try integer("ref", of: "<nd> of way \(wayID)", attributes))
            } else if name == "tag" {
                guard let key = attributes["k"], let value = attributes["v"] else {
                    throw OSMError(file: fileName, line: currentLine, field: "tag",
                                   message: "a <tag> of way \(wayID) lacks its k or v attribute")
                }
                wayTags[key] = value
            }
        case .relation:
            if name == "tag" {
                guard let key = attributes["k"], let value = attributes["v"] else { relationBroken = true; return }
                relationTags[key] = value
            } else if name == "member" {
                // A restriction has three or four members; a relation with many is not one this
                // reader uses, and its members are not kept (memory stays linear in what is used).
                guard relationMembers.count < 16 else { relationBroken = true; return }
                let type: OSMRestriction.MemberType
                switch attributes["type"] {
                case "node": type = .node
                case "way": type = .way
                case "relation": type = .relation
                default: relationBroken = true; return
                }
                guard let ref = try? integer("ref", of: "member", attributes) else { relationBroken = true; return }
                relationMembers.append((type, ref, attributes["role"] ?? ""))
            }
        case .node:
            // Only the four keys of a place are turned into strings; a tag without k or v is skipped.
            // A corridor read keeps the places inside it (they name the handles of a router's region).
            guard name == "tag", nodeKept else { return }
            attributes.withCString("k") { key in
                guard let key else { return }
                if let markKey = OSMNodeMark.key(matching: key) {
                    if let value = attributes["v"] { nodeMark.set(markKey, value) }
                    return
                }
                guard nodeMayBePlace else { return }
                if strcmp(key, "name") == 0 { nodeName = attributes["v"] }
                else if strcmp(key, "place") == 0 { nodePlace = attributes["v"] }
                else if strcmp(key, "natural") == 0 { nodeNatural = attributes["v"] }
                else if strcmp(key, "mountain_pass") == 0 { nodeMountainPass = attributes["v"] }
            }
        }
    }

    func endElement(_ name: XMLName, stream: XMLStream) {
        switch (context, name.localName) {
        case (.node, "node"):
            context = .top
            if nodeKept, nodeMark.matters { nodeMarks[nodeID] = nodeMark }
            if nodeName != nil, let place = OSMPlace.make(id: nodeID, latitudeE7: nodeLatitudeE7, longitudeE7: nodeLongitudeE7,
                                                         place: nodePlace, natural: nodeNatural, mountainPass: nodeMountainPass,
                                                         name: nodeName) {
                places.append(place)
            }
        case (.relation, "relation"):
            context = .top
            if let relationID, !relationBroken, pass != .wantedNodes {
                let parsed = OSMRestriction.parse(id: relationID, tags: relationTags, members: relationMembers)
                restrictions.append(contentsOf: keeper == nil ? parsed : keeper!.keptRestrictions(parsed, in: &nodes))
            }
        case (.way, "way"):
            context = .top
            if pass != .wantedNodes, wayKey.map({ wayTags[$0] != nil }) ?? true {
                if keeper != nil {
                    guard let kept = keeper!.keptNodes(of: wayNodeIDs, in: &nodes) else { return }
                    ways.append(OSMWay(id: wayID, nodeIDs: kept, tags: wayTags))
                } else {
                    ways.append(OSMWay(id: wayID, nodeIDs: wayNodeIDs, tags: wayTags))
                }
            }
        default:
            break
        }
    }

    /// A whole decimal integer attribute.
    private func integer(_ name: String, of element: String, _ attributes: XMLAttributes) throws -> Int64 {
        try attributes.withCString(name) { text in
            guard let text else {
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
    }

    /// A decimal-degree attribute within ±`limit`.
    private func degrees(_ name: String, of element: String, _ attributes: XMLAttributes, limit: Double) throws -> Double {
        try attributes.withCString(name) { text in
            guard let text else {
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
    ///   - corridor: when given, only what lies within it, as `read(contentsOf:keepingWaysTagged:corridor:)` keeps.
    /// - Throws: `OSMError` naming `fileName` and the line.
    public static func read(xml: Data, fileName: String, keepingWaysTagged wayKey: String? = "highway",
                            corridor: RouteCorridor? = nil) throws -> OSMData {
        let reader = OSMXMLReader(fileName: fileName, wayKey: wayKey, corridor: corridor)
        return try xml.withUnsafeBytes { try reader.read(bytes: $0) }
    }
}
