import Foundation

/// Why an exchange with a JSON-over-HTTP server gave no answer worth reading, in neutral terms:
/// routing engines and elevation services each turn it into their own error and words.
public enum HTTPExchangeFailure: Error, Sendable, Equatable {
    /// No connection could be made; `detail` is what the transport said.
    case unreachable(detail: String)
    /// No complete answer within the request's timeout of `seconds`.
    case timedOut(seconds: Int, detail: String)
    /// The connection broke, or the answer was not HTTP.
    case brokeOff(detail: String)
    /// HTTP 429; `retryAfter` is the server's `Retry-After` header as sent, when there is one.
    case rateLimited(retryAfter: String?)
    /// A 5xx status, with the answer's body for the caller to quote or read.
    case serverError(status: Int, body: Data)
    /// The answer was larger than the client takes; `detail` says how large that is.
    case tooLarge(detail: String)
}

extension HTTPClient {
    /// Sends `request` and returns the answer unless it is a 429 or a 5xx; every other status
    /// (2xx, and 4xx, whose body often says why) is the caller's to read.
    /// - Throws: `HTTPExchangeFailure` when no answer came, for 429 and for 5xx. Any error the
    ///   client throws other than `HTTPError` passes through unchanged.
    public func exchange(_ request: HTTPRequest) async throws -> HTTPResponse {
        let response: HTTPResponse
        do {
            response = try await send(request)
        } catch let error as HTTPError {
            switch error.kind {
            case .unreachable: throw HTTPExchangeFailure.unreachable(detail: error.detail)
            case .timedOut: throw HTTPExchangeFailure.timedOut(seconds: Int(request.timeout), detail: error.detail)
            case .failed: throw HTTPExchangeFailure.brokeOff(detail: error.detail)
            case .tooLarge: throw HTTPExchangeFailure.tooLarge(detail: error.detail)
            }
        }
        switch response.status {
        case 429: throw HTTPExchangeFailure.rateLimited(retryAfter: response.headers["retry-after"])
        case 500..<600: throw HTTPExchangeFailure.serverError(status: response.status, body: response.body)
        default: return response
        }
    }
}

/// Reading the body of an answer as JSON, and quoting it when it is not what was expected.
public enum JSONAnswer {
    /// Characters of an unexpected answer an error quotes: enough to recognise an HTML error page
    /// or a truncated body, short enough for one terminal line.
    public static let quotedLength = 160

    /// One step of the path to a value in a JSON document: a member's name, or an array index
    /// (with `name` as the decoder spelled it).
    public struct PathStep: Sendable, Equatable {
        public var name: String
        public var index: Int?

        public init(name: String, index: Int? = nil) {
            self.name = name
            self.index = index
        }
    }

    /// Why a body did not decode, in neutral terms.
    public enum Fault: Error, Sendable, Equatable {
        /// A member is missing; `path` leads to it, its own name last.
        case missing(path: [PathStep])
        /// The value at `path` is null or of another type than expected.
        case wrongType(path: [PathStep])
        /// The body is not JSON at all (or not JSON of any shape that was looked at).
        case notJSON
    }

    /// Decodes `body` as `T`.
    /// - Throws: `Fault` saying where the body differs from `T`.
    public static func decode<T: Decodable>(_ type: T.Type, from body: Data) throws(Fault) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: body)
        } catch DecodingError.keyNotFound(let key, let context) {
            throw .missing(path: steps(context.codingPath + [key]))
        } catch DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context) {
            throw .wrongType(path: steps(context.codingPath))
        } catch {
            throw .notJSON
        }
    }

    /// The first `quotedLength` characters of `body` on one line, in «», with … when cut.
    public static func quote(_ body: Data) -> String {
        let text = String(decoding: body.prefix(quotedLength), as: UTF8.self).replacingOccurrences(of: "\n", with: " ")
        return "«\(text)\(body.count > quotedLength ? "…" : "")»"
    }

    private static func steps(_ keys: [any CodingKey]) -> [PathStep] {
        keys.map { PathStep(name: $0.stringValue, index: $0.intValue) }
    }
}
