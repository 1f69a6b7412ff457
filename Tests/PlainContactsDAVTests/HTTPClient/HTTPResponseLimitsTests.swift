import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

/// The transport holds a server's answer to ``HTTPResponseLimits``, against a scripted server
/// on 127.0.0.1 that sends what no real server does: a body without end, a `Content-Length`
/// over the bound never followed by its body, a header block without end.
@Suite struct HTTPResponseLimitsTests {
    /// The transport under test, over the loaded library, reading at most `limits`.
    static func transport(_ limits: HTTPResponseLimits) throws -> CurlTransport {
        CurlTransport(curl: try #require(CurlLibrary.shared), limits: limits)
    }

    /// A bound small enough that the tests stream a few megabytes at most.
    static let limits = HTTPResponseLimits(maximumBodySize: 1 << 20, maximumHeaderBlockSize: 64 * 1024)
    /// Far less than the scripted server sends in a second to a client that keeps reading, and
    /// far more than it sends beyond the bound before libcurl hangs up (socket buffers).
    static let streamedAfterHangingUp = 64 << 20

    /// Whether the server has stopped streaming: the client hung up. The wait outlasts the
    /// server's 30 s for a client that takes no bytes, and ends well before its own bounds.
    static func streamEnded(_ server: ScriptedHTTPServer) -> Bool {
        server.waitUntilStreamsEnd(timeout: .seconds(60))
    }
    /// Far less than the 60 s a client waits for a body that does not come.
    static let promptly: Duration = .seconds(10)

    static let multistatusHead = Data(#"<?xml version="1.0" encoding="utf-8"?><d:multistatus xmlns:d="DAV:">"#.utf8)
    static let multistatusResponse = Data(
        #"<d:response><d:href>/book/card.vcf</d:href><d:propstat><d:prop><d:getetag>"1"</d:getetag></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>"#
            .utf8)

    @Test func anEndlessBodyIsCutOffJustPastTheBound() throws {
        let server = try ScriptedHTTPServer { _ in
            .endlessChunks(status: 207, headers: [:], prefix: Self.multistatusHead, repeating: Self.multistatusResponse)
        }
        let error = try #require(throws: HTTPTransportError.self) {
            try Self.transport(Self.limits).send(HTTPRequest(method: "REPORT", url: server.url("/book/"), body: Data("<x/>".utf8)))
        }
        #expect(error.kind == .responseTooLarge)
        #expect(Self.streamEnded(server))
        // libcurl hangs up at once.
        #expect(server.bytesStreamed < Self.streamedAfterHangingUp)
    }

    @Test(arguments: [Self.limits, HTTPResponseLimits()])
    func aContentLengthOverTheBoundIsRefusedBeforeAnyOfTheBody(_ limits: HTTPResponseLimits) throws {
        let server = try ScriptedHTTPServer { _ in
            .announcedLength(status: 207, headers: ["Content-Type": "application/xml"], length: limits.maximumBodySize + 1)
        }
        let clock = ContinuousClock()
        let started = clock.now
        let error = try #require(throws: HTTPTransportError.self) {
            try Self.transport(limits).send(HTTPRequest(method: "PROPFIND", url: server.url("/book/"), body: Data("<x/>".utf8)))
        }
        #expect(error.kind == .responseTooLarge)
        // The server sends none of the body it announced: waiting for it would take the
        // transport's 60 s timeout.
        #expect(clock.now - started < Self.promptly)
        #expect(server.requests.count == 1)
    }

    @Test func aBodyOfExactlyTheBoundIsReadWhole() throws {
        let body = Data(repeating: UInt8(ascii: "x"), count: Self.limits.maximumBodySize)
        let server = try ScriptedHTTPServer { _ in .complete(status: 200, body: body) }
        let response = try Self.transport(Self.limits).send(HTTPRequest(method: "GET", url: server.url("/card.vcf")))
        #expect(response.status == 200)
        #expect(response.body == body)
    }

    @Test func anEndlessHeaderBlockIsCutOffAtTheBound() throws {
        let server = try ScriptedHTTPServer { _ in .endlessHeaders(status: 200) }
        let error = try #require(throws: HTTPTransportError.self) {
            try Self.transport(Self.limits).send(HTTPRequest(method: "GET", url: server.url("/")))
        }
        #expect(error.kind == .responseTooLarge)
        #expect(Self.streamEnded(server))
        #expect(server.bytesStreamed < Self.streamedAfterHangingUp)
    }

    @Test func aTransportStillCarriesRequestsAfterRefusingAnAnswer() throws {
        let server = try ScriptedHTTPServer { request in
            request.path == "/endless/"
                ? .endlessChunks(status: 207, headers: [:], prefix: Self.multistatusHead, repeating: Self.multistatusResponse)
                : .complete(status: 200, body: Data("fine".utf8))
        }
        let transport = try Self.transport(Self.limits)
        #expect(throws: HTTPTransportError.self) {
            try transport.send(HTTPRequest(method: "GET", url: server.url("/endless/")))
        }
        let response = try transport.send(HTTPRequest(method: "GET", url: server.url("/fine")))
        #expect(response.body == Data("fine".utf8))
    }
}
