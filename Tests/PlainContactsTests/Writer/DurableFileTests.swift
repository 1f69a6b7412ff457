import Foundation
import Glibc
import Testing

@testable import PlainContacts

@Suite("DurableFile")
struct DurableFileTests {
    @Test func writeCreatesAPrivateFileWhateverTheUmask() throws {
        let fixture = try WriterFixture()
        try withUmask(0) {
            try DurableFile.write(Data("{}\n".utf8), to: fixture.url("store.json"))
        }
        #expect(fixture.text(at: "store.json") == "{}\n")
        #expect(try fixture.permissions(of: "store.json") == 0o600)
        #expect(fixture.files() == ["store.json"])
    }

    @Test func writeReplacesTheOldBytesAndLeavesNoTemporaryFile() throws {
        let fixture = try WriterFixture()
        try fixture.put("a much longer old content than the new one", at: "store.json")
        try DurableFile.write(Data("new".utf8), to: fixture.url("store.json"))
        #expect(fixture.text(at: "store.json") == "new")
        #expect(fixture.files() == ["store.json"])
    }

    @Test func writeOfEmptyDataCreatesAnEmptyFile() throws {
        let fixture = try WriterFixture()
        try DurableFile.write(Data(), to: fixture.url("empty"))
        #expect(fixture.text(at: "empty") == "")
    }

    @Test func writeIntoAMissingFolderFailsWithIOAndLeavesNothing() throws {
        let fixture = try WriterFixture()
        let error = #expect(throws: ContactsError.self) {
            try DurableFile.write(Data("x".utf8), to: fixture.url("missing/store.json"))
        }
        #expect(error?.code == .io)
        #expect(fixture.files().isEmpty)
    }

    @Test func failedRenameRemovesTheTemporaryFileAndKeepsTheTarget() throws {
        let fixture = try WriterFixture()
        try fixture.put("inside", at: "settings/keep.json")
        let error = #expect(throws: ContactsError.self) {
            try DurableFile.write(Data("x".utf8), to: fixture.url("settings"))
        }
        #expect(error?.code == .io)
        #expect(fixture.files() == ["settings/keep.json"])
        #expect(fixture.text(at: "settings/keep.json") == "inside")
    }

    @Test func writeIfChangedSkipsIdenticalBytes() throws {
        let fixture = try WriterFixture()
        let url = fixture.url("store.json")
        #expect(try DurableFile.writeIfChanged(Data("same".utf8), to: url))
        let inode = try fixture.inode(of: "store.json")
        #expect(try !DurableFile.writeIfChanged(Data("same".utf8), to: url))
        #expect(try fixture.inode(of: "store.json") == inode)
    }

    @Test func writeIfChangedWritesDifferentBytes() throws {
        let fixture = try WriterFixture()
        try fixture.put("old", at: "store.json")
        #expect(try DurableFile.writeIfChanged(Data("new".utf8), to: fixture.url("store.json")))
        #expect(fixture.text(at: "store.json") == "new")
        #expect(try DurableFile.writeIfChanged(Data("newer and longer".utf8), to: fixture.url("store.json")))
        #expect(fixture.text(at: "store.json") == "newer and longer")
    }
}
