/// Protocol-buffer fields for crafted PBF files, shared by the reader tests.
enum PBFWire {
    static func varint(_ value: UInt64) -> [UInt8] {
        var v = value, out: [UInt8] = []
        while v >= 0x80 { out.append(UInt8(v & 0x7F) | 0x80); v >>= 7 }
        return out + [UInt8(v)]
    }
    static func zigzag(_ value: Int64) -> UInt64 { UInt64(bitPattern: (value << 1) ^ (value >> 63)) }
    static func bytes(_ number: Int, _ payload: [UInt8]) -> [UInt8] {
        varint(UInt64(number << 3 | 2)) + varint(UInt64(payload.count)) + payload
    }
    static func string(_ number: Int, _ text: String) -> [UInt8] { bytes(number, Array(text.utf8)) }
    static func value(_ number: Int, _ value: UInt64) -> [UInt8] { varint(UInt64(number << 3)) + varint(value) }
    static func packedSInt(_ number: Int, deltasOf values: [Int64]) -> [UInt8] {
        var previous: Int64 = 0, payload: [UInt8] = []
        for v in values { payload += varint(zigzag(v - previous)); previous = v }
        return bytes(number, payload)
    }
    static func packed(_ number: Int, _ values: [UInt64]) -> [UInt8] { bytes(number, values.flatMap(varint)) }

    /// One framed blob: 4-byte big-endian length, BlobHeader, Blob holding `blobFields`.
    static func frame(type: String, blobFields: [UInt8]) -> [UInt8] {
        let header = string(1, type) + value(3, UInt64(blobFields.count))
        let length = UInt32(header.count)
        return [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)] + header + blobFields
    }
    /// A raw (uncompressed) blob holding `block`.
    static func rawBlob(type: String, _ block: [UInt8]) -> [UInt8] {
        frame(type: type, blobFields: bytes(1, block) + value(2, UInt64(block.count)))
    }
    /// The OSMHeader blob, with the required features given.
    static func header(features: [String] = ["OsmSchema-V0.6", "DenseNodes"]) -> [UInt8] {
        rawBlob(type: "OSMHeader", features.flatMap { string(4, $0) } + string(16, "roadbook-test"))
    }
}
