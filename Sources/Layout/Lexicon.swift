import Foundation
import Model

/// A mistake in a symbol library's `symbols.json`, naming the field:
/// `Symbols/symbols.json: symbols[3].meaning.fr must be a string`.
public struct SymbolCatalogueError: Error, CustomStringConvertible, Equatable {
    public var file: String
    public var field: String?
    public var message: String

    public init(file: String, field: String? = nil, message: String) {
        self.file = file
        self.field = field
        self.message = message
    }

    public var description: String { "\(file): " + (field.map { "\($0) " } ?? "") + message }
}

/// What a symbol library's `symbols.json` says of its groups and symbols: their meanings in
/// several languages (`en`, `fr`, `es`, `pt`, `it`, …) and each symbol's group.
///
/// The file: `{"version": 1, "groups": [{"id": "danger", "meaning": {"en": "…", "fr": "…"}}],
/// "symbols": [{"name": "ford", "group": "water", "openrally": null, "meaning": {"en": "Ford", …}}]}`;
/// a symbol may also carry `"level"` (danger levels). Fields other than these are passed over, so a
/// later version of the file can add some.
public struct SymbolCatalogue: Sendable, Equatable {
    /// What the file says of one symbol.
    public struct Entry: Sendable, Equatable {
        /// The group's id (`water`); nil when the file names none.
        public var group: String?
        /// The meaning by language code.
        public var meanings: [String: String]

        public init(group: String?, meanings: [String: String]) {
            self.group = group
            self.meanings = meanings
        }
    }

    /// Each group's title by language code, by the group's id.
    public var groups: [String: [String: String]]
    /// The group ids in the file's order.
    public var groupOrder: [String]
    /// Each symbol's entry, by name.
    public var symbols: [String: Entry]

    public init(groups: [String: [String: String]] = [:], groupOrder: [String] = [], symbols: [String: Entry] = [:]) {
        self.groups = groups
        self.groupOrder = groupOrder
        self.symbols = symbols
    }

    /// The largest `symbols.json` read: the library's is some 60 KB.
    public static let maximumBytes = 4 << 20

    /// Decodes and checks a `symbols.json`.
    /// - Parameter fileName: used in messages.
    /// - Throws: `SymbolCatalogueError` naming the field.
    public static func decode(_ data: Data, fileName: String) throws -> SymbolCatalogue {
        guard data.count <= maximumBytes else {
            throw SymbolCatalogueError(file: fileName, message: "is \(data.count) bytes, more than the \(maximumBytes) a symbols file may have")
        }
        let root: JSONValue
        do { root = try JSONDecoder().decode(JSONValue.self, from: data) } catch {
            if let problem = JSONScanner.problem(in: data) {
                throw SymbolCatalogueError(file: fileName, field: problem.field,
                                           message: problem.field == nil ? "is not JSON: \(problem.description)" : problem.message)
            }
            throw SymbolCatalogueError(file: fileName, message: "is not JSON")
        }
        func fail(_ field: String?, _ message: String) -> SymbolCatalogueError {
            SymbolCatalogueError(file: fileName, field: field, message: message)
        }
        guard case .object(let top) = root else { throw fail(nil, "must be a JSON object") }
        guard case .number(let version)? = top["version"] else { throw fail("version", "is missing: give 1") }
        guard version == 1 else { throw fail("version", "is \(TemplateFile.format(version)); this roadbook reads version 1") }
        func meanings(_ value: JSONValue?, _ field: String) throws -> [String: String] {
            guard case .object(let object)? = value else { throw fail(field, "must be an object of texts by language (\"en\": \"…\")") }
            var result: [String: String] = [:]
            for (language, text) in object {
                // The language is the file's key: shown escaped, so a line break in it keeps the message one line.
                let named = "\(field).\(JSONScanner.printable(language))"
                guard case .string(let string) = text else { throw fail(named, "must be a string") }
                guard string.count <= BookLimits.maximumLineLength else {
                    throw fail(named, "has \(string.count) characters; a meaning holds at most \(BookLimits.maximumLineLength)")
                }
                result[language] = string
            }
            return result
        }
        var catalogue = SymbolCatalogue()
        if let groups = top["groups"] {
            guard case .array(let list) = groups else { throw fail("groups", "must be a list") }
            for (i, group) in list.enumerated() {
                guard case .object(let fields) = group else { throw fail("groups[\(i)]", "must be an object") }
                guard case .string(let id)? = fields["id"], NoteSymbol.isWellFormed(id) else {
                    throw fail("groups[\(i)].id", "must be a group's name: letters, digits, - and _")
                }
                if catalogue.groups[id] == nil { catalogue.groupOrder.append(id) }
                catalogue.groups[id] = try meanings(fields["meaning"], "groups[\(i)].meaning")
            }
        }
        if let symbols = top["symbols"] {
            guard case .array(let list) = symbols else { throw fail("symbols", "must be a list") }
            for (i, symbol) in list.enumerated() {
                guard case .object(let fields) = symbol else { throw fail("symbols[\(i)]", "must be an object") }
                guard case .string(let name)? = fields["name"], NoteSymbol.isWellFormed(name) else {
                    throw fail("symbols[\(i)].name", "must be a symbol's name: 1 to \(NoteSymbol.maximumNameLength) letters, digits, - and _")
                }
                var group: String?
                switch fields["group"] {
                case .string(let id)?: group = id
                case nil, .null?: group = nil
                default: throw fail("symbols[\(i)].group", "must be a group's id")
                }
                catalogue.symbols[name] = Entry(group: group, meanings: try meanings(fields["meaning"], "symbols[\(i)].meaning"))
            }
        }
        return catalogue
    }

    /// This catalogue with `other`'s groups and symbols over it: an entry of `other` replaces this
    /// one's of the same name (a person's folder over the library's).
    public func merging(_ other: SymbolCatalogue) -> SymbolCatalogue {
        var merged = self
        for id in other.groupOrder where merged.groups[id] == nil { merged.groupOrder.append(id) }
        merged.groups.merge(other.groups) { _, new in new }
        merged.symbols.merge(other.symbols) { _, new in new }
        return merged
    }

    /// The meaning of `symbol` in `language`, else in English; for a library symbol the file does
    /// not give, the library's English meaning; nil for a name neither knows.
    public func meaning(of symbol: NoteSymbol, language: String) -> String? {
        let meanings = symbols[symbol.name]?.meanings ?? [:]
        return meanings[language] ?? meanings["en"] ?? symbol.entry?.meaning
    }

    /// The group of `symbol`: the library's, else the file's; nil when neither gives one.
    public func group(of symbol: NoteSymbol) -> String? {
        symbol.entry?.group.rawValue ?? symbols[symbol.name]?.group
    }

    /// The title of group `id` in `language`, else in English, else the library's English title,
    /// else the id.
    public func groupTitle(_ id: String, language: String) -> String {
        let titles = groups[id] ?? [:]
        return titles[language] ?? titles["en"] ?? NoteSymbol.Group(rawValue: id)?.meaning ?? id
    }
}

/// One symbol of the lexicon and what it means.
public struct LexiconEntry: Sendable, Equatable {
    public var symbol: NoteSymbol
    public var meaning: String
    /// False for a name neither the library nor a `symbols.json` knows.
    public var known: Bool
}

/// The symbols of one group in the lexicon, under the group's title.
public struct LexiconSection: Sendable, Equatable {
    public var title: String
    public var entries: [LexiconEntry]
}

/// The lexicon at the end of a book: every symbol the book uses (its rows' own and those their
/// fields print as), grouped as the library groups them and in its order, each with its meaning in
/// the book's language.
public enum Lexicon {
    /// The sections for `book`: the library's groups in their order (each symbol in the library's
    /// order), then groups only a `symbols.json` names, then the names no one knows, "not in the
    /// library". Only rows on the route count, as only they print. Empty when the book uses no symbol.
    /// - Parameter words: the language of the meanings and of the lexicon's own words (the book's,
    ///   `BookSettings.language`, unless given); English where `catalogue` gives a meaning in none.
    public static func sections(for book: Book, catalogue: SymbolCatalogue, words: Phrasebook? = nil) -> [LexiconSection] {
        let words = words ?? Phrasebook.of(book.settings.language)
        let language = words.language.rawValue
        var used: [NoteSymbol] = []
        var seen: Set<NoteSymbol> = []
        for note in book.notes where note.placement == .onRoute {
            for symbol in note.fieldSymbols + note.symbols where seen.insert(symbol).inserted { used.append(symbol) }
        }
        let libraryIndex = Dictionary(uniqueKeysWithValues: NoteSymbol.library.enumerated().map { ($1, $0) })
        var grouped: [String: [NoteSymbol]] = [:]
        var unknown: [NoteSymbol] = []
        for symbol in used {
            if let group = catalogue.group(of: symbol) { grouped[group, default: []].append(symbol) } else { unknown.append(symbol) }
        }
        let order = NoteSymbol.Group.allCases.map(\.rawValue)
            + catalogue.groupOrder.filter { NoteSymbol.Group(rawValue: $0) == nil }
            + grouped.keys.filter { NoteSymbol.Group(rawValue: $0) == nil && !catalogue.groupOrder.contains($0) }.sorted()
        var sections: [LexiconSection] = []
        for id in order {
            guard let symbols = grouped[id] else { continue }
            let sorted = symbols.sorted { (libraryIndex[$0] ?? Int.max, $0.name) < (libraryIndex[$1] ?? Int.max, $1.name) }
            let title = NoteSymbol.Group(rawValue: id) != nil || catalogue.groups[id] != nil
                ? catalogue.groupTitle(id, language: language) : words[.lexiconOther]
            sections.append(LexiconSection(title: title, entries: sorted.map {
                LexiconEntry(symbol: $0, meaning: catalogue.meaning(of: $0, language: language) ?? words[.lexiconUnknown], known: true)
            }))
        }
        if !unknown.isEmpty {
            sections.append(LexiconSection(title: words[.lexiconOther], entries: unknown.sorted { $0.name < $1.name }.map {
                let meaning = catalogue.meaning(of: $0, language: language)
                return LexiconEntry(symbol: $0, meaning: meaning ?? words[.lexiconUnknown], known: meaning != nil)
            }))
        }
        return sections
    }
}

/// Lays out the lexicon's pages: the title, then each group's title and its symbols, one a line
/// (the pictogram, or the name in a tag, and the meaning), down each sheet column and onto the
/// next page. Every line has a fixed height, so the number of pages is known before any text is
/// measured: the row pages' footers count them.
public enum LexiconLayout {
    /// One line of the lexicon.
    enum Item {
        case title
        case group(String)
        case entry(LexiconEntry)
    }

    /// Where an item goes: the page (from 0), the sheet column, the top of its line.
    struct Placed {
        var item: Item
        var page: Int
        var column: Int
        var y: Double
    }

    static func height(of item: Item, template: PageTemplate) -> Double {
        switch item {
        case .title: template.fonts.title.size * 1.8
        case .group: template.fonts.marker.size * 2.4
        case .entry: PictogramSize.side + 2 * template.cellPadding
        }
    }

    /// The height a sheet column offers between header and footer; a roll's is the longest page a
    /// PDF may have.
    static func columnHeight(_ template: PageTemplate) -> Double {
        let chrome = template.margins.top + template.margins.bottom + template.headerHeight + template.footerHeight
        let page = template.roll == nil ? template.pageSize.height : min(template.pageSize.height, PageTemplate.maximumPageLength)
        return max(0, page - chrome)
    }

    /// Every item placed, down the sheet columns and onto the next page; a group's title never
    /// ends a column (it goes on with its first symbol).
    static func place(_ sections: [LexiconSection], template: PageTemplate) -> [Placed] {
        guard !sections.isEmpty else { return [] }
        var items: [Item] = [.title]
        for section in sections {
            items.append(.group(section.title))
            items += section.entries.map { .entry($0) }
        }
        let available = columnHeight(template)
        var placed: [Placed] = []
        var page = 0, column = 0, used = 0.0
        for (i, item) in items.enumerated() {
            var needed = height(of: item, template: template)
            if case .group = item, i + 1 < items.count { needed += height(of: items[i + 1], template: template) }
            if used > 0, used + needed > available + 1e-6 {
                column += 1
                if column == template.sheetColumns { column = 0; page += 1 }
                used = 0
            }
            placed.append(Placed(item: item, page: page, column: column, y: used))
            used += height(of: item, template: template)
        }
        return placed
    }

    /// The number of pages the lexicon of `sections` takes on `template`: 0 for none.
    public static func pageCount(_ sections: [LexiconSection], template: PageTemplate) -> Int {
        place(sections, template: template).last.map { $0.page + 1 } ?? 0
    }

    /// The lexicon's pages.
    /// - Parameters:
    ///   - firstPageNumber: the number of its first page in the book (1-based).
    ///   - pageCount: the book's pages in all, for the footers.
    ///   - pictograms: the symbols whose pictograms can be drawn; the others print as their names.
    ///   - words: the language of the title, the tags and the footers; the book's unless given.
    public static func pages(_ sections: [LexiconSection], book: Book, template: PageTemplate, measurer: some TextMeasurer,
                             firstPageNumber: Int, pageCount: Int, pictograms: Set<NoteSymbol>,
                             words: Phrasebook? = nil) -> [PageLayout] {
        let words = words ?? Phrasebook.of(book.settings.language)
        let placed = place(sections, template: template)
        guard let last = placed.last else { return [] }
        let fitter = Fitter(measurer: measurer, minimumSize: template.minimumFontSize)
        let fonts = template.fonts
        let p = template.cellPadding
        let side = PictogramSize.side
        return (0...last.page).map { index in
            let mine = placed.filter { $0.page == index }
            var size = template.pageSize
            if template.roll != nil {
                let chrome = template.margins.top + template.margins.bottom + template.headerHeight + template.footerHeight
                let used = mine.map { $0.y + height(of: $0.item, template: template) }.max() ?? 0
                size = PageSize(width: size.width, height: chrome + used)
            }
            var boxes = BookLayout.headerBoxes(book: book, template: template, width: size.width, fitter: fitter)
            for item in mine {
                let column = template.columnRect(item.column)
                let top = column.y + item.y
                let line = height(of: item.item, template: template)
                switch item.item {
                case .title:
                    boxes.append(fitter.box(.lexiconTitle, words[.lexiconTitle], fonts.title,
                                            Rect(x: column.x, y: top, width: column.width, height: line), vertical: .middle))
                case .group(let title):
                    boxes.append(fitter.box(.lexiconGroup, title, fonts.marker,
                                            Rect(x: column.x, y: top, width: column.width, height: line), vertical: .bottom))
                case .entry(let entry):
                    var x = column.x
                    if pictograms.contains(entry.symbol) {
                        boxes.append(BookLayout.pictogram(.symbol, entry.symbol, Rect(x: x, y: top + p, width: side, height: side), row: nil))
                        x += side
                    } else {
                        let label = SymbolFormat.label(entry.symbol, in: words)
                        let measured = measurer.measure(label, font: fonts.symbol, width: BookLayout.unboundedWidth).width + 2 * p
                        let width = min(column.width / 3, max(side, measured))
                        let tag = fonts.symbol.size * 1.6
                        boxes.append(fitter.box(.symbol, label, fonts.symbol,
                                                Rect(x: x, y: top + p + (side - tag) / 2, width: width, height: tag),
                                                horizontal: .center, vertical: .middle))
                        x += width
                    }
                    x += 3 * p
                    boxes.append(fitter.box(.lexiconMeaning, entry.meaning, fonts.noteText,
                                            Rect(x: x, y: top + p, width: max(0, column.maxX - x), height: side), vertical: .middle))
                }
            }
            let number = firstPageNumber + index
            boxes += BookLayout.footerBoxes(page: number, of: pageCount, size: size, template: template, fitter: fitter, words: words)
            return PageLayout(pageNumber: number, pageCount: pageCount, size: size, rowNumbers: [], boxes: boxes)
        }
    }
}
