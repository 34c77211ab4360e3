import AtomicFile
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The lock of a book: a command that changes a book holds it from reading the book to writing
/// it, so two commands started together wait for each other and each works on the book the other
/// wrote — neither change is lost, none is made twice.
///
/// The lock is `flock` on a hidden file beside the book (`.NAME.lock`, the book's links followed),
/// made when the lock is taken and removed when it is let go, so nothing stays beside the book. A
/// command that took the lock on a file another removed meanwhile (the path names a new file, or
/// none) lets it go and takes it again, so two commands never hold two different files.
/// An operation that runs inside another holding the lock (a `regenerate` that applies) goes on
/// under it; two tasks of one process (two requests to `serve`) wait for each other as two
/// processes do. The kernel lets the lock go when the process ends, even when killed.
public enum BookLock {
    /// How long a command waits for another to finish with the book before it gives up.
    public static let defaultWait: TimeInterval = 300

    /// The lock files the current task holds, so an operation inside another goes on under its lock.
    @TaskLocal static var held: Set<String> = []

    /// Runs `body` holding the lock of `book`.
    /// - Throws: `WorkflowError` when the lock file cannot be made or the wait runs out; `body`'s errors.
    public static func hold<T>(_ book: URL, wait: TimeInterval = defaultWait, _ body: () throws -> T) throws -> T {
        let path = location(of: book).path
        if held.contains(path) { return try body() }
        let fd = try acquire(path, book: book, wait: wait)
        defer { release(fd, path: path) }
        return try $held.withValue(held.union([path])) { try body() }
    }

    /// Runs `body` holding the lock of `book`, across its suspensions.
    public static func hold<T>(_ book: URL, wait: TimeInterval = defaultWait, _ body: () async throws -> T) async throws -> T {
        let path = location(of: book).path
        if held.contains(path) { return try await body() }
        let fd = try acquire(path, book: book, wait: wait)
        defer { release(fd, path: path) }
        return try await $held.withValue(held.union([path])) { try await body() }
    }

    /// The lock file of `book`: `.NAME.lock` beside the file the book's links lead to.
    public static func location(of book: URL) -> URL {
        let target = (try? AtomicFile.resolveTarget(FileName.named(book))) ?? FileName.named(book)
        return target.deletingLastPathComponent().appendingPathComponent("." + target.lastPathComponent + ".lock")
    }

    private static func acquire(_ path: String, book: URL, wait: TimeInterval) throws -> Int32 {
        let deadline = Date().addingTimeInterval(wait)
        while true {
            let fd = FileName.open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o666)
            guard fd >= 0 else {
                throw WorkflowError("\(shownPath(book)): cannot lock the book for the change (\(FileName.shown(path)): \(AtomicFile.reason(errno: errno)))")
            }
            while flock(fd, LOCK_EX | LOCK_NB) != 0 {
                let code = errno
                guard code == EWOULDBLOCK || code == EINTR, Date() < deadline else {
                    close(fd)
                    let reason = code == EWOULDBLOCK ? "another roadbook has been changing it for \(Int(wait)) s" : AtomicFile.reason(errno: code)
                    throw WorkflowError("\(shownPath(book)): cannot change the book: \(reason)")
                }
                usleep(10_000)
            }
            if isStill(fd, at: path) { return fd }
            // The holder before us removed the file as it let go: ours is no longer the lock.
            close(fd)
        }
    }

    /// Whether `path` still names the file open as `fd`.
    private static func isStill(_ fd: Int32, at path: String) -> Bool {
        var open = stat(), named = stat()
        return fstat(fd, &open) == 0 && FileName.stat(path, &named) == 0 && open.st_dev == named.st_dev && open.st_ino == named.st_ino
    }

    /// Removes the lock file, then lets the lock go: a command waiting on it takes it, finds the path
    /// gone, and makes a new one.
    private static func release(_ fd: Int32, path: String) {
        FileName.withCString(path) { _ = unlink($0) }
        flock(fd, LOCK_UN)
        close(fd)
    }
}
