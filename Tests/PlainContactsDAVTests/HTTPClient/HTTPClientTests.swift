import Foundation
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

@Suite struct HTTPClientTests {
    private let credentials = RemoteCredentials(user: "me", password: "s3cret-pw")

    private func request(_ url: String, method: String = "PROPFIND", body: String? = "<x/>") throws -> HTTPRequest {
        HTTPRequest(method: method, url: try testURL(url), headers: ["Depth": "0"], body: body.map { Data($0.utf8) })
    }

    @Test func sendsBasicAuthenticationToTheRequestsOrigin() throws {
        let transport = FakeHTTPTransport()
        transport.enqueue(207)
        _ = try HTTPClient.fake(transport, credentials: credentials).send(request("https://dav.example.com/a/"))
        let expected = "Basic " + Data("me:s3cret-pw".utf8).base64EncodedString()
        #expect(transport.requests.map { $0.headers["Authorization"] } == [expected])
    }

    @Test func aRedirectOnTheSameOriginKeepsMethodBodyAndCredentials() throws {
        let transport = FakeHTTPTransport()
        transport.enqueue(301, headers: ["Location": "/b/"])
        transport.enqueue(207)
        let response = try HTTPClient.fake(transport).send(request("https://dav.example.com/a/"))
        #expect(response.status == 207)
        #expect(response.url.absoluteString == "https://dav.example.com/b/")
        let second = try #require(transport.requests.last)
        #expect(second.url.absoluteString == "https://dav.example.com/b/")
        #expect(second.method == "PROPFIND")
        #expect(second.body == Data("<x/>".utf8))
        #expect(second.headers["Authorization"] != nil)
    }

    @Test func aRedirectToAnotherOriginDropsCredentialsMethodAndBody() throws {
        let transport = FakeHTTPTransport()
        transport.enqueue(307, headers: ["location": "https://other.example.net/b/"])
        transport.enqueue(200)
        _ = try HTTPClient.fake(transport).send(request("https://dav.example.com/a/"))
        let second = try #require(transport.requests.last)
        #expect(second.url.host == "other.example.net")
        #expect(second.headers["Authorization"] == nil)
        #expect(second.method == "GET")
        #expect(second.body == nil)
    }

    @Test func aSeeOtherRedirectBecomesAGet() throws {
        let transport = FakeHTTPTransport()
        transport.enqueue(303, headers: ["Location": "/b/"])
        transport.enqueue(200)
        _ = try HTTPClient.fake(transport).send(request("https://dav.example.com/a/"))
        #expect(transport.requests.map(\.method) == ["PROPFIND", "GET"])
    }

    @Test func moreThanFiveRedirectsMakeTheServerUnavailable() throws {
        let transport = FakeHTTPTransport()
        for index in 0...HTTPClient.maximumRedirects { transport.enqueue(302, headers: ["Location": "/r\(index)/"]) }
        let error = try #require(throws: SyncError.self) {
            try HTTPClient.fake(transport).send(request("https://dav.example.com/a/"))
        }
        #expect(error.code == .serverUnavailable)
        #expect(transport.requests.count == HTTPClient.maximumRedirects + 1)
    }

    @Test func serverErrorsAreRetriedWithExponentialBackoff() throws {
        let transport = FakeHTTPTransport()
        transport.enqueue(503)
        transport.enqueue(500)
        transport.enqueue(207)
        let waits = RecordedWaits()
        let response = try HTTPClient.fake(transport, waits: waits).send(request("https://dav.example.com/a/"))
        #expect(response.status == 207)
        #expect(waits.delays == [HTTPClient.initialRetryDelay, HTTPClient.initialRetryDelay * 2])
    }

    @Test func connectionFailuresAndTimeoutsAreRetried() throws {
        let transport = FakeHTTPTransport()
        transport.enqueueFailure(.connectionFailed)
        transport.enqueueFailure(.timedOut)
        transport.enqueue(207)
        #expect(try HTTPClient.fake(transport).send(request("https://dav.example.com/a/")).status == 207)
        #expect(transport.requests.count == 3)
    }

    @Test func anAnswerTooLargeIsNeverRetriedAndNamesTheURLWithoutCredentials() throws {
        let transport = FakeHTTPTransport()
        transport.enqueueFailure(.responseTooLarge)
        transport.enqueue(207)
        let waits = RecordedWaits()
        let error = try #require(throws: SyncError.self) {
            try HTTPClient.fake(transport, waits: waits).send(request("https://me:pw@dav.example.com/a/"))
        }
        #expect(error.code == .responseTooLarge)
        #expect(error.path == "https://dav.example.com/a/")
        #expect(transport.requests.count == 1)
        #expect(waits.delays.isEmpty)
    }

    @Test func aServerFailingEveryAttemptIsUnavailable() throws {
        let transport = FakeHTTPTransport()
        for _ in 0..<HTTPClient.maximumAttempts { transport.enqueue(502) }
        let waits = RecordedWaits()
        let error = try #require(throws: SyncError.self) {
            try HTTPClient.fake(transport, waits: waits).send(request("https://dav.example.com/a/"))
        }
        #expect(error.code == .serverUnavailable)
        #expect(error.path == "https://dav.example.com/a/")
        #expect(transport.requests.count == HTTPClient.maximumAttempts)
        #expect(waits.delays.count == HTTPClient.maximumAttempts - 1)
    }

    @Test func anUnreachableServerIsUnavailable() throws {
        let transport = FakeHTTPTransport()
        let error = try #require(throws: SyncError.self) {
            try HTTPClient.fake(transport).send(request("https://dav.example.com/a/"))
        }
        #expect(error.code == .serverUnavailable)
        #expect(transport.requests.count == HTTPClient.maximumAttempts)
    }

    @Test func tooManyRequestsWaitsForASmallRetryAfter() throws {
        let transport = FakeHTTPTransport()
        transport.enqueue(429, headers: ["Retry-After": "3"])
        transport.enqueue(207)
        let waits = RecordedWaits()
        #expect(try HTTPClient.fake(transport, waits: waits).send(request("https://dav.example.com/a/")).status == 207)
        #expect(waits.delays == [3])
    }

    @Test func tooManyRequestsWithALongRetryAfterFailsWithoutWaiting() throws {
        let transport = FakeHTTPTransport()
        transport.enqueue(429, headers: ["Retry-After": "3600"])
        let waits = RecordedWaits()
        let error = try #require(throws: SyncError.self) {
            try HTTPClient.fake(transport, waits: waits).send(request("https://dav.example.com/a/"))
        }
        #expect(error.code == .serverUnavailable)
        #expect(waits.delays.isEmpty)
    }

    @Test(arguments: [400, 404, 405, 409, 412])
    func clientErrorsAreNeverRetriedAndComeBackToTheCaller(status: Int) throws {
        let transport = FakeHTTPTransport()
        transport.enqueue(status)
        #expect(try HTTPClient.fake(transport).send(request("https://dav.example.com/a/")).status == status)
        #expect(transport.requests.count == 1)
    }

    @Test(arguments: [401, 403])
    func refusedCredentialsFailAuthentication(status: Int) throws {
        let transport = FakeHTTPTransport()
        transport.enqueue(status)
        let error = try #require(throws: SyncError.self) {
            try HTTPClient.fake(transport).send(request("https://dav.example.com/a/"))
        }
        #expect(error.code == .authenticationFailed)
        #expect(error.path == "https://dav.example.com/a/")
        #expect(transport.requests.count == 1)
    }

    @Test func a403ForALackingPrivilegeIsReadOnlyNotRefusedCredentials() throws {
        let transport = FakeHTTPTransport()
        transport.enqueue(
            403, headers: ["Content-Type": "application/xml"],
            body: "<d:error xmlns:d=\"DAV:\"><d:need-privileges><d:resource><d:href>/tab/family/</d:href>"
                + "<d:privilege><d:bind/></d:privilege></d:resource></d:need-privileges></d:error>")
        let error = try #require(throws: SyncError.self) {
            try HTTPClient.fake(transport).send(request("https://dav.example.com/tab/family/a.vcf"))
        }
        #expect(error.code == .readOnly)
        #expect(error.path == "https://dav.example.com/tab/family/a.vcf")
        // Another 403 body, or none, is still a refusal of the credentials.
        transport.enqueue(403, body: "<d:error xmlns:d=\"DAV:\"><d:cannot-modify-protected-property/></d:error>")
        let other = try #require(throws: SyncError.self) {
            try HTTPClient.fake(transport).send(request("https://dav.example.com/tab/family/a.vcf"))
        }
        #expect(other.code == .authenticationFailed)
    }

    @Test func aStatusTheCallerHandlesComesBackInsteadOfThrowing() throws {
        let transport = FakeHTTPTransport()
        transport.enqueue(403)
        #expect(try HTTPClient.fake(transport).send(request("https://dav.example.com/a/"), handling: [403]).status == 403)
    }

    @Test func thePasswordAppearsInNoErrorNorDescription() throws {
        let transport = FakeHTTPTransport()
        transport.enqueue(401)
        let url = "https://me:s3cret-pw@dav.example.com/a/"
        let error = try #require(throws: SyncError.self) {
            try HTTPClient.fake(transport, credentials: credentials).send(request(url))
        }
        #expect(!error.description.contains("s3cret-pw"))
        #expect(!"\(credentials)".contains("s3cret-pw"))
        #expect(!String(reflecting: credentials).contains("s3cret-pw"))
        var dumped = ""
        dump(credentials, to: &dumped)
        #expect(!dumped.contains("s3cret-pw"))
    }

    @Test func aRequestWithCredentialsNeverShowsThem() throws {
        var request = try request("https://me:s3cret-pw@dav.example.com/a/")
        request.headers["Authorization"] = credentials.basicAuthorization
        var dumped = ""
        dump(request, to: &dumped)
        for text in ["\(request)", String(reflecting: request), dumped] {
            #expect(!text.contains("s3cret-pw"))
            #expect(!text.contains(credentials.basicAuthorization))
        }
    }
}
