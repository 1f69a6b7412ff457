import Foundation
import Testing
@testable import PlainContacts
import PlainContactsFuzz
@testable import PlainContactsDAV

@Suite struct HTTPRequestParserTests {
    /// Limits small enough that tests can pass them with a few bytes.
    private static var smallLimits: HTTPServerLimits {
        var limits = HTTPServerLimits()
        limits.maxRequestLineLength = 64
        limits.maxHeaderBlockSize = 128
        limits.maxHeaderCount = 4
        limits.maxBodySize = 16
        return limits
    }

    @Test func parsesRequestLineHeadersAndTarget() throws {
        let events = HTTPParserFeeding.events(
            "PROPFIND /dav/a%20b/?depth=1&x HTTP/1.1\r\nHost: example.org\r\nDepth:\t 1 \r\nX-Empty:\r\n\r\n")
        let request = try #require(HTTPParserFeeding.requests(in: events).first)
        #expect(events.count == 1)
        #expect(request.method == "PROPFIND")
        #expect(request.target == "/dav/a%20b/?depth=1&x")
        #expect(request.path == "/dav/a%20b/")
        #expect(request.query == "depth=1&x")
        #expect(request.version == .http1_1)
        #expect(request.header("depth") == "1")
        #expect(request.header("HOST") == "example.org")
        #expect(request.header("x-empty") == "")
        #expect(request.body.isEmpty)
    }

    @Test func targetWithoutQueryHasNilQueryAndAbsoluteFormHasItsPath() throws {
        let plain = try #require(HTTPParserFeeding.requests(in: HTTPParserFeeding.events("GET /a HTTP/1.1\r\nHost: h\r\n\r\n")).first)
        #expect(plain.query == nil)
        let absolute = try #require(
            HTTPParserFeeding.requests(in: HTTPParserFeeding.events("GET http://h:8080/dav/x?y HTTP/1.1\r\nHost: h\r\n\r\n")).first)
        #expect(absolute.path == "/dav/x")
        #expect(absolute.query == "y")
        #expect(HTTPServerRequest(method: "OPTIONS", target: "*").path == "*")
        #expect(HTTPServerRequest(method: "GET", target: "https://h").path == "/")
    }

    @Test func requestFedOneByteAtATimeMatchesRequestFedWhole() {
        let text = "PUT /c/1.vcf HTTP/1.1\r\nHost: h\r\nContent-Length: 11\r\nIf-None-Match: *\r\n\r\nhello world"
        let whole = HTTPParserFeeding.events(text)
        let byteByByte = HTTPParserFeeding.events(text, pieceSize: 1)
        #expect(whole == byteByByte)
        let request = HTTPParserFeeding.requests(in: byteByByte).first
        #expect(request.map { Array($0.body) } == Array("hello world".utf8))
    }

    @Test func pipelinedRequestsComeOutInOrder() {
        let text = "GET /1 HTTP/1.1\r\nHost: h\r\n\r\n"
            + "POST /2 HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\nabc"
            + "DELETE /3 HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nz\r\n0\r\n\r\n"
        for pieceSize in [1, 7, .max] {
            let requests = HTTPParserFeeding.requests(in: HTTPParserFeeding.events(text, pieceSize: pieceSize))
            #expect(requests.map(\.target) == ["/1", "/2", "/3"])
            #expect(requests.map { String(decoding: $0.body, as: UTF8.self) } == ["", "abc", "z"])
        }
    }

    @Test func chunkedBodyIgnoresExtensionsAndDropsTrailers() throws {
        let text = "POST /x HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: Chunked\r\n\r\n"
            + "5;name=value;flag\r\nhello\r\n"
            + "0006 ; other=\"quoted\"\r\n world\r\n"
            + "0\r\nChecksum: abc\r\nX-Trailer: 1\r\n\r\n"
        for pieceSize in [1, 3, .max] {
            let events = HTTPParserFeeding.events(text, pieceSize: pieceSize)
            let request = try #require(HTTPParserFeeding.requests(in: events).first)
            #expect(String(decoding: request.body, as: UTF8.self) == "hello world")
            #expect(request.header("Checksum") == nil)
            #expect(request.header("X-Trailer") == nil)
        }
    }

    @Test func repeatedHeadersKeepTheirOrder() throws {
        let text = "GET / HTTP/1.1\r\nHost: h\r\nAccept: a\r\nX-One: 1\r\naccept: b\r\n\r\n"
        let request = try #require(HTTPParserFeeding.requests(in: HTTPParserFeeding.events(text)).first)
        #expect(request.headers.values(for: "ACCEPT") == ["a", "b"])
        #expect(request.headers.map(\.name) == ["Host", "Accept", "X-One", "accept"])
    }

    @Test func identicalRepeatedContentLengthsAreAccepted() throws {
        let text = "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\nContent-Length: 2, 02\r\n\r\nok"
        let request = try #require(HTTPParserFeeding.requests(in: HTTPParserFeeding.events(text)).first)
        #expect(Array(request.body) == Array("ok".utf8))
    }

    @Test func http10RequestsWorkWithoutHostAndCloseUnlessKeptAlive() throws {
        let plain = try #require(HTTPParserFeeding.requests(in: HTTPParserFeeding.events("GET /old HTTP/1.0\r\n\r\n")).first)
        #expect(plain.version == .http1_0)
        #expect(!plain.keepsAlive)
        let kept = try #require(
            HTTPParserFeeding.requests(in: HTTPParserFeeding.events("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n")).first)
        #expect(kept.keepsAlive)
    }

    @Test func http11KeepsAliveUnlessConnectionClose() throws {
        let kept = try #require(HTTPParserFeeding.requests(in: HTTPParserFeeding.events("GET / HTTP/1.1\r\nHost: h\r\n\r\n")).first)
        #expect(kept.keepsAlive)
        let closing = try #require(
            HTTPParserFeeding.requests(in: HTTPParserFeeding.events("GET / HTTP/1.1\r\nHost: h\r\nConnection: TE, close\r\n\r\n")).first)
        #expect(!closing.keepsAlive)
    }

    @Test func emptyLinesBeforeARequestAreSkipped() {
        let requests = HTTPParserFeeding.requests(in: HTTPParserFeeding.events("\r\n\r\nGET / HTTP/1.1\r\nHost: h\r\n\r\n"))
        #expect(requests.count == 1)
    }

    @Test func bareLineFeedsEndLines() {
        let requests = HTTPParserFeeding.requests(in: HTTPParserFeeding.events("GET / HTTP/1.1\nHost: h\n\n"))
        #expect(requests.count == 1)
    }

    @Test func continueIsExpectedAfterTheHeadAndBeforeTheBody() {
        let head = "PUT /a HTTP/1.1\r\nHost: h\r\nExpect: 100-Continue\r\nContent-Length: 3\r\n\r\n"
        var parser = HTTPRequestParser()
        parser.append(Array(head.utf8))
        #expect(parser.next() == .continueExpected)
        #expect(parser.next() == nil)
        parser.append(Array("abc".utf8))
        guard case .request(let request) = parser.next() else {
            Issue.record("no request after the body")
            return
        }
        #expect(Array(request.body) == Array("abc".utf8))
    }

    @Test func continueIsNotExpectedWithoutABodyOrFromHTTP10() {
        let empty = HTTPParserFeeding.events("PUT /a HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 0\r\n\r\n")
        #expect(!empty.contains(.continueExpected))
        let old = HTTPParserFeeding.events("PUT /a HTTP/1.0\r\nExpect: 100-continue\r\nContent-Length: 1\r\n\r\nx")
        #expect(!old.contains(.continueExpected))
        #expect(HTTPParserFeeding.requests(in: old).count == 1)
    }

    @Test func oversizedContentLengthFailsBeforeAnyBodyArrives() {
        let head = "PUT /a HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 17\r\n\r\n"
        let events = HTTPParserFeeding.events(head, limits: Self.smallLimits)
        #expect(events.count == 1)
        #expect(HTTPParserFeeding.failure(in: events)?.status == 413)
    }

    @Test func failureIsFinalAndRemembersTheRequestLine() {
        var parser = HTTPRequestParser(limits: Self.smallLimits)
        parser.append(Array("PUT /big?q HTTP/1.1\r\nHost: h\r\nContent-Length: 99\r\n\r\n".utf8))
        let first = parser.next()
        parser.append(Array("GET / HTTP/1.1\r\nHost: h\r\n\r\n".utf8))
        #expect(parser.next() == first)
        #expect(parser.requestLine?.method == "PUT")
        #expect(parser.requestLine?.target == "/big?q")
    }

    @Test func partwayTellsWhetherARequestHasBegun() {
        var parser = HTTPRequestParser()
        #expect(!parser.isPartway)
        parser.append(Array("GET / HT".utf8))
        #expect(parser.next() == nil)
        #expect(parser.isPartway)
        parser.append(Array("TP/1.1\r\nHost: h\r\n\r\n".utf8))
        #expect(parser.next() != nil)
        #expect(!parser.isPartway)
    }

    @Test func requestLineWithoutEndFailsOnceItPassesTheLimit() {
        let events = HTTPParserFeeding.events("GET /" + String(repeating: "a", count: 100), limits: Self.smallLimits, pieceSize: 1)
        #expect(HTTPParserFeeding.failure(in: events)?.code == .requestLineTooLong)
    }

    @Test func chunkSizeThatOverflowsIsRefusedWith413() {
        for size in ["ffffffffffffffffffffffffffffffff", "7fffffffffffffff", "10000000000000000"] {
            let text = "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n\(size)\r\n"
            let failure = HTTPParserFeeding.failure(in: HTTPParserFeeding.events(text))
            #expect(failure?.code == .bodyTooLarge)
            #expect(failure?.status == 413)
        }
    }

    @Test func chunkedBodyOverTheLimitIsRefusedWhileReading() {
        let text = "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "8\r\n12345678\r\n8\r\n12345678\r\n1\r\n"
        let events = HTTPParserFeeding.events(text, limits: Self.smallLimits, pieceSize: 1)
        #expect(HTTPParserFeeding.failure(in: events)?.status == 413)
    }

    /// A request the parser must refuse, and the status it must refuse it with.
    struct Refusal: Sendable, CustomTestStringConvertible {
        var name: String
        var text: String
        var status: Int
        var code: HTTPServerError.Code

        var testDescription: String { name }
    }

    static let refusals: [Refusal] = [
        Refusal(name: "obs-fold", text: "GET / HTTP/1.1\r\nHost: h\r\nX-A: 1\r\n  continued\r\n\r\n", status: 400, code: .badRequest),
        Refusal(name: "space before colon", text: "GET / HTTP/1.1\r\nHost : h\r\n\r\n", status: 400, code: .badRequest),
        Refusal(name: "line without colon", text: "GET / HTTP/1.1\r\nHost: h\r\nnonsense\r\n\r\n", status: 400, code: .badRequest),
        Refusal(name: "NUL in value", text: "GET / HTTP/1.1\r\nHost: h\u{0}x\r\n\r\n", status: 400, code: .badRequest),
        Refusal(name: "bare CR in value", text: "GET / HTTP/1.1\r\nHost: h\rx\r\n\r\n", status: 400, code: .badRequest),
        Refusal(name: "missing Host", text: "GET / HTTP/1.1\r\n\r\n", status: 400, code: .badRequest),
        Refusal(name: "two Hosts", text: "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", status: 400, code: .badRequest),
        Refusal(name: "bad method", text: "G(T / HTTP/1.1\r\nHost: h\r\n\r\n", status: 400, code: .badRequest),
        Refusal(name: "two spaces", text: "GET  / HTTP/1.1\r\nHost: h\r\n\r\n", status: 400, code: .badRequest),
        Refusal(name: "non-ASCII target", text: "GET /é HTTP/1.1\r\nHost: h\r\n\r\n", status: 400, code: .badRequest),
        Refusal(name: "lower-case version", text: "GET / http/1.1\r\nHost: h\r\n\r\n", status: 400, code: .badRequest),
        Refusal(name: "short version", text: "GET / HTTP/1\r\nHost: h\r\n\r\n", status: 400, code: .badRequest),
        Refusal(name: "HTTP/2.0", text: "GET / HTTP/2.0\r\nHost: h\r\n\r\n", status: 505, code: .unsupportedVersion),
        Refusal(name: "HTTP/1.2", text: "GET / HTTP/1.2\r\nHost: h\r\n\r\n", status: 505, code: .unsupportedVersion),
        Refusal(name: "HTTP/0.9", text: "GET / HTTP/0.9\r\n\r\n", status: 505, code: .unsupportedVersion),
        Refusal(
            name: "Content-Length and Transfer-Encoding",
            text: "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n",
            status: 400, code: .badRequest),
        Refusal(
            name: "Content-Length not digits", text: "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1x\r\n\r\n",
            status: 400, code: .badRequest),
        Refusal(
            name: "Content-Length signed", text: "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: +1\r\n\r\n",
            status: 400, code: .badRequest),
        Refusal(
            name: "Content-Length empty", text: "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: \r\n\r\n",
            status: 400, code: .badRequest),
        Refusal(
            name: "Content-Length list differs", text: "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1, 2\r\n\r\n",
            status: 400, code: .badRequest),
        Refusal(
            name: "Content-Length fields differ",
            text: "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
            status: 400, code: .badRequest),
        Refusal(
            name: "huge Content-Length",
            text: "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 99999999999999999999999999999\r\n\r\n",
            status: 413, code: .bodyTooLarge),
        Refusal(
            name: "Content-Length over limit", text: "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 17\r\n\r\n",
            status: 413, code: .bodyTooLarge),
        Refusal(
            name: "gzip coding", text: "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip\r\n\r\n",
            status: 501, code: .unsupportedTransferCoding),
        Refusal(
            name: "gzip then chunked", text: "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip, chunked\r\n\r\n",
            status: 501, code: .unsupportedTransferCoding),
        Refusal(
            name: "chunked twice", text: "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked, chunked\r\n\r\n",
            status: 400, code: .badRequest),
        Refusal(
            name: "Transfer-Encoding in HTTP/1.0", text: "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n",
            status: 400, code: .badRequest),
        Refusal(
            name: "chunk size not hex",
            text: "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", status: 400, code: .badRequest),
        Refusal(
            name: "chunk size with junk",
            text: "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n1 x\r\n", status: 400, code: .badRequest),
        Refusal(
            name: "chunk longer than its size",
            text: "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nab\r\n", status: 400,
            code: .badRequest),
        Refusal(
            name: "unknown expectation", text: "PUT / HTTP/1.1\r\nHost: h\r\nExpect: 200-ok\r\n\r\n", status: 417,
            code: .unsupportedExpectation),
        Refusal(
            name: "request line too long", text: "GET /\(String(repeating: "a", count: 60)) HTTP/1.1\r\nHost: h\r\n\r\n",
            status: 414, code: .requestLineTooLong),
        Refusal(
            name: "header block too large",
            text: "GET / HTTP/1.1\r\nHost: h\r\nX-Big: \(String(repeating: "b", count: 120))\r\n\r\n", status: 431,
            code: .headerBlockTooLarge),
        Refusal(
            name: "too many headers", text: "GET / HTTP/1.1\r\nHost: h\r\nA: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\n\r\n", status: 431,
            code: .tooManyHeaders),
        Refusal(
            name: "trailers too large",
            text: "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nT: \(String(repeating: "t", count: 130))\r\n\r\n",
            status: 431, code: .headerBlockTooLarge),
        Refusal(
            name: "folded trailer",
            text: "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nT: 1\r\n 2\r\n\r\n", status: 400,
            code: .badRequest),
    ]

    @Test(arguments: refusals)
    func refusedRequestFailsWithItsStatus(_ refusal: Refusal) {
        for pieceSize in [1, .max] {
            let events = HTTPParserFeeding.events(refusal.text, limits: Self.smallLimits, pieceSize: pieceSize)
            let failure = HTTPParserFeeding.failure(in: events)
            #expect(failure?.status == refusal.status, "piece size \(pieceSize)")
            #expect(failure?.code == refusal.code, "piece size \(pieceSize)")
            #expect(HTTPParserFeeding.requests(in: events).isEmpty)
        }
    }

    @Test func randomBytesNeverCrashTheParser() {
        var generator = SeededRandom(seed: 20_240_601)
        let seeds = [
            "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
            "PUT /a HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nExpect: 100-continue\r\n\r\nabc",
        ]
        for _ in 0..<300 {
            var bytes = Array(seeds.randomElement(using: &generator)?.utf8 ?? "".utf8)
            for _ in 0..<Int.random(in: 1...6, using: &generator) where !bytes.isEmpty {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            _ = HTTPParserFeeding.events(bytes, limits: Self.smallLimits, pieceSize: Int.random(in: 1...8, using: &generator))
        }
    }
}
