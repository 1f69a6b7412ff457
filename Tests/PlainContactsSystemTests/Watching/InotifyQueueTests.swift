import Foundation
import Glibc
import PlainContactsSystem
import Testing

/// The kernel's events for a watched folder come back with their names.
@Suite struct InotifyQueueTests {
    @Test func aFileWrittenInAWatchedFolderIsQueuedWithItsName() throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "inotify-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let queue = try #require(InotifyQueue())
        defer { queue.close() }
        let watch = try #require(queue.add(folder.path, mask: UInt32(IN_CLOSE_WRITE | IN_CREATE)))
        #expect(queue.readEvents()?.isEmpty == true)
        let file = open(folder.appending(path: "a.json").path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        try #require(file >= 0)
        #expect(write(file, "x", 1) == 1)
        close(file)
        // The creation and the close are queued by the time `close` returns; a read may
        // still find them in two parts.
        var events: [InotifyQueue.Event] = []
        while !events.contains(where: { $0.has(IN_CLOSE_WRITE) }), queue.waitUntilReadable(milliseconds: -1) {
            events += try #require(queue.readEvents())
        }
        #expect(events.contains { $0.watch == watch && $0.name == "a.json" && $0.has(IN_CREATE) })
        #expect(events.contains { $0.watch == watch && $0.name == "a.json" && $0.has(IN_CLOSE_WRITE) })
        #expect(queue.add("/no/such/folder", mask: UInt32(IN_CREATE)) == nil)
    }
}
