import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

/// ``URLSessionTransport`` against a real server started on 127.0.0.1.
@Suite struct URLSessionTransportTests {
    @Test func aRedirectIsHandedBackInsteadOfFollowed() throws {
        let server = try DAVTestServer(.xandikos)
        let url = server.baseURL.appending(path: ".well-known/carddav")
        let response = try URLSessionTransport().send(HTTPRequest(method: "GET", url: url))
        #expect(HTTPClient.redirectStatuses.contains(response.status))
        #expect(response.header("location") != nil)
    }

    @Test func anAuthenticationChallengeComesBackAsItsStatus() throws {
        let server = try DAVTestServer(.radicale(password: "right"))
        let credentials = RemoteCredentials(user: server.user, password: "wrong")
        let request = HTTPRequest(
            method: "PROPFIND", url: server.addressBookURL,
            headers: ["Depth": "0", "Authorization": credentials.basicAuthorization])
        #expect(try URLSessionTransport().send(request).status == 401)
    }

    @Test func aServerThatIsNotThereIsAConnectionFailure() throws {
        let server = try DAVTestServer(.radicale(password: nil))
        server.kill()
        let error = try #require(throws: HTTPTransportError.self) {
            try URLSessionTransport().send(HTTPRequest(method: "GET", url: server.baseURL))
        }
        #expect(error.kind == .connectionFailed)
    }
}
