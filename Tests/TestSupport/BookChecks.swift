import Model
import Testing

/// Fails unless `book` keeps every rule between its notes (`Book.checkInvariants()`) and has every
/// value in its range (`Book.validate()`): what each save of a book checks.
public func expectBookRules(_ book: Book, _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(throws: Never.self, comment, sourceLocation: sourceLocation) { try book.checkInvariants() }
    #expect(throws: Never.self, comment, sourceLocation: sourceLocation) { try book.validate() }
}
