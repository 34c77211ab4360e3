// The OpenRally GPX reader (Formats.OpenRallyReader) on any bytes: it must return a route file or
// throw, never trap; a book it reads that validates must write (OpenRallyWriter) and read back.
import Foundation
import Formats
import Model

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let url = fuzzFile(fuzzData(bytes, size), named: "fuzz.gpx")
    guard let book = (try? OpenRallyReader.read(contentsOf: url))?.book, (try? book.validate()) != nil else { return 0 }
    do {
        let written = fuzzFile(try OpenRallyWriter.data(of: book), named: "written.gpx")
        let again = try OpenRallyReader.read(contentsOf: written)
        guard again.book?.notes.count == book.notes.count else { fatalError("the written book reads back with other rows") }
    } catch {
        fatalError("a book read from OpenRally GPX does not read back once written: \(error)")
    }
    return 0
}
