import Foundation
import Geo
import Model
import XML

/// Reads GPX 1.0 and 1.1 files with a streaming (SAX) parser: memory grows with
/// the number of points kept, never with the size of the file.
///
/// Tracks, routes and waypoints are read with `ele`; `time`, extensions,
/// elements in other namespaces and GPX elements not used here are skipped
/// without error (so a malformed `<time>` does not reject the file). A DOCTYPE is refused, and external entities are never loaded.
public enum GPXReader {
    /// The namespace of GPX 1.0 documents.
    public static let gpx10Namespace = "http://www.topografix.com/GPX/1/0"
    /// The namespace of GPX 1.1 documents.
    public static let gpx11Namespace = "http://www.topografix.com/GPX/1/1"

    /// Reads the GPX file at `url`, 64 KiB at a time.
    /// - Throws: `FormatError` naming the file (as `url.relativePath`), the line
    ///   and the field when the file cannot be read, is not well-formed XML, is
    ///   not GPX, or holds a bad coordinate or `<ele>`.
    public static func read(contentsOf url: URL) throws -> GPXDocument {
        let fileName = url.relativePath
        guard let file = fopen(url.path, "rb") else {
            let reason = String(cString: strerror(errno))
            throw FormatError(file: fileName, message: "cannot open the file: \(reason); check the path and permissions")
        }
        defer { fclose(file) }
        return try read(fileName: fileName) { try $0.parse(file: file) }
    }

    /// Reads a GPX document held in memory.
    /// - Parameter fileName: how errors name the document.
    /// - Throws: `FormatError` as `read(contentsOf:)`.
    public static func read(data: Data, fileName: String) throws -> GPXDocument {
        try read(fileName: fileName) { stream in try data.withUnsafeBytes { try stream.parse(bytes: $0) } }
    }

    /// Runs `parse` on a stream feeding a GPX handler, and words the stream's failures for GPX.
    private static func read(fileName: String, _ parse: (XMLStream) throws -> Void) throws -> GPXDocument {
        let handler = GPXHandler(fileName: fileName)
        do {
            try parse(try XMLStream(handler: handler))
        } catch let error as XMLStreamError {
            throw formatError(error, fileName: fileName)
        }
        return handler.result
    }

    /// A failure of the XML stream as a `FormatError` naming `fileName`.
    private static func formatError(_ error: XMLStreamError, fileName: String) -> FormatError {
        switch error {
        case .cannotCreateParser:
            return FormatError(file: fileName, message: "cannot create an XML parser (out of memory)")
        case .doctypeRefused(let line):
            return FormatError(file: fileName, line: line, field: "DOCTYPE",
                               message: "DOCTYPE is not allowed in GPX (line \(line)); remove the <!DOCTYPE …> declaration")
        case .empty:
            return FormatError(file: fileName, message: "the file is empty; expected a GPX document")
        case .cannotRead(let reason, let line):
            return FormatError(file: fileName, line: line, message: "cannot read the file: \(reason)")
        case .textTooLong(let line, let limit):
            return FormatError(file: fileName, line: line,
                               message: "element text is longer than \(limit) bytes; this is not a GPX text field")
        case .malformed(let fault):
            var message = "XML error: \(fault.message) at column \(fault.column)"
            switch fault.kind {
            case .endsEarly: message += "; the file ends early — it may be truncated, copy or export it again"
            case .outOfMemory: message = "out of memory while parsing XML"
            case .other: message += "; is this a GPX file?"
            case .tooLong: message = "\(fault.message); is this a GPX file?"
            }
            return FormatError(file: fileName, line: fault.line, message: message)
        }
    }
}

/// Hands the stream's events to a `GPXMachine` kept behind a pointer: a class's stored property is
/// checked for exclusive access at run time at every access, a pointee is not, and this is called
/// at every tag of the file.
private final class GPXHandler: XMLStreamHandler {
    /// Allocated in `init`, freed in `deinit`.
    private let machine: UnsafeMutablePointer<GPXMachine>

    init(fileName: String) {
        machine = .allocate(capacity: 1)
        machine.initialize(to: GPXMachine(fileName: fileName))
    }

    deinit {
        machine.deinitialize(count: 1)
        machine.deallocate()
    }

    /// The document read so far: the whole file once the stream has parsed it.
    var result: GPXDocument { machine.pointee.document }

    func startElement(_ name: XMLName, attributes: XMLAttributes, line: Int, stream: XMLStream) throws {
        try machine.pointee.startElement(name, attributes: attributes, line: line, stream: stream)
    }

    func endElement(_ name: XMLName, stream: XMLStream) throws {
        try machine.pointee.endElement(name, stream: stream)
    }
}

/// The GPX state machine: a stack of the open elements the reader cares about, and a depth
/// counter for the subtree being skipped.
///
/// Each distinct element name is classified once (`Element`), by the number the stream gives it;
/// every later tag with that name costs a comparison of numbers, not of strings.
private struct GPXMachine {
    private enum TextField: String { case name, desc, cmt, sym, type, ele }
    private enum PointKind: String { case wpt, trkpt, rtept }
    /// A GPX element the reader knows, or `other` for any other name or namespace.
    private enum Element: UInt8 {
        case unclassified, other, gpx, wpt, trk, rte, metadata, trkseg, trkpt, rtept
        case name, desc, cmt, sym, type, ele
    }
    private enum Frame {
        case gpx, metadata, track, segment, route
        case point(PointKind)
        case text(TextField, line: Int)
    }
    private struct PendingPoint {
        var coordinate = Coordinate(latitude: 0, longitude: 0)
        var line = 0
        var elevation: Metres?
        var name, desc, cmt, sym, type: String?
    }

    private let fileName: String
    /// The document read so far: the whole file once the stream has parsed it.
    private(set) var document: GPXDocument
    /// The namespace of `<gpx>`; GPX elements are those in this namespace.
    private var gpxNamespace: String?
    private var stack: [Frame] = []
    /// Open elements inside a skipped element (extensions, unknown elements), counting it.
    private var skipDepth = 0
    private var track = GPXTrack()
    private var segment: [GPXPoint] = []
    private var route = GPXRoute()
    private var point = PendingPoint()
    /// The element of each numbered name (`XMLName.number`), classified when first met.
    private var elements: [Element] = []

    init(fileName: String) {
        self.fileName = fileName
        self.document = GPXDocument(fileName: fileName)
    }

    mutating func startElement(_ name: XMLName, attributes: XMLAttributes, line: Int, stream: XMLStream) throws {
        if skipDepth > 0 {
            skipDepth += 1
            return
        }
        guard let parent = stack.last else {
            try startRoot(name, attributes: attributes, line: line)
            return
        }
        guard let frame = Self.child(of: parent, element(name), line: line) else {
            skipDepth = 1
            return
        }
        switch frame {
        case .point(let kind):
            point = PendingPoint(coordinate: try Self.coordinate(of: kind, attributes: attributes, line: line, fileName: fileName),
                                 line: line)
        case .track:
            track = GPXTrack()
        case .segment:
            segment = []
        case .route:
            route = GPXRoute()
        case .text:
            stream.collectsText = true
        case .gpx, .metadata:
            break
        }
        stack.append(frame)
    }

    mutating func endElement(_ name: XMLName, stream: XMLStream) throws {
        if skipDepth > 0 {
            skipDepth -= 1
            return
        }
        let closed = stack.removeLast()
        let isInPoint = if case .point? = stack.last { true } else { false }
        switch closed {
        case .text(.ele, let line) where isInPoint:
            let fileName = self.fileName
            point.elevation = try stream.withTextBytes { try Self.elevation($0, line: line, fileName: fileName) }
        case .text(let field, _):
            store(stream.text, as: field)
        case .point(.wpt):
            document.waypoints.append(GPXWaypoint(
                coordinate: point.coordinate, elevation: point.elevation, name: point.name,
                description: point.desc, comment: point.cmt, symbol: point.sym, type: point.type, line: point.line))
        case .point(.trkpt):
            segment.append(GPXPoint(coordinate: point.coordinate, elevation: point.elevation,
                                    line: point.line))
        case .point(.rtept):
            route.points.append(GPXPoint(coordinate: point.coordinate, elevation: point.elevation,
                                         line: point.line, name: point.name, symbol: point.sym, type: point.type))
        case .segment:
            track.segments.append(segment)
            segment = []
        case .track:
            document.tracks.append(track)
        case .route:
            document.routes.append(route)
        case .gpx, .metadata:
            break
        }
    }

    private mutating func startRoot(_ name: XMLName, attributes: XMLAttributes, line: Int) throws {
        guard name.localName == "gpx" else {
            throw FormatError(file: fileName, line: line, field: name.localName,
                              message: "expected <gpx>, found <\(name.localName)>; this is not a GPX file")
        }
        switch name.namespace {
        case nil, GPXReader.gpx10Namespace?, GPXReader.gpx11Namespace?:
            gpxNamespace = name.namespace
        case let other?:
            throw FormatError(file: fileName, line: line, field: "gpx",
                              message: "<gpx> is in namespace \"\(other)\"; expected GPX 1.0 "
                                  + "(\(GPXReader.gpx10Namespace)) or 1.1 (\(GPXReader.gpx11Namespace))")
        }
        document.creator = attributes["creator"]
        stack.append(.gpx)
    }

    /// What `name` is, from its number when the stream numbered it (classified on first sight).
    private mutating func element(_ name: XMLName) -> Element {
        guard let number = name.number else { return Self.classify(name, gpxNamespace: gpxNamespace) }
        if number >= elements.count { elements.append(contentsOf: repeatElement(.unclassified, count: number + 1 - elements.count)) }
        if elements[number] == .unclassified { elements[number] = Self.classify(name, gpxNamespace: gpxNamespace) }
        return elements[number]
    }

    // The functions below are static, taking what they read: a method of this struct called from a
    // mutating one would be handed a copy of the whole machine, retaining every array, at every tag.

    /// What `name` is: a GPX element in the document's GPX namespace, or `other`.
    private static func classify(_ name: XMLName, gpxNamespace: String?) -> Element {
        guard name.namespace == gpxNamespace else { return .other }
        switch name.localName {
        case "gpx": return .gpx
        case "wpt": return .wpt
        case "trk": return .trk
        case "rte": return .rte
        case "metadata": return .metadata
        case "trkseg": return .trkseg
        case "trkpt": return .trkpt
        case "rtept": return .rtept
        case "name": return .name
        case "desc": return .desc
        case "cmt": return .cmt
        case "sym": return .sym
        case "type": return .type
        case "ele": return .ele
        default: return .other
        }
    }

    /// The frame for a GPX element inside `parent`, or nil when the reader skips it.
    private static func child(of parent: Frame, _ element: Element, line: Int) -> Frame? {
        switch (parent, element) {
        case (.gpx, .wpt): return .point(.wpt)
        case (.gpx, .trk): return .track
        case (.gpx, .rte): return .route
        case (.gpx, .metadata): return .metadata
        case (.gpx, .name), (.metadata, .name), (.track, .name), (.route, .name): return .text(.name, line: line)
        case (.track, .trkseg): return .segment
        case (.segment, .trkpt): return .point(.trkpt)
        case (.route, .rtept): return .point(.rtept)
        case (.point(let kind), _):
            // A route point is a stop: its name and type are kept; a track point keeps its height only.
            if element == .ele { return .text(.ele, line: line) }
            guard kind != .trkpt, let field = Self.textField(element) else { return nil }
            return .text(field, line: line)
        default: return nil
        }
    }

    /// The text field a point's child element is, if it is one.
    private static func textField(_ element: Element) -> TextField? {
        switch element {
        case .name: .name
        case .desc: .desc
        case .cmt: .cmt
        case .sym: .sym
        case .type: .type
        case .ele: .ele
        default: nil
        }
    }

    /// Puts the text of a closed text element (not `ele` of a point, which
    /// is parsed from bytes) where it belongs: the frame now on top.
    private mutating func store(_ text: String, as field: TextField) {
        switch (stack.last, field) {
        case (.point?, .name): point.name = text
        case (.point?, .desc): point.desc = text
        case (.point?, .cmt): point.cmt = text
        case (.point?, .sym): point.sym = text
        case (.point?, .type): point.type = text
        case (.track?, .name): track.name = text
        case (.route?, .name): route.name = text
        case (.gpx?, .name), (.metadata?, .name): document.name = text
        default: break
        }
    }

    private static func coordinate(of kind: PointKind, attributes: XMLAttributes, line: Int, fileName: String) throws -> Coordinate {
        let latitude = try degrees("lat", of: kind, attributes: attributes, limit: 90, line: line, fileName: fileName)
        let longitude = try degrees("lon", of: kind, attributes: attributes, limit: 180, line: line, fileName: fileName)
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    /// Reads a `lat` or `lon` attribute: a finite decimal number in −limit…limit.
    private static func degrees(_ attribute: String, of kind: PointKind, attributes: XMLAttributes, limit: Double,
                                line: Int, fileName: String) throws -> Degrees {
        try attributes.withValue(attribute) { raw in
            guard let raw else {
                throw FormatError(file: fileName, line: line, field: attribute,
                                  message: "<\(kind.rawValue)> has no \(attribute) attribute; "
                                      + "every point needs lat and lon in decimal degrees")
            }
            guard let value = decimal(raw) else {
                throw FormatError(file: fileName, line: line, field: attribute,
                                  message: "<\(kind.rawValue)> \(attribute)=\"\(String(decoding: raw, as: UTF8.self))\" "
                                      + "is not a decimal number of degrees")
            }
            guard abs(value) <= limit else {
                throw FormatError(file: fileName, line: line, field: attribute,
                                  message: "<\(kind.rawValue)> \(attribute)=\"\(String(decoding: raw, as: UTF8.self))\" "
                                      + "is out of range (−\(Int(limit))…\(Int(limit)))")
            }
            return value
        }
    }

    /// `<ele>`: metres as a decimal number. Empty text means no elevation.
    private static func elevation(_ text: UnsafeBufferPointer<UInt8>, line: Int, fileName: String) throws -> Metres? {
        let trimmed = trimmingWhitespace(text)
        if trimmed.isEmpty { return nil }
        guard let value = decimal(trimmed) else {
            throw FormatError(file: fileName, line: line, field: "ele",
                              message: "<ele> \"\(String(decoding: trimmed, as: UTF8.self))\" is not a number; "
                                  + "elevation must be metres, such as 1234.5")
        }
        guard BookLimits.heights.contains(value) else {
            throw FormatError(file: fileName, line: line, field: "ele",
                              message: "<ele> \(String(decoding: trimmed, as: UTF8.self).prefix(40)) m is not a height on Earth "
                                  + "(\(Int(BookLimits.heights.lowerBound))…\(Int(BookLimits.heights.upperBound)) m); "
                                  + "remove the <ele> or correct it")
        }
        return value
    }
}

/// True for the four XML whitespace bytes: space, tab, line feed, carriage return.
private func isXMLWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
}

/// `bytes` without leading and trailing XML whitespace. O(length), no copy.
private func trimmingWhitespace(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
    var start = 0
    var end = bytes.count
    while start < end, isXMLWhitespace(bytes[start]) { start += 1 }
    while end > start, isXMLWhitespace(bytes[end - 1]) { end -= 1 }
    return UnsafeBufferPointer(rebasing: bytes[start..<end])
}

/// A finite decimal number, surrounding whitespace allowed: optional sign, digits
/// with an optional point, and an optional exponent. Refuses `nan`, `inf` and
/// hexadecimal, which `Double.init` would accept.
private func decimal(_ raw: UnsafeBufferPointer<UInt8>) -> Double? {
    let bytes = trimmingWhitespace(raw)
    guard !bytes.isEmpty else { return nil }
    if let value = exactDecimal(bytes) { return value }
    for byte in bytes {
        switch byte {
        case 0x30...0x39, 0x2E, 0x2D, 0x2B, 0x65, 0x45: continue  // 0-9 . - + e E
        default: return nil
        }
    }
    guard let value = cLocaleStrtod(bytes), value.isFinite else { return nil }
    return value
}

/// The C locale's numbers, for `strtod`: a point as the decimal separator, whatever the process's
/// locale says. Nil if the C library cannot make it (then `Double(String)` reads the numbers).
private nonisolated(unsafe) let cNumericLocale = newlocale(LC_NUMERIC_MASK, "C", nil)

/// Longest number read in a buffer on the stack; a longer one goes through a String.
private let longestStackNumber = 64

/// `bytes` read by `strtod` in the C locale, as `Double(String)` reads them, but without building a
/// String (an allocation for more than 15 bytes, as many coordinates have); nil unless every byte
/// is part of the number.
private func cLocaleStrtod(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
    guard bytes.count < longestStackNumber, let cNumericLocale else { return Double(String(decoding: bytes, as: UTF8.self)) }
    return withUnsafeTemporaryAllocation(of: CChar.self, capacity: bytes.count + 1) { buffer in
        let start = buffer.baseAddress!
        UnsafeMutableRawPointer(start).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
        start[bytes.count] = 0
        // The locale of this thread only, and only for this call.
        let previous = uselocale(cNumericLocale)
        defer { uselocale(previous) }
        var end: UnsafeMutablePointer<CChar>?
        let value = strtod(start, &end)
        return end == start + bytes.count ? value : nil
    }
}

/// 10⁰ … 10²², every one exactly a Double.
private let exactPowersOfTen: [Double] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12,
                                          1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22]

/// The common coordinate or height, `[+-]digits[.digits]` with at most 2⁵³ as its digits read as
/// an integer and at most 22 after the point, read without building a String: that integer and
/// the power of ten are both exact Doubles, so one division rounds correctly and gives what
/// `Double(String)` gives (Clinger's fast path: W. D. Clinger, "How to read floating point numbers
/// accurately", PLDI 1990). Nil for anything else, which `decimal` reads the slow way.
private func exactDecimal(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
    let negative = bytes[0] == 0x2D
    var index = negative || bytes[0] == 0x2B ? 1 : 0
    var significand: UInt64 = 0
    var digits = 0
    var pointAt = -1
    // Wrapping arithmetic: the checks below keep every value far from overflow.
    while index < bytes.count {
        let digit = bytes[index] &- 0x30
        if digit < 10 {
            // Below 2⁵³ before this digit, so ten times it plus nine cannot overflow.
            significand = significand &* 10 &+ UInt64(digit)
            guard significand <= 1 << 53 else { return nil }
            digits &+= 1
        } else if bytes[index] == 0x2E && pointAt < 0 {
            pointAt = digits
        } else {
            return nil
        }
        index &+= 1
    }
    let fractionDigits = pointAt < 0 ? 0 : digits - pointAt
    guard digits > 0, fractionDigits < exactPowersOfTen.count else { return nil }
    let value = Double(significand) / exactPowersOfTen[fractionDigits]
    return negative ? -value : value
}
