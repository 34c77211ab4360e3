import CZlib
import Foundation

/// Reads the OpenStreetMap PBF format, following https://wiki.openstreetmap.org/wiki/PBF_Format
/// and its schemas `fileformat.proto` (framing) and `osmformat.proto` (content).
///
/// A file is a sequence of blobs, each framed as a 4-byte big-endian length, a `BlobHeader` of that
/// length (`type`, `datasize`) and a `Blob` of `datasize` bytes holding one block, raw or
/// zlib-compressed. The first block is an `OSMHeader` (`HeaderBlock`); the others are `OSMData`
/// (`PrimitiveBlock`: a string table, coordinate granularity and offsets, and groups of nodes,
/// dense nodes, ways and relations). Nodes come before ways in a sorted file, so every node's
/// coordinate is kept until the ways are known.
///
/// Nodes' tags are read only for named places (`OSMPlace`), on string indices, and only in blocks
/// whose string table holds a place key; a damaged tag run loses the block's places, never the file.
///
/// One blob is in memory at a time (at most 32 MiB compressed plus 32 MiB inflated, the format's
/// limits); the read buffers are reused from blob to blob. Every size a file declares is checked
/// before anything is allocated: a blob against the bytes the file has left, an inflated block
/// against `maximumInflationRatio` times its compressed size. So what is read — and the nodes and
/// ways kept — is at most a constant times the file's size. O(file size).
final class PBFReader {
    /// `BlobHeader` must be smaller than 64 KiB (PBF_Format, "File format").
    static let maximumHeaderSize = 64 * 1024
    /// A blob, compressed or not, must be smaller than 32 MiB (PBF_Format, "File format").
    static let maximumBlobSize = 32 * 1024 * 1024
    /// A zlib blob may inflate to at most this many times its compressed size (or
    /// `smallBlockAllowance`, whichever is more). Real OSMData blocks inflate 2–3 times (the Andorra
    /// extract's largest, 2.6); a block that inflates hundreds of times is a crafted bomb whose
    /// millions of three-byte nodes would take gigabytes.
    static let maximumInflationRatio = 20
    /// Blocks up to this size (bytes, inflated) are accepted whatever their ratio: a tiny header
    /// block may compress well without costing anything.
    static let smallBlockAllowance = 64 * 1024
    /// The `HeaderBlock.required_features` this reader implements. Any other (such as
    /// `HistoricalInformation`) changes what the data means, so the file is refused.
    static let supportedFeatures: Set<String> = ["OsmSchema-V0.6", "DenseNodes"]

    private let path: String
    private let fileName: String
    private let wayKey: [UInt8]?
    private var nodes = OSMNodeTable()
    private var ways: [OSMWay] = []
    private var restrictions: [OSMRestriction] = []
    private var places: [OSMPlace] = []
    /// The marks of the nodes read (`OSMNodeMark`), by node id.
    private var marks: [Int64: OSMNodeMark] = [:]
    /// When reading a corridor: what to keep, and whether the ways need a second pass.
    private var keeper: CorridorKeeper?
    /// What the current pass reads: everything, or (for a corridor) the ways and relations again,
    /// or the nodes next to the corridor's nodes on its ways.
    private var pass = CorridorKeeper.Pass.all
    /// The `OSMData` blobs that hold nodes: their index, offset and node id range, so the pass for
    /// the wanted nodes reads only the blobs that may hold them.
    private var nodeBlobs: [(index: Int, offset: Int, ids: ClosedRange<Int64>)] = []
    /// The node ids of the block being read, lowest and highest.
    private var blockIDs: (low: Int64, high: Int64)?

    /// The blob being read (0-based) and the file offset of its 4-byte length, for errors.
    private var blobIndex = 0
    private var blobOffset = 0
    private var sawHeader = false

    /// Reused buffers: the blob as stored, and the inflated block.
    private var stored: [UInt8] = []
    private var inflated: [UInt8] = []

    /// - Parameters:
    ///   - path: the file to open.
    ///   - fileName: how errors name it.
    ///   - wayKey: keep only ways carrying this tag key; nil keeps all.
    ///   - corridor: keep only the nodes inside it and the ways and restrictions that use them
    ///     (`CorridorKeeper`); nil keeps the whole file.
    init(path: String, fileName: String, wayKey: String?, corridor: RouteCorridor? = nil) {
        self.path = path
        self.fileName = fileName
        self.wayKey = wayKey.map { Array($0.utf8) }
        self.keeper = corridor.map(CorridorKeeper.init)
    }

    private func error(_ message: String, field: String? = nil) -> OSMError {
        OSMError(file: fileName, blob: blobIndex, byteOffset: blobOffset, field: field, message: message)
    }

    /// Turns a wire-format error inside block `what` into an `OSMError` at the current blob.
    private func error(_ wireError: ProtobufError, in what: String) -> OSMError {
        error("\(what): \(wireError.message) (at byte \(wireError.offset) of the block)", field: what)
    }

    /// Reads the whole file. For a corridor, then reads again the ways and relations when the file's
    /// nodes do not all come before its ways, and last the blobs holding the wanted nodes
    /// (`CorridorKeeper.wanted`).
    /// - Throws: `OSMError` naming the file, the blob and its byte offset.
    func read() throws -> OSMData {
        try readPass()
        if let keeper {
            if keeper.sawNodeAfterWay {
                nodes.finish()
                ways = []
                restrictions = []
                self.keeper!.wanted = []
                pass = .waysAndRelations
                (blobIndex, blobOffset) = (0, 0)
                try readPass()
            }
            let wanted = self.keeper!.wanted.sorted()
            if !wanted.isEmpty {
                pass = .wantedNodes
                // A blob may hold a wanted node when some wanted id falls in its id range.
                let blobs = nodeBlobs.filter { blob in
                    var low = 0, high = wanted.count
                    while low < high {
                        let middle = (low + high) / 2
                        if wanted[middle] < blob.ids.lowerBound { low = middle + 1 } else { high = middle }
                    }
                    return low < wanted.count && wanted[low] <= blob.ids.upperBound
                }
                try readPass(only: blobs.map { ($0.index, $0.offset) })
            }
        }
        nodes.finish()
        return OSMData(nodes: nodes, ways: ways, restrictions: restrictions, places: places, nodeMarks: marks)
    }

    /// Reads every blob of the file once, or only the blobs at the given indices and offsets.
    private func readPass(only blobs: [(index: Int, offset: Int)]? = nil) throws {
        guard let file = fopen(path, "rb") else {
            throw OSMError(file: fileName, message: "cannot open the file: \(String(cString: strerror(errno))); check the path and permissions")
        }
        defer { fclose(file) }
        var status = stat()
        guard fstat(fileno(file), &status) == 0 else {
            throw OSMError(file: fileName, message: "cannot read the file: \(String(cString: strerror(errno)))")
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            throw OSMError(file: fileName, message: "is not a regular file; give the path of an .osm.pbf file")
        }
        let fileSize = Int(status.st_size)
        var offset = 0
        if let blobs {
            for blob in blobs {
                guard fseek(file, blob.offset, SEEK_SET) == 0 else {
                    throw OSMError(file: fileName, message: "cannot read the file: \(String(cString: strerror(errno)))")
                }
                (offset, blobIndex) = (blob.offset, blob.index)
                guard try readFrame(file, fileSize: fileSize, offset: &offset) else { break }
            }
            return
        }
        blobIndex = 0
        while try readFrame(file, fileSize: fileSize, offset: &offset) {
            blobIndex += 1
        }
    }

    /// Reads the blob at `offset` (the file's position), moving `offset` past it; false at the end of the file.
    private func readFrame(_ file: UnsafeMutablePointer<FILE>, fileSize: Int, offset: inout Int) throws -> Bool {
        do {
            blobOffset = offset
            var lengthBytes = [UInt8](repeating: 0, count: 4)
            let lengthRead = try readBytes(file, into: &lengthBytes, count: 4)
            if lengthRead == 0 {
                if blobIndex == 0 { throw error("the file is empty; expected an OSM PBF file") }
                return false
            }
            guard lengthRead == 4 else {
                throw error("the file ends \(lengthRead) bytes into a blob's 4-byte length; the file is truncated, download it again")
            }
            let headerLength = lengthBytes.reduce(0) { $0 << 8 | Int($1) }
            guard headerLength > 0, headerLength < Self.maximumHeaderSize else {
                throw error("BlobHeader length \(headerLength) is outside 1…\(Self.maximumHeaderSize - 1) bytes; this is not an OSM PBF file or it is corrupt",
                            field: "BlobHeader")
            }
            offset += 4
            guard headerLength <= fileSize - offset else {
                throw error("the file ends \(fileSize - offset) bytes into a \(headerLength)-byte BlobHeader; the file is truncated, download it again",
                            field: "BlobHeader")
            }
            var headerBytes = [UInt8](repeating: 0, count: headerLength)
            let headerRead = try readBytes(file, into: &headerBytes, count: headerLength)
            guard headerRead == headerLength else {
                throw error("the file ends \(headerRead) bytes into a \(headerLength)-byte BlobHeader; the file is truncated, download it again",
                            field: "BlobHeader")
            }
            offset += headerLength
            let (type, dataSize) = try parseBlobHeader(headerBytes)
            guard dataSize >= 0, dataSize < Self.maximumBlobSize else {
                throw error("BlobHeader.datasize \(dataSize) is outside 0…\(Self.maximumBlobSize - 1) bytes; the file is corrupt",
                            field: "BlobHeader.datasize")
            }
            guard dataSize <= fileSize - offset else {
                throw error("the file ends \(fileSize - offset) bytes into a \(dataSize)-byte \(type) blob; the file is truncated, download it again",
                            field: "Blob")
            }
            if stored.count < dataSize { stored = [UInt8](repeating: 0, count: dataSize) }
            let dataRead = try readBytes(file, into: &stored, count: dataSize)
            guard dataRead == dataSize else {
                throw error("the file ends \(dataRead) bytes into a \(dataSize)-byte \(type) blob; the file is truncated, download it again",
                            field: "Blob")
            }
            offset += dataSize
            blockIDs = nil
            try readBlob(type: type, size: dataSize)
            if pass == .all, keeper != nil, let ids = blockIDs { nodeBlobs.append((blobIndex, blobOffset, ids.low...ids.high)) }
            return true
        }
    }

    /// Reads up to `count` bytes; returns how many were read (fewer only at the end of the file).
    private func readBytes(_ file: UnsafeMutablePointer<FILE>, into buffer: inout [UInt8], count: Int) throws -> Int {
        let read = buffer.withUnsafeMutableBytes { fread($0.baseAddress, 1, count, file) }
        if read < count, ferror(file) != 0 {
            throw error("cannot read the file: \(String(cString: strerror(errno)))")
        }
        return read
    }

    /// `BlobHeader { required string type = 1; optional bytes indexdata = 2; required int32 datasize = 3; }`
    private func parseBlobHeader(_ bytes: [UInt8]) throws -> (type: String, dataSize: Int) {
        do {
            return try bytes.withUnsafeBytes { buffer in
                var reader = ProtobufReader(buffer)
                var type: String?
                var dataSize: Int64?
                while let (number, wireType) = try reader.nextField() {
                    switch (number, wireType) {
                    case (1, .lengthDelimited): type = try reader.string()
                    case (3, .varint): dataSize = try reader.int64()
                    default: try reader.skip(wireType)
                    }
                }
                guard let type, let dataSize else {
                    throw ProtobufError(offset: 0, message: "the required field \(type == nil ? "type" : "datasize") is missing")
                }
                return (type, Int(truncatingIfNeeded: dataSize))
            }
        } catch let wireError as ProtobufError {
            throw self.error(wireError, in: "BlobHeader")
        }
    }

    /// `Blob { optional int32 raw_size = 2; oneof data { bytes raw = 1; bytes zlib_data = 3;
    /// bytes lzma_data = 4; bytes OBSOLETE_bzip2_data = 5; bytes lz4_data = 6; bytes zstd_data = 7; } }`
    /// Finds the data, inflates it when zlib-compressed, and reads the block.
    private func readBlob(type: String, size: Int) throws {
        // Unknown blob types are skipped, as PBF_Format asks of readers.
        guard type == "OSMHeader" || type == "OSMData" else { return }
        if type == "OSMData", !sawHeader {
            throw error("an OSMData blob comes before the OSMHeader blob; the file is not a valid OSM PBF file", field: "BlobHeader.type")
        }
        let storedCopy = stored
        stored = []
        defer { stored = storedCopy }
        try storedCopy.withUnsafeBytes { all in
            let blob = UnsafeRawBufferPointer(rebasing: all[0..<size])
            var rawSize: Int?
            var data: ProtobufReader?
            var compression = "raw"
            do throws(ProtobufError) {
                var reader = ProtobufReader(blob)
                while let (number, wireType) = try reader.nextField() {
                    switch (number, wireType) {
                    case (1, .lengthDelimited): data = try reader.lengthDelimited(); compression = "raw"
                    case (2, .varint): rawSize = Int(truncatingIfNeeded: try reader.int64())
                    case (3, .lengthDelimited): data = try reader.lengthDelimited(); compression = "zlib"
                    case (4, .lengthDelimited), (5, .lengthDelimited), (6, .lengthDelimited), (7, .lengthDelimited):
                        let name = [4: "lzma", 5: "bzip2", 6: "lz4", 7: "zstd"][number]!
                        throw ProtobufError(offset: reader.absoluteOffset,
                                            message: "the block is \(name)-compressed, which this reader does not support; "
                                                + "convert the file to zlib compression (for example `osmium cat -o out.osm.pbf in.osm.pbf`)")
                    default: try reader.skip(wireType)
                    }
                }
            } catch {
                throw self.error(error, in: "Blob")
            }
            guard let data else { throw self.error("the blob holds no data (no raw or zlib_data field)", field: "Blob") }
            if compression == "raw" {
                try readBlock(type: type, data.bytes)
                return
            }
            guard let rawSize, rawSize >= 0, rawSize < Self.maximumBlobSize else {
                throw self.error("a zlib blob needs raw_size within 0…\(Self.maximumBlobSize - 1) bytes, but it is \(rawSize.map(String.init) ?? "missing")",
                                 field: "Blob.raw_size")
            }
            let inflationLimit = max(Self.maximumInflationRatio * data.bytes.count, Self.smallBlockAllowance)
            guard rawSize <= inflationLimit else {
                throw self.error("raw_size \(rawSize) bytes is over \(Self.maximumInflationRatio) times the \(data.bytes.count) compressed bytes; "
                                    + "real OSM blocks inflate 2–3 times, so the file is corrupt or crafted",
                                 field: "Blob.raw_size")
            }
            if inflated.count < rawSize { inflated = [UInt8](repeating: 0, count: rawSize) }
            var inflatedCopy = inflated
            inflated = []
            defer { inflated = inflatedCopy }
            try inflatedCopy.withUnsafeMutableBytes { output in
                var outputLength = uLongf(rawSize)
                let status = uncompress(output.baseAddress!.assumingMemoryBound(to: Bytef.self), &outputLength,
                                        data.bytes.baseAddress?.assumingMemoryBound(to: Bytef.self), uLong(data.bytes.count))
                guard status == Z_OK else {
                    throw self.error("cannot inflate the zlib data: \(zlibStatusDescription(status)); the file is corrupt, download it again",
                                     field: "Blob.zlib_data")
                }
                guard Int(outputLength) == rawSize else {
                    throw self.error("the zlib data inflates to \(outputLength) bytes but raw_size says \(rawSize); the file is corrupt",
                                     field: "Blob.raw_size")
                }
                try readBlock(type: type, UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(output)[0..<rawSize]))
            }
        }
    }

    private func readBlock(type: String, _ bytes: UnsafeRawBufferPointer) throws {
        if type == "OSMHeader" {
            try readHeaderBlock(bytes)
            sawHeader = true
        } else {
            do throws(ProtobufError) {
                try readPrimitiveBlock(bytes)
            } catch {
                throw self.error(error, in: "PrimitiveBlock")
            }
        }
    }

    /// `HeaderBlock { optional HeaderBBox bbox = 1; repeated string required_features = 4; … }`:
    /// refuses a file that requires a feature this reader does not implement.
    private func readHeaderBlock(_ bytes: UnsafeRawBufferPointer) throws {
        var required: [String] = []
        do throws(ProtobufError) {
            var reader = ProtobufReader(bytes)
            while let (number, wireType) = try reader.nextField() {
                if number == 4, wireType == .lengthDelimited {
                    required.append(try reader.string())
                } else {
                    try reader.skip(wireType)
                }
            }
        } catch {
            throw self.error(error, in: "HeaderBlock")
        }
        let unsupported = required.filter { !Self.supportedFeatures.contains($0) }
        if !unsupported.isEmpty {
            throw error("the file requires \(unsupported.map { "\"\($0)\"" }.joined(separator: ", ")), which this reader does not support "
                            + "(it reads \(Self.supportedFeatures.sorted().joined(separator: " and "))); extract a current, non-history file",
                        field: "HeaderBlock.required_features")
        }
    }

    /// `PrimitiveBlock { required StringTable stringtable = 1; repeated PrimitiveGroup primitivegroup = 2;
    /// optional int32 granularity = 17 [default=100]; optional int64 lat_offset = 19; optional int64 lon_offset = 20; … }`
    ///
    /// The string table and the coordinate scale may come after the groups on the wire, so the
    /// block's fields are located first and the groups read second.
    private func readPrimitiveBlock(_ bytes: UnsafeRawBufferPointer) throws(ProtobufError) {
        var reader = ProtobufReader(bytes)
        var strings = PBFStringTable()
        var groups: [ProtobufReader] = []
        var scale = PBFScale()
        while let (number, wireType) = try reader.nextField() {
            switch (number, wireType) {
            case (1, .lengthDelimited): strings = try PBFStringTable(try reader.lengthDelimited())
            case (2, .lengthDelimited): groups.append(try reader.lengthDelimited())
            case (17, .varint): scale.granularity = try reader.int64()
            case (19, .varint): scale.latitudeOffset = try reader.int64()
            case (20, .varint): scale.longitudeOffset = try reader.int64()
            default: try reader.skip(wireType)
            }
        }
        guard scale.granularity > 0 else {
            throw ProtobufError(offset: 0, message: "granularity \(scale.granularity) is not positive")
        }
        let keyIndex = wayKey.flatMap { strings.index(of: $0) }
        let placeStrings = PBFPlaceStrings(strings)
        // A block whose strings lack `type` or `restriction` holds no turn restriction.
        let restrictionStrings = strings.index(of: Array("type".utf8)).flatMap { type in
            strings.index(of: Array("restriction".utf8)).map { (type: type, restriction: $0) }
        }
        for var group in groups {
            // PrimitiveGroup { repeated Node nodes = 1; optional DenseNodes dense = 2; repeated Way ways = 3;
            //                  repeated Relation relations = 4; repeated ChangeSet changesets = 5; }
            while let (number, wireType) = try group.nextField() {
                switch (number, wireType) {
                case (1, .lengthDelimited):
                    let node = try group.lengthDelimited()
                    if pass != .waysAndRelations { try readNode(node, scale: scale, places: placeStrings, strings: strings) }
                case (2, .lengthDelimited):
                    let dense = try group.lengthDelimited()
                    if pass != .waysAndRelations { try readDenseNodes(dense, scale: scale, places: placeStrings, strings: strings) }
                case (3, .lengthDelimited):
                    let way = try group.lengthDelimited()
                    // With a way key asked for and absent from this block's strings, no way here can carry it.
                    if pass != .wantedNodes, wayKey == nil || keyIndex != nil { try readWay(way, strings: strings, keyIndex: keyIndex) }
                case (4, .lengthDelimited):
                    let relation = try group.lengthDelimited()
                    if pass != .wantedNodes, let restriction = restrictionStrings {
                        try readRelation(relation, strings: strings, restriction: restriction)
                    }
                default: try group.skip(wireType)
                }
            }
        }
    }

    /// `Node { required sint64 id = 1; repeated uint32 keys = 2 [packed]; repeated uint32 vals = 3 [packed];
    /// … required sint64 lat = 8; required sint64 lon = 9; }` — tags read only for a place (`OSMPlace`).
    private func readNode(_ bytes: ProtobufReader, scale: PBFScale, places placeStrings: PBFPlaceStrings,
                          strings: PBFStringTable) throws(ProtobufError) {
        var reader = bytes
        var id: Int64?, latitude: Int64?, longitude: Int64?
        var keys: ProtobufReader?, values: ProtobufReader?
        while let (number, wireType) = try reader.nextField() {
            switch (number, wireType) {
            case (1, .varint): id = try reader.sint64()
            case (2, .lengthDelimited): keys = try reader.lengthDelimited()
            case (3, .lengthDelimited): values = try reader.lengthDelimited()
            case (8, .varint): latitude = try reader.sint64()
            case (9, .varint): longitude = try reader.sint64()
            default: try reader.skip(wireType)
            }
        }
        guard let id, let latitude, let longitude else {
            throw ProtobufError(offset: bytes.baseOffset, message: "a Node lacks its required id, lat or lon")
        }
        let before = nodes.count
        let (latitudeE7, longitudeE7) = try addNode(id: id, latitude: latitude, longitude: longitude, scale: scale, offset: bytes.baseOffset)
        guard nodes.count > before, pass == .all || placeStrings.mayHoldMarks, placeStrings.mayHoldTags, var keys, var values else { return }
        var tags = PBFPlaceTags()
        while !keys.isAtEnd {
            // Tags that do not line up are skipped, not refused: a place only names a stop, and a
            // node's mark is read as OSRM's profiles read it, from the tags that are there.
            guard let key = try? keys.varint(), let value = try? values.varint(),
                  tags.add(key: key, value: value, placeStrings) else { return }
        }
        if let mark = tags.mark(strings) { marks[id] = mark }
        // A corridor read keeps the places inside it, not those of the nodes read as its neighbours.
        if pass == .all { addPlace(tags, id: id, latitudeE7: latitudeE7, longitudeE7: longitudeE7, placeStrings, strings) }
    }

    /// `DenseNodes { repeated sint64 id = 1 [packed]; optional DenseInfo denseinfo = 5;
    /// repeated sint64 lat = 8 [packed]; repeated sint64 lon = 9 [packed]; repeated int32 keys_vals = 10 [packed]; }`
    /// — ids, latitudes and longitudes delta-coded; metadata is not needed and skipped. The packed
    /// runs are walked side by side, with no intermediate arrays.
    ///
    /// `keys_vals` holds each node's tags as key and value string indices, ended by a 0. It is walked
    /// only when the block's string table holds a place key (`PBFPlaceStrings.mayHoldPlaces`), and
    /// then on indices alone: a node's strings are built only when it carries a place key and a name.
    /// A `keys_vals` that does not line up with the ids (too short, an index beyond the table, a
    /// broken varint) loses the places of this group, not the file: a place only names a stop, and
    /// the reader ignored node tags before it read places.
    private func readDenseNodes(_ bytes: ProtobufReader, scale: PBFScale, places placeStrings: PBFPlaceStrings,
                                strings: PBFStringTable) throws(ProtobufError) {
        var reader = bytes
        var ids: ProtobufReader?, latitudes: ProtobufReader?, longitudes: ProtobufReader?, keysValues: ProtobufReader?
        while let (number, wireType) = try reader.nextField() {
            switch (number, wireType) {
            case (1, .lengthDelimited): ids = try reader.lengthDelimited()
            case (8, .lengthDelimited): latitudes = try reader.lengthDelimited()
            case (9, .lengthDelimited): longitudes = try reader.lengthDelimited()
            case (10, .lengthDelimited): keysValues = try reader.lengthDelimited()
            default: try reader.skip(wireType)
            }
        }
        guard var ids else { return }
        guard var latitudes, var longitudes else {
            throw ProtobufError(offset: bytes.baseOffset, message: "DenseNodes has ids but no lat or lon")
        }
        let firstIndex = nodes.count
        // Places are read from the nodes of the file (or the corridor's own), marks from every node
        // kept, a corridor's neighbours too.
        let readsPlaces = pass == .all && placeStrings.mayHoldPlaces
        let readsTags = (readsPlaces || placeStrings.mayHoldMarks) && keysValues != nil
        // In a corridor read, the table index each node of the group was stored at (−1 when left
        // out), so its tags in keys_vals find it; only when the group's tags are read.
        let tracksKept = keeper != nil && readsTags
        var storedAt: [Int32] = []
        var id: Int64 = 0, latitude: Int64 = 0, longitude: Int64 = 0
        while !ids.isAtEnd {
            guard !latitudes.isAtEnd, !longitudes.isAtEnd else {
                throw ProtobufError(offset: ids.absoluteOffset, message: "DenseNodes has more ids than lat or lon values")
            }
            id &+= try ids.sint64()
            latitude &+= try latitudes.sint64()
            longitude &+= try longitudes.sint64()
            let before = nodes.count
            try addNode(id: id, latitude: latitude, longitude: longitude, scale: scale, offset: ids.absoluteOffset)
            if tracksKept { storedAt.append(nodes.count > before ? Int32(before) : -1) }
        }
        guard latitudes.isAtEnd, longitudes.isAtEnd else {
            throw ProtobufError(offset: latitudes.absoluteOffset, message: "DenseNodes has more lat or lon values than ids")
        }
        // The tags in a second pass of their own, so the node loop above stays as tight as it was
        // without places (anything more in it cost an exclusivity check of the node table per node).
        // A corridor read skips nodes, so its kept ones are found through `storedAt`; it keeps the
        // places inside the corridor, not those of the nodes read as its neighbours.
        guard keeper == nil || tracksKept, readsTags, var keysValues else { return }
        var found: [(tags: PBFPlaceTags, index: Int)] = []
        let positions = tracksKept ? storedAt.count : nodes.count - firstIndex
        for position in 0..<positions {
            var tags = PBFPlaceTags()
            while true {
                // An untagged node is a single 0: one byte read, nothing compared.
                guard let key = try? keysValues.varint() else { return }
                if key == 0 { break }
                guard let value = try? keysValues.varint(), tags.add(key: key, value: value, placeStrings) else { return }
            }
            let index = tracksKept ? Int(storedAt[position]) : firstIndex + position
            if (readsPlaces && tags.isCandidate) || tags.marks != nil, index >= 0 { found.append((tags, index)) }
        }
        for (tags, index) in found {
            if let mark = tags.mark(strings) { marks[nodes.ids[index]] = mark }
            guard readsPlaces else { continue }
            let (latitudeE7, longitudeE7) = nodes.e7(at: index)
            addPlace(tags, id: nodes.ids[index], latitudeE7: latitudeE7, longitudeE7: longitudeE7, placeStrings, strings)
        }
    }

    /// Keeps the place a node's tags make, if they make one (`OSMPlace.make`); builds its strings.
    private func addPlace(_ tags: PBFPlaceTags, id: Int64, latitudeE7: Int32, longitudeE7: Int32,
                          _ placeStrings: PBFPlaceStrings, _ strings: PBFStringTable) {
        // A string is built only when its bytes can be a name (`OSMPlace.maximumNameLength`
        // characters of up to 4 UTF-8 bytes) or a kind value: a crafted block naming a 30 MiB
        // string from a million nodes costs a length check each, not a million copies. The longest
        // kind value, `isolated_dwelling`, is 17 bytes.
        func string(_ index: UInt64?, maximumBytes: Int) -> String? {
            index.flatMap { strings.string(at: $0, maximumBytes: maximumBytes) }
        }
        guard tags.isCandidate, let name = string(tags.name, maximumBytes: 4 * OSMPlace.maximumNameLength) else { return }
        if let place = OSMPlace.make(id: id, latitudeE7: latitudeE7, longitudeE7: longitudeE7,
                                     place: string(tags.place, maximumBytes: 32), natural: string(tags.natural, maximumBytes: 32),
                                     mountainPass: string(tags.mountainPass, maximumBytes: 32), name: name) {
            places.append(place)
        }
    }

    /// Stores a node (in a corridor read, only one the corridor keeps), converting `lat_offset +
    /// granularity × lat` nanodegrees to 10⁻⁷ degree, and returns its latitude and longitude in 10⁻⁷ degree.
    @inline(__always) @discardableResult
    private func addNode(id: Int64, latitude: Int64, longitude: Int64, scale: PBFScale, offset: Int) throws(ProtobufError) -> (Int32, Int32) {
        let latitudeE7 = scale.e7(latitude, offset: scale.latitudeOffset)
        let longitudeE7 = scale.e7(longitude, offset: scale.longitudeOffset)
        guard abs(latitudeE7) <= 900_000_000, abs(longitudeE7) <= 1_800_000_000 else {
            throw ProtobufError(offset: offset, message: "node \(id) lies at latitude \(Double(latitudeE7) / 1e7), "
                                    + "longitude \(Double(longitudeE7) / 1e7), outside the globe")
        }
        if keeper != nil {
            blockIDs = blockIDs.map { (min($0.low, id), max($0.high, id)) } ?? (id, id)
            if pass == .wantedNodes {
                guard keeper!.wanted.contains(id) else { return (Int32(latitudeE7), Int32(longitudeE7)) }
            } else if !keeper!.keepsNode(latitudeE7: Int32(latitudeE7), longitudeE7: Int32(longitudeE7)) {
                return (Int32(latitudeE7), Int32(longitudeE7))
            }
        }
        nodes.append(id: id, latitudeE7: Int32(latitudeE7), longitudeE7: Int32(longitudeE7))
        return (Int32(latitudeE7), Int32(longitudeE7))
    }

    /// `Way { required int64 id = 1; repeated uint32 keys = 2 [packed]; repeated uint32 vals = 3 [packed];
    /// optional Info info = 4; repeated sint64 refs = 8 [packed]; … }` — refs delta-coded.
    /// Ways without `keyIndex` among their keys are dropped before any string is built.
    private func readWay(_ bytes: ProtobufReader, strings: PBFStringTable, keyIndex: Int?) throws(ProtobufError) {
        var reader = bytes
        var id: Int64?
        var keys: ProtobufReader?, values: ProtobufReader?, refs: ProtobufReader?
        while let (number, wireType) = try reader.nextField() {
            switch (number, wireType) {
            case (1, .varint): id = try reader.int64()
            case (2, .lengthDelimited): keys = try reader.lengthDelimited()
            case (3, .lengthDelimited): values = try reader.lengthDelimited()
            case (8, .lengthDelimited): refs = try reader.lengthDelimited()
            default: try reader.skip(wireType)
            }
        }
        guard let id else { throw ProtobufError(offset: bytes.baseOffset, message: "a Way lacks its required id") }
        if let keyIndex {
            guard var scan = keys else { return }
            var found = false
            while !found, !scan.isAtEnd {
                let key = try scan.varint()
                // A key beyond the table is damage, whether or not the way would be kept.
                guard key < UInt64(strings.count) else {
                    throw ProtobufError(offset: scan.absoluteOffset, message: "way \(id) names string \(key) but the block's table has \(strings.count)")
                }
                found = key == UInt64(keyIndex)
            }
            guard found else { return }
        }
        var nodeIDs: [Int64] = []
        if var refs {
            nodeIDs.reserveCapacity(refs.bytes.count / 2)
            var ref: Int64 = 0
            while !refs.isAtEnd {
                ref &+= try refs.sint64()
                nodeIDs.append(ref)
            }
        }
        // Outside the corridor the way is dropped before any of its strings is built.
        if keeper != nil {
            guard let kept = keeper!.keptNodes(of: nodeIDs, in: &nodes) else { return }
            nodeIDs = kept
        }
        var tags: [String: String] = [:]
        if var keys {
            guard var values else {
                throw ProtobufError(offset: bytes.baseOffset, message: "way \(id) has tag keys but no values")
            }
            while !keys.isAtEnd {
                guard !values.isAtEnd else {
                    throw ProtobufError(offset: keys.absoluteOffset, message: "way \(id) has more tag keys than values")
                }
                tags[try strings.string(at: try keys.varint(), way: id)] = try strings.string(at: try values.varint(), way: id)
            }
        }
        ways.append(OSMWay(id: id, nodeIDs: nodeIDs, tags: tags))
    }
}

extension PBFReader {
    /// `Relation { required int64 id = 1; repeated uint32 keys = 2 [packed]; repeated uint32 vals = 3 [packed];
    /// optional Info info = 4; repeated int32 roles_sid = 8 [packed]; repeated sint64 memids = 9 [packed];
    /// repeated MemberType types = 10 [packed]; }` — member ids delta-coded, types 0 node, 1 way, 2 relation.
    ///
    /// Only a relation tagged `type=restriction` (checked on the string indices, before any string
    /// is built) has its members read; `OSMRestriction.parse` then keeps it or not. A relation
    /// whose tags or members do not line up (a string beyond the table, more keys than values,
    /// fewer roles than members) is skipped, not refused: turn restrictions refine a route, and a
    /// broken one must not stop the map from loading. Wire-format damage still throws.
    fileprivate func readRelation(_ bytes: ProtobufReader, strings: PBFStringTable,
                                  restriction: (type: Int, restriction: Int)) throws(ProtobufError) {
        var reader = bytes
        var id: Int64?
        var keys: ProtobufReader?, values: ProtobufReader?, roles: ProtobufReader?, ids: ProtobufReader?, types: ProtobufReader?
        while let (number, wireType) = try reader.nextField() {
            switch (number, wireType) {
            case (1, .varint): id = try reader.int64()
            case (2, .lengthDelimited): keys = try reader.lengthDelimited()
            case (3, .lengthDelimited): values = try reader.lengthDelimited()
            case (8, .lengthDelimited): roles = try reader.lengthDelimited()
            case (9, .lengthDelimited): ids = try reader.lengthDelimited()
            case (10, .lengthDelimited): types = try reader.lengthDelimited()
            default: try reader.skip(wireType)
            }
        }
        guard let id, var keys, var values else { return }
        // First pass on indices only: is it `type=restriction`?
        var isRestriction = false
        var scanKeys = keys, scanValues = values
        while !scanKeys.isAtEnd, !scanValues.isAtEnd {
            let key = try scanKeys.varint(), value = try scanValues.varint()
            if key == UInt64(restriction.type) && value == UInt64(restriction.restriction) { isRestriction = true }
        }
        guard isRestriction else { return }
        var tags: [String: String] = [:]
        while !keys.isAtEnd, !values.isAtEnd {
            let key = try keys.varint(), value = try values.varint()
            guard let k = strings.string(at: key), let v = strings.string(at: value) else { return }
            tags[k] = v
        }
        guard var roles, var ids, var types else { return }
        var members: [(type: OSMRestriction.MemberType, ref: Int64, role: String)] = []
        var ref: Int64 = 0
        while !ids.isAtEnd {
            // A restriction has three members (four with a location hint); more is not one this reader uses.
            guard members.count < 16, !roles.isAtEnd, !types.isAtEnd else { return }
            ref &+= try ids.sint64()
            let role = try roles.varint(), type = try types.varint()
            guard let roleName = strings.string(at: role) else { return }
            let memberType: OSMRestriction.MemberType
            switch type {
            case 0: memberType = .node
            case 1: memberType = .way
            case 2: memberType = .relation
            default: return
            }
            members.append((memberType, ref, roleName))
        }
        let parsed = OSMRestriction.parse(id: id, tags: tags, members: members)
        // In a corridor, a restriction whose via node is outside binds no junction the route passes.
        restrictions.append(contentsOf: keeper == nil ? parsed : keeper!.keptRestrictions(parsed, in: &nodes))
    }
}

/// The coordinate scale of one `PrimitiveBlock`: a coordinate in degrees is
/// `1e-9 × (offset + granularity × value)` (PBF_Format, "Definition of OSMData fileblock").
private struct PBFScale {
    /// Nanodegrees per unit (default 100, so units are 10⁻⁷ degree).
    var granularity: Int64 = 100
    /// Nanodegrees added to every latitude and longitude.
    var latitudeOffset: Int64 = 0
    var longitudeOffset: Int64 = 0

    /// A coordinate value in 10⁻⁷ degree, rounded to nearest; `Int64.max` when the arithmetic
    /// overflows (a value no coordinate on the Earth has, so the caller refuses it).
    @inline(__always)
    func e7(_ value: Int64, offset: Int64) -> Int64 {
        let (scaled, overflowA) = granularity.multipliedReportingOverflow(by: value)
        let (nanodegrees, overflowB) = offset.addingReportingOverflow(scaled)
        if overflowA || overflowB || nanodegrees.magnitude > UInt64(Int64.max / 2) { return Int64.max }
        if granularity == 100, offset % 100 == 0 { return nanodegrees / 100 }
        return (nanodegrees + (nanodegrees >= 0 ? 50 : -50)) / 100
    }
}

/// The string indices of one block that tell a place (`OSMPlace`): the keys `place`, `natural`,
/// `mountain_pass` and `name`, found in one pass over the string table, so that a node's tags are
/// compared as integers and a string is built only for a node that carries one of these keys.
fileprivate struct PBFPlaceStrings {
    var place: UInt64?
    var natural: UInt64?
    var mountainPass: UInt64?
    var name: UInt64?
    /// Strings in the table: a larger index is damage.
    var count: UInt64

    /// The index of each of `OSMNodeMark.keys` in the table (nil for one it lacks).
    var markKeys: [UInt64?]
    /// Whether a node of the block can carry a mark (`OSMNodeMark.matters`): the table holds
    /// `barrier`, an access key, or `highway` with a turning place's value.
    var mayHoldMarks: Bool

    init(_ strings: PBFStringTable) {
        let placeKeys = (OSMPlace.kindKeys + [OSMPlace.nameKey]).map { Array($0.utf8) }
        let markKeys = OSMNodeMark.keys.map { Array($0.utf8) }
        let turning = OSMNodeMark.turningPlaces.sorted().map { Array($0.utf8) }
        let found = strings.indices(of: placeKeys + markKeys + turning)
        place = found[0].map(UInt64.init)
        natural = found[1].map(UInt64.init)
        mountainPass = found[2].map(UInt64.init)
        name = found[3].map(UInt64.init)
        self.markKeys = found[placeKeys.count..<(placeKeys.count + markKeys.count)].map { $0.map(UInt64.init) }
        let marking = zip(OSMNodeMark.keys, self.markKeys).contains { key, index in
            index != nil && (key == "barrier" || WayInfo.accessKeys.contains(key))
        }
        let turningPlace = self.markKeys[OSMNodeMark.keys.firstIndex(of: "highway")!] != nil
            && found[(placeKeys.count + markKeys.count)...].contains { $0 != nil }
        mayHoldMarks = marking || turningPlace
        count = UInt64(strings.count)
    }

    /// Whether a node of the block can be a place: the table holds `name` and a kind key. Most
    /// blocks of an extract do not (their nodes are road geometry), and their tags are not read.
    var mayHoldPlaces: Bool { name != nil && (place != nil || natural != nil || mountainPass != nil) }
    /// Whether the block's node tags are worth walking at all.
    var mayHoldTags: Bool { mayHoldPlaces || mayHoldMarks }
}

/// The place tags of one node, as string indices, gathered while its tags are walked.
fileprivate struct PBFPlaceTags {
    var place: UInt64?
    var natural: UInt64?
    var mountainPass: UInt64?
    var name: UInt64?

    /// The node's tags among `OSMNodeMark.keys`: the key's place in that list and the value's
    /// string index; nil while it has none (most nodes).
    var marks: [(key: Int, value: UInt64)]? = nil

    /// Notes a tag; false when an index is beyond the string table (the tags are damaged).
    @inline(__always)
    mutating func add(key: UInt64, value: UInt64, _ strings: PBFPlaceStrings) -> Bool {
        guard key < strings.count, value < strings.count else { return false }
        if key == strings.place { place = value }
        else if key == strings.natural { natural = value }
        else if key == strings.mountainPass { mountainPass = value }
        else if key == strings.name { name = value }
        else if strings.mayHoldMarks, let k = strings.markKeys.firstIndex(of: key) {
            // A crafted node repeating a key thousands of times keeps no more than one entry per key.
            if marks == nil { marks = [] }
            if marks!.count < OSMNodeMark.keys.count { marks!.append((k, value)) }
        }
        return true
    }

    /// The node's mark, its strings built (each at most `OSMNodeMark.maximumValueBytes`), when it
    /// matters (`OSMNodeMark.matters`).
    func mark(_ strings: PBFStringTable) -> OSMNodeMark? {
        guard let marks else { return nil }
        var mark = OSMNodeMark()
        for (k, value) in marks {
            if let text = strings.string(at: value, maximumBytes: OSMNodeMark.maximumValueBytes) { mark.set(OSMNodeMark.keys[k], text) }
        }
        return mark.matters ? mark : nil
    }

    /// Whether the node carries a kind key and a name, so its strings are worth building.
    var isCandidate: Bool { name != nil && (place != nil || natural != nil || mountainPass != nil) }
}

/// `StringTable { repeated bytes s = 1; }`: the strings of one block, kept as slices of the block
/// (index 0 is the empty string by convention). A string is built only when asked for.
fileprivate struct PBFStringTable {
    private var entries: [UnsafeRawBufferPointer] = []

    init() {}

    init(_ table: ProtobufReader) throws(ProtobufError) {
        var reader = table
        while let (number, wireType) = try reader.nextField() {
            if number == 1, wireType == .lengthDelimited {
                entries.append(try reader.lengthDelimited().bytes)
            } else {
                try reader.skip(wireType)
            }
        }
    }

    /// Strings in the table.
    var count: Int { entries.count }

    /// The index of the string whose bytes are `bytes`, or nil. O(strings × length).
    func index(of bytes: [UInt8]) -> Int? {
        entries.firstIndex { $0.count == bytes.count && $0.elementsEqual(bytes) }
    }

    /// The index of each of `wanted` in the table (nil for one it lacks), in one pass over the
    /// table. O(strings × wanted), comparing bytes only when the lengths match.
    func indices(of wanted: [[UInt8]]) -> [Int?] {
        var found = [Int?](repeating: nil, count: wanted.count)
        for (index, entry) in entries.enumerated() {
            for w in wanted.indices where found[w] == nil && entry.count == wanted[w].count && entry.elementsEqual(wanted[w]) {
                found[w] = index
            }
        }
        return found
    }

    /// The string at `index`, or nil when the index is beyond the table or the string is longer
    /// than `maximumBytes`.
    func string(at index: UInt64, maximumBytes: Int) -> String? {
        guard index < UInt64(entries.count), entries[Int(index)].count <= maximumBytes else { return nil }
        return String(decoding: entries[Int(index)], as: UTF8.self)
    }

    /// The string at `index`, or nil when the index is beyond the table.
    func string(at index: UInt64) -> String? {
        index < UInt64(entries.count) ? String(decoding: entries[Int(index)], as: UTF8.self) : nil
    }

    /// The string at `index`.
    /// - Throws: `ProtobufError` when the index is beyond the table.
    func string(at index: UInt64, way: Int64) throws(ProtobufError) -> String {
        guard index < UInt64(entries.count) else {
            throw ProtobufError(offset: 0, message: "way \(way) names string \(index) but the block's table has \(entries.count)")
        }
        return String(decoding: entries[Int(index)], as: UTF8.self)
    }
}

/// zlib's status codes in words, for errors (zlib.h, "Constants").
func zlibStatusDescription(_ status: Int32) -> String {
    switch status {
    case Z_DATA_ERROR: "the compressed data is corrupt (Z_DATA_ERROR)"
    case Z_BUF_ERROR: "the compressed data ends early or inflates to more than expected (Z_BUF_ERROR)"
    case Z_MEM_ERROR: "out of memory (Z_MEM_ERROR)"
    case Z_STREAM_ERROR: "inconsistent stream state (Z_STREAM_ERROR)"
    case Z_VERSION_ERROR: "incompatible zlib version (Z_VERSION_ERROR)"
    case Z_NEED_DICT: "the data needs a preset dictionary (Z_NEED_DICT)"
    default: "zlib status \(status)"
    }
}
