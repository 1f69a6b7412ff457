import Foundation
import Glibc
import Testing
@testable import PlainContacts

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
        #expect(signedIn.headers["Location"] == "/kim/")
        let root = send("PROPFIND", "/", headers: [("Authorization", basicHeader("kim", "engine")), ("Depth", "0")])
        #expect(root.status == 207)
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
