import AtomicFile
import BookAssembly
import Foundation
import Formats
import Geo
import Model
import Workflows

/// The editor `roadbook serve` runs: the security checks, the page's files and the API of
/// `docs/editor.md`, each path a small function from a request to a response that calls the same
/// library operations as the command line (`changeNotes`, `BookHistory`, …), so the book file,
/// its journal and its lock are those of a command run in a terminal. The book, the extract and
/// the engine come from the command line; no request names a file. It keeps nothing of its own
/// but caches: every answer reads the book file as it is now.
public final class Editor: Sendable {
    /// What the command line gave.
    public struct Settings: Sendable {
        public var book: URL
        /// The page's files; nil answers `/` and `/static/…` 404.
        public var page: StaticFiles?
        /// The engine the handles' changed legs are asked of (`--engine`); nil leaves them waiting.
        public var engine: EngineSettings?
        /// The extract (`--osm`): the map's roads, the turns of an Apply, the embedded router's roads.
        public var osm: URL?
        /// Where an Apply takes the new route's heights from (`--dem`, `--elevation`).
        public var terrain: TerrainRequest
        /// The raster tiles under the map's roads (`--tiles`); nil fetches nothing from outside.
        public var tiles: TileTemplate?
        public init(book: URL, page: StaticFiles?, engine: EngineSettings? = nil, osm: URL? = nil,
                    terrain: TerrainRequest = TerrainRequest(), tiles: TileTemplate? = nil) {
            self.book = book
            self.page = page
            self.engine = engine
            self.osm = osm
            self.terrain = terrain
            self.tiles = tiles
        }
    }

    public let settings: Settings
    public let security: EditorSecurity
    private let cache = BookViewCache()
    /// The roads of `--osm`, the region last read kept.
    let mapRoads: MapRoads?
    /// Tulips, pages and the PDF drawn for the book's present bytes.
    let drawings = DrawingCache()
    /// The Content-Security-Policy header of every answer.
    let contentSecurityPolicy: String

    public init(settings: Settings, security: EditorSecurity) {
        self.settings = settings
        self.security = security
        mapRoads = settings.osm.map { MapRoads(extract: $0) }
        contentSecurityPolicy = Self.contentSecurityPolicy(tiles: settings.tiles)
    }

    /// What the page may load and from where: its own scripts, styles, images and requests, and
    /// from elsewhere only the images of the tile server `--tiles` names; no frame may hold it, no
    /// form or base address leads elsewhere. A script slipped into words the page shows (an
    /// engine's message in a tooltip) does not run, and a page of another site cannot frame it.
    public static func contentSecurityPolicy(tiles: TileTemplate?) -> String {
        let images = ["'self'"] + (tiles.map { [$0.origin] } ?? [])
        return ["default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src " + images.joined(separator: " "),
                "connect-src 'self'", "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'"].joined(separator: "; ")
    }

    /// The answer to `request`: refused by the security checks (403), or its path's.
    public func respond(to request: ServerRequest) -> ServerResponse {
        let verdict = security.check(request)
        guard case .allowed(let setCookie) = verdict else {
            if case .refused(let refusal) = verdict { return refusal }
            return .text(403, "refused")
        }
        var response = route(request)
        if setCookie { response.headers.append(security.cookie) }
        response.headers.append(.init("X-Content-Type-Options", "nosniff"))
        response.headers.append(.init("Referrer-Policy", "no-referrer"))
        response.headers.append(.init("Content-Security-Policy", contentSecurityPolicy))
        return response
    }

    /// The methods the editor takes: any other is one it does not implement for any path (501,
    /// RFC 9110 §9.1), where a method it takes on another path is 405 with the path's `Allow`.
    static let methods: Set<String> = ["GET", "HEAD", "POST"]

    /// The paths and the methods each takes.
    private func route(_ request: ServerRequest) -> ServerResponse {
        let path = request.path
        guard Self.methods.contains(request.method) else {
            return .text(501, "the method \(request.method.prefix(20)) is not one this server takes: GET, HEAD or POST")
        }
        let get = request.method == "GET" || request.method == "HEAD"
        func only(_ method: String, _ answer: () -> ServerResponse) -> ServerResponse {
            if method == "GET" ? get : request.method == method { return answer() }
            var refusal = ServerResponse.text(405, "\(path.prefix(100)) takes \(method), not \(request.method)")
            refusal.headers.append(.init("Allow", method == "GET" ? "GET, HEAD" : method))
            return refusal
        }
        switch path {
        case "/api/book": return only("GET") { book(request) }
        case "/api/notes": return only("POST") { notes(request) }
        case "/api/undo": return only("POST") { history(undo: true) }
        case "/api/redo": return only("POST") { history(undo: false) }
        case "/api/handles": return only("POST") { handles(request) }
        case "/api/apply": return only("POST") { apply() }
        case "/api/roads": return only("GET") { roads(request) }
        case "/api/settings": return only("GET") { .json(200, PageSettings(tiles: settings.tiles?.template)) }
        default: break
        }
        if Self.isDrawingPath(path) { return only("GET") { drawing(request) } }
        if path == "/" || path == "/index.html" || path.hasPrefix("/static/") {
            return only("GET") { settings.page?.response(for: path) ?? .text(404, "the editor's page was not found beside roadbook") }
        }
        return .text(404, "not found: \(path.prefix(100))")
    }

    // MARK: GET /api/book

    /// The book as the page shows it, with its ETag; 304 when the page has it already.
    func book(_ request: ServerRequest) -> ServerResponse {
        do {
            let (tag, body) = try cache.view(of: settings.book)
            if request.header("if-none-match") == tag {
                return ServerResponse(status: 304, headers: [.init("ETag", tag)])
            }
            return ServerResponse(status: 200, headers: [.init("Content-Type", "application/json; charset=utf-8"), .init("ETag", tag),
                                                         .init("Cache-Control", "no-cache")], body: body)
        } catch {
            return failure(error)
        }
    }

    // MARK: POST /api/notes

    /// A change of the rows, as `roadbook note` makes it.
    func notes(_ request: ServerRequest) -> ServerResponse {
        let change: NoteChange
        do { change = try Self.noteChange(RequestBody(request.body)) } catch {
            return failure(error)
        }
        do {
            let result = try changeNotes(in: settings.book, change)
            var message = result.step.name
            if let off = result.step.offRoute { message += "; \(off.foundDescription); kept in the book file, not printed" }
            return .json(200, Changed(revision: result.book.revision ?? 0, message: message))
        } catch {
            return failure(error)
        }
    }

    /// The change a notes body asks for.
    /// - Throws: `RequestBody.Refusal` naming the field at fault.
    static func noteChange(_ body: RequestBody) throws -> NoteChange {
        switch try body.string(always: "op") {
        case "edit":
            let fields = try noteFields(body, text: try body.string("text"))
            guard !fields.isEmpty else {
                throw RequestBody.Refusal(message: "edit needs a field to change: text, marker, danger, symbols, type, cap, reset, speed, zone or targetSpeed")
            }
            return .edit(try reference(body), fields)
        case "add":
            let fields = try noteFields(body, text: try body.string(always: "text"))
            let places = ["at", "lat", "atRow", "atHandle"].filter(body.has)
            // `lon` alone is a place missing its `lat`: said so by the coordinate's reading below.
            guard places.count == 1 || places.isEmpty && body.has("lon") else {
                throw RequestBody.Refusal(message: places.isEmpty ? "add needs where the note goes: at (metres), lat and lon, atRow or atHandle"
                                          : "add takes one of at, lat and lon, atRow and atHandle")
            }
            switch places.first {
            case "at":
                let at = try body.number(always: "at")
                guard at >= 0 else { throw RequestBody.Refusal(message: "field 'at' must be metres from the start, 0 or more") }
                return .add(.distance(at), fields)
            case "atRow":
                return .add(.row(NoteReference(try body.string(always: "atRow"))), fields)
            case "atHandle":
                let n = try body.integer(always: "atHandle")
                guard n >= 1 else { throw RequestBody.Refusal(message: "field 'atHandle' must be a number from 1") }
                return .add(.handle(n), fields)
            default:
                return .add(.coordinate(try body.coordinate()), fields)
            }
        case "remove": return .remove(try reference(body))
        case "restore":
            if try body.bool("all") == true {
                guard !body.has("row") else { throw RequestBody.Refusal(message: "restore takes a row or all, not both") }
                return .restore(nil)
            }
            return .restore(try reference(body))
        case "move":
            let row = try reference(body)
            switch (try body.number("to"), try body.number("by")) {
            case (let to?, nil):
                guard to >= 0 else { throw RequestBody.Refusal(message: "field 'to' must be metres from the start, 0 or more") }
                return .move(row, .to(to))
            case (nil, let by?): return .move(row, .by(by))
            default: throw RequestBody.Refusal(message: "move takes one of to and by, in metres")
            }
        case "tulip":
            return .tulip(try reference(body), try tulipEdit(body))
        case let other:
            throw RequestBody.Refusal(message: "field 'op': '\(other.prefix(40))' is not one of \(noteOps.joined(separator: ", "))")
        }
    }

    /// The `op`s of POST /api/notes: every change `roadbook note` makes (`note speed ROW KMH` is an
    /// edit's `targetSpeed`).
    static let noteOps = ["edit", "add", "remove", "restore", "move", "tulip"]

    /// The fields `add` and `edit` set, as `note`'s options set them.
    static func noteFields(_ body: RequestBody, text: String?) throws -> NoteFields {
        var fields = NoteFields(text: text, marker: try body.string("marker"), danger: try body.integer("danger"),
                                speedLimit: try body.integer("speed"))
        if let zone = try body.string("zone") {
            guard let value = SpeedZone(rawValue: zone) else {
                throw RequestBody.Refusal(message: "field 'zone': '\(zone.prefix(40))' is not one of \(SpeedZone.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            fields.zone = value
        }
        if let list = try body.string("symbols") {
            do { (fields.addSymbols, fields.removeSymbols) = try TypedInput.symbols(list) } catch {
                throw RequestBody.Refusal(message: "field 'symbols': \(error)")
            }
        }
        if let type = try body.string("type") {
            if type.isEmpty { fields.clearType = true } else {
                do { fields.waypointType = try TypedInput.waypointType(type) } catch {
                    throw RequestBody.Refusal(message: "field 'type': \(error)")
                }
            }
        }
        fields.cap = try body.number("cap")
        fields.resetsOdometer = try body.bool("reset")
        fields.targetSpeed = try body.integer("targetSpeed")
        return fields
    }

    /// A tulip's correction, as `note tulip ROW EDIT …` takes it: `edit` is addRoad (angle, class),
    /// removeRoad (road), exit (angle), class (road, or none for the road taken; class) or reset.
    static func tulipEdit(_ body: RequestBody) throws -> TulipEdit {
        func angle() throws -> Degrees {
            let a = try body.number(always: "angle")
            guard (-180...180).contains(a) else { throw RequestBody.Refusal(message: "field 'angle' must be degrees from -180 to 180 (0 ahead, 90 right)") }
            return a
        }
        func road() throws -> Int {
            let n = try body.integer(always: "road")
            guard n >= 1 else { throw RequestBody.Refusal(message: "field 'road' must be a number from 1") }
            return n
        }
        func roadClass(always: Bool) throws -> Tulip.RoadClass? {
            guard let word = always ? try body.string(always: "class") : try body.string("class") else { return nil }
            do { return try TypedInput.roadClass(word) } catch { throw RequestBody.Refusal(message: "field 'class': \(error)") }
        }
        switch try body.string(always: "edit") {
        case "addRoad": return .addRoad(angle: try angle(), roadClass: try roadClass(always: false) ?? .track)
        case "removeRoad": return .removeRoad(try road())
        case "exit": return .exit(angle: try angle())
        case "class":
            let kind = try roadClass(always: true) ?? .track
            return .roadClass(road: body.has("road") ? try road() : nil, kind)
        case "reset": return .reset
        case let other:
            throw RequestBody.Refusal(message: "field 'edit': '\(other.prefix(40))' is not one of addRoad, removeRoad, exit, class, reset")
        }
    }

    /// The row a notes body names (`row`): a reference longer than any row's number, id or marker
    /// can be (a marker is one line of `BookLimits.maximumLineLength` characters) names no row,
    /// and is said so without being repeated whole.
    static func reference(_ body: RequestBody) throws -> NoteReference {
        let text = try body.string(always: "row")
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw RequestBody.Refusal(message: "field 'row' is empty: a row's number, #id or marker is expected")
        }
        guard text.count <= BookLimits.maximumLineLength else {
            throw NoteEditError(.noSuchRow, "no row is '\(text.prefix(40))…': a row's number, id or marker is at most \(BookLimits.maximumLineLength) characters")
        }
        return NoteReference(text)
    }

    // MARK: POST /api/undo, /api/redo

    func history(undo: Bool) -> ServerResponse {
        do {
            let result = undo ? try BookHistory.undo(settings.book) : try BookHistory.redo(settings.book)
            return .json(200, Changed(revision: try currentRevision(), message: result.line(undo ? "undone" : "redone")))
        } catch {
            return failure(error)
        }
    }

    // MARK: GET /api/settings

    /// What the page asks once when it opens: the tile address of `--tiles`, or null.
    struct PageSettings: Encodable {
        var tiles: String?
        enum CodingKeys: CodingKey { case tiles }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(tiles, forKey: .tiles)
        }
    }

    // MARK: Answers

    /// What a change answers.
    struct Changed: Encodable {
        var revision: Int
        var message: String
    }

    private func currentRevision() throws -> Int { try BookRead(settings.book).revision }

    /// The answer to a failure: 400 for a body at fault, 422 for a change the book cannot take, 409
    /// for a book that changed or cannot be changed now, 500 for a file that cannot be read.
    func failure(_ error: any Error) -> ServerResponse {
        switch error {
        case let refusal as RequestBody.Refusal: .error(400, refusal.message)
        case let edit as NoteEditError: .error(422, edit.description)
        case let workflow as WorkflowError: .error(409, workflow.message)
        default: .error(500, "\(error)")
        }
    }
}

/// The last view of the book made, by the bytes it was made from: the page asks every second, and
/// the book changes far less often.
final class BookViewCache: @unchecked Sendable {
    private let lock = NSLock()
    private var last: (digest: String, tag: String, body: Data)?

    /// The ETag and the JSON body of the book at `url` as it is now.
    func view(of url: URL) throws -> (tag: String, body: Data) {
        let read = try BookRead(url)
        let draftURL = RouteDraft.url(for: url)
        let draftBytes = FileName.exists(draftURL.path)
            ? try InputFile.read(draftURL, limit: RouteDraft.Configuration().maximumFileSize, what: "a draft file") : Data()
        let digest = BookJournal.digest(read.bytes) + "-" + BookJournal.digest(draftBytes)
        lock.lock()
        if let last, last.digest == digest {
            lock.unlock()
            return (last.tag, last.body)
        }
        lock.unlock()
        let draft = try RouteDraft.load(for: url, expecting: read.book.id)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let body = try encoder.encode(BookView(book: read.book, draft: draft))
        let tag = "\"\(read.revision)-\(Self.shortHash(digest))\""
        lock.lock()
        last = (digest, tag, body)
        lock.unlock()
        return (tag, body)
    }

    /// 16 hexadecimal digits of FNV-1a over `text`.
    static func shortHash(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return String(format: "%016llx", hash)
    }
}
