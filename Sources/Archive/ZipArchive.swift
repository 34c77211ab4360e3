internal import CZip
import Foundation

/// A failure to read a zip archive: the archive's path and what is wrong, in words. Each reader
/// (an SRTM tile, a KMZ) turns it into its own error type.
public struct ArchiveError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The archive's path as it was opened.
    public var path: String
    public var message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}

/// A zip archive opened read-only through libzip; owns the `zip_t` and discards it in `deinit`.
/// The one place libzip is called (SRTM tiles in `Terrain`, KMZ files in `Formats`).
///
/// The archive is checked for consistency when opened (`ZIP_CHECKCONS`), and every entry read is
/// checked against its CRC by libzip, so a truncated or damaged archive fails with an error that
/// names the file rather than giving wrong bytes.
public final class ZipArchive {
    private let handle: OpaquePointer
    /// The archive's path, for messages.
    public let path: String
    /// The names of the entries, in the archive's order.
    public let entryNames: [String]

    /// Opens the archive at `url`.
    /// - Throws: `ArchiveError` naming the file when it cannot be opened or is not a valid zip.
    public init(contentsOf url: URL) throws {
        path = url.path
        var code: Int32 = 0
        guard let handle = zip_open(url.path, ZIP_RDONLY | ZIP_CHECKCONS, &code) else {
            var error = zip_error_t()
            zip_error_init_with_code(&error, code)
            defer { zip_error_fini(&error) }
            throw ArchiveError(path: url.path, message: "cannot open as a zip archive: \(String(cString: zip_error_strerror(&error)))")
        }
        self.handle = handle
        entryNames = try Self.names(of: handle, path: url.path)
    }

    /// Opens the archive held in `data` (read whole from a pipe, which cannot be sought in).
    /// - Parameter name: the archive as messages name it.
    /// - Throws: `ArchiveError` naming it when it is not a valid zip.
    public init(data: Data, name: String) throws {
        path = name
        let bytes = UnsafeMutableRawPointer.allocate(byteCount: max(1, data.count), alignment: 8)
        data.copyBytes(to: bytes.assumingMemoryBound(to: UInt8.self), count: data.count)
        var error = zip_error_t()
        zip_error_init(&error)
        defer { zip_error_fini(&error) }
        // libzip frees the bytes with the source (freep 1), and the source with the archive.
        guard let source = zip_source_buffer_create(bytes, UInt64(data.count), 1, &error) else {
            bytes.deallocate()
            throw ArchiveError(path: name, message: "cannot read as a zip archive: \(String(cString: zip_error_strerror(&error)))")
        }
        guard let handle = zip_open_from_source(source, ZIP_RDONLY | ZIP_CHECKCONS, &error) else {
            zip_source_free(source)
            throw ArchiveError(path: name, message: "cannot open as a zip archive: \(String(cString: zip_error_strerror(&error)))")
        }
        self.handle = handle
        entryNames = try Self.names(of: handle, path: name)
    }

    /// The names of an open archive's entries.
    private static func names(of handle: OpaquePointer, path: String) throws -> [String] {
        let count = zip_get_num_entries(handle, 0)
        var names: [String] = []
        if count > 0 {
            for i in 0..<UInt64(count) {
                guard let name = zip_get_name(handle, i, ZIP_FL_ENC_GUESS) else {
                    let message = String(cString: zip_strerror(handle))
                    zip_discard(handle)
                    throw ArchiveError(path: path, message: "cannot read the name of entry \(i): \(message)")
                }
                names.append(String(cString: name))
            }
        }
        return names
    }

    deinit { zip_discard(handle) }

    /// The uncompressed size the archive declares for the entry at `index`, read before inflating.
    /// - Throws: `ArchiveError` naming the archive and the entry when the size is not recorded.
    public func declaredSize(ofEntryAt index: Int) throws -> UInt64 {
        var stat = zip_stat_t()
        zip_stat_init(&stat)
        guard zip_stat_index(handle, UInt64(index), 0, &stat) == 0, stat.valid & UInt64(ZIP_STAT_SIZE) != 0 else {
            throw ArchiveError(path: path, message: "cannot read the size of \(entryNames[index]): \(String(cString: zip_strerror(handle)))")
        }
        return stat.size
    }

    /// The uncompressed bytes of the entry at `index` in `entryNames`.
    ///
    /// The entry's declared size is checked against `accepting` before anything is allocated, and
    /// no more than that size is inflated (libzip stops at the declared size and checks the CRC), so
    /// a zip bomb costs nothing.
    /// Cost: the entry's uncompressed size in memory, one inflate pass.
    /// - Parameter accepting: whether a declared size may be read; when it says no, the error says
    ///   `expected`.
    /// - Throws: `ArchiveError` naming the archive and the entry when its size is refused, it
    ///   cannot be read or its CRC does not match.
    public func contents(ofEntryAt index: Int, accepting: (UInt64) -> Bool, expected: String) throws -> Data {
        let name = entryNames[index]
        let declared = try declaredSize(ofEntryAt: index)
        guard accepting(declared), declared <= UInt64(Int.max) else {
            throw ArchiveError(path: path, message: "\(name) declares \(declared) bytes uncompressed; \(expected)")
        }
        let entry = try ZipEntry(archive: self, index: index, name: name)
        let size = Int(declared)
        var data = Data(count: size)
        var total = 0
        try data.withUnsafeMutableBytes { raw in
            while total < size {
                let read = zip_fread(entry.handle, raw.baseAddress! + total, UInt64(size - total))
                guard read > 0 else {
                    throw ArchiveError(path: path, message: read < 0
                        ? "\(name) is damaged: \(String(cString: zip_file_strerror(entry.handle)))"
                        : "\(name) ends after \(total) of \(size) bytes")
                }
                total += Int(read)
            }
        }
        // Reading to the end lets libzip compare the CRC; a mismatch shows as an error here.
        var extra: UInt8 = 0
        guard zip_fread(entry.handle, &extra, 1) == 0 else {
            throw ArchiveError(path: path, message: "\(name) is damaged: \(String(cString: zip_file_strerror(entry.handle)))")
        }
        return data
    }

    /// Reads the entry at `index` in pieces, for a reader that streams (a KMZ's KML): `body` is given
    /// a source that fills a buffer and returns how many bytes it wrote, 0 at the entry's end. The
    /// declared size is checked against `accepting` first; libzip inflates no more than it and checks
    /// the CRC at the end, as `contents(ofEntryAt:accepting:expected:)` does.
    /// Cost: one inflate pass; memory: libzip's own, whatever the entry's size.
    /// - Throws: `ArchiveError` as `contents(ofEntryAt:accepting:expected:)`, from the source too;
    ///   `body`'s errors unchanged.
    public func withEntry<Result>(at index: Int, accepting: (UInt64) -> Bool, expected: String,
                                  _ body: (_ read: (UnsafeMutableRawBufferPointer) throws -> Int) throws -> Result) throws -> Result {
        let name = entryNames[index]
        let declared = try declaredSize(ofEntryAt: index)
        guard accepting(declared) else {
            throw ArchiveError(path: path, message: "\(name) declares \(declared) bytes uncompressed; \(expected)")
        }
        let entry = try ZipEntry(archive: self, index: index, name: name)
        return try body { buffer in
            guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
            let read = zip_fread(entry.handle, base, UInt64(buffer.count))
            guard read >= 0 else {
                throw ArchiveError(path: self.path, message: "\(name) is damaged: \(String(cString: zip_file_strerror(entry.handle)))")
            }
            return Int(read)
        }
    }

    /// Raw access for `ZipEntry`, which keeps this archive alive while it is open.
    fileprivate var rawHandle: OpaquePointer { handle }
}

/// One entry of a `ZipArchive` opened for reading; owns the `zip_file_t`, closes it in `deinit`,
/// and keeps its archive alive.
private final class ZipEntry {
    let handle: OpaquePointer
    private let archive: ZipArchive

    init(archive: ZipArchive, index: Int, name: String) throws {
        guard let handle = zip_fopen_index(archive.rawHandle, UInt64(index), 0) else {
            throw ArchiveError(path: archive.path, message: "cannot open \(name): \(String(cString: zip_strerror(archive.rawHandle)))")
        }
        self.handle = handle
        self.archive = archive
    }

    deinit { zip_fclose(handle) }
}
