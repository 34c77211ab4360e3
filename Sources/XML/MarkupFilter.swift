#if canImport(Glibc)
import Glibc
#endif

/// Reads the bytes on their way to expat once, so no single piece of markup can make the parse
/// slow or large.
///
/// expat reads a comment, a tag (with its attributes), a processing instruction or an entity
/// reference as one token, and while a token is unfinished at the end of a buffer it scans it
/// again from its start with every new buffer: time quadratic in the token's length (a 40 MB
/// comment took 13 s, a KMZ inflating to a 250 MB comment minutes). Text and CDATA sections are
/// handed over in pieces, linear. So, byte by byte, in one pass:
///
/// - a comment's content never reaches expat, only its line breaks (so every line number after it
///   stays right), and a comment of more than `commentLineBreaks` lines is handed on as several
///   comments one after the other; nothing of a comment is kept, whatever its length. Columns on
///   the line a comment ends on count it as `<!--` and `-->` alone;
/// - a tag, a processing instruction, a declaration or an entity reference longer than
///   `maximumMarkupBytes` is refused (`XMLStreamError.malformed`, kind `.tooLong`, with its line).
///
/// A document in UTF-16 (a byte order mark, or `<?` in two-byte characters at its start) is handed
/// on as it is: expat reads it, and its markup is not measured.
struct MarkupFilter {
    /// The longest tag (name and attributes), processing instruction, declaration or entity
    /// reference read: far beyond any real one (the longest attribute seen in GPX, KML and OSM
    /// files is a few kilobytes), and short enough that expat's rescans of it cost milliseconds.
    static let maximumMarkupBytes = 1 << 20
    /// Line breaks of a comment handed on as one comment: a comment of many lines is handed on as
    /// several, so no comment reaching expat is longer than this many bytes.
    static let commentLineBreaks = 64 * 1024
    /// Bytes `filter` may write beyond the bytes it reads: a long comment cut in two (`-->` and
    /// `<!--`), at most twice per `XMLStream.chunkSize` bytes read.
    static let growth = 16

    private enum State: UInt8 {
        case text, reference, open, bang, bangDash, cdataOpen, cdata, comment, instruction, tag
    }

    private var state = State.text
    /// Undecided until the first bytes are seen: whether the document is in UTF-16.
    private var decided = false
    private var passThrough = false
    /// Bytes of the markup read so far, and the line it starts on.
    private var markupBytes = 0
    private var markupLine = 1
    /// Within a tag or declaration: the quote of the attribute value being read, or 0.
    private var quote: UInt8 = 0
    /// Within a comment: dashes just read; within a CDATA section: `]` just read; of `[CDATA[`,
    /// the bytes matched; within a processing instruction: 1 after a `?`.
    private var run = 0
    /// Line breaks of the comment handed on since it (or its last piece) began.
    private var commentBreaks = 0
    /// The line being read (1-based), counting LF, and CR not followed by LF.
    private(set) var line = 1
    private var afterCR = false

    private static let cdataOpening: [UInt8] = Array("[CDATA[".utf8)

    /// Copies `input` to `output` as expat must read it (see the type); `output` has room for
    /// `input.count + growth` bytes.
    /// - Returns: the bytes written to `output`.
    /// - Throws: `XMLStreamError.malformed` (`.tooLong`) for markup longer than `maximumMarkupBytes`.
    mutating func filter(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawPointer) throws(XMLStreamError) -> Int {
        guard let base = input.baseAddress, input.count > 0 else { return 0 }
        if !decided {
            decided = true
            let head = Array(input.prefix(4))
            passThrough = head.starts(with: [0xFE, 0xFF]) || head.starts(with: [0xFF, 0xFE])
                || head.starts(with: [0x3C, 0x00, 0x3F, 0x00]) || head.starts(with: [0x00, 0x3C, 0x00, 0x3F])
        }
        if passThrough {
            output.copyMemory(from: base, byteCount: input.count)
            return input.count
        }
        let bytes = base.assumingMemoryBound(to: UInt8.self)
        let out = output.assumingMemoryBound(to: UInt8.self)
        var written = 0
        func emit(_ byte: UInt8) {
            out[written] = byte
            written += 1
        }
        /// A line break of a comment: written, and the comment handed on in pieces.
        func commentBreak(_ byte: UInt8) {
            emit(byte)
            commentBreaks += 1
            if commentBreaks >= Self.commentLineBreaks {
                // End this comment and begin the next: `-->` then `<!--`.
                for b: UInt8 in [0x2D, 0x2D, 0x3E, 0x3C, 0x21, 0x2D, 0x2D] { emit(b) }
                commentBreaks = 0
            }
        }
        let count = input.count
        var i = 0
        // Where the next comment, CDATA section, declaration or processing instruction begins (its
        // `<`), or `count`: found once for all the text and tags before it.
        var special = -1
        // Within a comment: where its next `-` is, or `count`.
        var dash = -1
        while i < count {
            if state == .text {
                // Text and whole tags are nearly all of a route file, and only the markup that may
                // still be open at the chunk's end needs reading: everything before the last `<`
                // ahead of the next comment (or the first `&` when there is no `<`) is copied at
                // once, its lines counted at once. No tag copied so is longer than the chunk, so
                // none is longer than `maximumMarkupBytes` (a chunk is far smaller), and one that
                // goes on into the next chunk is the last one, read below. A `<` or `&` inside an
                // attribute value is not XML, and expat refuses it where it stands.
                if special < i { special = Self.nextSpecial(bytes, from: i, count: count) }
                let end = Self.lastMarkup(bytes, from: i, to: special)
                if end > i {
                    (out + written).update(from: bytes + i, count: end - i)
                    written += end - i
                    countLines(bytes + i, count: end - i)
                    i = end
                }
                if i == count { break }
            } else if state == .tag {
                // The rest of a tag begun earlier: scanned in a tight loop and copied at once; the
                // byte that ends it goes through the states below.
                let start = i
                var open = quote
                while i < count {
                    let byte = bytes[i]
                    if open != 0 {
                        if byte == open { open = 0 }
                    } else if byte == 0x22 || byte == 0x27 {
                        open = byte
                    } else if byte == 0x3E {
                        break
                    }
                    countLine(byte)
                    i += 1
                }
                quote = open
                markupBytes += i - start - 1
                try grow("a tag")
                if i > start {
                    (out + written).update(from: bytes + start, count: i - start)
                    written += i - start
                }
                if i == count { break }
            } else if state == .comment && run == 0 {
                // A comment's text up to its next `-` or CR: of it only its line feeds are written,
                // found at once (a CR, and what follows a `-`, is read byte by byte below). The
                // next `-` is found once for all the lines before it.
                if dash < i { dash = Self.find(0x2D, in: bytes, from: i, to: count) }
                let end = Self.find(0x0D, in: bytes, from: i, to: dash)
                if end > i {
                    var at = i
                    while case let lineFeed = Self.find(0x0A, in: bytes, from: at, to: end), lineFeed < end {
                        countLine(0x0A)
                        commentBreak(0x0A)
                        at = lineFeed + 1
                    }
                    afterCR = false
                    i = end
                    if i == count { break }
                }
            } else if state == .cdata && run == 0 {
                // A CDATA section's text up to its next `]`, at once.
                let end = Self.find(0x5D, in: bytes, from: i, to: count)
                (out + written).update(from: bytes + i, count: end - i)
                written += end - i
                countLines(bytes + i, count: end - i)
                i = end
                if i == count { break }
            }
            let byte = bytes[i]
            i += 1
            countLine(byte)
            switch state {
            case .text:
                emit(byte)
                if byte == 0x3C {           // <
                    begin(.open)
                } else if byte == 0x26 {    // &
                    begin(.reference)
                }
            case .reference:
                emit(byte)
                if byte == 0x3B { state = .text } else if byte == 0x3C { begin(.open) } else { try grow("an entity reference") }
            case .open:
                emit(byte)
                if byte == 0x21 {           // <!
                    state = .bang
                    try grow("a declaration")
                } else if byte == 0x3F {    // <?
                    state = .instruction
                    run = 0
                    try grow("a processing instruction")
                } else {
                    state = .tag
                    quote = 0
                    try readTag(byte)
                }
            case .bang:
                emit(byte)
                if byte == 0x2D {           // <!-
                    state = .bangDash
                } else if byte == 0x5B {    // <![
                    state = .cdataOpen
                    run = 1
                } else {
                    state = .tag
                    quote = 0
                    try readTag(byte)
                }
            case .bangDash:
                emit(byte)
                if byte == 0x2D {           // <!--
                    state = .comment
                    run = 0
                    commentBreaks = 0
                } else {
                    state = .tag
                    quote = 0
                    try readTag(byte)
                }
            case .cdataOpen:
                emit(byte)
                if byte == Self.cdataOpening[run] {
                    run += 1
                    if run == Self.cdataOpening.count {
                        state = .cdata
                        run = 0
                    }
                } else {
                    state = .tag
                    quote = 0
                    try readTag(byte)
                }
            case .cdata:
                emit(byte)
                if byte == 0x5D {           // ]
                    run += 1
                } else {
                    if byte == 0x3E && run >= 2 { state = .text }
                    run = 0
                }
            case .comment:
                if byte == 0x2D {
                    run += 1
                } else if byte == 0x3E && run >= 2 {
                    emit(0x2D); emit(0x2D); emit(0x3E)
                    state = .text
                } else {
                    run = 0
                    if byte == 0x0A || byte == 0x0D { commentBreak(byte) }
                }
            case .instruction:
                emit(byte)
                if byte == 0x3E && run == 1 {
                    state = .text
                } else {
                    run = byte == 0x3F ? 1 : 0
                    try grow("a processing instruction")
                }
            case .tag:
                emit(byte)
                try readTag(byte)
            }
        }
        return written
    }

    /// The `<` of the first `<!` or `<?` of `bytes[from..<count]` that is not its first byte (a
    /// `!` or `?` there follows no `<` of the text), or `count`.
    private static func nextSpecial(_ bytes: UnsafePointer<UInt8>, from start: Int, count: Int) -> Int {
        var found = count
        for mark: UInt8 in [0x21, 0x3F] {
            var from = start + 1
            while from < found, let hit = memchr(bytes + from, Int32(mark), found - from) {
                let at = bytes.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                if bytes[at - 1] == 0x3C {
                    found = at - 1
                    break
                }
                from = at + 1
            }
        }
        return found
    }

    /// The first `byte` of `bytes[from..<end]`, or `end`.
    private static func find(_ byte: UInt8, in bytes: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int {
        guard end > start, let found = memchr(bytes + start, Int32(byte), end - start) else { return end }
        return bytes.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    /// Where the markup that may still be open at `end` begins: the last `<` of `bytes[from..<end]`,
    /// else its first `&`, else `end`. (A reference before a `<` ends at it.)
    private static func lastMarkup(_ bytes: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int {
        guard end > start else { return end }
        // Backwards: in markup a `<` is never far from the end.
        var lt = end - 1
        while lt >= start, bytes[lt] != 0x3C { lt -= 1 }
        if lt >= start { return lt }
        return find(0x26, in: bytes, from: start, to: end)
    }

    /// Counts the lines of `count` bytes at once, as `countLine` does one by one.
    private mutating func countLines(_ bytes: UnsafePointer<UInt8>, count: Int) {
        guard count > 0 else { return }
        guard memchr(bytes, 0x0D, count) == nil else {
            for k in 0..<count { countLine(bytes[k]) }
            return
        }
        // Eight bytes at a time: a byte of `word ^ LFs` is 0 at each LF, and the sum of its low
        // seven bits with 0x7F carries into the high bit unless it is 0, so after `~(… | x | 0x7F…)`
        // exactly the LFs keep their high bit.
        let lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F, lineFeeds: UInt64 = 0x0A0A_0A0A_0A0A_0A0A
        var breaks = 0, k = 0
        while k + 8 <= count {
            let x = UnsafeRawPointer(bytes + k).loadUnaligned(as: UInt64.self) ^ lineFeeds
            breaks &+= (~(((x & lows) &+ lows) | x | lows)).nonzeroBitCount
            k += 8
        }
        while k < count {
            if bytes[k] == 0x0A { breaks += 1 }
            k += 1
        }
        if afterCR && bytes[0] == 0x0A { breaks -= 1 }
        line += breaks
        afterCR = false
    }

    /// Counts a line at LF, CR, or CR LF (one line).
    @inline(__always)
    private mutating func countLine(_ byte: UInt8) {
        if byte == 0x0A {
            if !afterCR { line += 1 }
            afterCR = false
        } else if byte == 0x0D {
            line += 1
            afterCR = true
        } else {
            afterCR = false
        }
    }

    /// Starts a piece of markup at the `<` or `&` just read.
    private mutating func begin(_ next: State) {
        state = next
        markupBytes = 1
        markupLine = line
    }

    /// One more byte of the current markup.
    private mutating func grow(_ what: String) throws(XMLStreamError) {
        markupBytes += 1
        guard markupBytes <= Self.maximumMarkupBytes else {
            throw .malformed(.init(kind: .tooLong,
                                   message: "\(what) longer than \(Self.maximumMarkupBytes) bytes (the most one is read with)",
                                   line: markupLine, column: 1))
        }
    }

    /// One byte of a tag or declaration: its end is the first `>` outside an attribute value.
    private mutating func readTag(_ byte: UInt8) throws(XMLStreamError) {
        if quote != 0 {
            if byte == quote { quote = 0 }
        } else if byte == 0x22 || byte == 0x27 {
            quote = byte
        } else if byte == 0x3E {
            state = .text
            return
        }
        try grow("a tag")
    }
}
