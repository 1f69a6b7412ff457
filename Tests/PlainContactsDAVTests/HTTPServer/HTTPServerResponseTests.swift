import Foundation
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

@Suite struct HTTPServerResponseTests {
    /// The head as text, for comparing.
    private func head(_ response: HTTPServerResponse, isHeadRequest: Bool = false, connection: String? = nil) -> String {
        String(decoding: response.serializedHead(isHeadRequest: isHeadRequest, connection: connection, date: "DATE"), as: UTF8.self)
    }

    @Test func headHasStatusLineDateLengthAndFieldsInOrder() {
        var response = HTTPServerResponse(status: 207, body: Data("<x/>".utf8))
        response.headers.append("Content-Type", "application/xml; charset=utf-8")
        response.headers.append("WWW-Authenticate", "Basic")
        response.headers.append("WWW-Authenticate", "Bearer")
        #expect(head(response) == "HTTP/1.1 207 Multi-Status\r\nDate: DATE\r\nContent-Length: 4\r\n"
            + "Content-Type: application/xml; charset=utf-8\r\nWWW-Authenticate: Basic\r\nWWW-Authenticate: Bearer\r\n\r\n")
    }

    @Test func serverOwnedFieldsFromTheHandlerAreReplaced() {
        let response = HTTPServerResponse(
            status: 200, headers: ["content-length": "99", "Date": "x", "Transfer-Encoding": "chunked", "Connection": "close"],
            body: Data("ab".utf8))
        #expect(head(response, connection: "close") == "HTTP/1.1 200 OK\r\nDate: DATE\r\nContent-Length: 2\r\nConnection: close\r\n\r\n")
        #expect(response.asksToClose)
    }

    @Test func headRequestDeclaresTheHandlersLengthOrTheBodys() {
        let declared = HTTPServerResponse(status: 200, headContentLength: 1234)
        #expect(head(declared, isHeadRequest: true).contains("Content-Length: 1234\r\n"))
        let whole = HTTPServerResponse(status: 200, body: Data("12345".utf8))
        #expect(head(whole, isHeadRequest: true).contains("Content-Length: 5\r\n"))
        #expect(!whole.writesBody(forHeadRequest: true))
        #expect(whole.writesBody(forHeadRequest: false))
    }

    @Test func noContentAndNotModifiedHaveNeitherLengthNorBody() {
        for status in [204, 304] {
            let response = HTTPServerResponse(status: status, body: Data("x".utf8))
            #expect(!head(response).contains("Content-Length"))
            #expect(!response.writesBody(forHeadRequest: false))
        }
    }

    @Test func fieldsThatWouldSplitTheResponseAreLeftOut() {
        let response = HTTPServerResponse(
            status: 200, headers: ["X-Bad": "a\r\nSet-Cookie: evil", "Bad Name": "b", "X-Good": "c"])
        let text = head(response)
        #expect(!text.contains("evil"))
        #expect(!text.contains("Bad Name"))
        #expect(text.contains("X-Good: c\r\n"))
        #expect(response.unwritableFieldNames == ["X-Bad", "Bad Name"])
    }

    @Test func anUnknownStatusIsCalledUnknown() {
        #expect(head(HTTPServerResponse(status: 299)).hasPrefix("HTTP/1.1 299 Unknown\r\n"))
        #expect(HTTPStatus.reasonPhrase(for: 431) == "Request Header Fields Too Large")
    }
}
