import DAVTestSupport
import Foundation
import Glibc
import PlainContactsSystem
import Testing

/// The socket between a watcher and its clients: only this user's, never a file in its place,
/// and a short path where the preferred one is too long.
@Suite struct LocalSocketTests {
    private func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appending(path: "socket-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func aListenerAnswersItsOwnUser() throws {
        let path = try folder().appending(path: "s").path
        let listener = try LocalSocket.listen(on: path).get()
        defer { close(listener) }
        var status = stat()
        #expect(lstat(path, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o600)
        let client = try #require(LocalSocket.connect(path, timeoutMilliseconds: 1000))
        defer { close(client) }
        let served = accept(listener, nil, nil)
        defer { close(served) }
        #expect(LocalSocket.peerUser(of: served) == getuid())
        #expect(LocalSocket.send(Array("since none\n".utf8), to: client))
        #expect(LocalSocket.receive(from: served, until: 0x0A, limit: 64) == Array("since none\n".utf8))
    }

    @Test func aSocketNobodyListensOnIsRefusedAndReplaced() throws {
        let path = try folder().appending(path: "s").path
        close(try LocalSocket.listen(on: path).get())
        // What a watcher killed with SIGKILL leaves behind.
        #expect(LocalSocket.connect(path, timeoutMilliseconds: 1000) == nil)
        let listener = try LocalSocket.listen(on: path).get()
        defer { close(listener) }
        let client = LocalSocket.connect(path, timeoutMilliseconds: 1000)
        #expect(client != nil)
        if let client { close(client) }
    }

    @Test func aFileAtThePathIsNeitherBelievedNorReplaced() throws {
        let url = try folder().appending(path: "s")
        try Data("mine".utf8).write(to: url)
        #expect(LocalSocket.connect(url.path, timeoutMilliseconds: 1000) == nil)
        #expect(throws: SocketFailure.self) { try LocalSocket.listen(on: url.path).get() }
        #expect(try String(contentsOf: url, encoding: .utf8) == "mine")
    }

    @Test func aPathTooLongForASocketGetsAShortPrivateOne() throws {
        let long = try folder().path + "/" + String(repeating: "x", count: 120) + "/.contacts/watch.socket"
        let short = try #require(LocalSocket.address(for: long))
        #expect(short != long)
        #expect(short.utf8.count < 108)
        #expect(LocalSocket.address(for: long) == short)
        var status = stat()
        #expect(lstat((short as NSString).deletingLastPathComponent, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o700)
        #expect(status.st_uid == getuid())
        #expect(LocalSocket.address(for: "/tmp/short.socket") == "/tmp/short.socket")
    }

    @Test func theStoresFileSystemIsNotANetworkOne() {
        #expect(NetworkFileSystems.holds(FileManager.default.temporaryDirectory.path) == false)
        #expect(NetworkFileSystems.holds("/no/such/folder") == nil)
    }
}
