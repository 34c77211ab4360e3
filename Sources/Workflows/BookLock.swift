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
/// which stays there (it holds nothing; removing it while a command runs would let a second one in).
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
        defer { release(fd) }
        return try $held.withValue(held.union([path])) { try body() }
    }

    /// Runs `body` holding the lock of `book`, across its suspensions.
    public static func hold<T>(_ book: URL, wait: TimeInterval = defaultWait, _ body: () async throws -> T) async throws -> T {
        let path = location(of: book).path
        if held.contains(path) { return try await body() }
        let fd = try acquire(path, book: book, wait: wait)
        defer { release(fd) }
        return try await $held.withValue(held.union([path])) { try await body() }
    }

    /// The lock file of `book`: `.NAME.lock` beside the file the book's links lead to.
    public static func location(of book: URL) -> URL {
        let target = (try? AtomicFile.resolveTarget(book)) ?? book
        return target.deletingLastPathComponent().appendingPathComponent("." + target.lastPathComponent + ".lock")
    }

    private static func acquire(_ path: String, book: URL, wait: TimeInterval) throws -> Int32 {
        let fd = FileName.open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o666)
        guard fd >= 0 else {
            throw WorkflowError("\(shownPath(book)): cannot lock the book for the change (\(path): \(AtomicFile.reason(errno: errno)))")
        }
        let deadline = Date().addingTimeInterval(wait)
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            guard code == EWOULDBLOCK || code == EINTR, Date() < deadline else {
                close(fd)
                let reason = code == EWOULDBLOCK ? "another roadbook has been changing it for \(Int(wait)) s" : AtomicFile.reason(errno: code)
                throw WorkflowError("\(shownPath(book)): cannot change the book: \(reason)")
            }
            usleep(10_000)
        }
        return fd
    }

    private static func release(_ fd: Int32) {
        flock(fd, LOCK_UN)
        close(fd)
    }
}
