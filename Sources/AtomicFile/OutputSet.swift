import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The outputs of one run, replaced together: each is written to its own temporary file first
/// (`add`, `write`), then `commit` flushes them all to disk and renames them into place, in the
/// order they were added, while holding a lock on their folders; `discard` (or a failure) removes
/// every temporary and leaves every target as it was.
///
/// Two renames cannot be one atomic step, so a run killed outright between them (a window of
/// microseconds, after everything is written and flushed) leaves the first outputs new and the
/// rest old. Add the source first (the book file) and what is made from it last (the PDF): then
/// that state is the same as a book edited and not yet printed, the book newer than its PDF, and
/// `roadbook render` mends it; the reverse order would leave a PDF that no book describes. Two
/// runs writing the same outputs at once commit one after the other (the folder lock), so the
/// folder ends with one run's set, never a mix.
public final class OutputSet {
    struct Output {
        /// As the caller named it, for messages.
        var named: URL
        /// The file replaced (links followed).
        var target: URL
        var temporary: URL
        /// The permissions of the file replaced, kept by its replacement.
        var mode: mode_t?
    }

    private var outputs: [Output] = []
    private var finished = false

    public init() {}

    deinit {
        if !finished { discard() }
    }

    /// The temporary paths written so far, in the order added.
    public var temporaries: [URL] { outputs.map(\.temporary) }

    /// Adds an output and returns the temporary path to write it to (the file does not exist
    /// yet). Removes leftovers of killed runs from its folder the first time this process writes
    /// there.
    /// - Throws: `AtomicFile.WriteError` naming `url` when it is not a regular file, its folder does
    ///   not exist, or it is already in the set.
    public func add(_ url: URL) throws -> URL {
        guard !finished else { throw AtomicFile.WriteError(path: url.path, reason: "the outputs were already committed") }
        let target = try AtomicFile.resolveTarget(url)
        let folder = target.deletingLastPathComponent()
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw AtomicFile.WriteError(path: url.path, reason: "the folder \(folder.path) does not exist")
        }
        guard !outputs.contains(where: { $0.target.path == target.path }) else {
            throw AtomicFile.WriteError(path: url.path, reason: "it is named twice among the outputs")
        }
        if SignalCleanup.watch(folder.path) { AtomicFile.removeLeftovers(in: folder) }
        var info = stat()
        let mode = stat(target.path, &info) == 0 ? info.st_mode & 0o7777 : nil
        let temporary = folder.appendingPathComponent(AtomicFile.temporaryName(for: target.lastPathComponent), isDirectory: false)
        outputs.append(Output(named: url, target: target, temporary: temporary, mode: mode))
        return temporary
    }

    /// Adds `url` and writes `data` to its temporary file.
    public func write(_ data: Data, to url: URL) throws {
        let temporary = try add(url)
        do { try AtomicFile.create(temporary, with: data, naming: url) } catch {
            discard()
            throw error
        }
    }

    /// Flushes every temporary file to disk, then renames each onto its target in the order
    /// added, holding an exclusive lock (`flock`) on their folders, then flushes the folders.
    /// On failure the temporaries are removed; the error names the output that failed and those
    /// already replaced.
    /// - Throws: `AtomicFile.WriteError` naming the output.
    public func commit() throws {
        guard !finished else { return }
        do {
            for output in outputs { try flush(output) }
            let locks = lockFolders()
            defer { for fd in locks { flock(fd, LOCK_UN); close(fd) } }
            var replaced: [String] = []
            for output in outputs {
                guard rename(output.temporary.path, output.target.path) == 0 else {
                    var reason = AtomicFile.reason(errno: errno)
                    if !replaced.isEmpty { reason += " (already replaced: \(replaced.joined(separator: ", ")))" }
                    throw AtomicFile.WriteError(path: output.named.path, reason: reason)
                }
                replaced.append(output.named.path)
            }
            for fd in locks { fsync(fd) }
        } catch {
            discard()
            throw error
        }
        finished = true
        outputs = []
    }

    /// Removes every temporary file; the targets stay as they were.
    public func discard() {
        for output in outputs { unlink(output.temporary.path) }
        outputs = []
        finished = true
    }

    /// Writes the temporary's data to disk (so a power cut after the rename cannot leave an
    /// empty file in place of the old one) and gives it the permissions of the file it replaces.
    private func flush(_ output: Output) throws {
        let fd = open(output.temporary.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            throw AtomicFile.WriteError(path: output.named.path,
                                        reason: code == ENOENT ? "nothing was written" : AtomicFile.reason(errno: code))
        }
        defer { close(fd) }
        if let mode = output.mode { fchmod(fd, mode) }
        guard fsync(fd) == 0 else { throw AtomicFile.WriteError(path: output.named.path, reason: AtomicFile.reason(errno: errno)) }
    }

    /// Locks each folder of the outputs, in a fixed order so two runs cannot deadlock. A folder
    /// that cannot be locked (some network file systems) is used unlocked.
    private func lockFolders() -> [Int32] {
        let folders = Set(outputs.map { $0.target.deletingLastPathComponent().path }).sorted()
        var locks: [Int32] = []
        for folder in folders {
            let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard fd >= 0 else { continue }
            while flock(fd, LOCK_EX) != 0 && errno == EINTR {}
            locks.append(fd)
        }
        return locks
    }
}
