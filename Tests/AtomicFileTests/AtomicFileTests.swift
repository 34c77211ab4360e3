@testable import AtomicFile
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// A folder of its own for each test, removed afterwards.
private final class Folder {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("roadbook-atomic-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    func path(_ name: String) -> URL { url.appendingPathComponent(name, isDirectory: false) }
    /// Every name in the folder, hidden ones included, sorted.
    var names: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted() }
    deinit { try? FileManager.default.removeItem(at: url) }
}

private func fileType(_ path: String) -> mode_t? {
    var info = stat()
    return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : nil
}

private func text(_ url: URL) -> String? { (try? Data(contentsOf: url)).map { String(decoding: $0, as: UTF8.self) } }

/// A process id no process has: a child that has exited and been reaped.
private func deadProcessID() throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/true")
    try process.run()
    process.waitUntilExit()
    return process.processIdentifier
}

@Suite("AtomicFile: all or nothing, links followed, devices refused, leftovers removed")
struct AtomicFileTests {
    @Test("a write replaces the file and leaves no temporary; a failing write leaves the old file")
    func replaceOrKeep() throws {
        let folder = try Folder()
        let target = folder.path("book.json")
        try AtomicFile.write(Data("old".utf8), to: target)
        struct Boom: Error {}
        #expect(throws: Boom.self) {
            try AtomicFile.write(to: target) { temporary in
                try Data("half".utf8).write(to: temporary)
                throw Boom()
            }
        }
        #expect(text(target) == "old")
        #expect(folder.names == ["book.json"])
        try AtomicFile.write(Data("new".utf8), to: target)
        #expect(text(target) == "new")
        #expect(folder.names == ["book.json"])
    }

    @Test("a symbolic link is followed: its target is replaced, the link stays, the temporary sits beside the target")
    func symlinkFollowed() throws {
        let folder = try Folder()
        try FileManager.default.createDirectory(at: folder.path("real"), withIntermediateDirectories: false)
        try Data("old".utf8).write(to: folder.path("real/book.pdf"))
        try FileManager.default.createSymbolicLink(atPath: folder.path("link.pdf").path, withDestinationPath: "real/book.pdf")
        let seen = try AtomicFile.write(to: folder.path("link.pdf")) { temporary in
            try Data("new".utf8).write(to: temporary)
            return temporary.deletingLastPathComponent().lastPathComponent
        }
        #expect(seen == "real")
        #expect(fileType(folder.path("link.pdf").path) == S_IFLNK)
        #expect(text(folder.path("real/book.pdf")) == "new")
        #expect(folder.names == ["link.pdf", "real"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("real").path) == ["book.pdf"])
    }

    @Test("a dangling link is followed too: the file it names is created")
    func danglingLink() throws {
        let folder = try Folder()
        try FileManager.default.createSymbolicLink(atPath: folder.path("link.pdf").path, withDestinationPath: "made.pdf")
        try AtomicFile.write(Data("x".utf8), to: folder.path("link.pdf"))
        #expect(text(folder.path("made.pdf")) == "x")
        #expect(fileType(folder.path("link.pdf").path) == S_IFLNK)
    }

    @Test("a device is refused and stays a device (/dev/null is only looked at)")
    func deviceRefused() throws {
        let error = #expect(throws: AtomicFile.WriteError.self) {
            try AtomicFile.write(Data("x".utf8), to: URL(fileURLWithPath: "/dev/null"))
        }
        #expect(error?.description == "/dev/null: cannot write: it is a character device, not a regular file; give a file name to write")
        #expect(fileType("/dev/null") == S_IFCHR)
    }

    @Test("a link to a device is refused, naming where it leads")
    func linkToDevice() throws {
        let folder = try Folder()
        try FileManager.default.createSymbolicLink(atPath: folder.path("out.pdf").path, withDestinationPath: "/dev/null")
        let error = #expect(throws: AtomicFile.WriteError.self) { try AtomicFile.write(Data("x".utf8), to: folder.path("out.pdf")) }
        #expect(error?.reason.contains("the file it links to (/dev/null) is a character device") == true)
        #expect(fileType("/dev/null") == S_IFCHR)
    }

    @Test("a FIFO, a folder and a link loop are refused, left as they were")
    func otherKinds() throws {
        let folder = try Folder()
        let fifo = folder.path("pipe.pdf")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let pipeError = #expect(throws: AtomicFile.WriteError.self) { try AtomicFile.write(Data("x".utf8), to: fifo) }
        #expect(pipeError?.reason.hasPrefix("it is a named pipe (FIFO), not a regular file") == true)
        #expect(fileType(fifo.path) == S_IFIFO)

        let dir = folder.path("dir.pdf")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: false)
        let dirError = #expect(throws: AtomicFile.WriteError.self) { try AtomicFile.write(Data("x".utf8), to: dir) }
        #expect(dirError?.reason.hasPrefix("it is a folder, not a regular file") == true)
        #expect(fileType(dir.path) == S_IFDIR)

        try FileManager.default.createSymbolicLink(atPath: folder.path("a").path, withDestinationPath: "b")
        try FileManager.default.createSymbolicLink(atPath: folder.path("b").path, withDestinationPath: "a")
        let loop = #expect(throws: AtomicFile.WriteError.self) { try AtomicFile.write(Data("x".utf8), to: folder.path("a")) }
        #expect(loop?.reason == "too many levels of symbolic links")
        #expect(folder.names == ["a", "b", "dir.pdf", "pipe.pdf"])
    }

    @Test("names up to 255 bytes are written; the temporary name never passes 255 bytes",
          arguments: [249, 250, 255])
    func longNames(length: Int) throws {
        let folder = try Folder()
        let name = String(repeating: "n", count: length - 4) + ".pdf"
        try AtomicFile.write(Data("x".utf8), to: folder.path(name))
        #expect(folder.names == [name])
        let accented = String(repeating: "é", count: (length - 4) / 2) + ".pdf"
        let temporary = AtomicFile.temporaryName(for: accented, pid: Int32.max, random: .max)
        #expect(temporary.utf8.count <= 255)
        #expect(AtomicFile.temporaryOwner(of: temporary) == Int32.max)
        try AtomicFile.write(Data("y".utf8), to: folder.path(accented))
        #expect(text(folder.path(accented)) == "y")
    }

    @Test("temporary names are hidden and recognised; other hidden files are not")
    func names() {
        let name = AtomicFile.temporaryName(for: "book.pdf", pid: 4321, random: 0xAB)
        #expect(name == ".book.pdf.roadbook-tmp-4321-000000ab")
        #expect(AtomicFile.temporaryOwner(of: name) == 4321)
        #expect(AtomicFile.temporaryOwner(of: ".book.pdf.812.3391224.tmp") == 812, "the names earlier versions used")
        for other in ["book.pdf.roadbook-tmp-4321-000000ab", ".book.pdf.roadbook-tmp-backup", ".book.pdf.roadbook-tmp-12-xyz",
                      ".notes.tmp", ".x.roadbook-tmp--000000ab", "book.pdf"] {
            #expect(AtomicFile.temporaryOwner(of: other) == nil, "\(other)")
        }
    }

    @Test("leftovers of a killed run are removed by the next write there; live ones and other files stay")
    func leftovers() throws {
        let folder = try Folder()
        let dead = try deadProcessID()
        let names = [
            AtomicFile.temporaryName(for: "book.pdf", pid: dead, random: 1),          // killed run: removed
            ".book.json.\(dead).77.tmp",                                              // an earlier version's: removed
            AtomicFile.temporaryName(for: "book.pdf", pid: 1, random: 2),             // live and recent: kept
            AtomicFile.temporaryName(for: "old.pdf", pid: 1, random: 3),              // live id but two days old: removed
            ".book.pdf.roadbook-tmp-notes",                                           // not ours: kept
            "book.pdf",
        ]
        for name in names { try Data("x".utf8).write(to: folder.path(name)) }
        let twoDaysAgo = Date().addingTimeInterval(-2 * 24 * 3600)
        try FileManager.default.setAttributes([.modificationDate: twoDaysAgo], ofItemAtPath: folder.path(names[3]).path)
        try AtomicFile.write(Data("new".utf8), to: folder.path("book.pdf"))
        #expect(folder.names == [names[2], names[4], "book.pdf"].sorted())
        #expect(text(folder.path("book.pdf")) == "new")
    }

    @Test("a commit killed between its renames is finished by the next write in its folder: its temporaries renamed, not removed")
    func interruptedCommitFinished() throws {
        let folder = try Folder()
        let dead = try deadProcessID()
        let book = folder.path("b.json"), undo = folder.path("b.before-apply.json")
        // The killed run renamed the book, not yet the undo file: that one is in its temporary.
        try Data("new book".utf8).write(to: book)
        try Data("old undo".utf8).write(to: undo)
        let bookTemporary = folder.path(AtomicFile.temporaryName(for: "b.json", pid: dead, random: 1))
        let undoTemporary = folder.path(AtomicFile.temporaryName(for: "b.before-apply.json", pid: dead, random: 2))
        try Data("new undo".utf8).write(to: undoTemporary)
        let journal = folder.path(AtomicFile.journalName(for: "b.json", pid: dead))
        let journalText = AtomicFile.journalText(renames: [(bookTemporary.path, book.path), (undoTemporary.path, undo.path)],
                                                 journals: [journal.path])
        try Data(journalText.utf8).write(to: journal)
        // A leftover of another killed run beside it is still removed.
        try Data("x".utf8).write(to: folder.path(AtomicFile.temporaryName(for: "other.pdf", pid: dead, random: 3)))
        try AtomicFile.write(Data("unrelated".utf8), to: folder.path("c.txt"))
        #expect(text(book) == "new book" && text(undo) == "new undo")
        #expect(folder.names == ["b.before-apply.json", "b.json", "c.txt"])
    }

    @Test("a journal names any path, line feeds and all; one cut short is not read")
    func journalText() throws {
        let renames = [(temporary: "/a/.b\nc.roadbook-tmp-1-00000001", target: "/a/b\nc"), (temporary: "/x/.é.roadbook-tmp-1-00000002", target: "/x/é")]
        let text = AtomicFile.journalText(renames: renames, journals: ["/a/.j", "/x/.j"])
        #expect(text.split(separator: "\n").count == 5)
        let parsed = try #require(AtomicFile.parseJournal(text))
        #expect(parsed.renames.map(\.temporary) == renames.map(\.temporary) && parsed.renames.map(\.target) == renames.map(\.target))
        #expect(parsed.journals == ["/a/.j", "/x/.j"])
        #expect(AtomicFile.parseJournal(String(text.dropLast(3))) == nil)
        #expect(AtomicFile.journalOwner(of: AtomicFile.journalName(for: "b.json", pid: 42)) == 42)
        #expect(AtomicFile.journalOwner(of: AtomicFile.temporaryName(for: AtomicFile.journalName(for: "b.json", pid: 42), pid: 7)) == nil,
                "a journal being written is a temporary")
        #expect(AtomicFile.temporaryOwner(of: AtomicFile.journalName(for: "b.json", pid: 42)) == nil)
    }

    @Test("a set of two outputs leaves no journal once committed; a cache is written with the usual permissions, not the old file's")
    func journalRemovedAndModeNotKept() throws {
        let folder = try Folder()
        let set = OutputSet()
        try set.write(Data("1".utf8), to: folder.path("a"))
        try set.write(Data("2".utf8), to: folder.path("b"))
        try set.commit()
        #expect(folder.names == ["a", "b"])
        let cache = folder.path("graph")
        try Data("old".utf8).write(to: cache)
        chmod(cache.path, 0o000)
        try AtomicFile.write(to: cache, keepsMode: false) { try Data("new".utf8).write(to: $0) }
        let mask = umask(0)
        umask(mask)
        var info = stat()
        stat(cache.path, &info)
        #expect(info.st_mode & 0o777 == 0o666 & ~mask)
        chmod(folder.path("a").path, 0o444)
        try AtomicFile.write(Data("3".utf8), to: folder.path("a"))
        stat(folder.path("a").path, &info)
        #expect(info.st_mode & 0o777 == 0o444, "a file a person made read-only stays so")
    }

    @Test("an output set replaces all its files, or none: one failing output leaves every target as it was")
    func outputSet() throws {
        let folder = try Folder()
        let book = folder.path("b.json"), pdf = folder.path("b.pdf")
        try Data("old book".utf8).write(to: book)
        try Data("old pdf".utf8).write(to: pdf)
        struct Boom: Error {}
        let failing = OutputSet()
        #expect(throws: Boom.self) {
            do {
                try failing.write(Data("new book".utf8), to: book)
                let temporary = try failing.add(pdf)
                try Data("half".utf8).write(to: temporary)
                throw Boom()
            } catch {
                failing.discard()
                throw error
            }
        }
        #expect(text(book) == "old book" && text(pdf) == "old pdf")
        #expect(folder.names == ["b.json", "b.pdf"])

        let set = OutputSet()
        try set.write(Data("new book".utf8), to: book)
        try Data("new pdf".utf8).write(to: set.add(pdf))
        #expect(text(book) == "old book", "nothing is replaced before the commit")
        try set.commit()
        #expect(text(book) == "new book" && text(pdf) == "new pdf")
        #expect(folder.names == ["b.json", "b.pdf"])
    }

    @Test("an output never written fails the commit, and nothing is replaced")
    func unwritten() throws {
        let folder = try Folder()
        try Data("old".utf8).write(to: folder.path("a"))
        let set = OutputSet()
        try set.write(Data("new".utf8), to: folder.path("a"))
        _ = try set.add(folder.path("b"))
        let error = #expect(throws: AtomicFile.WriteError.self) { try set.commit() }
        #expect(error?.description == "\(folder.path("b").path): cannot write: nothing was written")
        #expect(text(folder.path("a")) == "old")
        #expect(folder.names == ["a"])
    }

    @Test("the same file twice in one set is refused")
    func twice() throws {
        let folder = try Folder()
        let set = OutputSet()
        _ = try set.add(folder.path("a"))
        #expect(throws: AtomicFile.WriteError.self) { _ = try set.add(folder.path("a")) }
        set.discard()
    }

    @Test("a replaced file keeps its permissions")
    func permissions() throws {
        let folder = try Folder()
        let target = folder.path("book.json")
        try Data("old".utf8).write(to: target)
        #expect(chmod(target.path, 0o640) == 0)
        try AtomicFile.write(Data("new".utf8), to: target)
        var info = stat()
        #expect(stat(target.path, &info) == 0 && info.st_mode & 0o777 == 0o640)
    }

    @Test("a full disk says so: a 64 KB tmpfs when mounting is allowed, else /dev/full through the same write loop")
    func diskFull() throws {
        let folder = try Folder()
        let mount = folder.path("small")
        try FileManager.default.createDirectory(at: mount, withIntermediateDirectories: false)
        let mounted = Process.quiet("/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", mount.path])
        defer { if mounted { _ = Process.quiet("/bin/umount", [mount.path]) } }
        if mounted {
            let target = mount.appendingPathComponent("book.json")
            try AtomicFile.write(Data("old".utf8), to: target)
            let error = #expect(throws: AtomicFile.WriteError.self) {
                try AtomicFile.write(Data(count: 1 << 20), to: target)
            }
            #expect(error?.description == "\(target.path): cannot write: no space left on device; free some space and run again")
            #expect(text(target) == "old")
            #expect(try FileManager.default.contentsOfDirectory(atPath: mount.path) == ["book.json"])
        } else {
            let fd = open("/dev/full", O_WRONLY)
            #expect(fd >= 0)
            defer { close(fd) }
            let code = AtomicFile.writeAll(Data(count: 4096), to: fd)
            #expect(code == ENOSPC)
            #expect(AtomicFile.reason(errno: code).hasPrefix("no space left on device"))
        }
    }
}

extension Process {
    /// Runs a program with its output discarded; whether it exited 0.
    static func quiet(_ path: String, _ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
