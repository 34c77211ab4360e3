import XML

extension FormatError {
    /// A failure of the XML stream reading a document of `format` ("GPX", "KML"), as one line
    /// naming `fileName`: the one mapping of every XML route format here.
    /// - Parameter texts: what an element's text is in that format, for a text too long ("a GPX
    ///   text field").
    init(_ error: XMLStreamError, fileName: String, format: String, texts: String) {
        switch error {
        case .cannotCreateParser:
            self.init(file: fileName, message: "cannot create an XML parser (out of memory)")
        case .doctypeRefused(let line):
            self.init(file: fileName, line: line, field: "DOCTYPE",
                      message: "DOCTYPE is not allowed in \(format); remove the <!DOCTYPE …> declaration")
        case .empty:
            self.init(file: fileName, message: "the file is empty; expected a \(format) document")
        case .cannotRead(let reason, let line):
            self.init(file: fileName, line: line, message: "cannot read the file: \(reason)")
        case .textTooLong(let line, let limit):
            self.init(file: fileName, line: line, message: "element text is longer than \(limit) bytes; this is not \(texts)")
        case .malformed(let fault):
            var message = "XML error: \(fault.message) at column \(fault.column)"
            switch fault.kind {
            case .endsEarly: message += "; the file ends early — it may be truncated, copy or export it again"
            case .outOfMemory: message = "out of memory while parsing XML"
            case .other: message += "; is this a \(format) file?"
            case .tooLong: message = "\(fault.message); is this a \(format) file?"
            }
            self.init(file: fileName, line: fault.line, message: message)
        }
    }
}
