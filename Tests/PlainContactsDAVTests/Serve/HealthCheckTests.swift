import DAVTestSupport
import Foundation
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

/// `GET /health`: answered to anyone, saying nothing but that the server answers.
@Suite struct HealthCheckTests {
    @Test func healthAnswersOkWithoutCredentialsOnAServerWithUsers() throws {
        let server = try CardDAVTestStore()
        let authenticator = ServerAuthenticator(
            passwordHashes: [try ServerUserName("kim"): try PasswordHash.make(password: "engine", iterations: 1_000)])
        func send(_ method: String, _ target: String, headers: [(String, String)] = []) -> HTTPServerResponse {
            ContactsServer.respond(
                to: HTTPServerRequest(method: method, target: target, headers: HTTPHeaderFields(headers)),
                service: server.service, authenticator: authenticator) { _ in }
        }

        for method in ["GET", "HEAD"] {
            let response = send(method, "/health")
            #expect(response.status == 200)
            #expect(response.body == Data("ok\n".utf8))
            #expect(response.headers["WWW-Authenticate"] == nil)
            #expect(response.headers["Cache-Control"] == "no-store")
        }
        #expect(send("GET", "/health?verbose=1").status == 200)
        let posted = send("POST", "/health")
        #expect(posted.status == 405)
        #expect(posted.headers["Allow"] == "GET, HEAD")
        // Only the exact path: anything under it is the server's, behind credentials.
        #expect(send("GET", "/health/").status == 401)
        #expect(send("GET", "/healthz").status == 401)
    }

    @Test func healthIsAnsweredThroughAProxyOnAServerWithoutUsers() throws {
        let server = try CardDAVTestStore()
        let response = ContactsServer.respond(
            to: HTTPServerRequest(method: "GET", target: "/health", headers: HTTPHeaderFields([("X-Forwarded-For", "203.0.113.7")])),
            service: server.service, authenticator: ServerAuthenticator(passwordHashes: [:])) { _ in }
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == "ok\n")
    }

    @Test func otherPathsAreNotTheHealthChecks() {
        #expect(HealthCheck.response(to: HTTPServerRequest(method: "GET", target: "/")) == nil)
        #expect(HealthCheck.response(to: HTTPServerRequest(method: "GET", target: "/me/contacts/")) == nil)
    }
}
