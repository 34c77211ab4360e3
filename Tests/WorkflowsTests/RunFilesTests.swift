import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport
@testable import Workflows

/// `checkOutputs`: the one check every operation makes of the files it reads and writes.
@Suite("An operation's outputs, checked against its inputs and their permissions")
struct RunFilesTests {
    /// A folder holding book.json, s.gpx, a link and a hard link to the book.
    private func folder() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try Data("{\"notes\": []}\n".utf8).write(to: folder.path("book.json"))
        try Data("<?xml version=\"1.0\"?>\n<gpx version=\"1.1\"><trk/></gpx>\n".utf8).write(to: folder.path("s.gpx"))
        symlink("book.json", folder.path("link.json").path)
        link(folder.path("book.json").path, folder.path("hard.json").path)
        return folder
    }

    @Test("an output that is an input, however it is named (./, absolute, a link, a hard link), is refused naming both")
    func outputIsInput() throws {
        let folder = try folder()
        let book = RunInput(folder.path("book.json"), "the book it reads")
        let base = URL(fileURLWithPath: folder.url.path, isDirectory: true)
        for name in ["book.json", "./book.json", "link.json", "hard.json", "../\(folder.url.lastPathComponent)/book.json", folder.path("book.json").path] {
            let output = URL(fileURLWithPath: name, relativeTo: base)
            #expect(throws: OutputIsInput(output: output, role: "the book it reads"), "\(name)") {
                try checkOutputs([RunOutput(output)], inputs: [book])
            }
            // A prepared graph is only a cache, but no input either.
            #expect(throws: OutputIsInput.self) { try checkOutputs([RunOutput(output, .cache)], inputs: [book]) }
        }
        let error = OutputIsInput(output: URL(fileURLWithPath: "book.json"), role: "the book it reads")
        #expect(error.description == "book.json is the book it reads (an input): choose another output")
        // Other files, and outputs not made yet, pass.
        try checkOutputs([RunOutput(folder.path("out.gpx")), RunOutput(folder.path("s.gpx"))], inputs: [book])
    }

    @Test("a new version of an input may replace it (a book written over itself), but no other input")
    func edits() throws {
        let folder = try folder()
        let book = folder.path("book.json"), draft = folder.path("book.draft.json")
        let inputs = [RunInput(book, "the book it reads"), RunInput(folder.path("s.gpx"), "the route it reads")]
        try checkOutputs([RunOutput(book, .edit(of: book))], inputs: inputs)
        try checkOutputs([RunOutput(folder.path("link.json"), .edit(of: book))], inputs: inputs)
        #expect(throws: OutputIsInput(output: folder.path("s.gpx"), role: "the route it reads")) {
            try checkOutputs([RunOutput(folder.path("s.gpx"), .edit(of: book))], inputs: inputs)
        }
        // A draft whose name leads to the book is not the draft it edits.
        symlink("book.json", draft.path)
        #expect(throws: OutputIsInput(output: draft, role: "the book it edits")) {
            try checkOutputs([RunOutput(draft, .edit(of: draft))], inputs: [RunInput(book, "the book it edits"), RunInput(draft, "the drawing")])
        }
    }

    @Test("a read-only output is refused by its mode bits (root too), unless forced; a cache's mode is not looked at")
    func readOnly() throws {
        let folder = try folder()
        let pdf = folder.path("out.pdf")
        try Data("%PDF".utf8).write(to: pdf)
        chmod(pdf.path, 0o444)
        #expect(throws: WorkflowError("\(pdf.relativePath) is read-only (mode 0444): make it writable (chmod u+w), or give --force to replace it")) {
            try checkOutputs([RunOutput(pdf)], inputs: [])
        }
        try checkOutputs([RunOutput(pdf)], inputs: [], force: true)
        try checkOutputs([RunOutput(pdf, .cache)], inputs: [])
        chmod(pdf.path, 0o644)
        try checkOutputs([RunOutput(pdf)], inputs: [])
    }

    @Test("a book written over a file that holds a route or other data is refused unless forced")
    func bookOverAnotherFormat() throws {
        let folder = try folder()
        let gpx = folder.path("s.gpx")
        #expect(throws: WorkflowError("\(gpx.relativePath) exists and holds a GPX route, not a book: --force replaces it with the book")) {
            try checkOutputs([RunOutput(gpx, holdsBook: true)], inputs: [])
        }
        try checkOutputs([RunOutput(gpx, holdsBook: true)], inputs: [], force: true)
        try checkOutputs([RunOutput(folder.path("book.json"), holdsBook: true), RunOutput(folder.path("new.json"), holdsBook: true)], inputs: [])
        try Data([0x25, 0x50, 0x44, 0x46]).write(to: folder.path("x.pdf"))
        #expect(throws: WorkflowError.self) { try checkOutputs([RunOutput(folder.path("x.pdf"), holdsBook: true)], inputs: []) }
    }
}
