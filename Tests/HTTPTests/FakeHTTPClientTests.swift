import Foundation
import HTTP
import Testing
import TestSupport

@Suite struct FakeHTTPClientTests {
    let url = URL(string: "http://127.0.0.1:5000/route/v1/driving/1,2;3,4")!

    @Test func cannedAnswersComeInOrderThenTheClosureAnswers() async throws {
        let client = FakeHTTPClient(answers: [.success(HTTPResponse(status: 429)),
                                              .failure(HTTPError(kind: .timedOut, url: url, detail: "slow"))],
                                    answer: { request in HTTPResponse(status: 200, body: Data(request.url.path.utf8)) })

        #expect(try await client.send(HTTPRequest(url: url)).status == 429)
        let error = await #expect(throws: HTTPError.self) { try await client.send(HTTPRequest(url: url)) }
        #expect(error?.kind == .timedOut)
        let last = try await client.send(HTTPRequest(method: .post, url: url, body: Data("x".utf8)))
        #expect(last.status == 200)
        #expect(last.body == Data("/route/v1/driving/1,2;3,4".utf8))

        #expect(client.requests.map(\.method) == [.get, .get, .post])
        #expect(client.requests.last?.body == Data("x".utf8))
        #expect(client.remainingAnswers == 0)
    }

    @Test func aRequestPastTheQueueFailsAndNamesItself() async throws {
        let client = FakeHTTPClient(answers: [.success(HTTPResponse(status: 200))])
        _ = try await client.send(HTTPRequest(url: url))
        let error = await #expect(throws: HTTPError.self) { try await client.send(HTTPRequest(url: url)) }
        #expect(error?.kind == .failed)
        #expect(error?.detail.contains("GET \(url.absoluteString)") == true)
    }

    @Test func enqueuedAnswersJoinTheEndOfTheQueue() async throws {
        let client = FakeHTTPClient()
        client.enqueue(.success(HTTPResponse(status: 500)), .success(HTTPResponse(status: 200)))
        #expect(try await client.send(HTTPRequest(url: url)).status == 500)
        #expect(try await client.send(HTTPRequest(url: url)).status == 200)
    }
}
