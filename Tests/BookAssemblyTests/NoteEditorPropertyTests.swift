import BookAssembly
import Foundation
import Geo
import Model
import Testing
import TestSupport

/// Random sequences of row changes, some naming rows that are not there or places off the route,
/// checked against a model of what a person sees: the printed rows in order, each an id, words and
/// a distance, and the rows removed that `restore` can bring back.
@Suite("Random row changes keep the rows a person expects")
struct NoteEditorPropertyTests {
    /// What the model expects of a row.
    struct Row: Equatable, CustomStringConvertible {
        var id: Int
        var text: String
        var distance: Metres
        var marker: String?
        var description: String { "#\(id) \(marker.map { "\($0) " } ?? "")'\(text)' at \(distance)" }
    }

    /// The rows as a person sees them, and what each change must do to them.
    struct Model {
        var rows: [Row]
        /// Rows removed, oldest first, with the printed row each had when removed.
        var removed: [(row: Row, printed: Int)] = []

        var nextID: Int { max(rows.map(\.id).max() ?? 0, removed.map(\.row.id).max() ?? 0) + 1 }

        /// A row goes after every row at its distance or before it, as the editor places notes.
        mutating func insert(_ row: Row) {
            rows.insert(row, at: rows.firstIndex { $0.distance > row.distance } ?? rows.endIndex)
        }

        /// The removed rows `reference` names (all of them for nil).
        func removedIndices(_ reference: NoteReference?) -> [Int] {
            removed.indices.filter { i in
                switch reference {
                case nil: true
                case .row(let n)?: removed[i].printed == n
                case .id(let id)?: removed[i].row.id == id
                case .marker(let m)?: removed[i].row.marker?.caseInsensitiveCompare(m) == .orderedSame
                }
            }
        }
    }

    static func rows(of book: Book) -> [Row] {
        book.notes.filter { $0.placement == .onRoute }.map { Row(id: $0.id, text: $0.text, distance: $0.distanceAlong, marker: $0.marker) }
    }

    /// A change drawn at random, and what the model says it does: nil when it must be refused.
    struct Draw {
        var change: NoteChange
        var expected: Model?
    }

    static let seeds = 40
    static let steps = 30

    @Test("after every change, made or refused, the printed rows are the model's and the book keeps its rules",
          arguments: 0..<seeds)
    func randomChanges(seed: Int) throws {
        var random = SeededGenerator(seed: UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 &+ 1)
        var book = NoteBook.make()
        var model = Model(rows: Self.rows(of: book))
        let editor = NoteEditor(now: NoteBook.now)
        var made = 0, refused = 0
        for step in 0..<Self.steps {
            let draw = Self.draw(model, step: step, using: &random)
            let before = book
            do {
                let result = try editor.apply(draw.change, to: &book)
                guard let expected = draw.expected else {
                    Issue.record("seed \(seed) step \(step): \(draw.change) should be refused, was made: \(result.name)")
                    return
                }
                if case .add = draw.change { #expect(result.noteID == model.nextID, "seed \(seed) step \(step): a new id") }
                model = expected
                made += 1
            } catch let error as NoteEditError {
                #expect(draw.expected == nil, "seed \(seed) step \(step): \(draw.change) refused: \(error)")
                #expect(NoteBook.difference(book, before) == nil, "seed \(seed) step \(step): a refused change changes nothing")
                if draw.expected != nil { return }
                refused += 1
            }
            let rows = Self.rows(of: book)
            #expect(rows == model.rows, "seed \(seed) step \(step) after \(draw.change)")
            #expect((book.deletedNotes ?? []).map(\.id) == model.removed.map(\.row.id), "seed \(seed) step \(step): the tombstones")
            NoteBook.check(book, after: "seed \(seed) step \(step): \(draw.change)")
            if rows != model.rows { return }
        }
        #expect(made > 0 && refused > 0, "seed \(seed): both kinds of change were drawn (\(made) made, \(refused) refused)")
    }

    /// One change: add, edit, remove, restore or move, sometimes naming a row that is not there or
    /// a place off the route.
    static func draw(_ model: Model, step: Int, using random: inout SeededGenerator) -> Draw {
        let length = NoteBook.length
        var expected = model
        /// A reference to a row: its number, id or marker; or, one time in five, to no row.
        func reference() -> (NoteReference, Int?) {
            if model.rows.isEmpty || Int.random(in: 0..<5, using: &random) == 0 {
                let missing: [NoteReference] = [.row(0), .row(model.rows.count + 1 + Int.random(in: 0..<50, using: &random)),
                                                .id(10_000), .marker("NOPE"), model.removed.first.map { .id($0.row.id) } ?? .id(-1)]
                return (missing[Int.random(in: 0..<missing.count, using: &random)], nil)
            }
            let i = Int.random(in: 0..<model.rows.count, using: &random)
            switch Int.random(in: 0..<3, using: &random) {
            case 0: return (.row(i + 1), i)
            case 1: return (.id(model.rows[i].id), i)
            default: return (model.rows[i].marker.map { .marker($0.lowercased()) } ?? .row(i + 1), i)
            }
        }
        /// A distance along the route, or one time in six, one off it.
        func distance() -> Metres? {
            if Int.random(in: 0..<6, using: &random) == 0 { return [-10, length + 10][Int.random(in: 0..<2, using: &random)] }
            return Double(Int.random(in: 0...Int(length), using: &random))
        }
        switch Int.random(in: 0..<10, using: &random) {
        case 0..<3:
            let text = "Note \(step)", marker = Int.random(in: 0..<3, using: &random) == 0 ? "M\(step)" : nil
            let fields = NoteFields(text: text, marker: marker)
            if Int.random(in: 0..<3, using: &random) == 0 {
                let (ref, i) = reference()
                guard let i else { return Draw(change: .add(.row(ref), fields), expected: nil) }
                expected.insert(Row(id: model.nextID, text: text, distance: model.rows[i].distance, marker: marker))
                return Draw(change: .add(.row(ref), fields), expected: expected)
            }
            let d = distance() ?? 0
            guard (0...length).contains(d) else { return Draw(change: .add(.distance(d), fields), expected: nil) }
            expected.insert(Row(id: model.nextID, text: text, distance: d, marker: marker))
            return Draw(change: .add(.distance(d), fields), expected: expected)
        case 3..<5:
            let (ref, i) = reference()
            let text = "Edit \(step)"
            if let i { expected.rows[i].text = text }
            return Draw(change: .edit(ref, NoteFields(text: text)), expected: i == nil ? nil : expected)
        case 5..<7:
            let (ref, i) = reference()
            guard let i else { return Draw(change: .remove(ref), expected: nil) }
            expected.removed.append((expected.rows.remove(at: i), i + 1))
            return Draw(change: .remove(ref), expected: expected)
        case 7:
            let gone = model.removed
            var choices: [NoteReference?] = [nil, .row(99), .id(model.rows.first?.id ?? 1)]
            if let pick = gone.indices.randomElement(using: &random) {
                choices += [.id(gone[pick].row.id), .row(gone[pick].printed)]
                if let m = gone[pick].row.marker { choices.append(.marker(m)) }
            }
            let ref = choices[Int.random(in: 0..<choices.count, using: &random)]
            let chosen = model.removedIndices(ref)
            guard !chosen.isEmpty, ref == nil || chosen.count == 1 else { return Draw(change: .restore(ref), expected: nil) }
            for j in chosen { expected.insert(gone[j].row) }
            expected.removed = gone.indices.filter { !chosen.contains($0) }.map { gone[$0] }
            return Draw(change: .restore(ref), expected: expected)
        default:
            let (ref, i) = reference()
            let by = Int.random(in: 0..<2, using: &random) == 0
            let d = distance() ?? 0
            let shift: NoteShift = by ? .by(d - length / 2) : .to(d)
            guard let i else { return Draw(change: .move(ref, shift), expected: nil) }
            var row = expected.rows.remove(at: i)
            row.distance = by ? row.distance + (d - length / 2) : d
            guard (0...length).contains(row.distance) else { return Draw(change: .move(ref, shift), expected: nil) }
            expected.insert(row)
            return Draw(change: .move(ref, shift), expected: expected)
        }
    }
}
