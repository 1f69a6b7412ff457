import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

@Suite struct HTTPHeaderFieldsTests {
    @Test func lookupIgnoresCaseAndReturnsTheFirstValue() {
        let headers: HTTPHeaderFields = ["Content-Type": "text/plain", "X-A": "1", "x-a": "2"]
        #expect(headers["content-TYPE"] == "text/plain")
        #expect(headers["X-A"] == "1")
        #expect(headers.values(for: "X-a") == ["1", "2"])
        #expect(headers["Missing"] == nil)
        #expect(headers.contains("CONTENT-type"))
    }

    @Test func appendKeepsOrderAndRepeats() {
        var headers = HTTPHeaderFields()
        headers.append("WWW-Authenticate", "Basic realm=\"a\"")
        headers.append("DAV", "1, 3, addressbook")
        headers.append("WWW-Authenticate", "Bearer")
        #expect(headers.map(\.name) == ["WWW-Authenticate", "DAV", "WWW-Authenticate"])
        #expect(headers.values(for: "www-authenticate") == ["Basic realm=\"a\"", "Bearer"])
    }

    @Test func settingReplacesEveryFieldOfTheNameInPlace() {
        var headers: HTTPHeaderFields = ["A": "1", "B": "2", "a": "3"]
        headers["a"] = "new"
        #expect(headers.map(\.name) == ["A", "B"])
        #expect(headers["A"] == "new")
        headers["A"] = nil
        #expect(headers.map(\.name) == ["B"])
        headers["C"] = "3"
        #expect(headers.map(\.name) == ["B", "C"])
    }

    @Test func tokenSearchLooksInsideCommaSeparatedValues() {
        let headers: HTTPHeaderFields = ["Connection": "TE, Keep-Alive", "connection": "Upgrade"]
        #expect(headers.containsToken("keep-alive", in: "CONNECTION"))
        #expect(headers.containsToken("upgrade", in: "Connection"))
        #expect(!headers.containsToken("close", in: "Connection"))
    }
}
