import DAVTestSupport
import Foundation
import Synchronization
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

/// The transport, ``CurlTransport``, against real servers started on 127.0.0.1: it must hand
/// their answers to ``HTTPClient`` as they came.
@Suite struct HTTPTransportTests {
    /// The transport under test, over the loaded library.
    static func transport() throws -> CurlTransport {
        CurlTransport(curl: try #require(CurlLibrary.shared))
    }

    @Test func aRedirectIsHandedBackInsteadOfFollowed() throws {
        let server = try DAVTestServer(.xandikos)
        let url = server.baseURL.appending(path: ".well-known/carddav")
        let response = try Self.transport().send(HTTPRequest(method: "GET", url: url))
        #expect(HTTPClient.redirectStatuses.contains(response.status))
        #expect(response.header("location") != nil)
    }

    @Test func anAuthenticationChallengeComesBackAsItsStatus() throws {
        let server = try DAVTestServer(.radicale(password: "right"))
        let credentials = RemoteCredentials(user: server.user, password: "wrong")
        let request = HTTPRequest(
            method: "PROPFIND", url: server.addressBookURL,
            headers: ["Depth": "0", "Authorization": credentials.basicAuthorization])
        #expect(try Self.transport().send(request).status == 401)
    }

    @Test func aServerThatIsNotThereIsAConnectionFailure() throws {
        let server = try DAVTestServer(.radicale(password: nil))
        server.kill()
        let error = try #require(throws: HTTPTransportError.self) {
            try Self.transport().send(HTTPRequest(method: "GET", url: server.baseURL))
        }
        #expect(error.kind == .connectionFailed)
    }

    @Test func aCardPutWithItsMethodComesBackByteForByteWithItsETag() throws {
        let server = try DAVTestServer(.xandikos)
        let transport = try Self.transport()
        let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:transport-1\r\nFN:Zoë Ågren\r\nN:Ågren;Zoë;;;\r\nEND:VCARD\r\n"
        let url = server.addressBookURL.appending(path: "transport-1.vcf")
        let put = try transport.send(
            HTTPRequest(
                method: "PUT", url: url, headers: ["Content-Type": "text/vcard; charset=utf-8", "If-None-Match": "*"],
                body: Data(card.utf8)))
        #expect(put.status == 201)

        let get = try transport.send(HTTPRequest(method: "GET", url: url))
        #expect(get.status == 200)
        #expect(String(decoding: get.body, as: UTF8.self) == card)
        #expect(get.header("etag") != nil)
        // The same handle again: a request with If-None-Match on a card that exists is refused.
        let again = try transport.send(
            HTTPRequest(method: "PUT", url: url, headers: ["If-None-Match": "*"], body: Data(card.utf8)))
        #expect(again.status == 412)
        let removed = try transport.send(HTTPRequest(method: "DELETE", url: url))
        #expect((200..<300).contains(removed.status))
        #expect(try transport.send(HTTPRequest(method: "GET", url: url)).status == 404)
    }

    @Test func requestsSentAtOnceFromSeveralThreadsEachGetTheirOwnAnswer() throws {
        let server = try DAVTestServer(.xandikos)
        let transport = try Self.transport()
        let collection = server.addressBookURL
        for number in stride(from: 0, to: 24, by: 2) {
            let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:card-\(number)\r\nFN:Card \(number)\r\nEND:VCARD\r\n"
            let url = collection.appending(path: "card-\(number).vcf")
            #expect(try transport.send(HTTPRequest(method: "PUT", url: url, body: Data(card.utf8))).status == 201)
        }
        let answers = Mutex<[Int: HTTPResponse]>([:])
        DispatchQueue.concurrentPerform(iterations: 24) { number in
            let url = collection.appending(path: "card-\(number).vcf")
            if let response = try? transport.send(HTTPRequest(method: "GET", url: url)) {
                answers.withLock { $0[number] = response }
            }
        }
        let responses = answers.withLock { $0 }
        #expect(responses.count == 24)
        for (number, response) in responses {
            if number.isMultiple(of: 2) {
                #expect(response.status == 200)
                #expect(String(decoding: response.body, as: UTF8.self).contains("UID:card-\(number)\r\n"))
            } else {
                #expect(response.status == 404)
            }
        }
    }
}
