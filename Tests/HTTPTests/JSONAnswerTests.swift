import Foundation
import HTTP
import Testing
import TestSupport

@Suite("JSON over HTTP: the one mapping of outcomes, decoding faults and quotes")
struct JSONAnswerTests {
    let url = URL(string: "http://127.0.0.1:8002/route")!

    private func outcome(_ answer: FakeHTTPClient.Answer, timeout: TimeInterval = 30) async -> Result<Int, HTTPExchangeFailure> {
        let client = FakeHTTPClient(answers: [answer])
        do {
            return .success(try await client.exchange(HTTPRequest(url: url, timeout: timeout)).status)
        } catch let failure as HTTPExchangeFailure {
            return .failure(failure)
        } catch {
            Issue.record("an error that is not an HTTPExchangeFailure: \(error)")
            return .success(-1)
        }
    }

    @Test("no answer becomes unreachable, timed out (with the request's seconds) or broken off")
    func transport() async {
        #expect(await outcome(.failure(HTTPError(kind: .unreachable, url: url, detail: "refused")))
                == .failure(.unreachable(detail: "refused")))
        #expect(await outcome(.failure(HTTPError(kind: .timedOut, url: url, detail: "slow")), timeout: 7.9)
                == .failure(.timedOut(seconds: 7, detail: "slow")))
        #expect(await outcome(.failure(HTTPError(kind: .failed, url: url, detail: "reset")))
                == .failure(.brokeOff(detail: "reset")))
    }

    @Test("429 is limiting, with its Retry-After; 5xx is a server error with its body")
    func statuses() async {
        #expect(await outcome(.success(HTTPResponse(status: 429))) == .failure(.rateLimited(retryAfter: nil)))
        #expect(await outcome(.success(HTTPResponse(status: 429, headers: ["retry-after": "12"])))
                == .failure(.rateLimited(retryAfter: "12")))
        #expect(await outcome(.success(HTTPResponse(status: 503, body: Data("down".utf8))))
                == .failure(.serverError(status: 503, body: Data("down".utf8))))
        #expect(await outcome(.success(HTTPResponse(status: 599))) == .failure(.serverError(status: 599, body: Data())))
    }

    @Test("every other status is the caller's to read: 2xx and 4xx come back")
    func answers() async {
        for status in [200, 204, 400, 404, 428, 430, 499] {
            #expect(await outcome(.success(HTTPResponse(status: status))) == .success(status))
        }
    }

    @Test("an error the client throws that is not HTTPError passes through unchanged")
    func otherErrors() async {
        struct Odd: Error, Equatable {}
        struct OddClient: HTTPClient {
            func send(_ request: HTTPRequest) async throws -> HTTPResponse { throw Odd() }
        }
        await #expect(throws: Odd()) { try await OddClient().exchange(HTTPRequest(url: url)) }
    }

    private struct Shape: Decodable {
        struct Leg: Decodable { let length: Double }
        let legs: [Leg]
    }

    private func fault(_ json: String) -> JSONAnswer.Fault? {
        do {
            _ = try JSONAnswer.decode(Shape.self, from: Data(json.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test("a body that does not decode says where: a missing member, a wrong type, not JSON")
    func decodingFaults() throws {
        #expect(try JSONAnswer.decode(Shape.self, from: Data(#"{"legs":[{"length":2.5}]}"#.utf8)).legs.first?.length == 2.5)
        #expect(fault(#"{"legs":[{"length":1},{}]}"#)
                == .missing(path: [.init(name: "legs"), .init(name: "Index 1", index: 1), .init(name: "length")]))
        #expect(fault(#"{"legs":[{"length":"far"}]}"#)
                == .wrongType(path: [.init(name: "legs"), .init(name: "Index 0", index: 0), .init(name: "length")]))
        #expect(fault(#"{"legs":null}"#) == .wrongType(path: [.init(name: "legs")]))
        #expect(fault("<html>busy</html>") == .notJSON)
    }

    @Test("a quote is the first characters on one line, marked when cut")
    func quotes() {
        #expect(JSONAnswer.quote(Data("a\nb".utf8)) == "«a b»")
        #expect(JSONAnswer.quote(Data()) == "«»")
        let long = String(repeating: "x", count: JSONAnswer.quotedLength)
        #expect(JSONAnswer.quote(Data(long.utf8)) == "«\(long)»")
        #expect(JSONAnswer.quote(Data((long + "y").utf8)) == "«\(long)…»")
    }
}
