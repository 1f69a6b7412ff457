import DAVTestSupport
import Foundation
import Glibc
import Synchronization
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

/// The server as `contacts serve` assembles it.
@Suite struct ContactsServerTests {
    /// A server on the store, not listening.
    private static func server(_ store: TemporaryStore) throws -> ContactsServer {
        try ContactsServer(storeURL: store.storeURL, host: "127.0.0.1", port: 0) { _ in }
    }

    @Test func aSecondServerOnOneStoreIsRefusedAsBusy() throws {
        let store = try TemporaryStore()
        _ = try store.makeBook()
        let first = try Self.server(store)
        withExtendedLifetime(first) {
            let error = #expect(throws: ContactsError.self) { try Self.server(store) }
            #expect(error?.code == .busy)
        }
    }

    @Test func aStoppedServerKeepsItsPeopleListsForTheNextStart() throws {
        let store = try TemporaryStore()
        let book = try store.makeBook()
        let person = Person()
        person.firstName = "Katie"
        try book.add(person)
        try book.save()
        let listFile = WebBookListFile.url(in: StoreLayout(root: store.storeURL))
        let server = try Self.server(store)
        try server.start()
        // The list made at the start waits to be written in the background; stopping writes it.
        server.stop()
        server.waitUntilStopped()
        let kept = try #require(WebBookListFile.read(from: listFile))
        #expect(kept.read(words: "", group: nil).rows == book.listing())
    }

    @Test func aNewServerStartsOnceTheFirstIsGone() throws {
        let store = try TemporaryStore()
        _ = try store.makeBook()
        var first: ContactsServer? = try Self.server(store)
        #expect(first?.requiresAuthentication == false)
        first = nil
        let second = try Self.server(store)
        withExtendedLifetime(second) {
            let error = #expect(throws: ContactsError.self) { try Self.server(store) }
            #expect(error?.code == .busy)
        }
    }

    @Test func aServerInAnotherProcessKeepsOthersOffUntilThatProcessEnds() throws {
        let server = try CardDAVTestStore()
        let process = Process()
        process.executableURL = try crashHelperExecutable()
        process.arguments = ["serve", server.store.storeURL.path]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        #expect(String(decoding: output.fileHandleForReading.availableData, as: UTF8.self) == "serving\n")

        let error = #expect(throws: ContactsError.self) { try Self.server(server.store) }
        #expect(error?.code == .busy)
        // The command line's writes go on meanwhile.
        try server.addPerson("Katie", "Bell")
        #expect(try server.etags().count == 1)

        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        try withExtendedLifetime(Self.server(server.store)) {}
    }

    @Test func wellKnownRedirectsWithoutCredentialsWhileEverythingElseAsksForThem() throws {
        let server = try CardDAVTestStore()
        let authenticator = ServerAuthenticator(
            passwordHashes: [try ServerUserName("kim"): try PasswordHash.make(password: "engine", iterations: 1_000)])
        func send(_ method: String, _ target: String, headers: [(String, String)] = []) -> HTTPServerResponse {
            ContactsServer.respond(
                to: HTTPServerRequest(method: method, target: target, headers: HTTPHeaderFields(headers)),
                service: server.service, authenticator: authenticator) { _ in }
        }

        for method in ["GET", "PROPFIND"] {
            let response = send(method, "/.well-known/carddav")
            #expect(response.status == 301)
            #expect(response.headers["Location"] == "/")
            #expect(response.headers["WWW-Authenticate"] == nil)
        }
        let proxied = send("PROPFIND", "/.well-known/carddav", headers: [("X-Script-Name", "/dav")])
        #expect(proxied.status == 301)
        #expect(proxied.headers["Location"] == "/dav/")
        let guarded = [
            ("PROPFIND", "/"), ("GET", "/"), ("PROPFIND", "/kim/"), ("PROPFIND", "/kim/contacts/"),
            ("OPTIONS", "/.well-known/carddav"),
        ]
        for (method, target) in guarded {
            let response = send(method, target)
            #expect(response.status == 401, "\(method) \(target) gave \(response.status)")
            #expect(response.headers["WWW-Authenticate"] == ServerAuthenticator.challenge)
        }
        let wrong = send("GET", "/.well-known/carddav", headers: [("Authorization", basicHeader("kim", "cobol"))])
        #expect(wrong.status == 401)
        let signedIn = send("GET", "/.well-known/carddav", headers: [("Authorization", basicHeader("kim", "engine"))])
        #expect(signedIn.status == 301)
        #expect(signedIn.headers["Location"] == "/")
        // The folder of well-known locations is read without credentials too.
        #expect(send("GET", "/.well-known/").status == 200)
        #expect(send("PROPFIND", "/.well-known/", headers: [("Depth", "0")]).status == 207)
        let root = send("PROPFIND", "/", headers: [("Authorization", basicHeader("kim", "engine")), ("Depth", "0")])
        #expect(root.status == 207)
    }

    // MARK: Behind a reverse proxy

    /// Sends requests to a server with the accounts kim ("engine") and lee ("cobol"), as if
    /// from `peer`, and keeps its log lines.
    private final class ProxiedServer {
        /// Log lines, from whichever thread.
        final class LogLines: Sendable {
            let lines = Mutex<[String]>([])
        }

        let server: CardDAVTestStore
        let authenticator: ServerAuthenticator
        let policy: ReverseProxyPolicy
        let log = LogLines()

        init(trusting proxies: [String], maxRequestsInFlightPerClient: Int = 8, accounts: Bool = true) throws {
            server = try CardDAVTestStore()
            var hashes: [ServerUserName: PasswordHash] = [:]
            if accounts {
                hashes[try ServerUserName("kim")] = try PasswordHash.make(password: "engine", iterations: 1_000)
                hashes[try ServerUserName("lee")] = try PasswordHash.make(password: "cobol", iterations: 1_000)
            }
            authenticator = ServerAuthenticator(passwordHashes: hashes)
            policy = ReverseProxyPolicy(
                trustedProxies: try TrustedProxies(proxies), maxRequestsInFlightPerClient: maxRequestsInFlightPerClient)
        }

        /// A `PROPFIND /` at depth 0 from `peer` with `headers`, signed in as `user` with `password`.
        func propfind(
            _ user: String, _ password: String, from peer: String = "127.0.0.1", headers: [(String, String)] = []
        ) -> HTTPServerResponse {
            let fields = [("Depth", "0"), ("Authorization", basicHeader(user, password))] + headers
            let request = HTTPServerRequest(method: "PROPFIND", target: "/", headers: HTTPHeaderFields(fields), peerAddress: peer)
            let log = log
            return ContactsServer.respond(to: request, service: server.service, authenticator: authenticator, proxyPolicy: policy) {
                line in log.lines.withLock { $0.append(line) }
            }
        }

        /// The statuses of wrong passwords for `user` with `headers` from `peer`, up to and with
        /// the first 429 (at most 10).
        func failUntilThrottled(_ user: String, from peer: String = "127.0.0.1", headers: [(String, String)]) -> [Int] {
            var statuses: [Int] = []
            while statuses.last != 429 && statuses.count < 10 {
                statuses.append(propfind(user, "stale", from: peer, headers: headers).status)
            }
            return statuses
        }
    }

    @Test func throughATrustedProxyAPhoneWithAStalePasswordThrottlesOnlyItself() throws {
        let proxied = try ProxiedServer(trusting: ["127.0.0.1"])
        let phone1 = [("X-Forwarded-For", "203.0.113.1")]
        let phone2 = [("X-Forwarded-For", "203.0.113.2")]

        let stale = proxied.failUntilThrottled("kim", headers: phone1)
        // Each user's first sign-in, before a remembered password skips the budgets.
        let otherUserOnThePhone = proxied.propfind("lee", "cobol", headers: phone1)
        let sameUserElsewhere = proxied.propfind("kim", "engine", headers: phone2)
        let otherUserElsewhere = proxied.propfind("lee", "cobol", headers: phone2)

        #expect(stale == Array(repeating: 401, count: FailureBudget.standardCapacity) + [429])
        #expect(sameUserElsewhere.status == 207)
        #expect(sameUserElsewhere.logNote == "for 203.0.113.2 via 127.0.0.1")
        #expect(otherUserElsewhere.status == 207)
        #expect(otherUserOnThePhone.status == 207)
    }

    @Test func aSpoofedForwardedForFromAnUntrustedPeerGainsNoBudget() throws {
        for (proxies, peer) in [([] as [String], "127.0.0.1"), (["127.0.0.1"], "192.0.2.50")] {
            let proxied = try ProxiedServer(trusting: proxies)

            let stale = proxied.failUntilThrottled("kim", from: peer, headers: [("X-Forwarded-For", "203.0.113.1")])
            let spoofed = proxied.propfind("kim", "engine", from: peer, headers: [("X-Forwarded-For", "203.0.113.2")])
            let forwarded = proxied.propfind("kim", "engine", from: peer, headers: [("Forwarded", "for=203.0.113.3")])

            #expect(stale.last == 429)
            #expect(spoofed.status == 429)
            #expect(spoofed.logNote == nil)
            #expect(forwarded.status == 429)
        }
    }

    @Test func anUnreadableForwardedIsIgnoredAndLoggedOnce() throws {
        let proxied = try ProxiedServer(trusting: ["127.0.0.1"])
        let broken = [("Forwarded", #"for="203.0.113.7;proto=https"#)]

        let first = proxied.propfind("kim", "engine", headers: broken)
        let second = proxied.propfind("kim", "engine", headers: broken)

        #expect(first.status == 207)
        #expect(first.logNote == nil)
        #expect(second.status == 207)
        #expect(proxied.log.lines.withLock { $0.filter { $0.contains("Forwarded") }.count } == 1)
    }

    @Test func aForwardedClientWithTooManyRequestsInProgressIsAnsweredWith503() throws {
        let proxied = try ProxiedServer(trusting: ["127.0.0.1"], maxRequestsInFlightPerClient: 2)
        var busyClient = HTTPForwardedClient(address: "203.0.113.1")
        busyClient.proxy = "127.0.0.1"
        #expect(proxied.policy.enter(busyClient) && proxied.policy.enter(busyClient))

        let refused = proxied.propfind("kim", "engine", headers: [("X-Forwarded-For", "203.0.113.1")])
        let other = proxied.propfind("kim", "engine", headers: [("X-Forwarded-For", "203.0.113.2")])
        proxied.policy.leave(busyClient)
        let again = proxied.propfind("kim", "engine", headers: [("X-Forwarded-For", "203.0.113.1")])

        #expect(refused.status == 503)
        #expect(refused.headers["Retry-After"] == String(HTTPServer.busyRetryAfterSeconds))
        #expect(refused.logNote?.hasPrefix("for 203.0.113.1 via 127.0.0.1") == true)
        #expect(other.status == 207)
        #expect(again.status == 207)
    }

    @Test func withoutUsersEvenATrustedProxysRequestsAreRefused() throws {
        let proxied = try ProxiedServer(trusting: ["127.0.0.1"], accounts: false)

        #expect(proxied.propfind("kim", "engine", headers: [("X-Forwarded-For", "203.0.113.1")]).status == 403)
        #expect(proxied.propfind("kim", "engine").status == 207)
    }

    @Test func serversOfDifferentStoresRunSideBySide() throws {
        let one = try TemporaryStore()
        _ = try one.makeBook()
        let other = try TemporaryStore()
        _ = try other.makeBook()
        let first = try Self.server(one)
        let second = try Self.server(other)
        withExtendedLifetime((first, second)) {}
    }
}
