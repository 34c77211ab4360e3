import Foundation
import Guidance
import Model

/// A book whose generated turn words were written again in another language (`rewordBook`).
public struct RewordedBook: Sendable, Equatable {
    /// The book, printing in the new language (`BookSettings.language`).
    public var book: Book
    /// How many notes had their generated words written again.
    public var rewritten: Int
    /// Notes whose words were generated (no person changed them) but which no language's phrases
    /// make, such as words an older roadbook generated: left as they are. By id.
    public var unrecognised: [Int]
}

/// `book` printing in `language`: the words of every generated turn that no person wrote or changed
/// (`Note.wordsArePersons` false) written again in `language`, the same phrase, exit and road; the
/// book's language set to it. A person's words are never touched, nor anything but the words.
///
/// The words are read in the book's language first, then in every other one, so a book whose
/// words were generated in another language than it names is reworded too.
/// - Complexity: O(notes × phrases²) string comparisons.
public func rewordBook(_ book: Book, in language: BookLanguage) -> RewordedBook {
    let target = Instructions(language: language)
    let own = book.settings.language ?? .en
    let sources = ([own] + BookLanguage.allCases.filter { $0 != own }).map { Instructions(language: $0) }
    var result = book
    var rewritten = 0
    var unrecognised: [Int] = []
    for i in result.notes.indices {
        let note = result.notes[i]
        guard let generated = note.generated, !note.wordsArePersons else { continue }
        guard let words = sources.lazy.compactMap({ target.reword(note.text, exitNumber: generated.exitNumber, from: $0) }).first else {
            unrecognised.append(note.id)
            continue
        }
        result.notes[i].text = words
        result.notes[i].generated?.text = words
        rewritten += 1
    }
    result.settings.setLanguage(language)
    return RewordedBook(book: result, rewritten: rewritten, unrecognised: unrecognised)
}
