// The Rally Navigator RN2 reader (Formats.RN2Reader) on bytes; the book it makes checked, encoded as
// `build` would write it, written back as RN2 (RN2Writer) and read again: none of it may trap.
import Foundation
import Formats

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let data = fuzzData(bytes, size)
    _ = RN2Reader.recognises(head: data.prefix(RouteFormats.sniffLength))
    if let file = try? RN2Reader.read(data, fileName: "fuzz.rn2", source: "fuzz.rn2"), let book = file.book,
       (try? book.validate()) != nil {
        _ = try? BookFile.encode(book)
        if let (written, _) = try? RN2Writer.encode(book, fileName: "fuzz-out.rn2") {
            _ = try? RN2Reader.read(written, fileName: "fuzz-out.rn2", source: "fuzz-out.rn2")
        }
    }
    return 0
}
