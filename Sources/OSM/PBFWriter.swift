import CZlib
import Foundation

/// Writes a minimal OpenStreetMap PBF file (https://wiki.openstreetmap.org/wiki/PBF_Format):
/// an `OSMHeader` blob requiring `OsmSchema-V0.6` and `DenseNodes` and declaring
/// `Sort.Type_then_ID`, then `OSMData` blobs of dense nodes or of ways, each zlib-compressed,
/// in the order the caller gives them (nodes first, ids ascending, for a sorted file).
///
/// Made for generating test and benchmark maps (a grid city of millions of nodes) at run time,
/// so no large map is committed; node tags, metadata and relations are not written.
/// Each block is encoded and compressed in memory, then written: memory is one block.
public final class PBFWriter {
    private let file: UnsafeMutablePointer<FILE>
    private let path: String

    /// Creates (or truncates) the file at `path` and writes its header blob.
    /// - Throws: `OSMError` when the file cannot be created or written.
    public init(path: String) throws {
        guard let file = fopen(path, "wb") else {
            throw OSMError(file: path, message: "cannot create the file: \(String(cString: strerror(errno)))")
        }
        self.file = file
        self.path = path
        var header = ProtobufWriter()
        header.string(4, "OsmSchema-V0.6")
        header.string(4, "DenseNodes")
        header.string(5, "Sort.Type_then_ID")
        header.string(16, "roadbook PBFWriter")
        try writeBlob(type: "OSMHeader", header.bytes)
    }

    deinit { fclose(file) }

    /// Writes one block of nodes as `DenseNodes` (granularity 100 nanodegrees, so coordinates in
    /// 10⁻⁷ degree are kept exactly). The three arrays must have the same length; at most about
    /// 8,000 nodes a block keeps it well under the format's 32 MiB. O(nodes).
    public func writeNodes(ids: [Int64], latitudesE7: [Int32], longitudesE7: [Int32]) throws {
        precondition(ids.count == latitudesE7.count && ids.count == longitudesE7.count, "one coordinate per node")
        var dense = ProtobufWriter()
        dense.packedDeltaSInt64(1, ids)
        dense.packedDeltaSInt64(8, latitudesE7.map(Int64.init))
        dense.packedDeltaSInt64(9, longitudesE7.map(Int64.init))
        var group = ProtobufWriter()
        group.bytes(2, dense.bytes)
        try writeData(strings: [], group: group)
    }

    /// Writes one block of ways, with their tags and node ids. O(way nodes + tags).
    public func writeWays(_ ways: [OSMWay]) throws {
        var strings: [String] = [""]
        var index: [String: UInt64] = [:]
        func stringIndex(_ s: String) -> UInt64 {
            if let i = index[s] { return i }
            strings.append(s)
            index[s] = UInt64(strings.count - 1)
            return UInt64(strings.count - 1)
        }
        var group = ProtobufWriter()
        for way in ways {
            var message = ProtobufWriter()
            message.varint(1, UInt64(bitPattern: way.id))
            let tags = way.tags.sorted { $0.key < $1.key }
            message.packedVarints(2, tags.map { stringIndex($0.key) })
            message.packedVarints(3, tags.map { stringIndex($0.value) })
            message.packedDeltaSInt64(8, way.nodeIDs)
            group.bytes(3, message.bytes)
        }
        try writeData(strings: strings, group: group)
    }

    /// A `PrimitiveBlock` of one group with its string table.
    private func writeData(strings: [String], group: ProtobufWriter) throws {
        var table = ProtobufWriter()
        for s in strings.isEmpty ? [""] : strings { table.string(1, s) }
        var block = ProtobufWriter()
        block.bytes(1, table.bytes)
        block.bytes(2, group.bytes)
        try writeBlob(type: "OSMData", block.bytes)
    }

    /// Frames `block` as a zlib `Blob` behind its `BlobHeader` and 4-byte length.
    private func writeBlob(type: String, _ block: [UInt8]) throws {
        var compressedLength = compressBound(uLong(block.count))
        var compressed = [UInt8](repeating: 0, count: Int(compressedLength))
        let status = compressed.withUnsafeMutableBytes { output in
            block.withUnsafeBytes { input in
                compress2(output.baseAddress!.assumingMemoryBound(to: Bytef.self), &compressedLength,
                          input.baseAddress?.assumingMemoryBound(to: Bytef.self), uLong(block.count), 6)
            }
        }
        guard status == Z_OK else { throw OSMError(file: path, message: "cannot compress a block: \(zlibStatusDescription(status))") }
        var blob = ProtobufWriter()
        blob.varint(2, UInt64(block.count))
        blob.bytes(3, Array(compressed[0..<Int(compressedLength)]))
        var header = ProtobufWriter()
        header.string(1, type)
        header.varint(3, UInt64(blob.bytes.count))
        let length = UInt32(header.bytes.count)
        let frame = [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
        for part in [frame, header.bytes, blob.bytes] {
            guard fwrite(part, 1, part.count, file) == part.count else {
                throw OSMError(file: path, message: "cannot write the file: \(String(cString: strerror(errno)))")
            }
        }
    }
}

/// Encodes protocol-buffer fields (https://protobuf.dev/programming-guides/encoding/).
struct ProtobufWriter {
    private(set) var bytes: [UInt8] = []

    private mutating func rawVarint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(v & 0x7F) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    private mutating func key(_ number: Int, _ wireType: UInt64) { rawVarint(UInt64(number) << 3 | wireType) }

    mutating func varint(_ number: Int, _ value: UInt64) {
        key(number, 0)
        rawVarint(value)
    }

    mutating func bytes(_ number: Int, _ value: [UInt8]) {
        key(number, 2)
        rawVarint(UInt64(value.count))
        bytes.append(contentsOf: value)
    }

    mutating func string(_ number: Int, _ value: String) { bytes(number, Array(value.utf8)) }

    mutating func packedVarints(_ number: Int, _ values: [UInt64]) {
        guard !values.isEmpty else { return }
        var packed = ProtobufWriter()
        for v in values { packed.rawVarint(v) }
        bytes(number, packed.bytes)
    }

    /// Zig-zag `sint64` values, each the difference from the one before (PBF's delta coding).
    mutating func packedDeltaSInt64(_ number: Int, _ values: [Int64]) {
        guard !values.isEmpty else { return }
        var packed = ProtobufWriter()
        var previous: Int64 = 0
        for v in values {
            let delta = v &- previous
            previous = v
            packed.rawVarint(UInt64(bitPattern: (delta << 1) ^ (delta >> 63)))
        }
        bytes(number, packed.bytes)
    }
}
