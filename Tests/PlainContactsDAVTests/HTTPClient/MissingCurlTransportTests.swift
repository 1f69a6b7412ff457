import Foundation
import Testing
@testable import PlainContactsDAV

@Suite struct MissingCurlTransportTests {
    @Test func aRequestFailsNamingTheLibraryToInstall() throws {
        let request = try HTTPRequest(method: "GET", url: #require(URL(string: "http://127.0.0.1:1/")))
        let error = try #require(throws: HTTPTransportError.self) { try MissingCurlTransport().send(request) }
        #expect(error.kind == .connectionFailed)
        #expect(error.detail.contains("libcurl"))
    }
}
