// The symbol library's two readers on the same bytes. As a pictogram (Render.SVGImage(data:name:)):
// the size limit, the count of <use> elements, librsvg's parse, then a draw fitted into a 32 × 32
// Cairo image, as a row draws it. As a `symbols.json`: Layout.SymbolCatalogue.decode, then the
// same bytes as the file of a symbol folder (SymbolLibrary), which must read the same meanings, or
// say the same problem in one line. A thrown error is fine; neither may trap, hang or keep growing.
import CCairo
import Foundation
import Layout
import Model
@testable import Render

/// The folder whose `symbols.json` is the input (the pictograms are read from memory, above).
let symbolFolder: URL = {
    let url = fuzzFolder.appendingPathComponent("symbols", isDirectory: true)
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}()

/// Some of the library's names, and one the library does not have, whose meanings are looked up.
let lookedUp = [NoteSymbol("ford"), NoteSymbol("dss"), NoteSymbol("danger3"), NoteSymbol("fuzz")]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let data = fuzzData(bytes, size)
    pictogram(data)
    catalogue(data)
    return 0
}

/// Reads `data` as a pictogram and draws it.
func pictogram(_ data: Data) {
    let image: SVGImage
    do { image = try SVGImage(data: data, name: "fuzz.svg") } catch {
        oneLine("\(error)")
        return
    }
    do {
        let surface = try ImageSurface(width: 32, height: 32)
        let cairo = try CairoContext(surface: surface)
        try image.draw(in: Rect(x: 2, y: 2, width: 28, height: 28), on: cairo.handle)
    } catch {
        oneLine("\(error)")
    }
}

/// Reads `data` as a `symbols.json`, from memory and as a folder's file, and looks meanings up.
func catalogue(_ data: Data) {
    let decoded: SymbolCatalogue?
    do { decoded = try SymbolCatalogue.decode(data, fileName: "symbols.json") } catch {
        oneLine("\(error)")
        decoded = nil
    }
    _ = FileManager.default.createFile(atPath: symbolFolder.appendingPathComponent(SymbolLibrary.catalogueFileName).path,
                                       contents: data)
    let library: SymbolLibrary
    do { library = try SymbolLibrary(library: symbolFolder) } catch {
        fatalError("a folder holding a symbols.json cannot be listed: \(error)")
    }
    for problem in library.problems { oneLine(problem) }
    if let decoded {
        guard library.problems.isEmpty, library.catalogue == decoded else {
            fatalError("the folder's symbols.json reads otherwise than its bytes: \(library.problems)")
        }
        let merged = SymbolCatalogue().merging(decoded)
        for symbol in lookedUp {
            _ = merged.meaning(of: symbol, language: "fr")
            _ = merged.group(of: symbol)
        }
        for id in merged.groupOrder { _ = merged.groupTitle(id, language: "es") }
    } else if library.problems.count != 1 {
        fatalError("a symbols.json that does not decode is not one problem: \(library.problems)")
    }
}

/// Traps unless `message` is one line: a reader's error is said in one.
func oneLine(_ message: String) {
    if message.contains(where: \.isNewline) { fatalError("an error of more than one line: \(message.debugDescription)") }
}
