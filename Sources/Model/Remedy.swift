/// What mends a failure when only the caller can give it: a template file in place of the book's
/// template, a lower resolution. An error carries it as data, its message worded without any
/// option's name; the caller says how to give it (the command line names its option), so a program
/// using the library is never told about an option it does not have.
public enum Remedy: Sendable, Equatable {
    /// A template file given to the command that prints, in place of the book's `settings.template`.
    case templateFile
    /// A lower resolution for page images.
    case lowerResolution
}

/// An error that may carry a `Remedy` for its caller to word after its message.
public protocol RemedyCarrying: Error {
    var remedy: Remedy? { get }
}
