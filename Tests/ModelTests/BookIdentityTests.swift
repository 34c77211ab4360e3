import Foundation
import Model
import Testing

@Suite("A new book's identity")
struct BookIdentityTests {
    @Test("derived from what the book was made of: the same inputs the same id, other inputs another, in a UUID's form")
    func derived() {
        let a = Book.derivedID(from: Array("the Envalira book".utf8))
        #expect(a == Book.derivedID(from: Array("the Envalira book".utf8)))
        #expect(a != Book.derivedID(from: Array("the Envalira book!".utf8)))
        #expect(a != Book.derivedID(from: Array("".utf8)))
        let uuid = UUID(uuidString: a)
        #expect(uuid != nil, "\(a)")
        // RFC 9562: version in the 13th hex digit (8, custom), variant 10xx in the 17th.
        let digits = Array(a.replacingOccurrences(of: "-", with: ""))
        #expect(digits[12] == "8" && "89AB".contains(digits[16]), "\(a)")
    }
}
