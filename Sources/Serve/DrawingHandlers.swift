import Foundation
import Formats
import Model
import Workflows

// The drawings of the book the page shows: a row's tulip (`GET /api/tulip/ID.svg`), a printed page
// (`GET /api/page/N.png`) and the whole PDF (`GET /api/book.pdf`), each drawn by the operations
// `roadbook tulip --row` and `roadbook render` draw with (`BookDrawings`), in memory: nothing is
// written to disk, so nothing outlives the request.

extension Editor {
    /// Resolution of the pages `GET /api/page/N.png` answers with.
    static let pageDPI = 100.0

    /// Whether `path` is one of the drawings' paths.
    static func isDrawingPath(_ path: String) -> Bool {
        path == "/api/book.pdf" || path.hasPrefix("/api/tulip/") || path.hasPrefix("/api/page/")
    }

    /// The drawing `request`'s path asks for; 404 with one line for a tulip or a page the book does
    /// not have. A query (the page's `?revision=N`) changes nothing.
    func drawing(_ request: ServerRequest) -> ServerResponse {
        let path = request.path
        if path == "/api/book.pdf" { return pdf() }
        if let id = Self.number(in: path, after: "/api/tulip/", before: ".svg") { return tulip(id) }
        if let number = Self.number(in: path, after: "/api/page/", before: ".png") { return page(number) }
        return .text(404, "not found: \(path.prefix(100))")
    }

    /// The whole number between `prefix` and `suffix` making up `path`, written in decimal digits
    /// alone; nil otherwise.
    static func number(in path: String, after prefix: String, before suffix: String) -> Int? {
        guard path.hasPrefix(prefix), path.hasSuffix(suffix), path.count > prefix.count + suffix.count else { return nil }
        let digits = path.dropFirst(prefix.count).dropLast(suffix.count)
        guard digits.count <= 9, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(digits)
    }

    // MARK: GET /api/tulip/ID.svg

    func tulip(_ id: Int) -> ServerResponse {
        do {
            let svg = try drawings.drawing("tulip \(id)", of: settings.book) { book in
                try BookDrawings.tulipSVG(ofNote: id, in: book)
            }
            guard let svg else { return .text(404, "no printed row #\(id) with a tulip") }
            return Self.drawing(svg, type: "image/svg+xml")
        } catch {
            return failure(error)
        }
    }

    // MARK: GET /api/page/N.png

    func page(_ number: Int) -> ServerResponse {
        do {
            let png = try drawings.drawing("page \(number)", of: settings.book) { book in
                try BookDrawings.pagePNG(number, of: book, bookFile: settings.book, dpi: Self.pageDPI)
            }
            guard let png else { return .text(404, "the book prints no page \(number)") }
            return Self.drawing(png, type: "image/png")
        } catch {
            return failure(error)
        }
    }

    // MARK: GET /api/book.pdf

    func pdf() -> ServerResponse {
        do {
            // The title is kept beside the PDF, so a PDF kept names its file without the book decoded.
            let title = String(decoding: try drawings.drawing("title", of: settings.book) { Data($0.title.utf8) } ?? Data(), as: UTF8.self)
            let pdf = try drawings.drawing("pdf", of: settings.book) { book in
                try BookDrawings.pdf(of: book, bookFile: settings.book).data
            } ?? Data()
            var response = Self.drawing(pdf, type: "application/pdf")
            let name = title.isEmpty ? settings.book.deletingPathExtension().lastPathComponent : title
            response.headers.append(.init("Content-Disposition", Self.attachment(name + ".pdf")))
            return response
        } catch {
            return failure(error)
        }
    }

    /// `Content-Disposition` for a download named `name`: the name in ASCII (what is not printable
    /// ASCII, quotes and backslashes written `_`), and as UTF-8 too when it is not plain ASCII.
    static func attachment(_ name: String) -> String {
        let plain = String(name.unicodeScalars.map { scalar -> Character in
            (0x20..<0x7f).contains(scalar.value) && scalar != "\"" && scalar != "\\" ? Character(scalar) : "_"
        })
        var value = "attachment; filename=\"\(plain)\""
        if plain != name, let encoded = name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) {
            value += "; filename*=UTF-8''\(encoded)"
        }
        return value
    }

    static func drawing(_ body: Data, type: String) -> ServerResponse {
        ServerResponse(status: 200, headers: [.init("Content-Type", type), .init("Cache-Control", "no-cache")], body: body)
    }
}

/// The drawings made of the book file as it was last read, by what was drawn ("tulip 12",
/// "page 3"): the page asks for a row's tulip each time it shows the row, and the book changes far
/// less often. A book with other bytes empties it; drawings beyond `budget` bytes are not kept.
final class DrawingCache: @unchecked Sendable {
    private let lock = NSLock()
    private var digest = ""
    private var drawings: [String: Data?] = [:]
    private var bytes = 0
    let budget: Int

    init(budget: Int = 64 << 20) { self.budget = budget }

    /// The drawing `key` of the book at `url` as it is now: kept, or made by `draw` from the book.
    /// - Throws: the book's reading errors (`FormatError`, …) and `draw`'s.
    func drawing(_ key: String, of url: URL, draw: (Book) throws -> Data?) throws -> Data? {
        let file = try InputFile.read(url, limit: BookFile.maximumFileSize, what: "a book file")
        let digest = BookJournal.digest(file)
        lock.lock()
        if self.digest == digest, let kept = drawings[key] {
            lock.unlock()
            return kept
        }
        lock.unlock()
        let drawing = try draw(try BookFile.decode(file, fileName: url.path))
        lock.lock()
        defer { lock.unlock() }
        if self.digest != digest {
            self.digest = digest
            drawings = [:]
            bytes = 0
        }
        let size = drawing?.count ?? 0
        if bytes + size <= budget {
            drawings[key] = .some(drawing)
            bytes += size
        }
        return drawing
    }
}
