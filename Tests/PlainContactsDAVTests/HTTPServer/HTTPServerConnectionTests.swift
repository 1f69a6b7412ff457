import Foundation
import TestTags
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

/// One connection's requests over a real loopback socket: keep-alive, pipelining, bodies,
/// `100 Continue`, refusals and timeouts.
@Suite struct HTTPServerConnectionTests {
    /// The body of a response as text.
    private func text(_ response: HTTPTestResponse) -> String {
        String(decoding: response.body, as: UTF8.self)
    }

    @Test func keepAliveServesSeveralRequestsOnOneConnection() throws {
        let counter = CountingEchoHandler()
        let server = try HTTPTestServer(limits: .small, handler: counter.echo)
        defer { server.stop() }
        let client = try HTTPTestClient(port: server.port)
        for index in 1...3 {
            try client.send("PUT /\(index) HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\nb\(index)")
            let response = try client.readResponse()
            #expect(response.status == 200)
            #expect(text(response) == "PUT /\(index) b\(index)")
            #expect(response.header("Connection") == nil)
        }
        try client.send("GET /last HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
        let last = try client.readResponse()
        #expect(text(last) == "GET /last ")
        #expect(last.header("Connection") == "close")
        #expect(client.waitForClose())
        #expect(counter.count == 4)
    }

    @Test func http10ConnectionStaysOpenOnlyWithKeepAlive() throws {
        let server = try HTTPTestServer(limits: .small, handler: CountingEchoHandler().echo)
        defer { server.stop() }
        let kept = try HTTPTestClient(port: server.port)
        try kept.send("GET /a HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        #expect(try kept.readResponse().header("Connection") == "keep-alive")
        try kept.send("GET /b HTTP/1.0\r\n\r\n")
        let second = try kept.readResponse()
        #expect(text(second) == "GET /b ")
        #expect(second.header("Connection") == "close")
        #expect(kept.waitForClose())
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() throws {
        let server = try HTTPTestServer(limits: .small, handler: CountingEchoHandler().echo)
        defer { server.stop() }
        let client = try HTTPTestClient(port: server.port)
        try client.send(
            "GET /1 HTTP/1.1\r\nHost: h\r\n\r\n"
                + "POST /2 HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\nabc"
                + "POST /3 HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nxy\r\n0\r\n\r\n"
                + "HEAD /4 HTTP/1.1\r\nHost: h\r\n\r\n"
                + "GET /5 HTTP/1.1\r\nHost: h\r\n\r\n")
        var bodies: [String] = []
        for index in 1...5 {
            bodies.append(text(try client.readResponse(hasBody: index != 4)))
        }
        #expect(bodies == ["GET /1 ", "POST /2 abc", "POST /3 xy", "", "GET /5 "])
    }

    @Test func chunkedUploadSentInPiecesReachesTheHandlerWhole() throws {
        let server = try HTTPTestServer(limits: .small, handler: CountingEchoHandler().echo)
        defer { server.stop() }
        let client = try HTTPTestClient(port: server.port)
        try client.send("PUT /card HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n")
        for piece in ["5;ext=1\r\nhel", "lo\r\n", "6\r\n worl", "d\r\n0\r\n", "X-Trailer: t\r\n\r\n"] {
            try client.send(piece)
        }
        let response = try client.readResponse()
        #expect(response.status == 200)
        #expect(text(response) == "PUT /card hello world")
    }

    @Test func continueIsSentBeforeAnAcceptableBody() throws {
        let server = try HTTPTestServer(limits: .small, handler: CountingEchoHandler().echo)
        defer { server.stop() }
        let client = try HTTPTestClient(port: server.port)
        try client.send("PUT /card HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n")
        #expect(try client.readHead() == "HTTP/1.1 100 Continue")
        try client.send("BEGI")
        let response = try client.readResponse()
        #expect(response.status == 200)
        #expect(text(response) == "PUT /card BEGI")
    }

    @Test func oversizedBodyAfterExpectGetsTheFinalStatusInsteadOfContinue() throws {
        let counter = CountingEchoHandler()
        let server = try HTTPTestServer(limits: .small, handler: counter.echo)
        defer { server.stop() }
        let client = try HTTPTestClient(port: server.port)
        try client.send("PUT /card HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 65\r\n\r\n")
        let response = try client.readResponse()
        #expect(response.status == 413)
        #expect(response.header("Connection") == "close")
        #expect(client.waitForClose())
        #expect(counter.count == 0)
    }

    /// A request the server must refuse before its handler sees it, and the status it answers.
    struct Refusal: Sendable, CustomTestStringConvertible {
        var name: String
        var text: String
        var status: Int

        var testDescription: String { name }
    }

    static let refusals: [Refusal] = [
        Refusal(name: "request line too long", text: "GET /\(String(repeating: "a", count: 80)) HTTP/1.1\r\nHost: h\r\n\r\n", status: 414),
        Refusal(
            name: "header block too large", text: "GET / HTTP/1.1\r\nHost: h\r\nX-Big: \(String(repeating: "b", count: 300))\r\n\r\n",
            status: 431),
        Refusal(
            name: "too many header fields",
            text: "GET / HTTP/1.1\r\nHost: h\r\n" + (1...8).map { "X-\($0): v\r\n" }.joined() + "\r\n", status: 431),
        Refusal(name: "Content-Length over the limit", text: "PUT / HTTP/1.1\r\nHost: h\r\nContent-Length: 65\r\n\r\n", status: 413),
        Refusal(
            name: "chunked body over the limit",
            text: "PUT / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n20\r\n\(String(repeating: "c", count: 32))\r\n21\r\n",
            status: 413),
        Refusal(
            name: "Content-Length and Transfer-Encoding",
            text: "PUT / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n", status: 400),
        Refusal(
            name: "bad chunk size", text: "PUT / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n-1\r\nabc\r\n", status: 400),
        Refusal(name: "no Host", text: "GET / HTTP/1.1\r\n\r\n", status: 400),
        Refusal(name: "HTTP/2 preface", text: "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", status: 505),
    ]

    @Test(arguments: refusals)
    func refusedRequestIsAnsweredWithItsStatusAndClosed(_ refusal: Refusal) throws {
        let counter = CountingEchoHandler()
        let server = try HTTPTestServer(limits: .small, handler: counter.echo)
        defer { server.stop() }
        let client = try HTTPTestClient(port: server.port)
        try client.send(refusal.text)
        let response = try client.readResponse()
        #expect(response.status == refusal.status)
        #expect(response.header("Connection") == "close")
        #expect(client.waitForClose())
        #expect(counter.count == 0)
    }

    @Test func headAnswerDeclaresTheLengthAndSendsNoBody() throws {
        let server = try HTTPTestServer(limits: .small) { request in .text(200, "twelve bytes") }
        defer { server.stop() }
        let client = try HTTPTestClient(port: server.port)
        try client.send("HEAD /a HTTP/1.1\r\nHost: h\r\n\r\n")
        let head = try client.readResponse(hasBody: false)
        #expect(head.header("Content-Length") == "12")
        // Had a body been sent, it would be read here in place of the next response's head.
        try client.send("GET /a HTTP/1.1\r\nHost: h\r\n\r\n")
        let get = try client.readResponse()
        #expect(get.status == 200)
        #expect(text(get) == "twelve bytes")
    }

    @Test func idleConnectionIsClosedWithoutAnAnswer() throws {
        var limits = HTTPServerLimits.small
        limits.idleTimeout = .milliseconds(300)
        let server = try HTTPTestServer(limits: limits, handler: CountingEchoHandler().echo)
        defer { server.stop() }
        let silent = try HTTPTestClient(port: server.port)
        #expect(try silent.readToEnd().isEmpty)
        let kept = try HTTPTestClient(port: server.port)
        try kept.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(try kept.readResponse().status == 200)
        #expect(try kept.readToEnd().isEmpty)
    }

    @Test func slowRequestTimesOutWithoutHoldingUpOtherClients() throws {
        var limits = HTTPServerLimits.small
        limits.requestReadTimeout = .milliseconds(300)
        let server = try HTTPTestServer(limits: limits, handler: CountingEchoHandler().echo)
        defer { server.stop() }
        let slow = try HTTPTestClient(port: server.port)
        try slow.send("GET /slow HTTP/1.1\r\nHost: h\r\n")
        let fast = try HTTPTestClient(port: server.port)
        try fast.send("GET /fast HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(text(try fast.readResponse()) == "GET /fast ")
        let answer = try slow.readResponse()
        #expect(answer.status == 408)
        #expect(slow.waitForClose())
    }

    @Test func clientSendingAByteAtATimeIsCutOffByTheReadTimeout() throws {
        var limits = HTTPServerLimits.small
        limits.requestReadTimeout = .milliseconds(300)
        let server = try HTTPTestServer(limits: limits, handler: CountingEchoHandler().echo)
        defer { server.stop() }
        let slowloris = try HTTPTestClient(port: server.port)
        // Within every size limit, so that only the time it takes can stop it.
        let request = "GET / HTTP/1.1\r\nHost: h\r\nX-Slow: \(String(repeating: "y", count: 200))\r\n\r\n"
        let sent = slowloris.dribble(request, pause: .milliseconds(10))
        #expect(sent < request.utf8.count)
        #expect(try slowloris.readResponse().status == 408)
        #expect(slowloris.waitForClose())
    }

    @Test func clientSendingItsHeaderBlockAByteAtATimeIsCutAtTheHeaderBlockLimit() throws {
        var limits = HTTPServerLimits.small
        limits.headerBlockTimeout = .seconds(1)
        #expect(limits.requestReadTimeout >= .seconds(10))
        let server = try HTTPTestServer(limits: limits, handler: CountingEchoHandler().echo)
        defer { server.stop() }
        let opened = ContinuousClock.now
        let slowloris = try HTTPTestClient(port: server.port)
        // 200 bytes at one per 100 ms would take 20 s; every size limit is kept.
        let request = "GET / HTTP/1.1\r\nHost: h\r\nX-Slow: \(String(repeating: "y", count: 170))\r\n\r\n"
        let sent = slowloris.dribble(request, pause: .milliseconds(100))
        let response = try slowloris.readResponse()
        let elapsed = opened.duration(to: .now)

        #expect(sent < request.utf8.count)
        #expect(response.status == 408)
        #expect(slowloris.waitForClose())
        // Cut at about the header block limit, long before the read timeout.
        #expect(elapsed >= .milliseconds(900))
        #expect(elapsed < .seconds(5))
        #expect(server.waitForLogLine { $0.contains(" 408 ") && $0.hasSuffix("(headerBlockTimedOut)") })
    }

    @Test func laterRequestSendingItsHeaderBlockSlowlyIsCutAtTheHeaderBlockLimit() throws {
        var limits = HTTPServerLimits.small
        limits.headerBlockTimeout = .seconds(1)
        let server = try HTTPTestServer(limits: limits, handler: CountingEchoHandler().echo)
        defer { server.stop() }
        let client = try HTTPTestClient(port: server.port)
        try client.send("GET /first HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(try client.readResponse().status == 200)
        let started = ContinuousClock.now
        let sent = client.dribble("GET /second HTTP/1.1\r\nHost: h\r\nX-Slow: \(String(repeating: "y", count: 150))\r\n\r\n", pause: .milliseconds(100))
        let response = try client.readResponse()
        let elapsed = started.duration(to: .now)

        #expect(sent > 0)
        #expect(response.status == 408)
        #expect(client.waitForClose())
        #expect(elapsed >= .milliseconds(900))
        #expect(elapsed < .seconds(5))
    }

    @Test func bodySentSlowlyAfterAPromptHeaderBlockIsHeldOnlyToTheReadTimeout() throws {
        var limits = HTTPServerLimits.small
        limits.headerBlockTimeout = .milliseconds(300)
        let server = try HTTPTestServer(limits: limits, handler: CountingEchoHandler().echo)
        defer { server.stop() }
        let client = try HTTPTestClient(port: server.port)
        try client.send("PUT /card HTTP/1.1\r\nHost: h\r\nContent-Length: 8\r\n\r\n")
        // 8 bytes 100 ms apart: the body takes more than twice the header block limit.
        #expect(client.dribble("abcdefgh", pause: .milliseconds(100)) == 8)
        let response = try client.readResponse()
        #expect(response.status == 200)
        #expect(text(response) == "PUT /card abcdefgh")
    }

    @Test func responseTheClientDoesNotReadIsAbandonedAfterTheWriteTimeout() throws {
        let large = Data(repeating: UInt8(ascii: "x"), count: 64 * 1024 * 1024)
        var limits = HTTPServerLimits.small
        limits.writeTimeout = .milliseconds(300)
        let server = try HTTPTestServer(limits: limits) { _ in HTTPServerResponse(status: 200, body: large) }
        defer { server.stop() }
        let client = try HTTPTestClient(port: server.port)
        try client.send("GET /large HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(server.waitForLogLine { $0.hasPrefix("GET /large 200 ") && $0.hasSuffix("(not delivered)") })
        #expect(server.stop())
    }

    @Test func logLineHasMethodPathStatusAndDurationButNoQueryHeaderOrBody() throws {
        let server = try HTTPTestServer(limits: .small) { _ in .text(201, "secret-body") }
        defer { server.stop() }
        let client = try HTTPTestClient(port: server.port)
        try client.send("PUT /a/b.vcf?token=secret-query HTTP/1.1\r\nHost: h\r\nAuthorization: Basic c2VjcmV0\r\nContent-Length: 6\r\n\r\nsecret")
        #expect(try client.readResponse().status == 201)
        try client.send("GET /\(String(repeating: "a", count: 80))?q HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(try client.readResponse().status == 414)
        #expect(server.waitForLogLine { $0.contains(" 414 ") })
        let lines = server.logLines
        let put = try #require(lines.first)
        #expect(put.wholeMatch(of: /PUT \/a\/b\.vcf 201 [0-9]+ms/) != nil)
        #expect(lines.allSatisfy { !$0.contains("secret") && !$0.contains("c2VjcmV0") })
    }

    @Test func aResponsesLogNoteEndsItsLogLineAndIsNotSent() throws {
        let server = try HTTPTestServer(limits: .small) { _ in
            var response = HTTPServerResponse.text(200, "ok\n")
            response.logNote = "for 203.0.113.7 via 127.0.0.1"
            return response
        }
        defer { server.stop() }
        let client = try HTTPTestClient(port: server.port)
        try client.send("GET /a HTTP/1.1\r\nHost: h\r\n\r\n")
        let response = try client.readResponse()

        #expect(response.status == 200)
        #expect(!response.headers.contains { $0.value.contains("203.0.113.7") })
        #expect(server.waitForLogLine { $0.wholeMatch(of: /GET \/a 200 [0-9]+ms \(for 203\.0\.113\.7 via 127\.0\.0\.1\)/) != nil })
    }

    @Test func handlerAnsweringWithAnInterimStatusBecomes500() throws {
        let server = try HTTPTestServer(limits: .small) { _ in HTTPServerResponse(status: 101) }
        defer { server.stop() }
        let client = try HTTPTestClient(port: server.port)
        try client.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(try client.readResponse().status == 500)
    }

    @Test func handlerAskingToCloseClosesAfterItsResponse() throws {
        let server = try HTTPTestServer(limits: .small) { _ in
            HTTPServerResponse(status: 200, headers: ["Connection": "close"], body: Data("bye".utf8))
        }
        defer { server.stop() }
        let client = try HTTPTestClient(port: server.port)
        try client.send("GET / HTTP/1.1\r\nHost: h\r\n\r\n")
        let response = try client.readResponse()
        #expect(text(response) == "bye")
        #expect(response.header("Connection") == "close")
        #expect(client.waitForClose())
    }
}
