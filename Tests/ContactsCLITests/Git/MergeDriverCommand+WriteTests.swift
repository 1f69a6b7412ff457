import DAVTestSupport
import Foundation
import Glibc
import PlainContacts
import PlainContactsSystem
import Testing

@testable import contacts

/// The merge driver's write of its result over Git's copy of this side's version.
@Suite struct MergeDriverCommandWriteTests {
    private func inode(_ path: String) throws -> UInt64 {
        try #require(FileSignature.of(path)).inode
    }

    @Test func theMergedResultReplacesOursByRenameLeavingNoTemporaryFile() throws {
        let store = try TemporaryStore()
        let ours = store.url.appending(path: ".merge_file_a1b2c3").path
        try Data("this side's version, longer than the merged one\n".utf8).write(to: URL(filePath: ours))
        let reader = open(ours, O_RDONLY | O_CLOEXEC)
        try #require(reader >= 0)
        defer { close(reader) }
        let oldInode = try inode(ours)
        try MergeDriverCommand.writeMerged(Data("merged\n".utf8), to: ours)
        #expect(try String(contentsOfFile: ours, encoding: .utf8) == "merged\n")
        #expect(try inode(ours) != oldInode)
        // A reader of the old file still sees this side's whole version, never a mix.
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = pread(reader, &buffer, buffer.count, 0)
        #expect(String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self) == "this side's version, longer than the merged one\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.url.path) == [".merge_file_a1b2c3"])
    }

    @Test func aMissingFolderFailsWithIO() throws {
        let store = try TemporaryStore()
        let folder = store.url.appending(path: "missing").path
        let error = #expect(throws: ContactsError.self) {
            try MergeDriverCommand.writeMerged(Data("merged\n".utf8), to: folder + "/.merge_file_x")
        }
        #expect(error?.code == .io)
    }
}
