import Foundation
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

/// An ``HTTPTransport`` that answers from a queue of canned responses and records every
/// request it was given.
// @unchecked: every stored property is read and written under `lock`.
final class FakeHTTPTransport: HTTPTransport, @unchecked Sendable {
    /// One canned answer: a response, or a transport failure.
    enum Answer {
        case response(status: Int, headers: [String: String], body: String)
        case failure(HTTPTransportError.Kind)
    }

    private let lock = NSLock()
    private var answers: [Answer]
    private var recorded: [HTTPRequest] = []

    init(_ answers: [Answer] = []) {
        self.answers = answers
    }

    /// Adds an answer to the end of the queue.
    func enqueue(_ status: Int, headers: [String: String] = [:], body: String = "") {
        lock.withLock { answers.append(.response(status: status, headers: headers, body: body)) }
    }

    /// Adds a transport failure to the end of the queue.
    func enqueueFailure(_ kind: HTTPTransportError.Kind) {
        lock.withLock { answers.append(.failure(kind)) }
    }

    /// The requests sent so far, in order.
    var requests: [HTTPRequest] { lock.withLock { recorded } }

    func send(_ request: HTTPRequest) throws -> HTTPResponse {
        let answer: Answer? = lock.withLock {
            recorded.append(request)
            return answers.isEmpty ? nil : answers.removeFirst()
        }
        switch answer {
        case .response(let status, let headers, let body)?:
            return HTTPResponse(status: status, headers: headers, body: Data(body.utf8), url: request.url)
        case .failure(let kind)?:
            throw HTTPTransportError(kind, detail: "canned failure")
        case nil:
            throw HTTPTransportError(.connectionFailed, detail: "no canned answer left")
        }
    }
}

/// Records the waits of an ``HTTPClient`` instead of sleeping.
// @unchecked: `delays` is read and written under `lock`.
final class RecordedWaits: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [TimeInterval] = []

    var delays: [TimeInterval] { lock.withLock { recorded } }

    func record(_ delay: TimeInterval) {
        lock.withLock { recorded.append(delay) }
    }
}

extension HTTPClient {
    /// A client over a fake transport that records its waits.
    static func fake(
        _ transport: FakeHTTPTransport, credentials: RemoteCredentials? = RemoteCredentials(user: "me", password: "s3cret-pw"),
        waits: RecordedWaits = RecordedWaits()
    ) -> HTTPClient {
        HTTPClient(transport: transport, credentials: credentials, wait: { waits.record($0) })
    }
}

/// A URL from a literal written in a test.
func testURL(_ string: String) throws -> URL {
    try #require(URL(string: string))
}
