import Foundation

/// The address of a raster tile server given with `roadbook serve --tiles`, such as
/// `https://tile.example.org/{z}/{x}/{y}.png`: the map draws its tiles under the extract's roads.
/// The page may load images from its origin (`scheme://host[:port]`) and no other; without one it
/// loads nothing from outside. A pure value of an `EditorRequest`: the command line checks the
/// address when it parses, and `Serve` writes its origin into the Content-Security-Policy.
public struct TileTemplate: Sendable, Equatable {
    /// The longest address taken: a tile address with a key in its query is a few hundred characters.
    public static let maximumLength = 2_000
    /// The placeholders Leaflet fills in; each must be there, and no other.
    static let placeholders = ["{z}", "{x}", "{y}"]

    /// The address as given.
    public let template: String
    /// `scheme://host[:port]`, in lower case: what the Content-Security-Policy lets images come from.
    public let origin: String

    /// Why an address is not a tile address.
    public struct Refusal: Error, Equatable, CustomStringConvertible {
        public var reason: String
        public var description: String { reason }
        public init(reason: String) { self.reason = reason }
    }

    /// Checks `text`: an http or https address of one server (no user, no `{s}` to choose among
    /// several), with `{z}`, `{x}` and `{y}` after the server and no other placeholder.
    /// - Throws: `Refusal` with the reason in a few words.
    public init(_ text: String) throws(Refusal) {
        guard text.count <= Self.maximumLength else {
            throw Refusal(reason: "it is longer than \(Self.maximumLength) characters")
        }
        let lower = text.lowercased()
        guard let scheme = ["https", "http"].first(where: { lower.hasPrefix($0 + "://") }) else {
            throw Refusal(reason: "it is not an http:// or https:// address")
        }
        let rest = text.dropFirst(scheme.count + 3)
        let authority = String(rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" })
        guard !authority.contains("{") else {
            throw Refusal(reason: "its server has a placeholder: name one server, the page loads images from that one only")
        }
        guard !authority.contains("@") else { throw Refusal(reason: "it names a user: a tile server is asked without one") }
        guard Self.isServer(authority) else { throw Refusal(reason: "'\(authority)' is not a server name or address (with a port, if any)") }
        let missing = Self.placeholders.filter { !text.contains($0) }
        guard missing.isEmpty else {
            throw Refusal(reason: "it has no \(missing.joined(separator: " or ")): Leaflet fills in {z}, {x} and {y}")
        }
        var filled = text
        for placeholder in Self.placeholders { filled = filled.replacingOccurrences(of: placeholder, with: "0") }
        if let other = filled.firstIndex(where: { $0 == "{" || $0 == "}" }) {
            let name = filled[other...].prefix { $0 != "}" } + "}"
            throw Refusal(reason: "\(name.prefix(20)) is not one of {z}, {x} and {y}")
        }
        guard URLComponents(string: filled) != nil, !filled.contains(where: { $0.isWhitespace || $0.asciiValue.map { $0 < 0x20 || $0 == 0x7F } == true }) else {
            throw Refusal(reason: "it is not a valid address (spaces or other characters to percent-encode)")
        }
        template = text
        origin = scheme + "://" + authority.lowercased()
    }

    /// A host name or IPv4 address (letters, digits, dots and hyphens) or an IPv6 address in
    /// brackets, and a port from 1 to 65535 if given.
    static func isServer(_ authority: String) -> Bool {
        var host = Substring(authority), port: Substring? = nil
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return false }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return false }
                port = after.dropFirst()
            }
            guard !host.isEmpty, host.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else { return false }
        } else {
            if let colon = authority.firstIndex(of: ":") {
                host = authority[..<colon]
                port = authority[authority.index(after: colon)...]
            }
            guard !host.isEmpty, !host.hasPrefix("-"), !host.hasPrefix("."),
                  host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }) else { return false }
        }
        if let port {
            guard !port.isEmpty, port.count <= 5, port.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(port),
                  (1...65_535).contains(number) else {
                return false
            }
        }
        return true
    }
}
