import Foundation
import Synchronization

/// Files decoded by a program that runs for hours and reads the same files again and again (the
/// editor's server reads the book, its journal and its drawing at every request): the last decoded
/// value of each file is kept with the bytes it came from, and given back only for the very same
/// bytes, so a file changed by anyone, in any way, is decoded again. The bytes are always read; only
/// their decoding (most of a request's time on a drawing of megabytes) is spared.
///
/// Off unless a program turns it on (`keep(files:)`): a command reads each file once, and keeping
/// it would only hold memory.
public final class DecodedFiles: Sendable {
    public static let shared = DecodedFiles()

    private struct Entry {
        var bytes: Data
        var value: any Sendable
        var used: UInt64
    }

    private struct State {
        var capacity = 0
        var entries: [String: Entry] = [:]
        var clock: UInt64 = 0
    }

    private let state = Mutex(State())

    public init() {}

    /// Keeps up to `files` decoded files (the least recently used dropped first); 0 turns it off.
    public func keep(files: Int) {
        state.withLock { state in
            state.capacity = max(0, files)
            while state.entries.count > state.capacity { Self.dropOldest(&state) }
        }
    }

    /// `decode()`'s value for `data`, the file `fileName` read as `kind`: the kept one when the
    /// bytes are the very ones it was decoded from. A decoding that throws is never kept.
    public func value<T: Sendable>(of data: Data, kind: String, fileName: String, decode: () throws -> T) throws -> T {
        let key = Self.key(kind, fileName)
        let kept: T? = state.withLock { state in
            guard state.capacity > 0, let entry = state.entries[key], entry.bytes == data, let value = entry.value as? T else { return nil }
            state.clock += 1
            state.entries[key]?.used = state.clock
            return value
        }
        if let kept { return kept }
        let value = try decode()
        state.withLock { state in
            guard state.capacity > 0 else { return }
            state.clock += 1
            state.entries[key] = Entry(bytes: data, value: value, used: state.clock)
            while state.entries.count > state.capacity { Self.dropOldest(&state) }
        }
        return value
    }

    /// Keeps `value` as what `data`, just written to `fileName` by this program, decodes to: the
    /// next read of those bytes is not decoded. Only for a value that is the very one decoding
    /// `data` gives back (a journal: strings and whole numbers).
    public func remember<T: Sendable>(_ value: T, of data: Data, kind: String, fileName: String) {
        state.withLock { state in
            guard state.capacity > 0 else { return }
            state.clock += 1
            state.entries[Self.key(kind, fileName)] = Entry(bytes: data, value: value, used: state.clock)
            while state.entries.count > state.capacity { Self.dropOldest(&state) }
        }
    }

    private static func key(_ kind: String, _ fileName: String) -> String { kind + "\u{0}" + fileName }

    private static func dropOldest(_ state: inout State) {
        guard let oldest = state.entries.min(by: { $0.value.used < $1.value.used })?.key else { return }
        state.entries[oldest] = nil
    }
}
