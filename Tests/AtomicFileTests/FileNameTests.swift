@testable import AtomicFile
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// The names in the folder at the bytes `path`, as the system has them, sorted.
private func byteNames(in path: [UInt8]) -> [[UInt8]] {
    guard let directory = (path + [0]).withUnsafeBufferPointer({ $0.withMemoryRebound(to: CChar.self) { opendir($0.baseAddress!) } }) else {
        return []
    }
    defer { closedir(directory) }
    var names: [[UInt8]] = []
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
        if name != Array(".".utf8) && name != Array("..".utf8) { names.append(name) }
    }
    return names.sorted { $0.lexicographicallyPrecedes($1) }
}

@Suite("File names that are not UTF-8: carried in Strings and URLs byte for byte, written under exactly those bytes")
struct FileNameTests {
    @Test("every byte sequence has one String and back; UTF-8 stays as it is")
    func roundTrip() {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        for _ in 0..<2_000 {
            let bytes = (0..<Int(state % 12)).map { _ -> UInt8 in
                state ^= state << 13; state ^= state >> 7; state ^= state << 17
                return UInt8(truncatingIfNeeded: state)
            }
            #expect(FileName.bytes(of: FileName.string(bytes)) == bytes, "\(bytes)")
        }
        // A stand-in's own character in a name is kept as its four bytes.
        let own = Array("a\u{10FEE9}b".utf8)
        #expect(FileName.bytes(of: FileName.string(own)) == own)
        #expect(FileName.string(Array("café".utf8)) == "café")
        #expect(FileName.shown(FileName.string(Array("caf".utf8) + [0xE9] + Array(".pdf".utf8))) == "caf\\xe9.pdf")
        #expect(FileName.shown(FileName.string([0xC3])) == "\\xc3", "a character cut short")
    }

    @Test("a write to a name that is not UTF-8, in a folder that is not either, makes exactly that file and nothing else")
    func writesUnderTheBytes() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("roadbook-names-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let folderBytes = Array("d".utf8) + [0xE9]
        #expect(FileName.withCString(root.path + "/" + FileName.string(folderBytes)) { mkdir($0, 0o755) } == 0)
        let folder = URL(fileURLWithPath: root.path + "/" + FileName.string(folderBytes), isDirectory: true)
        let name = Array("caf".utf8) + [0xE9] + Array(".pdf".utf8)
        let target = folder.appendingPathComponent(FileName.string(name), isDirectory: false)
        try AtomicFile.write(Data("one".utf8), to: target)
        // Two outputs at once go through a journal, which names them by their bytes.
        let outputs = OutputSet()
        try outputs.write(Data("two".utf8), to: target)
        try outputs.write(Data("undo".utf8), to: folder.appendingPathComponent(FileName.string([0xFF]), isDirectory: false))
        try outputs.commit()
        #expect(byteNames(in: Array(root.path.utf8)) == [folderBytes])
        #expect(byteNames(in: Array(root.path.utf8) + [0x2F] + folderBytes) == [name, [0xFF]].sorted { $0.lexicographicallyPrecedes($1) })
        #expect(FileName.contents(of: target.path) == Data("two".utf8))
        // A link whose target's name is not UTF-8 is followed to those bytes.
        let link = folder.appendingPathComponent("link.pdf", isDirectory: false)
        #expect(FileName.withCString(FileName.string(name)) { target in FileName.withCString(link.path) { symlink(target, $0) } } == 0)
        try AtomicFile.write(Data("three".utf8), to: link)
        #expect(FileName.contents(of: target.path) == Data("three".utf8))
        #expect(AtomicFile.replaces(link, target))
    }

    @Test("leftovers of a killed run whose names are not UTF-8 are found and removed")
    func leftoversByBytes() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("roadbook-names-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        let dead = process.processIdentifier
        let name = FileName.string(Array("b".utf8) + [0xE9])
        let leftover = root.appendingPathComponent(AtomicFile.temporaryName(for: name, pid: dead, random: 1), isDirectory: false)
        #expect(FileName.open(leftover.path, O_WRONLY | O_CREAT, 0o644) >= 0)
        try AtomicFile.write(Data("x".utf8), to: root.appendingPathComponent("c.txt"))
        #expect(byteNames(in: Array(root.path.utf8)) == [Array("c.txt".utf8)])
    }
}
