// The Rally Navigator RN2 reader (Formats.RN2Reader) on bytes, then the book it makes checked and
// encoded as `build` would write it: none of it may trap.
import Foundation
import Formats

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let data = fuzzData(bytes, size)
    _ = RN2Reader.recognises(head: data.prefix(RouteFormats.sniffLength))
    if let file = try? RN2Reader.read(data, fileName: "fuzz.rn2", source: "fuzz.rn2"), let book = file.book {
        if (try? book.validate()) != nil { _ = try? BookFile.encode(book) }
    }
    return 0
}
