/// The protocol-buffer wire types, from the encoding guide
/// (https://protobuf.dev/programming-guides/encoding/#structure).
enum WireType: UInt8, Sendable {
    case varint = 0
    case fixed64 = 1
    case lengthDelimited = 2
    case startGroup = 3
    case endGroup = 4
    case fixed32 = 5
}

/// Malformed protocol-buffer bytes: what was wrong and the byte offset (relative to the buffer the
/// outermost reader was made over, plus its `baseOffset`) where it was found. The PBF reader turns
/// it into an `OSMError` naming the file, the blob and the message being read.
struct ProtobufError: Error, Sendable {
    var offset: Int
    var message: String
}

/// A reader of the protocol-buffer wire format over borrowed bytes: varints, zigzag `sint`,
/// length-delimited fields (sub-messages, strings, packed repeated fields) and fixed-width fields
/// (skipped). It never copies or allocates; a sub-message is another reader over a slice of the
/// same bytes. Only valid while the bytes it was made over are alive.
///
/// Follows https://protobuf.dev/programming-guides/encoding/. Every read is O(bytes read).
struct ProtobufReader {
    /// The bytes of this message (or packed field) alone.
    let bytes: UnsafeRawBufferPointer
    /// Where `bytes` starts in the outermost buffer, so errors give offsets a person can find.
    let baseOffset: Int
    /// The next byte to read, relative to `bytes`.
    private(set) var position = 0

    init(_ bytes: UnsafeRawBufferPointer, baseOffset: Int = 0) {
        self.bytes = bytes
        self.baseOffset = baseOffset
    }

    /// True when every byte has been read.
    var isAtEnd: Bool { position >= bytes.count }

    /// The offset of the next byte in the outermost buffer.
    var absoluteOffset: Int { baseOffset + position }

    private func failure(_ message: String) -> ProtobufError {
        ProtobufError(offset: absoluteOffset, message: message)
    }

    /// The next field's key, or nil at the end of the message.
    /// - Throws: `ProtobufError` for a malformed key, field number 0 or an unknown wire type.
    mutating func nextField() throws(ProtobufError) -> (number: Int, wireType: WireType)? {
        if isAtEnd { return nil }
        let keyOffset = position
        let key = try varint()
        let number = key >> 3
        guard number > 0, number <= 0x1FFF_FFFF else {
            position = keyOffset
            throw failure("field number \(number) is not valid (1…536870911); the message is corrupt")
        }
        guard let wireType = WireType(rawValue: UInt8(key & 7)) else {
            position = keyOffset
            throw failure("wire type \(key & 7) of field \(number) is not a protocol-buffer wire type; the message is corrupt")
        }
        return (Int(number), wireType)
    }

    /// A base-128 varint of at most 10 bytes.
    /// - Throws: `ProtobufError` when the bytes end inside it or it is longer than 10 bytes.
    @inline(__always)
    mutating func varint() throws(ProtobufError) -> UInt64 {
        // Fast path: one byte, by far the most common in OSM data (deltas, string indices).
        if position < bytes.count {
            let first = bytes[position]
            if first < 0x80 {
                position += 1
                return UInt64(first)
            }
        }
        var result: UInt64 = 0
        var shift: UInt64 = 0
        var index = position
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 {
                position = index
                return result
            }
            shift += 7
            if shift >= 70 { throw failure("a varint is longer than 10 bytes; the message is corrupt") }
        }
        throw failure("the message ends inside a varint; the data is truncated")
    }

    /// A zigzag-encoded `sint32`/`sint64`.
    @inline(__always)
    mutating func sint64() throws(ProtobufError) -> Int64 {
        let raw = try varint()
        return Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
    }

    /// An `int32`/`int64` (two's complement in a varint).
    @inline(__always)
    mutating func int64() throws(ProtobufError) -> Int64 {
        Int64(bitPattern: try varint())
    }

    /// The payload of a length-delimited field, as a reader over its bytes.
    /// - Throws: `ProtobufError` when the length runs past the end of the message.
    mutating func lengthDelimited() throws(ProtobufError) -> ProtobufReader {
        let length = try varint()
        guard length <= UInt64(bytes.count - position) else {
            throw failure("a field claims \(length) bytes but only \(bytes.count - position) remain; the data is truncated")
        }
        let start = position
        position += Int(length)
        return ProtobufReader(UnsafeRawBufferPointer(rebasing: bytes[start..<position]), baseOffset: baseOffset + start)
    }

    /// A length-delimited field read as UTF-8 text (invalid sequences become U+FFFD).
    mutating func string() throws(ProtobufError) -> String {
        let field = try lengthDelimited()
        return String(decoding: field.bytes, as: UTF8.self)
    }

    /// Skips a field whose value is not needed.
    /// - Throws: `ProtobufError` when it runs past the end, or for groups (not used by OSM PBF).
    mutating func skip(_ wireType: WireType) throws(ProtobufError) {
        switch wireType {
        case .varint: _ = try varint()
        case .lengthDelimited: _ = try lengthDelimited()
        case .fixed64: try advance(8)
        case .fixed32: try advance(4)
        case .startGroup, .endGroup:
            throw failure("groups (wire types 3 and 4) are not used by the OSM PBF format; the message is corrupt")
        }
    }

    private mutating func advance(_ count: Int) throws(ProtobufError) {
        guard count <= bytes.count - position else {
            throw failure("a \(count)-byte fixed-width field runs past the end of the message; the data is truncated")
        }
        position += count
    }

    /// The values of a repeated varint field, whether written packed (one length-delimited run) or
    /// one value per key, appended to `values`. Call once per occurrence of the field.
    mutating func appendVarints(_ wireType: WireType, to values: inout [UInt64]) throws(ProtobufError) {
        switch wireType {
        case .lengthDelimited:
            var packed = try lengthDelimited()
            while !packed.isAtEnd { values.append(try packed.varint()) }
        case .varint:
            values.append(try varint())
        default:
            throw failure("a repeated varint field has wire type \(wireType.rawValue); the message is corrupt")
        }
    }
}
