import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension AtomicFile {
    /// What every journal name carries after the first target's name, before the process id.
    public static let journalMarker = ".roadbook-journal-"

    /// Whether writing to `output` would replace the file `input` names: `output`, its symbolic
    /// links followed, is `input`'s file — the same device and inode, so a hard link to it is too.
    /// False when either names nothing yet (a file not made cannot be read). O(links followed).
    public static func replaces(_ output: URL, _ input: URL) -> Bool {
        let target = (try? resolveTarget(output)) ?? output
        var written = stat(), read = stat()
        guard FileName.stat(target.path, &written) == 0, FileName.stat(input.path, &read) == 0 else { return false }
        return written.st_dev == read.st_dev && written.st_ino == read.st_ino
    }

    /// The journal name for a commit whose first target is called `name`, as `temporaryName` makes
    /// a temporary's: `.NAME.roadbook-journal-PID-RANDOM`, at most 255 bytes.
    static func journalName(for name: String, pid: Int32 = getpid()) -> String {
        temporaryName(for: name, pid: pid, marker: journalMarker)
    }

    /// The process id in a journal name, or nil when `name` is not a journal's.
    static func journalOwner(of name: String) -> Int32? {
        owner(of: name, marker: journalMarker)
    }

    /// A journal's content: its format line, then one line per output, the temporary and the target
    /// it is renamed onto, each path as the hexadecimal digits of its bytes (a name may hold any
    /// byte but NUL and `/`), then one line per folder's copy of the journal (`journal PATH`).
    static func journalText(renames: [(temporary: String, target: String)], journals: [String]) -> String {
        func hex(_ path: String) -> String { FileName.bytes(of: path).map { String(format: "%02x", $0) }.joined() }
        return "roadbook-journal 1\n"
            + renames.map { "rename \(hex($0.temporary)) \(hex($0.target))\n" }.joined()
            + journals.map { "journal \(hex($0))\n" }.joined()
    }

    /// The renames and the journals' paths of a journal's text; nil when it is not one (a journal
    /// cut short is never renamed into place, so it is damage, and left alone).
    static func parseJournal(_ text: String) -> (renames: [(temporary: String, target: String)], journals: [String])? {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.first == "roadbook-journal 1", lines.last == "" else { return nil }
        lines.removeFirst()
        lines.removeLast()
        func path(_ hex: Substring) -> String? {
            guard hex.count % 2 == 0, !hex.isEmpty else { return nil }
            var bytes: [UInt8] = []
            var index = hex.startIndex
            while index < hex.endIndex {
                let next = hex.index(index, offsetBy: 2)
                guard let byte = UInt8(hex[index..<next], radix: 16) else { return nil }
                bytes.append(byte)
                index = next
            }
            return FileName.string(bytes)
        }
        var renames: [(temporary: String, target: String)] = []
        var journals: [String] = []
        for line in lines {
            let words = line.split(separator: " ")
            if words.count == 3, words[0] == "rename", let temporary = path(words[1]), let target = path(words[2]) {
                renames.append((temporary, target))
            } else if words.count == 2, words[0] == "journal", let journal = path(words[1]) {
                journals.append(journal)
            } else {
                return nil
            }
        }
        return (renames, journals)
    }

    /// Finishes the commits of killed runs whose journal is in `folder` (their process is gone, or
    /// the journal is older than `leftoverAge`): every temporary a journal names that is still there
    /// is renamed onto its target, in the journal's order, then the journal's copies are removed. A
    /// commit writes its journal only once every output is written and flushed, so what it names is
    /// whole: finishing it gives the outputs the run meant to give, together, and nothing is lost
    /// (an Apply's undo file holds the book as it was). Called by the first write of a run in a
    /// folder, before `removeLeftovers` (which would remove those temporaries), and by a workflow's
    /// check of its outputs before it reads anything.
    /// - Returns: the targets replaced.
    @discardableResult
    public static func finishInterruptedCommits(in folder: URL, now: Date = Date()) -> [String] {
        var finished: [String] = []
        for name in abandoned(in: folder, ownedBy: journalOwner, now: now) {
            let path = folder.appendingPathComponent(name, isDirectory: false).path
            guard let data = FileName.contents(of: path),
                  let journal = parseJournal(String(decoding: data, as: UTF8.self)) else { continue }
            for rename in journal.renames {
                var temporary = stat()
                guard FileName.lstat(rename.temporary, &temporary) == 0, temporary.st_mode & S_IFMT == S_IFREG else { continue }
                if FileName.rename(rename.temporary, rename.target) == 0 { finished.append(rename.target) }
            }
            for copy in Set(journal.journals + [path]) { FileName.unlink(copy) }
            syncFolder(folder.path)
        }
        return finished
    }

    /// Flushes a folder's entries (a rename or an unlink in it) to disk.
    static func syncFolder(_ path: String) {
        let fd = FileName.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }
}
