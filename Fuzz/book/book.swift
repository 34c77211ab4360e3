// The book file decoder with its migrations and checks (Formats.BookFile.decode), then encoding
// the book again as a write would: neither may trap.
import Foundation
import Formats

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    if let book = try? BookFile.decode(fuzzData(bytes, size), fileName: "fuzz.json") {
        _ = try? BookFile.encode(book)
    }
    return 0
}
