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
        try Data("x".utf8).write(to: folder.appending(path: "a.json"))
        #expect(queue.waitUntilReadable(milliseconds: -1))
        let events = try #require(queue.readEvents())
        #expect(events.contains { $0.watch == watch && $0.name == "a.json" && $0.has(IN_CLOSE_WRITE) })
        #expect(queue.add("/no/such/folder", mask: UInt32(IN_CREATE)) == nil)
    }
}
