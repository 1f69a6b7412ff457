import Foundation
import Glibc
import Testing
@testable import PlainContacts
@testable import PlainContactsDAV

/// A server serving on listening sockets it inherited rather than bound, as a server process
/// started by `contacts serve`'s supervisor does.
@Suite struct HTTPServerListenerAdoptingTests {
    @Test func aServerAdoptingABoundSocketServesOnItsPort() throws {
        let bound = try HTTPServer.openListeners(host: "127.0.0.1", port: 0) { _ in }
        let listener = try #require(bound.first)
        let server = HTTPServer(host: "127.0.0.1", port: 0, adopting: [listener.descriptor], log: { _ in }) { request in
            .text(200, "adopted \(request.path)\n")
        }
        try server.start()
        defer { server.stop() }

        #expect(server.port == listener.port)
        let client = try HTTPTestClient(port: server.port)
        try client.send("GET /a HTTP/1.1\r\nHost: h\r\n\r\n")
        let response = try client.readResponse()
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == "adopted /a\n")
        #expect(fcntl(listener.descriptor, F_GETFD) & FD_CLOEXEC != 0)
    }

    @Test func aDescriptorThatIsNotASocketIsRefused() throws {
        let descriptor = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer { close(descriptor) }
        #expect(throws: HTTPServerError.self) { try HTTPServerListener(adopting: descriptor) }
    }
}
