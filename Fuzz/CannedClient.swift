// Compiled with the harnesses whose modules speak HTTP (scripts/fuzz.sh): a client that answers
// every request with the fuzzer's input, so an answer takes the path a real one takes.
import Foundation
import HTTP

struct CannedClient: HTTPClient {
    let response: HTTPResponse
    func send(_ request: HTTPRequest) async throws -> HTTPResponse { response }
}
