import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The outputs of one run, replaced together: each is written to its own temporary file first
/// (`add`, `write`), then `commit` flushes them all to disk and renames them into place, in the
/// order they were added, while holding a lock on their folders; `discard` (or a failure) removes
/// every temporary and leaves every target as it was.
///
/// Two renames cannot be one atomic step. So a set of two outputs or more first writes a journal
/// in each of their folders (`.NAME.roadbook-journal-PID-RANDOM`, written whole and renamed into
/// place, after every output is written and flushed) naming each temporary and its target; then
/// renames; then removes the journals. A run killed outright between two renames leaves the first
/// outputs new, the rest in their temporaries and the journal: the next run that writes in that
/// folder (or checks its outputs there) finishes the renames (`AtomicFile.finishInterruptedCommits`)
/// before it removes any leftover, so the set moves as one — an Apply's book never goes without
/// its undo file, which holds the book as it was. A signal that would end the process with its
/// cleanup (SIGINT, SIGTERM, SIGHUP) waits for the renames to end. Add the source first (the book
/// file) and what is made from it last (the PDF): until the next run, the state is then a book
/// edited and not yet printed. Two runs writing the same outputs at once commit one after the
/// other (the folder lock), so the folder ends with one run's set, never a mix.
///
/// For tests only: `ROADBOOK_TEST_ABORT_AFTER_RENAME=N` in the environment makes the process kill
/// itself (SIGKILL) right after a commit's N-th rename, as a power cut or `kill -9` would
/// (`scripts/kill-test.sh`, Tests/Hostile/commands.tsv). Nothing sets it otherwise.
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
    /// yet). The new file gets the permissions of the file it replaces when `keepsMode` (a file a
    /// person made read-only stays so, as an editor keeps it); otherwise, and for a new file, the
    /// usual ones (0666 less the umask), as for a cache whose old permissions may be broken. The first time this process writes in its folder, finishes the commits killed runs
    /// left there, then removes their leftovers.
    /// - Throws: `AtomicFile.WriteError` naming `url` when it is not a regular file, its folder does
    ///   not exist, or it is already in the set.
    public func add(_ url: URL, keepsMode: Bool = true) throws -> URL {
        guard !finished else { throw AtomicFile.WriteError(path: url.path, reason: "the outputs were already committed") }
        let target = try AtomicFile.resolveTarget(url)
        let folder = target.deletingLastPathComponent()
        var folderInfo = stat()
        guard FileName.stat(folder.path, &folderInfo) == 0, folderInfo.st_mode & S_IFMT == S_IFDIR else {
            throw AtomicFile.WriteError(path: url.path, reason: "the folder \(folder.path) does not exist")
        }
        guard !outputs.contains(where: { $0.target.path == target.path }) else {
            throw AtomicFile.WriteError(path: url.path, reason: "it is named twice among the outputs")
        }
        if SignalCleanup.watch(folder.path) {
            AtomicFile.finishInterruptedCommits(in: folder)
            AtomicFile.removeLeftovers(in: folder)
        }
        var info = stat()
        let mode = keepsMode && FileName.stat(target.path, &info) == 0 ? info.st_mode & 0o7777 : nil
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
            SignalCleanup.beginCommit()
            defer { SignalCleanup.endCommit() }
            let journals = outputs.count > 1 ? try writeJournals() : []
            var replaced: [String] = []
            for output in outputs {
                guard FileName.rename(output.temporary.path, output.target.path) == 0 else {
                    var reason = AtomicFile.reason(errno: errno)
                    if !replaced.isEmpty {
                        // The journal stays with the temporaries not renamed: the next run finishes the set.
                        reason += " (already replaced: \(replaced.joined(separator: ", ")); the next run here replaces the rest)"
                        finished = true
                        outputs = []
                    }
                    throw AtomicFile.WriteError(path: output.named.path, reason: reason)
                }
                replaced.append(output.named.path)
                if Self.abortAfterRename == replaced.count { kill(getpid(), SIGKILL) }
            }
            for journal in journals { FileName.unlink(journal) }
            for fd in locks { fsync(fd) }
        } catch {
            discard()
            throw error
        }
        finished = true
        outputs = []
    }

    /// `ROADBOOK_TEST_ABORT_AFTER_RENAME` (see the type): for tests, the rename after which the
    /// process kills itself.
    static let abortAfterRename: Int? = ProcessInfo.processInfo.environment["ROADBOOK_TEST_ABORT_AFTER_RENAME"].flatMap(Int.init)

    /// Writes the journal of this set's renames into each of its folders, each written whole to a
    /// temporary and renamed into place, the folder flushed.
    /// - Returns: the journals' paths.
    private func writeJournals() throws -> [String] {
        let folders = Set(outputs.map { $0.target.deletingLastPathComponent().path }).sorted()
        let name = AtomicFile.journalName(for: outputs[0].target.lastPathComponent)
        let journals = folders.map { $0 + "/" + name }
        let text = AtomicFile.journalText(renames: outputs.map { ($0.temporary.path, $0.target.path) }, journals: journals)
        for journal in journals {
            let temporary = (journal as NSString).deletingLastPathComponent + "/" + AtomicFile.temporaryName(for: name)
            let fd = AtomicFile.openTemporary(temporary, flags: O_WRONLY | O_EXCL)
            guard fd >= 0 else { throw AtomicFile.WriteError(path: outputs[0].named.path, reason: AtomicFile.reason(errno: errno)) }
            var failure = AtomicFile.writeAll(Data(text.utf8), to: fd)
            if failure == 0 && fsync(fd) != 0 { failure = errno }
            if close(fd) != 0 && failure == 0 { failure = errno }
            if failure == 0 && FileName.rename(temporary, journal) != 0 { failure = errno }
            guard failure == 0 else {
                FileName.unlink(temporary)
                for written in journals { FileName.unlink(written) }
                throw AtomicFile.WriteError(path: outputs[0].named.path, reason: AtomicFile.reason(errno: failure))
            }
            AtomicFile.syncFolder((journal as NSString).deletingLastPathComponent)
        }
        return journals
    }

    /// Removes every temporary file; the targets stay as they were.
    public func discard() {
        for output in outputs { FileName.unlink(output.temporary.path) }
        outputs = []
        finished = true
    }

    /// Writes the temporary's data to disk (so a power cut after the rename cannot leave an
    /// empty file in place of the old one) and gives it the permissions of the file it replaces.
    private func flush(_ output: Output) throws {
        let fd = FileName.open(output.temporary.path, O_RDONLY | O_CLOEXEC)
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
            let fd = FileName.open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard fd >= 0 else { continue }
            while flock(fd, LOCK_EX) != 0 && errno == EINTR {}
            locks.append(fd)
        }
        return locks
    }
}
